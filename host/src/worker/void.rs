//! Steps made void by another run's write: a kv key or lease the step
//! wrote changed before it committed. Nothing of the step was written; the
//! run is due again at once and its retry answers from the new value. It
//! is not a failed attempt: the run did nothing wrong, and contention on a
//! busy key must not park it.

use serde_json::json;

use super::{StepEnd, Worker, audit, wake_summary};
use crate::app::AppError;
use crate::clock::rfc3339;
use crate::model::Wake;
use crate::store::{AuditEntry, Claim};

impl Worker<'_> {
    pub(super) fn void(
        &mut self,
        claim: &Claim,
        wake: &Wake,
        why: String,
        mut rows: Vec<AuditEntry>,
    ) -> Result<StepEnd, AppError> {
        let run = &claim.run;
        let now = self.app.now();
        rows.insert(
            0,
            audit(
                run,
                "step void",
                json!({"seq": run.steps + 1, "wake": wake_summary(wake), "why": why}),
            ),
        );
        self.app
            .store
            .void_step(&run.run_id, claim.epoch, &rows, now)?;
        Ok(StepEnd::Failed {
            error: why,
            retry_at: rfc3339(now),
            fuel: 0,
        })
    }
}
