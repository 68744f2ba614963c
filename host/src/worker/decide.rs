//! How a step ends, decided from what it did. [`precheck`] and [`decide`]
//! read nothing and write nothing: every ending follows from the run as
//! claimed, the guest's report and the gate's outcome, so each can be
//! tested without a store. The worker then writes the ending
//! (`step.rs`).

use serde_json::json;

use super::endings::Failure;
use super::{StepEnd, audit, next_summary, wake_summary};
use crate::clock::rfc3339;
use crate::model::{Millis, Next, StepResult, WaitFor, Wake, approval_digest};
use crate::runtime::{StepFailure, StepReport};
use crate::store::{Approval, AuditEntry, Claim, Run, StepCommit, StoredWait, Switch};
use crate::tools::gate::{GateOutcome, Stop};
use crate::waits;

/// How a step ends.
#[derive(Debug)]
pub(super) enum Ending {
    /// Its checkpoint is written; `end` is what it reports once it is.
    Checkpoint {
        commit: Box<StepCommit>,
        end: StepEnd,
    },
    /// A failed attempt: nothing of the run changes; it is retried later,
    /// or parked once its attempts are used up.
    Fail(Failure),
    /// Parked for an operator; `rows` say what the step did first.
    Park {
        reason: String,
        rows: Vec<AuditEntry>,
    },
    /// A kill switch stopped the step in flight: abandoned unchanged, and
    /// taken again when the switch lifts.
    Hold {
        switch: Switch,
        rows: Vec<AuditEntry>,
    },
    /// A kv key or lease the step wrote changed under it: nothing of it is
    /// written, and the run is due again at once.
    Void { why: String, rows: Vec<AuditEntry> },
    /// A chained step needed a write before the steps before it were
    /// committed: abandoned unchanged, taken again on its own after them.
    Unchain,
}

/// What a step that ran left: the guest's report and the gate's outcome.
pub(super) struct Ran {
    pub(super) report: StepReport,
    pub(super) gate: GateOutcome,
}

impl Ran {
    /// Whether the step ends with a wait, whose plan needs the run's
    /// approval requests ([`Facts::approvals`]).
    pub(super) fn waits(&self) -> bool {
        self.gate.stop.is_none()
            && matches!(&self.report.result, Ok(r) if matches!(r.next, Next::Wait { .. }))
    }
}

/// What the decision knows of the step besides what it did.
pub(super) struct Facts<'a> {
    pub(super) claim: &'a Claim,
    pub(super) wake: &'a Wake,
    /// The step's logical time.
    pub(super) now: Millis,
    /// The most fuel one step may burn (`[limits] fuel_per_step`).
    pub(super) fuel_per_step: u64,
    /// `[limits] max_approval_valid_ms`.
    pub(super) max_approval_valid_ms: u64,
    /// `[retention] checkpoints_per_run`.
    pub(super) keep_checkpoints: Option<u64>,
    /// The run's approval requests: read only when the step waits
    /// ([`Ran::waits`]), empty otherwise.
    pub(super) approvals: &'a [Approval],
}

/// Parks a run whose step or fuel budget is spent, before anything runs.
pub(super) fn precheck(run: &Run) -> Option<Ending> {
    let reason = if run.steps >= run.step_budget {
        format!(
            "step budget of {} steps is spent; resume the run to grant it more, or cancel it",
            run.step_budget
        )
    } else if run.fuel_used >= run.fuel_budget {
        format!(
            "fuel budget of {} is spent ({} used); resume the run to grant it more, or cancel it",
            run.fuel_budget, run.fuel_used
        )
    } else {
        return None;
    };
    Some(Ending::Park {
        reason,
        rows: vec![],
    })
}

/// How a step that ran ends: what stopped it in a tool call, else how the
/// guest failed, else its checkpoint (with the waits it asked for, which
/// may themselves be invalid).
pub(super) fn decide(step: &Facts<'_>, ran: Ran) -> Ending {
    let Ran { report, mut gate } = ran;
    let run = &step.claim.run;
    let mut rows = std::mem::take(&mut gate.audit);
    rows.extend(report.logs.iter().map(|l| audit(run, "log", json!(l))));
    match gate.stop.take() {
        Some(Stop::Unchain) => return Ending::Unchain,
        Some(Stop::Conflict(why)) => return Ending::Void { why, rows },
        Some(Stop::Held(switch)) => return Ending::Hold { switch, rows },
        // Whatever the guest did after the call, the step is void: it is
        // retried once an operator has said what the call did.
        Some(Stop::UnknownOutcome(reason)) => return Ending::Park { reason, rows },
        None => {}
    }
    let result = match report.result {
        Ok(result) => result,
        Err(failure) => {
            let spent = gate.budget_spent.as_deref();
            return Ending::Fail(failed(step, failure, spent, report.fuel_used, rows));
        }
    };
    let planned = match plan_waits(step, &result.next) {
        Ok(planned) => planned,
        Err(e) => {
            return Ending::Fail(Failure {
                error: StepFailure::InvalidOutput(e).to_string(),
                fuel_used: report.fuel_used,
                rows,
                park: false,
            });
        }
    };
    let spent = Spent {
        fuel: report.fuel_used,
        wall_ms: report.wall.as_millis() as u64,
    };
    checkpoint(step, result, planned, spent, gate, rows)
}

