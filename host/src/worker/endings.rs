//! How a step ends without a checkpoint: parked for an operator, held by
//! a kill switch, or failed and retried later. Each writes what it must in
//! a transaction of its own, and nothing of the run's state changes.

use serde_json::json;

use super::{StepEnd, Worker, audit, wake_summary};
use crate::app::AppError;
use crate::clock::rfc3339;
use crate::model::Wake;
use crate::store::{AuditEntry, Claim, StepFailed, StepHeld};

impl Worker<'_> {
    /// Parks the run, recording what the abandoned step did first.
    pub(super) fn park(
        &mut self,
        claim: &Claim,
        reason: String,
        rows: Vec<AuditEntry>,
    ) -> Result<StepEnd, AppError> {
        let now = self.app.now();
        self.app
            .store
            .park(&claim.run.run_id, claim.epoch, &reason, &rows, now)?;
        Ok(StepEnd::Parked { reason })
    }

    /// Abandons a step a kill switch stopped in flight: nothing of the run
    /// changes (its calls that left the host are replayed when the step is
    /// retried; its kv and lease calls were never written and are made
    /// again), and the run waits for the switch to lift. The guest never
    /// sees the pause.
    pub(super) fn hold(
        &mut self,
        claim: &Claim,
        wake: &Wake,
        switch: crate::store::Switch,
        mut rows: Vec<AuditEntry>,
    ) -> Result<StepEnd, AppError> {
        let run = &claim.run;
        rows.insert(
            0,
            audit(
                run,
                "step held",
                json!({"seq": run.steps + 1, "wake": wake_summary(wake), "switch": switch.scope,
                    "reason": switch.reason}),
            ),
        );
        let now = self.app.now();
        self.app.store.hold_step(&StepHeld {
            run_id: run.run_id.clone(),
            epoch: claim.epoch,
            scope: switch.scope.clone(),
            audit: rows,
            at: now,
        })?;
        Ok(StepEnd::Held {
            switch: switch.scope,
            reason: switch.reason,
        })
    }

    /// Records a failed attempt: retried with exponential backoff, parked
    /// once the attempts are used up.
    pub(super) fn fail(
        &mut self,
        claim: &Claim,
        wake: &Wake,
        failure: Failure,
    ) -> Result<StepEnd, AppError> {
        let Failure {
            error,
            fuel_used,
            mut rows,
            park,
        } = failure;
        let run = &claim.run;
        let now = self.app.now();
        let limits = &self.app.config.limits;
        let attempt = run.attempts + 1;
        let retry_at = (!park && attempt < limits.max_attempts).then(|| {
            let backoff = limits
                .retry_backoff_ms
                .saturating_mul(1u64 << (attempt - 1).min(20));
            now.saturating_add(backoff)
        });
        rows.insert(
            0,
            audit(
                run,
                "step failed",
                json!({"seq": run.steps + 1, "attempt": attempt, "wake": wake_summary(wake),
                    "error": error, "fuel": fuel_used, "retry_at": retry_at.map(rfc3339)}),
            ),
        );
        let error = if park {
            error
        } else if retry_at.is_none() {
            let plural = if attempt == 1 { "" } else { "s" };
            format!("gave up after {attempt} failed attempt{plural}: {error}")
        } else {
            error
        };
        self.app.store.fail_step(&StepFailed {
            run_id: run.run_id.clone(),
            epoch: claim.epoch,
            error: error.clone(),
            fuel_used,
            retry_at,
            audit: rows,
            at: now,
        })?;
        Ok(match retry_at {
            Some(at) => StepEnd::Failed {
                error,
                retry_at: rfc3339(at),
                fuel: fuel_used,
            },
            None => StepEnd::Parked { reason: error },
        })
    }
}

/// A failed attempt, as recorded.
#[derive(Debug)]
pub(super) struct Failure {
    pub(super) error: String,
    pub(super) fuel_used: u64,
    /// The guest's logs, kept for whoever debugs the failure.
    pub(super) rows: Vec<AuditEntry>,
    /// Park at once: retrying cannot succeed.
    pub(super) park: bool,
}
