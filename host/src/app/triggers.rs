//! What wakes a run from outside: events sent to it, and answers to its
//! approval requests.

use serde::Serialize;

use super::{App, AppError, Result, check_id};
use crate::model::{ApprovalAnswer, Event};
use crate::store::{AnswerRefused, AuditEntry, Delivery, Run};

/// How one `send` went for one run.
#[derive(Debug, Serialize)]
pub struct Sent {
    pub run_id: String,
    pub delivery: Delivery,
    /// Set when the run does not wait on the event's topic now: the event
    /// is kept for it, and this says what the run waits on instead.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub held: Option<String>,
}

/// Why an event on `topic` stored for `run` wakes nothing now, if it does
/// not: said to the sender, so that a typo in the topic is seen at once.
fn held_because(run: &Run, topic: &str) -> Option<String> {
    let waits_on_topic = run
        .waits
        .iter()
        .any(|w| matches!(w, crate::model::WaitFor::Event { topic: t } if t == topic));
    if waits_on_topic && run.status == crate::store::RunStatus::Waiting {
        return None;
    }
    let now = match (run.status, run.wake_when.as_deref()) {
        (crate::store::RunStatus::Active, _) if run.steps == 0 => {
            "has not taken its first step yet".to_string()
        }
        (crate::store::RunStatus::Parked, _) => format!(
            "is parked ({})",
            run.last_error.as_deref().unwrap_or("no reason recorded")
        ),
        (_, Some(waits)) if !waits.is_empty() => format!("waits on {waits}"),
        _ => "waits on nothing".to_string(),
    };
    Some(format!(
        "run {} {now}, not on topic `{topic}`; the event is held for it and delivered when it \
         waits on `{topic}` (the run's `held_events` list it)",
        run.run_id
    ))
}

impl App {
    /// Delivers an event to one run, or (without a run) to every run waiting
    /// on its topic.
    pub fn send(
        &mut self,
        run_id: Option<&str>,
        topic: &str,
        event_id: &str,
        payload: Option<&str>,
        by: &str,
    ) -> Result<Vec<Sent>> {
        if topic.trim().is_empty() {
            return Err(AppError::Invalid("--topic is empty".into()));
        }
        check_id("event id", event_id)?;
        let payload = payload.unwrap_or("null");
        self.check_json("--payload", payload)?;
        let event = Event {
            id: event_id.to_string(),
            topic: topic.to_string(),
            payload: payload.to_string(),
            received_at: self.now(),
        };
        let keep_ms = self
            .config
            .retention
            .broadcast_hours
            .saturating_mul(3_600_000);
        let sent: Vec<Sent> = match run_id {
            Some(id) => {
                let run = self.run(id)?;
                let audit = AuditEntry {
                    run_id: Some(id.to_string()),
                    kind: "event".into(),
                    data: serde_json::json!({"id": event.id, "topic": event.topic, "by": by}),
                };
                let delivery = self.store.deliver_event_audited(id, &event, &audit)?;
                let held = (delivery == Delivery::Accepted)
                    .then(|| held_because(&run, topic))
                    .flatten();
                vec![Sent {
                    run_id: id.to_string(),
                    delivery,
                    held,
                }]
            }
            None => {
                // One row per run that took the event, written with it.
                let audit = AuditEntry {
                    run_id: None,
                    kind: "event".into(),
                    data: serde_json::json!({"id": event.id, "topic": event.topic, "by": by}),
                };
                let keep_until = event.received_at.saturating_add(keep_ms);
                self.store
                    .broadcast_event(&event, keep_until, &audit)?
                    .into_iter()
                    .map(|(run_id, delivery)| Sent {
                        run_id,
                        delivery,
                        held: None,
                    })
                    .collect()
            }
        };
        Ok(sent)
    }

    /// Records a human's answer to an approval request, stamped now. The
    /// answer names the digest of the details it approves (`details_digest`),
    /// and is refused from the principal who deployed the run's version
    /// unless `[approvals] deployer_may_answer` allows it.
    pub fn approve(
        &mut self,
        run_id: &str,
        request_id: &str,
        who: Acting<'_>,
        approved: bool,
        comment: Option<&str>,
        details_digest: Option<&str>,
    ) -> Result<crate::store::Approval> {
        if who.by.trim().is_empty() {
            return Err(AppError::BadInput {
                word: "by",
                problem: "is empty: say who answers".into(),
            });
        }
        let Some(details_digest) = details_digest.filter(|d| !d.trim().is_empty()) else {
            return Err(AppError::MissingDigest(run_id.to_string()));
        };
        let answer = ApprovalAnswer {
            request_id: request_id.to_string(),
            approved,
            by: who.by.to_string(),
            said: who.said.map(str::to_string),
            at: self.now(),
            comment: comment.map(str::to_string),
            digest: String::new(),
        };
        let run = self.run(run_id)?;
        self.check_separation(&run, who.by)?;
        if let Some(voted) =
            self.gated_answer(who, run_id, request_id, approved, comment, details_digest)?
        {
            return Ok(voted);
        }
        let details_digest = Some(details_digest);
        crate::failpoint::hit("approval-answer", run_id);
        match self
            .store
            .answer_approval(run_id, &answer, details_digest)?
        {
            Ok(approval) => Ok(approval),
            Err(refused @ AnswerRefused::UnknownRequest { .. }) => {
                let pending: Vec<String> =
                    crate::view::pending_approvals(&run, &self.store.approvals(run_id)?)
                        .iter()
                        .map(|a| a.id.clone())
                        .collect();
                Err(AppError::NotFound(format!(
                    "{refused}; it waits for {}",
                    if pending.is_empty() {
                        "no approval".to_string()
                    } else {
                        format!("approval of: {}", pending.join(", "))
                    }
                )))
            }
            Err(refused) => Err(refused.into()),
        }
    }

    /// Separation of duties: the principal who deployed `run`'s version
    /// may not answer its requests, unless the config allows it.
    fn check_separation(&self, run: &Run, by: &str) -> Result<()> {
        // The OS user working on the store directly owns the host: they can
        // rewrite the store and this config, so refusing them protects
        // nothing. The rule binds the principals the owner hands out.
        if self.config.approvals.deployer_may_answer || by.starts_with(OS_PRINCIPAL) {
            return Ok(());
        }
        let deployer = self
            .store
            .agent(&run.agent, Some(&run.version))?
            .and_then(|v| v.deployed_by);
        if deployer.as_deref() == Some(by) {
            return Err(AppError::Forbidden(format!(
                "{by} deployed {}@{} and so may not answer its runs' approval requests \
                 (separation of duties); another principal must answer, or set \
                 `[approvals] deployer_may_answer = true`",
                run.agent, run.version
            )));
        }
        Ok(())
    }
}

/// The prefix of the principal the CLI acts as: `os:<user>`.
pub const OS_PRINCIPAL: &str = "os:";

/// Who answers: the authenticated principal (`by`: a token's name, a
/// console user, `os:<user>`, `link:<request>`), and the name they typed,
/// kept beside it (`said`).
#[derive(Clone, Copy, Debug)]
pub struct Acting<'a> {
    pub by: &'a str,
    pub said: Option<&'a str>,
}
