//! What a step returns: [`Step`], [`Next`] and [`Wait`].

use serde_json::Value;

use crate::bindings::wit;

/// The result of a step: what comes next, and what a user sees.
///
/// ```
/// use wakeful_sdk::{Step, Wait};
///
/// // Wait for the email, but give up at a deadline.
/// let step = Step::wait_event("mail:invoice")
///     .or(Wait::until(1_800_000_000_000))
///     .status("waiting on the invoice email");
/// # let _ = step;
/// ```
#[derive(Debug, Clone, PartialEq)]
#[must_use = "a Step does nothing until the step function returns it"]
pub struct Step {
    /// What the run does after this step.
    pub next: Next,
    /// What a user sees, e.g. "waiting on the invoice email"; set it with
    /// [`Step::status`].
    pub status: Option<String>,
}

/// What the run does after a step.
#[derive(Debug, Clone, PartialEq)]
pub enum Next {
    /// Step again right away, with [`Wake::Resume`](crate::Wake::Resume): a
    /// long task cut into slices, each one checkpointed.
    Continue,
    /// Sleep until any one of these happens.
    Wait(Vec<Wait>),
    /// The run is finished; the text is its outcome for operators.
    Done(String),
}

/// One thing a sleeping run can be woken by.
#[derive(Debug, Clone, PartialEq)]
pub enum Wait {
    /// An event on this topic.
    Event(String),
    /// An answer to this approval request.
    Approval(ApprovalRequest),
    /// A point in time (ms since the Unix epoch, UTC).
    Until(u64),
    /// The next tick of a five-field cron expression (UTC).
    Cron(String),
}

/// A question for a human, answered with [`Wake::Approval`](crate::Wake::Approval)
/// or, when nobody answers in time, [`Wake::Expired`](crate::Wake::Expired).
#[derive(Debug, Clone, PartialEq)]
pub struct ApprovalRequest {
    /// Unique within the run. Asking again with the same id, question and
    /// details waits for the same request; changed question or details
    /// replace it (earlier links and answers are void). An id that was
    /// answered or expired cannot be asked again: use a new one.
    pub id: String,
    /// The question, e.g. "Approve 'restart_service' on payments-api?".
    pub question: String,
    /// Shown to the approver: the plan and its reason. An answer is bound to
    /// these details.
    pub details: Value,
    /// How long an answer is accepted.
    pub valid_for_ms: u64,
}

impl ApprovalRequest {
    /// A request, as [`Wait::approval`] makes it.
    pub fn new(
        id: impl Into<String>,
        question: impl Into<String>,
        details: Value,
        valid_for_ms: u64,
    ) -> ApprovalRequest {
        ApprovalRequest {
            id: id.into(),
            question: question.into(),
            details,
            valid_for_ms,
        }
    }

    /// The digest an answer to this request carries
    /// ([`Approval::digest`](crate::Approval::digest)) when it answered
    /// exactly this question and these details.
    pub fn digest(&self) -> String {
        approval_digest(&self.question, &self.details.to_string())
    }
}

