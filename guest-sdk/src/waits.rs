//! Waits the SDK remembers: approval requests and callback links a run asked
//! for, kept by the SDK until they are answered or expire.
//!
//! [`ask`] an approval or make a [`link`], then return
//! [`Step::keep_waiting`](crate::Step::keep_waiting) (or any wait): every
//! step's waits include a re-wait on each request and link still
//! outstanding, a link with its expiry as a timer, until the run is done.
//! [`Wake::answer_to`](crate::Wake::answer_to) tells whether a wake answers
//! one of them, by id; for an approval it also checks the answer is bound to
//! the question and details that were asked, which the SDK remembers.
//!
//! The SDK keeps them in the run's state JSON under the key
//! `"wakeful:waits"`, apart from the agent's `State`: an upgrade carries them
//! to the new version without its `migrate` seeing them. So a `State` that
//! asks must serialize as a JSON object (any struct with named fields does).
//!
//! ```no_run
//! use wakeful_sdk::prelude::*;
//!
//! # fn step(wake: Wake) -> Result<Step, String> {
//! match wake.answer_to("pay") {
//!     Some(Answer::Approved(_)) => { /* pay */ Ok(Step::done("paid")) }
//!     Some(_) => Ok(Step::done("not approved")),
//!     None if matches!(wake, Wake::Start(_)) => {
//!         waits::ask("pay", "Pay 9 000 USD to ACME?", json!({"invoice": "I-1"}), 86_400_000);
//!         Ok(Step::keep_waiting())
//!     }
//!     None => Ok(Step::keep_waiting()),
//! }
//! # }
//! ```

use std::cell::RefCell;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::callback::{self, Link};
use crate::tools::ToolError;
use crate::{Approval, ApprovalRequest, Next, Step, Wait, Wake};

/// The key of the run's state object under which the SDK keeps its waits.
pub const STATE_KEY: &str = "wakeful:waits";

/// What a wake says about a remembered request or link.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    /// A human approved exactly the request that was asked.
    Approved(Approval),
    /// A human refused it.
    Refused(Approval),
    /// The other system POSTed this JSON body to the link.
    Called(Value),
    /// Nobody answered in time: the request or the link expired.
    Expired,
}

/// The requests and links outstanding, as kept in the state.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct Memory {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    approvals: Vec<Asked>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    links: Vec<Linked>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Asked {
    id: String,
    question: String,
    details: Value,
    valid_for_ms: u64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Linked {
    id: String,
    link: Link,
}

impl Asked {
    fn request(&self) -> ApprovalRequest {
        ApprovalRequest::new(
            &self.id,
            &self.question,
            self.details.clone(),
            self.valid_for_ms,
        )
    }
}

impl Memory {
    pub(crate) fn is_empty(&self) -> bool {
        self.approvals.is_empty() && self.links.is_empty()
    }

    /// Splits off what `wake` answers: (still outstanding, answered now).
    fn settle(mut self, wake: &Wake) -> (Memory, Memory) {
        let mut answered = Memory::default();
        let approval_id = match wake {
            Wake::Approval(a) => Some(a.request_id.as_str()),
            Wake::Expired(id) => Some(id.as_str()),
            _ => None,
        };
        let (now, kept): (Vec<_>, Vec<_>) = std::mem::take(&mut self.approvals)
            .into_iter()
            .partition(|a| Some(a.id.as_str()) == approval_id);
        (answered.approvals, self.approvals) = (now, kept);
        let (now, kept): (Vec<_>, Vec<_>) =
            std::mem::take(&mut self.links)
                .into_iter()
                .partition(|l| match wake {
                    Wake::Event(e) => e.topic == l.link.topic,
                    Wake::Timer(at) => *at >= l.link.expires_at,
                    _ => false,
                });
        (answered.links, self.links) = (now, kept);
        (self, answered)
    }

    fn waits(&self) -> Vec<Wait> {
        let mut waits: Vec<Wait> = self
            .approvals
            .iter()
            .map(|a| Wait::Approval(a.request()))
            .collect();
        for l in &self.links {
            waits.push(Wait::event(&l.link.topic));
            waits.push(Wait::until(l.link.expires_at));
        }
        waits
    }
}

thread_local! {
    /// Outstanding now; steps of one run follow each other on one thread.
    static OUTSTANDING: RefCell<Memory> = RefCell::default();
    /// What the current wake answered, for `answer_to`.
    static ANSWERED: RefCell<Memory> = RefCell::default();
}

