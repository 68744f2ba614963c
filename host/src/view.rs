//! The JSON documents that describe runs, shared by the CLI's `--json`
//! output and the HTTP API so that both return the same document for the
//! same run.

use serde_json::{Value, json};

use crate::clock::rfc3339;
use crate::model::WaitFor;
use crate::store::{Approval, Checkpoint, Intent, Run, Switch};

/// JSON text as a value; text that is not JSON as a string.
pub fn json_or_text(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|_| Value::String(text.to_string()))
}

/// The short form of a run: lists and `start` answers.
pub fn run_summary(r: &Run) -> Value {
    json!({
        "run_id": r.run_id, "agent": r.agent, "version": r.version, "status": r.status,
        "wake_when": r.wake_when, "status_text": r.status_text, "steps": r.steps, "outcome": r.outcome,
    })
}

/// Every run's summary with whether a kill switch stops it.
pub fn runs(runs: &[Run], switches: &[Switch]) -> Value {
    runs.iter()
        .map(|r| {
            let mut v = run_summary(r);
            v["paused"] = json!(!paused_by(r, switches).is_empty());
            v
        })
        .collect()
}

/// The kill switches that stop this run, if any.
pub fn paused_by<'a>(run: &Run, switches: &'a [Switch]) -> Vec<&'a Switch> {
    let scopes = [
        "all".to_string(),
        format!("agent:{}", run.agent),
        format!("run:{}", run.run_id),
    ];
    switches
        .iter()
        .filter(|s| scopes.contains(&s.scope))
        .collect()
}

/// The approval requests the run waits for that are still unanswered.
pub fn pending_approvals<'a>(run: &Run, approvals: &'a [Approval]) -> Vec<&'a Approval> {
    approvals
        .iter()
        .filter(|a| {
            a.answer.is_none()
                && !a.consumed
                && run
                    .waits
                    .iter()
                    .any(|w| matches!(w, WaitFor::Approval(r) if r.id == a.id))
        })
        .collect()
}

/// Whether a run's document carries the answer link of each pending
/// approval. The link authorises whoever holds it, so only authenticated
/// readers (the API's operators) get it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnswerLinks {
    Hidden,
    Shown,
}

/// One run in full: `wakeful show --json` and `GET /v1/runs/{id}`.
pub fn show(
    run: &Run,
    approvals: &[Approval],
    switches: &[Switch],
    intents: &[Intent],
    links: AnswerLinks,
) -> Value {
    let paused = paused_by(run, switches);
    let pending: Vec<Value> = pending_approvals(run, approvals)
        .iter()
        .map(|a| {
            let mut v = json!({
                "id": a.id, "question": a.question, "details": json_or_text(&a.details),
                "details_digest": a.details_digest, "expires_at": rfc3339(a.expires_at),
                "expires_at_ms": a.expires_at,
            });
            if links == AnswerLinks::Shown {
                v["answer_url"] = json!(format!("/v1/approve/{}", a.token));
            }
            v
        })
        .collect();
    let mut v = run_summary(run);
    let extra = json!({
        "digest": run.digest,
        "state": json_or_text(&run.state),
        "input": json_or_text(&run.input),
        "waits": run.waits,
        "paused": !paused.is_empty(),
        "paused_by": paused,
        "fuel_used": run.fuel_used,
        "step_budget": run.step_budget,
        "fuel_budget": run.fuel_budget,
        "tokens_used": run.tokens_used,
        "token_budget": run.token_budget,
        "usd_used": run.usd_used,
        "usd_budget": run.usd_budget,
        "attempts": run.attempts,
        "last_error": run.last_error,
        "retry_at": run.retry_at.map(rfc3339),
        "created_at": rfc3339(run.created_at),
        "updated_at": rfc3339(run.updated_at),
        "pending_approvals": pending,
        "unknown_outcomes": unknown_outcomes(intents),
    });
    if let (Value::Object(m), Value::Object(e)) = (&mut v, extra) {
        m.extend(e);
    }
    v
}

/// Calls the run sent without learning what became of them: an operator
/// settles each with `wakeful resolve`.
pub fn unknown_outcomes(intents: &[Intent]) -> Value {
    intents
        .iter()
        .map(|i| {
            json!({"key": i.key, "tool": i.tool, "args": json_or_text(&i.args),
                "sent_at": rfc3339(i.at)})
        })
        .collect()
}

/// A run's checkpoints, oldest first.
pub fn history(checkpoints: &[Checkpoint]) -> Value {
    checkpoints
        .iter()
        .map(|c| {
            json!({"seq": c.seq, "version": c.version, "wake": c.wake,
                "upgraded_from": c.upgraded_from, "next": c.next,
                "status_text": c.status_text, "fuel_used": c.fuel_used, "at": rfc3339(c.at),
                "state": json_or_text(&c.state)})
        })
        .collect()
}
