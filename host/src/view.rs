//! The JSON documents that describe runs, shared by the CLI's `--json`
//! output and the HTTP API so that both return the same document for the
//! same run.

use serde_json::{Value, json};

use crate::clock::rfc3339;
use crate::model::WaitFor;
use crate::store::{
    Approval, Callback, Checkpoint, ClaimedRun, InboxItem, Intent, LedgerEntry, Run, RunStatus,
    Switch,
};

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

/// Every run's summary with whether a kill switch stops it and what it is
/// going through (see [`condition`]).
pub fn runs(runs: &[Run], switches: &[Switch], max_attempts: u32) -> Value {
    runs.iter()
        .map(|r| {
            let mut v = run_summary(r);
            v["paused"] = json!(!paused_by(r, switches).is_empty());
            v["condition"] = json!(condition(r, switches, max_attempts));
            v
        })
        .collect()
}

/// The kill switches that stop this run, if any: those covering it, and
/// the one that stopped its last step in flight (a paused tool).
pub fn paused_by<'a>(run: &Run, switches: &'a [Switch]) -> Vec<&'a Switch> {
    switches
        .iter()
        .filter(|s| {
            s.covers_run(&run.agent, &run.run_id) || run.held_by.as_deref() == Some(&s.scope)
        })
        .collect()
}

/// What a live run is going through that its status alone does not say:
/// `paused: tool pager (reason)`, or `retrying (attempt 3 of 5, next at
/// T): error`. `None` for a run that is simply waiting, running or ended.
pub fn condition(run: &Run, switches: &[Switch], max_attempts: u32) -> Option<String> {
    if run.status.is_ended() || run.status == RunStatus::Parked {
        return None;
    }
    if let Some(s) = paused_by(run, switches).first() {
        let what = match s.scope.split_once(':') {
            Some((kind, name)) => format!("{kind} {name}"),
            None => "everything".to_string(),
        };
        let reason = s.reason.as_deref().map(|r| format!(" ({r})"));
        return Some(format!("paused: {what}{}", reason.unwrap_or_default()));
    }
    let retry_at = run.retry_at.filter(|_| run.attempts > 0)?;
    Some(format!(
        "retrying (attempt {} of {max_attempts}, next at {}): {}",
        run.attempts + 1,
        rfc3339(retry_at),
        run.last_error.as_deref().unwrap_or("the step failed")
    ))
}

/// A short word for the status column of a list: `retrying` and `paused`
/// name what [`condition`] describes.
pub fn status_word(run: &Run, switches: &[Switch]) -> &'static str {
    if run.status.is_ended() || run.status == RunStatus::Parked {
        return run.status.as_str();
    }
    if !paused_by(run, switches).is_empty() {
        "paused"
    } else if run.attempts > 0 && run.retry_at.is_some() {
        "retrying"
    } else {
        run.status.as_str()
    }
}

/// The run's callback links and how each stands (their tokens are
/// capabilities: never shown).
pub fn callback_links(callbacks: &[Callback]) -> Value {
    callbacks
        .iter()
        .map(|c| {
            json!({"id": c.id, "topic": c.topic, "created_at": rfc3339(c.created_at),
                "expires_at": rfc3339(c.expires_at), "used_at": c.used_at.map(rfc3339),
                "used_from": c.used_from})
        })
        .collect()
}

/// Events stored for the run that no step has consumed: sent on a topic it
/// does not wait on (yet), or not reached yet.
pub fn held_events(inbox: &[InboxItem]) -> Value {
    inbox
        .iter()
        .filter(|i| i.consumed_at_step.is_none())
        .map(|i| {
            json!({"id": i.event.id, "topic": i.event.topic,
                "payload": json_or_text(&i.event.payload),
                "received_at": rfc3339(i.event.received_at)})
        })
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

/// The path of the answer link whose token is `token`.
pub fn answer_path(token: &str) -> String {
    format!("/v1/approve/{token}")
}

/// Everything a run's page shows, read from the store.
#[derive(Clone, Copy)]
pub struct RunDoc<'a> {
    pub run: &'a Run,
    pub approvals: &'a [Approval],
    pub switches: &'a [Switch],
    pub intents: &'a [Intent],
    pub inbox: &'a [InboxItem],
    pub callbacks: &'a [Callback],
    /// `[limits] max_attempts`, to say how many attempts a retry has left.
    pub max_attempts: u32,
    /// The claim live on the run, if any.
    pub claim: Option<&'a ClaimedRun>,
    /// Tools whose calls of unknown outcome the host sends again itself.
    pub resent_tools: &'a [String],
    /// The recorded calls that left the host, oldest first.
    pub sent_calls: &'a [LedgerEntry],
}