/// Asks a human to approve `question` about `details` (JSON shown to the
/// approver), and remembers the request until it is answered or expires
/// after `valid_for_ms`. Asking again with the same id replaces the request;
/// an id answered before cannot be asked again (the host refuses the step).
pub fn ask(
    id: impl Into<String>,
    question: impl Into<String>,
    details: Value,
    valid_for_ms: u64,
) -> ApprovalRequest {
    let asked = Asked {
        id: id.into(),
        question: question.into(),
        details,
        valid_for_ms,
    };
    let request = asked.request();
    OUTSTANDING.with_borrow_mut(|m| {
        m.approvals.retain(|a| a.id != asked.id);
        m.approvals.push(asked);
    });
    request
}

/// Makes a callback link named `id` valid for `valid_for_ms` (see
/// [`callback::create`]) and remembers it until the other system POSTs to
/// it or it expires. Send `link.url` to the other system.
pub fn link(id: &str, valid_for_ms: u64, idempotency_key: &str) -> Result<Link, ToolError> {
    let link = callback::create(id, valid_for_ms, idempotency_key)?;
    OUTSTANDING.with_borrow_mut(|m| {
        m.links.retain(|l| l.id != id);
        m.links.push(Linked {
            id: id.to_owned(),
            link: link.clone(),
        });
    });
    Ok(link)
}

/// The ids of the requests and links still outstanding, approvals first.
pub fn outstanding() -> Vec<String> {
    OUTSTANDING.with_borrow(|m| {
        let approvals = m.approvals.iter().map(|a| a.id.clone());
        approvals
            .chain(m.links.iter().map(|l| l.id.clone()))
            .collect()
    })
}

/// Stops waiting on the request or link `id` (the agent no longer cares).
pub fn forget(id: &str) {
    OUTSTANDING.with_borrow_mut(|m| {
        m.approvals.retain(|a| a.id != id);
        m.links.retain(|l| l.id != id);
    });
}

/// What `wake` says about the remembered request or link `id`.
pub(crate) fn answer(wake: &Wake, id: &str) -> Option<Answer> {
    ANSWERED.with_borrow(|m| {
        if let Some(asked) = m.approvals.iter().find(|a| a.id == id) {
            return match wake {
                Wake::Approval(a) if a.is_for(&asked.request()) && a.approved => {
                    Some(Answer::Approved(a.clone()))
                }
                Wake::Approval(a) if a.is_for(&asked.request()) => Some(Answer::Refused(a.clone())),
                Wake::Expired(_) => Some(Answer::Expired),
                _ => None,
            };
        }
        let linked = m.links.iter().find(|l| l.id == id)?;
        match wake {
            Wake::Event(e) if e.topic == linked.link.topic => {
                Some(Answer::Called(e.payload.clone()))
            }
            Wake::Timer(_) => Some(Answer::Expired),
            _ => None,
        }
    })
}

/// Before a step: takes the SDK's memory out of the state object (so the
/// agent's `State` never sees it) and settles it against `wake`.
pub(crate) fn begin(state: &mut Value, wake: &Wake) -> Result<(), String> {
    let memory = match state.as_object_mut().and_then(|o| o.remove(STATE_KEY)) {
        Some(kept) => serde_json::from_value(kept).map_err(|e| {
            format!("the SDK's \"{STATE_KEY}\" in the saved state is unreadable: {e}")
        })?,
        None => Memory::default(),
    };
    OUTSTANDING.with_borrow_mut(|m| *m = memory);
    settle(wake);
    Ok(())
}

/// Settles what is outstanding against `wake` (native tests keep the
/// memory between steps on the thread instead of in the state).
pub(crate) fn settle(wake: &Wake) {
    let memory = OUTSTANDING.take();
    let (kept, answered) = memory.settle(wake);
    OUTSTANDING.set(kept);
    ANSWERED.set(answered);
}

/// After a step: adds the re-waits to a wait, or forgets everything when
/// the run is done.
pub(crate) fn finish(mut step: Step) -> Result<Step, String> {
    ANSWERED.take();
    match &mut step.next {
        Next::Done(_) => {
            OUTSTANDING.take();
        }
        Next::Continue => {}
        Next::Wait(waits) => {
            for wait in OUTSTANDING.with_borrow(Memory::waits) {
                let asked_already = waits.iter().any(|w| match (w, &wait) {
                    (Wait::Approval(a), Wait::Approval(b)) => a.id == b.id,
                    (a, b) => a == b,
                });
                if !asked_already {
                    waits.push(wait);
                }
            }
            if waits.is_empty() {
                return Err(
                    "the step waits on nothing: it kept waiting, but no approval \
                            request or callback link is outstanding"
                        .into(),
                );
            }
        }
    }
    Ok(step)
}

/// Puts the memory into the encoded state object, if there is any to keep.
pub(crate) fn store(state: &mut Value, memory: &Memory) -> Result<(), String> {
    if memory.is_empty() {
        return Ok(());
    }
    let Some(object) = state.as_object_mut() else {
        return Err(format!(
            "the SDK keeps the run's approval requests and callback links under \
             \"{STATE_KEY}\" in the state, but this agent's State is not a JSON object: {}",
            crate::tools::excerpt(&state.to_string(), 80)
        ));
    };
    let kept = serde_json::to_value(memory).map_err(|e| e.to_string())?;
    object.insert(STATE_KEY.to_owned(), kept);
    Ok(())
}

