//! An operator's controls over runs: kill switches, cancelling, settling
//! calls of unknown outcome, pruning, and the kv store.

use super::{App, AppError, Result};
use crate::store::{AuditEntry, Budgets, KvOp, KvOutcome, Resolution, ResolveRefused, Switch};

impl App {
    /// Sets a kill switch: `all`, `agent:<name>`, `run:<id>` or `tool:<name>`.
    /// The switch and its `pause` audit row are written together.
    /// A scope that names nothing is refused unless `preemptive`.
    pub fn pause(
        &mut self,
        scope: &str,
        reason: Option<&str>,
        preemptive: bool,
        by: &str,
    ) -> Result<()> {
        self.check_scope(scope, preemptive)?;
        let at = self.now();
        let audit = AuditEntry {
            run_id: scope.strip_prefix("run:").map(str::to_string),
            kind: "pause".into(),
            data: serde_json::json!({"scope": scope, "reason": reason, "by": by}),
        };
        let switch = Switch {
            scope: scope.to_string(),
            reason: reason.map(str::to_string),
            at,
        };
        Ok(self.store.set_switch_audited(&switch, &audit)?)
    }

    /// Lifts a kill switch; for a run, also resumes it if it was parked,
    /// granting another budget's worth of steps or fuel if one was spent.
    /// Returns whether anything changed.
    /// Lifting the switch writes its `resume` audit row in the same
    /// transaction; resuming a parked run writes its own.
    pub fn resume(&mut self, scope: &str, by: &str) -> Result<bool> {
        self.check_resume_scope(scope)?;
        let run = scope.strip_prefix("run:");
        let audit = AuditEntry {
            run_id: run.map(str::to_string),
            kind: "resume".into(),
            data: serde_json::json!({"scope": scope, "by": by}),
        };
        let at = self.now();
        let mut changed = self.store.clear_switch_audited(scope, &audit, at)?;
        if let Some(run_id) = run {
            let r = self.run(run_id)?;
            let limits = &self.config.limits;
            let steps = if r.steps >= r.step_budget {
                r.steps.saturating_add(limits.steps_per_run)
            } else {
                r.step_budget
            };
            let fuel = if r.fuel_used >= r.fuel_budget {
                r.fuel_used.saturating_add(limits.fuel_per_run)
            } else {
                r.fuel_budget
            };
            // A run parked on tokens or money may still have some left, just
            // not enough for its next call: it gets a full budget on top of
            // what it used. A run with no money limit keeps none.
            let tokens = r
                .token_budget
                .max(r.tokens_used.saturating_add(limits.tokens_per_run));
            let usd = if r.usd_budget > 0.0 && limits.usd_per_run > 0.0 {
                r.usd_budget.max(r.usd_used + limits.usd_per_run)
            } else {
                r.usd_budget
            };
            let budgets = Budgets {
                steps,
                fuel,
                tokens,
                usd,
            };
            let at = self.now();
            changed |= self.store.resume_parked(run_id, &budgets, by, at)?;
        }
        Ok(changed)
    }

    /// An operator's kv operation (from the CLI or the API). A write and
    /// its `kv write` audit row are one transaction; a read writes nothing.
    pub fn kv(&mut self, op: &KvOp, by: &str) -> Result<KvOutcome> {
        let now = self.now();
        let key = match op {
            KvOp::Put { key, .. } | KvOp::Delete { key, .. } | KvOp::Get { key } => key.clone(),
        };
        crate::tools::namespace::operator_address(&key).map_err(AppError::Invalid)?;
        if let KvOp::Get { .. } = op {
            return Ok(self.store.kv(op)?);
        }
        let audit = |outcome: &KvOutcome| AuditEntry {
            run_id: None,
            kind: "kv write".into(),
            data: serde_json::json!({
                "key": key, "by": by, "result": crate::tools::kv::render(outcome)
            }),
        };
        Ok(self.store.kv_audited(op, &audit, now)?)
    }

    /// Deletes the runs that ended more than `days` days ago (the audit log
    /// keeps their rows). Returns how many went.
    pub fn prune(&mut self, days: u64, by: &str) -> Result<u64> {
        let before = self
            .now()
            .saturating_sub(days.saturating_mul(24 * 60 * 60 * 1000));
        let now = self.now();
        let pruned = self.store.prune_runs(before, now)?;
        if pruned > 0 {
            self.audit(
                None,
                "prune",
                serde_json::json!({"runs": pruned, "ended_before_days": days, "by": by}),
            )?;
        }
        Ok(pruned)
    }

    /// Ends a live run for good. Returns false when it had already ended.
    pub fn cancel(&mut self, run_id: &str, reason: &str, by: &str) -> Result<bool> {
        if reason.trim().is_empty() {
            return Err(AppError::Invalid(
                "--reason is empty: say why the run is cancelled".into(),
            ));
        }
        self.run(run_id)?;
        let at = self.now();
        Ok(self.store.cancel_run(run_id, reason, by, at)?)
    }

    /// Settles a parked run's call of unknown outcome (see
    /// [`SqlStore::resolve`](crate::store::SqlStore::resolve)).
    pub fn resolve(
        &mut self,
        run_id: &str,
        key: &str,
        resolution: &Resolution,
        who: crate::app::Acting<'_>,
    ) -> Result<()> {
        let by = who.by;
        if by.trim().is_empty() {
            return Err(AppError::BadInput {
                word: "by",
                problem: "is empty: say who settles the call".into(),
            });
        }
        match resolution {
            Resolution::Result(json) => {
                serde_json::from_str::<serde_json::Value>(json).map_err(|e| {
                    AppError::BadInput {
                        word: "result",
                        problem: format!("is not valid JSON: {e}"),
                    }
                })?;
            }
            Resolution::Fail(reason) if reason.trim().is_empty() => {
                return Err(AppError::BadInput {
                    word: "fail",
                    problem: "needs a reason".into(),
                });
            }
            _ => {}
        }
        let at = self.now();
        match self
            .store
            .resolve(run_id, key, resolution, by, who.said, at)?
        {
            Ok(()) => Ok(()),
            Err(refused @ ResolveRefused::NotParked { .. }) => {
                Err(AppError::Conflict(refused.to_string()))
            }
            Err(refused) => Err(AppError::NotFound(refused.to_string())),
        }
    }
}