/// Lowercase hex SHA-256 of the question's byte length (8 bytes,
/// big-endian), the question, then the details text: what the host binds an
/// approval answer to (`wit/agent.wit`, record `approval`).
pub fn approval_digest(question: &str, details: &str) -> String {
    use sha2::{Digest, Sha256};
    let mut hash = Sha256::new();
    hash.update((question.len() as u64).to_be_bytes());
    hash.update(question.as_bytes());
    hash.update(details.as_bytes());
    hash.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

impl Step {
    /// Step again right away (the next wake is [`Wake::Resume`](crate::Wake::Resume)).
    pub fn continue_() -> Step {
        Step::from(Next::Continue)
    }

    /// Finish the run with `outcome`, a line for operators.
    pub fn done(outcome: impl Into<String>) -> Step {
        Step::from(Next::Done(outcome.into()))
    }

    /// Sleep until any one of `waits` happens.
    pub fn wait(waits: impl IntoIterator<Item = Wait>) -> Step {
        Step::from(Next::Wait(waits.into_iter().collect()))
    }

    /// Sleep until an approval request or callback link the SDK remembers
    /// ([`waits`](crate::waits)) is answered or expires. Every wait
    /// includes those anyway; this is a wait on them alone. Fails the step
    /// when nothing is outstanding.
    pub fn keep_waiting() -> Step {
        Step::from(Next::Wait(Vec::new()))
    }

    /// Sleep until an event on `topic` arrives.
    pub fn wait_event(topic: impl Into<String>) -> Step {
        Step::wait([Wait::event(topic)])
    }

    /// Ask a human and sleep until the answer, or until the request expires.
    /// See [`Wait::approval`].
    pub fn wait_approval(
        id: impl Into<String>,
        question: impl Into<String>,
        details: Value,
        valid_for_ms: u64,
    ) -> Step {
        Step::wait([Wait::approval(id, question, details, valid_for_ms)])
    }

    /// Sleep until the time `at_ms` (ms since the Unix epoch, UTC).
    pub fn wait_until(at_ms: u64) -> Step {
        Step::wait([Wait::until(at_ms)])
    }

    /// Sleep until the next tick of a five-field cron expression (UTC),
    /// e.g. `"0 9 * * *"`.
    pub fn wait_cron(expression: impl Into<String>) -> Step {
        Step::wait([Wait::cron(expression)])
    }

    /// Also wake on `wait`: the run wakes on whichever happens first. On a
    /// step that continues or is done, this makes it a wait on `wait` alone.
    pub fn or(mut self, wait: Wait) -> Step {
        match &mut self.next {
            Next::Wait(waits) => waits.push(wait),
            other => *other = Next::Wait(vec![wait]),
        }
        self
    }

    /// Sets what a user sees until the next step.
    pub fn status(mut self, status: impl Into<String>) -> Step {
        self.status = Some(status.into());
        self
    }

    /// The host's step result, with the already encoded state.
    pub(crate) fn into_wit(self, state: String) -> wit::StepResult {
        let next = match self.next {
            Next::Continue => wit::Next::Continue,
            Next::Wait(waits) => wit::Next::Wait(waits.into_iter().map(Wait::into_wit).collect()),
            Next::Done(outcome) => wit::Next::Done(outcome),
        };
        wit::StepResult {
            state,
            next,
            status: self.status,
        }
    }
}

impl From<Next> for Step {
    fn from(next: Next) -> Step {
        Step { next, status: None }
    }
}

impl Wait {
    /// An event on `topic`.
    pub fn event(topic: impl Into<String>) -> Wait {
        Wait::Event(topic.into())
    }

    /// An answer to the approval request `id`. `details` is what the
    /// approver sees (the plan and its reason); answers arrive for
    /// `valid_for_ms`, after that the run wakes with `Wake::Expired(id)`.
    pub fn approval(
        id: impl Into<String>,
        question: impl Into<String>,
        details: Value,
        valid_for_ms: u64,
    ) -> Wait {
        Wait::Approval(ApprovalRequest::new(id, question, details, valid_for_ms))
    }

    /// The time `at_ms` (ms since the Unix epoch, UTC).
    pub fn until(at_ms: u64) -> Wait {
        Wait::Until(at_ms)
    }

    /// The next tick of a five-field cron expression (UTC).
    pub fn cron(expression: impl Into<String>) -> Wait {
        Wait::Cron(expression.into())
    }

    fn into_wit(self) -> wit::WaitFor {
        match self {
            Wait::Event(topic) => wit::WaitFor::Event(topic),
            Wait::Approval(request) => wit::WaitFor::Approval(wit::ApprovalRequest {
                id: request.id,
                question: request.question,
                // A Value prints the same text every time, so asking again
                // after a retry yields the same request (answers are bound
                // to this text).
                details: request.details.to_string(),
                valid_for_ms: request.valid_for_ms,
            }),
            Wait::Until(at) => wit::WaitFor::Until(at),
            Wait::Cron(expression) => wit::WaitFor::Cron(expression),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn builders_set_next_and_status() {
        let step = Step::wait_event("mail:invoice").status("waiting");
        assert_eq!(
            step.next,
            Next::Wait(vec![Wait::Event("mail:invoice".into())])
        );
        assert_eq!(step.status.as_deref(), Some("waiting"));
        assert_eq!(Step::done("ok").next, Next::Done("ok".into()));
        assert_eq!(Step::continue_().next, Next::Continue);
        assert_eq!(Step::continue_().status, None);
    }

    #[test]
    fn or_combines_waits() {
        let step = Step::wait_cron("0 9 * * *")
            .or(Wait::until(5))
            .or(Wait::event("t"));
        assert_eq!(
            step.next,
            Next::Wait(vec![
                Wait::cron("0 9 * * *"),
                Wait::until(5),
                Wait::event("t")
            ])
        );
        assert_eq!(
            Step::done("x").or(Wait::until(1)).next,
            Next::Wait(vec![Wait::until(1)])
        );
    }

    #[test]
    fn approval_details_are_stable_json() {
        let details = json!({"service": "api", "action": "scale_out"});
        let result = Step::wait_approval("a1", "ok?", details, 60_000).into_wit("{}".into());
        let wit::Next::Wait(waits) = result.next else {
            panic!("not a wait")
        };
        let [wit::WaitFor::Approval(request)] = waits.as_slice() else {
            panic!("not one approval")
        };
        assert_eq!(request.details, r#"{"action":"scale_out","service":"api"}"#);
        assert_eq!((request.id.as_str(), request.valid_for_ms), ("a1", 60_000));
        assert_eq!(result.state, "{}");
    }

    #[test]
    fn the_digest_is_the_one_the_host_computes() {
        // The same vector is checked on the host (`model::approval_digest`).
        let request = ApprovalRequest::new(
            "a1",
            "Approve 'scale_out' on payments-api?",
            json!({"replicas": 3}),
            1,
        );
        assert_eq!(
            request.digest(),
            "1a25d7c5b9f90529fd572f728f15bd0bf01c1a3997dfe3b9532368a3b5c1a160"
        );
    }
}