/// Takes what is outstanding, leaving nothing.
pub(crate) fn take() -> Memory {
    ANSWERED.take();
    OUTSTANDING.take()
}

/// A copy of what is outstanding, and [`restore`] to put it back.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn snapshot() -> Memory {
    OUTSTANDING.with_borrow(Clone::clone)
}

#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn restore(memory: Memory) {
    ANSWERED.take();
    OUTSTANDING.set(memory);
}

/// Clears the memory (the fake host's `reset`).
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn clear() {
    OUTSTANDING.take();
    ANSWERED.take();
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::bindings::wit;
    use crate::export;
    use crate::{Agent, Approval};

    /// Asks on start, pays on approval, keeps waiting otherwise.
    struct Payer;

    #[derive(Default, Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Paid {
        amount: u32,
    }

    impl Agent for Payer {
        type State = Paid;
        const DESCRIPTION: &'static str = "Asks, then pays.";

        fn step(state: &mut Paid, wake: Wake) -> Result<Step, String> {
            if let Wake::Start(_) = wake {
                state.amount = 5;
                ask("pay", "Pay 5?", json!({"amount": 5}), 1000);
                return Ok(Step::keep_waiting());
            }
            match wake.answer_to("pay") {
                Some(Answer::Approved(a)) => Ok(Step::done(format!("paid, {}", a.by))),
                Some(other) => Ok(Step::done(format!("{other:?}"))),
                None => Ok(Step::keep_waiting()),
            }
        }

        fn migrate(_: &str, old: Value) -> Result<Paid, String> {
            // Renames `amount` to itself: fails on anything it does not know.
            serde_json::from_value(old).map_err(|e| e.to_string())
        }
    }

    fn approval(digest: String) -> wit::Wake {
        wit::Wake::Approval(wit::Approval {
            request_id: "pay".into(),
            approved: true,
            by: "ann".into(),
            at: 1,
            comment: None,
            digest,
        })
    }

    fn waits(result: &wit::StepResult) -> Vec<String> {
        match &result.next {
            wit::Next::Wait(waits) => waits.iter().map(|w| format!("{w:?}")).collect(),
            other => panic!("not a wait: {other:?}"),
        }
    }

    #[test]
    fn the_request_lives_in_the_state_and_survives_other_wakes_and_migrate() {
        let first = export::step::<Payer>(String::new(), wit::Wake::Start("{}".into())).unwrap();
        let saved: Value = serde_json::from_str(&first.state).unwrap();
        assert_eq!(saved["amount"], 5);
        assert_eq!(saved[STATE_KEY]["approvals"][0]["id"], "pay");
        assert_eq!(waits(&first).len(), 1);
        assert!(outstanding().is_empty(), "the memory left with the state");

        let resumed = export::step::<Payer>(first.state.clone(), wit::Wake::Resume).unwrap();
        assert_eq!(waits(&resumed), waits(&first), "re-waits by itself");
        let migrated = export::migrate::<Payer>("1.0.0".into(), resumed.state).unwrap();
        assert_eq!(migrated, first.state, "migrate never saw the SDK's key");

        let digest = ApprovalRequest::new("pay", "Pay 5?", json!({"amount": 5}), 1).digest();
        let done = export::step::<Payer>(migrated, approval(digest)).unwrap();
        assert!(matches!(&done.next, wit::Next::Done(o) if o == "paid, ann"));
        assert_eq!(done.state, r#"{"amount":5}"#);
    }

    #[test]
    fn an_answer_to_other_details_or_an_expiry_is_not_an_approval() {
        let first = export::step::<Payer>(String::new(), wit::Wake::Start("{}".into())).unwrap();
        let err = export::step::<Payer>(first.state.clone(), approval("other".into())).unwrap_err();
        assert!(err.contains("waits on nothing"), "{err}");
        let expired = wit::Wake::Expired("pay".into());
        let done = export::step::<Payer>(first.state, expired).unwrap();
        assert!(matches!(&done.next, wit::Next::Done(o) if o == "Expired"));
    }

    #[test]
    fn a_state_that_is_not_an_object_cannot_keep_waits() {
        let mut state = json!([1]);
        let memory = Memory {
            approvals: vec![Asked {
                id: "a".into(),
                question: "q".into(),
                details: Value::Null,
                valid_for_ms: 1,
            }],
            links: vec![],
        };
        let err = store(&mut state, &memory).unwrap_err();
        assert!(err.contains("State is not a JSON object"), "{err}");
        let _ = Approval::is_for;
    }
}