/// The failed attempt of a guest that did not return a result.
fn failed(
    step: &Facts<'_>,
    failure: StepFailure,
    budget_spent: Option<&str>,
    fuel_used: u64,
    rows: Vec<AuditEntry>,
) -> Failure {
    let run = &step.claim.run;
    // Out of fuel because the run's budget had less left than a step may
    // burn: retrying cannot help.
    let fuel_spent =
        matches!(failure, StepFailure::OutOfFuel { limit } if limit < step.fuel_per_step);
    let error = if fuel_spent {
        format!(
            "fuel budget of {} is spent; resume the run to grant it more, or cancel it",
            run.fuel_budget
        )
    } else if let Some(reason) = budget_spent {
        format!("{reason} (the step then failed: {failure})")
    } else {
        failure.to_string()
    };
    Failure {
        error,
        fuel_used,
        rows,
        // A tool call found a run budget spent: the run waits for an
        // operator.
        park: fuel_spent || budget_spent.is_some(),
    }
}

/// The waits a step that waits asked for, checked and with their due times.
fn plan_waits(step: &Facts<'_>, next: &Next) -> Result<Vec<StoredWait>, String> {
    let Next::Wait { waits } = next else {
        return Ok(vec![]);
    };
    let delivered = match step.wake {
        Wake::Approval(a) => Some(a.request_id.as_str()),
        Wake::Expired { request_id } => Some(request_id.as_str()),
        _ => None,
    };
    waits::plan(
        waits,
        step.now,
        step.approvals,
        delivered,
        step.max_approval_valid_ms,
    )
}

/// What the step burned.
struct Spent {
    fuel: u64,
    wall_ms: u64,
}

/// The checkpoint of a step that returned a valid result.
fn checkpoint(
    step: &Facts<'_>,
    result: StepResult,
    planned: Vec<StoredWait>,
    spent: Spent,
    gate: GateOutcome,
    logs: Vec<AuditEntry>,
) -> Ending {
    let run = &step.claim.run;
    let seq = run.steps + 1;
    let mut rows = vec![audit(
        run,
        "step",
        json!({
            "seq": seq,
            "version": run.version,
            "wake": wake_summary(step.wake),
            "next": next_summary(&result.next),
            "status": result.status,
            "fuel": spent.fuel,
            "wall_ms": spent.wall_ms,
            "tool_calls": gate.executed,
            "replayed_tool_calls": gate.replayed,
        }),
    )];
    rows.extend(logs);
    rows.extend(approval_rows(run, &planned, step.approvals));
    if let Next::Done { outcome } = &result.next {
        rows.push(audit(run, "done", json!({"outcome": outcome})));
    }
    let wait_list: Vec<WaitFor> = planned.iter().map(|w| w.wait.clone()).collect();
    let done = matches!(result.next, Next::Done { .. });
    let end = match (&gate.budget_spent, done) {
        // A tool call found a run budget spent: whatever the step did with
        // that refusal, the run waits for an operator after it.
        (Some(reason), false) => StepEnd::Parked {
            reason: reason.clone(),
        },
        _ => StepEnd::Committed {
            seq,
            next: next_summary(&result.next),
            status: result.status.clone(),
            fuel: spent.fuel,
            wall_ms: spent.wall_ms,
        },
    };
    let commit = StepCommit {
        run_id: run.run_id.clone(),
        epoch: step.claim.epoch,
        wake: step.wake.clone(),
        state: result.state,
        status_text: match (result.status, &result.next) {
            (Some(status), _) => Some(status),
            (None, Next::Done { outcome }) => Some(format!("done: {outcome}")),
            (None, _) => run.status_text.clone(),
        },
        next: result.next,
        fuel_used: spent.fuel,
        waits: planned,
        wake_when: waits::wake_when(&wait_list),
        audit: rows,
        at: step.now,
        park: gate.budget_spent,
        keep_checkpoints: step.keep_checkpoints,
        effects: gate.effects,
        keep_claim: false,
        // A first step's checkpoint is stored whole: nothing to encode.
        state_before: (run.steps > 0).then(|| run.state.clone()),
    };
    Ending::Checkpoint {
        commit: Box::new(commit),
        end,
    }
}

/// The audit rows of the approvals a step asks for: a new request, or one
/// whose question changed (its old link and any answer are void).
fn approval_rows(run: &Run, planned: &[StoredWait], existing: &[Approval]) -> Vec<AuditEntry> {
    let mut rows = vec![];
    for w in planned {
        let WaitFor::Approval(req) = &w.wait else {
            continue;
        };
        let digest = approval_digest(&req.question, &req.details);
        let before = existing.iter().find(|a| a.id == req.id);
        if let Some(old) = before.filter(|a| a.details_digest != digest) {
            // The approver may have seen the old question: their link and
            // any answer to it are void.
            rows.push(audit(
                run,
                "approval changed",
                json!({"id": req.id, "old_digest": old.details_digest,
                    "digest": digest, "voided_answer": old.answer}),
            ));
        } else if before.is_some() {
            continue;
        }
        rows.push(audit(
            run,
            "approval requested",
            json!({"id": req.id, "question": req.question,
                "details": serde_json::from_str::<serde_json::Value>(&req.details).ok(),
                "digest": digest, "expires_at": w.due_at.map(rfc3339)}),
        ));
    }
    rows
}

#[cfg(test)]
mod tests;