/// One run in full: `wakeful show --json` and `GET /v1/runs/{id}`. Both
/// readers may answer the run's requests (an operator of the API, or whoever
/// can open the store and its link key), so the document carries the answer
/// link of each pending approval.
pub fn show(doc: &RunDoc<'_>) -> Value {
    let RunDoc {
        run,
        approvals,
        switches,
        intents,
        inbox,
        callbacks,
        max_attempts,
        claim,
        resent_tools,
        sent_calls,
    } = *doc;
    let paused = paused_by(run, switches);
    let pending: Vec<Value> = pending_approvals(run, approvals)
        .iter()
        .map(|a| {
            let mut v = json!({
                "id": a.id, "question": a.question, "details": json_or_text(&a.details),
                "details_digest": a.details_digest, "expires_at": rfc3339(a.expires_at),
                "expires_at_ms": a.expires_at,
            });
            // A link made before tokens were derived from the link key
            // answers still, but this host cannot show it again.
            if let Some(token) = &a.token {
                v["answer_url"] = json!(answer_path(token));
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
        "claim": claim.map(claim_doc),
        "unknown_outcomes": unknown_outcomes(run, intents, claim, resent_tools),
        "sent_calls": sent(run, sent_calls),
        "held_events": held_events(inbox),
        "callbacks": callback_links(callbacks),
        "condition": condition(run, switches, max_attempts),
    });
    if let (Value::Object(m), Value::Object(e)) = (&mut v, extra) {
        m.extend(e);
    }
    v
}

/// The host whose claim `owner` names: the owner without its thread.
pub fn claim_host(owner: &str) -> &str {
    match owner.match_indices(':').nth(1) {
        Some((at, _)) => &owner[..at],
        None => owner,
    }
}

/// A live claim as the operator reads it: `held by a claim of host H
/// until T`.
pub fn claim_text(claim: &ClaimedRun) -> String {
    format!(
        "held by a claim of host {} until {}",
        claim_host(&claim.owner),
        rfc3339(claim.expires)
    )
}

fn claim_doc(claim: &ClaimedRun) -> Value {
    json!({"owner": claim.owner, "host": claim_host(&claim.owner),
        "expires_at": rfc3339(claim.expires), "text": claim_text(claim)})
}

/// What becomes of a call of unknown outcome, and whether an operator
/// must say.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fate {
    /// Sent by the step that holds the live claim: it may yet learn.
    InFlight(String),
    /// Its tool drops a repeated key: the host sends it again itself.
    Resent,
    /// Only an operator can say (`wakeful resolve`).
    Settle,
}

impl Fate {
    pub fn of(intent: &Intent, claim: Option<&ClaimedRun>, resent_tools: &[String]) -> Fate {
        if let Some(claim) = claim {
            return Fate::InFlight(claim_text(claim));
        }
        if resent_tools.contains(&intent.tool) {
            return Fate::Resent;
        }
        Fate::Settle
    }

    /// What the operator is told of it, for run `run_id`.
    pub fn text(&self, run_id: &str, intent: &Intent) -> String {
        match self {
            Fate::InFlight(claim) => format!(
                "sent by the step that holds the run ({claim}); nothing to settle while that \
                 claim lasts"
            ),
            Fate::Resent => format!(
                "`{}` is idempotent: the host sends it again with the same key at the run's \
                 next step; nothing to settle",
                intent.tool
            ),
            Fate::Settle => format!(
                "settle it with `wakeful resolve {run_id} {} --result JSON | --retry | --fail \
                 REASON`",
                intent.key
            ),
        }
    }
}

/// Calls the run sent without learning what became of them, and what
/// becomes of each ([`Fate`]).
pub fn unknown_outcomes(
    run: &Run,
    intents: &[Intent],
    claim: Option<&ClaimedRun>,
    resent_tools: &[String],
) -> Value {
    intents
        .iter()
        .map(|i| {
            let fate = Fate::of(i, claim, resent_tools);
            json!({"key": i.key, "tool": i.tool, "args": json_or_text(&i.args),
                "sent_at": rfc3339(i.at), "sent_key": sent_key(run, i),
                "settle": fate == Fate::Settle, "next": fate.text(&run.run_id, i)})
        })
        .collect()
}

/// The recorded calls that left the host, each with the `Idempotency-Key`
/// it was sent with.
fn sent(run: &Run, calls: &[LedgerEntry]) -> Value {
    calls
        .iter()
        .map(|c| {
            json!({"key": c.key, "tool": c.tool, "at": rfc3339(c.at), "ok": c.result.is_ok(),
                "sent_key": crate::model::sent_key(&run.run_id, &run.incarnation, &c.key)})
        })
        .collect()
}

/// The `Idempotency-Key` a call of unknown outcome was sent with: what to
/// ask the system it reached about.
pub fn sent_key(run: &Run, intent: &Intent) -> String {
    crate::model::sent_key(&run.run_id, &run.incarnation, &intent.key)
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
