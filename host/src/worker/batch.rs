//! Group commit: a worker claims the runs that are due together, steps each
//! in its own sandbox, and commits their checkpoints in one transaction, so
//! that many steps share one flush to disk. No step is reported before its
//! commit; a step refused at commit (its claim lost, a kv key or lease it
//! wrote changed) is undone alone.

use super::{Failure, StepEnd, Stepped, Worker, wake_summary};
use crate::app::AppError;
use crate::model::Wake;
use crate::store::{Claim, StepCommit, StoreError};

/// A claimed run whose step ran and whose checkpoint waits for the group's
/// commit.
struct Pending {
    claim: Claim,
    wake: Wake,
    /// What the step will have ended with once committed.
    end: StepEnd,
}

impl Worker<'_> {
    /// Claims up to `[limits] steps_per_commit` due runs, steps them, and
    /// commits their checkpoints together; empty when no run has a wake.
    pub fn claim_and_step_many(&mut self) -> Result<Vec<Stepped>, AppError> {
        let max = self.app.config.limits.steps_per_commit;
        let claim_ms = self.app.config.limits.claim_ms;
        let claimed_at = self.app.now();
        let claims =
            self.app
                .store
                .claim_many(claimed_at, &self.owner, claim_ms, max, self.busy)?;
        self.busy = !claims.is_empty();
        let mut done: Vec<Stepped> = Vec::with_capacity(claims.len());
        let mut pending: Vec<Pending> = Vec::new();
        let mut commits: Vec<StepCommit> = Vec::new();
        let mut failed: Option<AppError> = None;
        let mut claims = claims.into_iter();
        for (claim, wake) in claims.by_ref() {
            let run_id = claim.run.run_id.clone();
            crate::failpoint::hit("claim", &run_id);
            let before = commits.len();
            match self.step_claimed(&claim, wake.clone(), Some(&mut commits)) {
                Ok(end) if commits.len() > before => pending.push(Pending { claim, wake, end }),
                Ok(end) => done.push(stepped(&claim, &wake, end)),
                Err(AppError::Store(StoreError::LostClaim { .. })) => {
                    done.push(stepped(&claim, &wake, StepEnd::LostClaim))
                }
                Err(AppError::Store(e @ StoreError::Conflict(_))) => {
                    match self.void(&claim, &wake, e.to_string(), vec![]) {
                        Ok(end) => done.push(stepped(&claim, &wake, end)),
                        Err(e) => {
                            failed = Some(e);
                            break;
                        }
                    }
                }
                Err(AppError::Store(e)) => match self.store_failed(&claim, &wake, e) {
                    Ok(end) => done.push(stepped(&claim, &wake, end)),
                    Err(e) => {
                        failed = Some(e);
                        break;
                    }
                },
                Err(e) => {
                    // Commit what already ran, then report the error.
                    failed = Some(e);
                    break;
                }
            }
            // The later claims of the group must not run out while it is
            // stepped: what is left goes back, to be claimed again.
            if self.app.now().saturating_sub(claimed_at) > claim_ms / 2 {
                break;
            }
        }
        for (claim, _) in claims {
            if let Err(e) = self.app.store.release(&claim.run.run_id, claim.epoch) {
                // Its claim runs out on its own then.
                failed.get_or_insert(AppError::Store(e));
            }
        }
        self.commit_group(pending, commits, &mut done)?;
        match failed {
            Some(e) => Err(e),
            None => Ok(done),
        }
    }

    /// Writes the group's checkpoints in one transaction and says how each
    /// step ended.
    fn commit_group(
        &mut self,
        pending: Vec<Pending>,
        commits: Vec<StepCommit>,
        done: &mut Vec<Stepped>,
    ) -> Result<(), AppError> {
        if commits.is_empty() {
            return Ok(());
        }
        for c in &commits {
            crate::failpoint::hit("before-commit", &c.run_id);
        }
        let outcomes = match commits.as_slice() {
            [one] => vec![self.app.store.commit_step(one)],
            many => match self.app.store.commit_steps(many) {
                Ok(outcomes) => outcomes,
                Err(e) => {
                    // Nothing of the group was kept: each step is a failed
                    // attempt, as a lone step's failed commit is.
                    let text = e.to_string();
                    for p in pending {
                        let end =
                            self.store_failed(&p.claim, &p.wake, StoreError::Db(text.clone()))?;
                        done.push(stepped(&p.claim, &p.wake, end));
                    }
                    return Ok(());
                }
            },
        };
        for (p, outcome) in pending.into_iter().zip(outcomes) {
            let end = match outcome {
                Ok(()) => {
                    crate::failpoint::hit("after-commit", &p.claim.run.run_id);
                    p.end
                }
                Err(StoreError::LostClaim { .. }) => StepEnd::LostClaim,
                Err(e @ StoreError::Conflict(_)) => {
                    self.void(&p.claim, &p.wake, e.to_string(), vec![])?
                }
                Err(e) => self.store_failed(&p.claim, &p.wake, e)?,
            };
            done.push(stepped(&p.claim, &p.wake, end));
        }
        Ok(())
    }

    /// The store failed mid-step: the step is void. Recorded as a failed
    /// attempt when the store takes the record, so that a fault that repeats
    /// on this run parks it rather than looping; when it does not (a full
    /// disk), the worker stops with it.
    pub(super) fn store_failed(
        &mut self,
        claim: &Claim,
        wake: &Wake,
        e: StoreError,
    ) -> Result<StepEnd, AppError> {
        let f = Failure {
            error: format!("the store failed during the step: {e}"),
            fuel_used: 0,
            rows: vec![],
            park: false,
        };
        self.fail(claim, wake, f).map_err(|_| AppError::Store(e))
    }
}

fn stepped(claim: &Claim, wake: &Wake, what: StepEnd) -> Stepped {
    Stepped {
        run_id: claim.run.run_id.clone(),
        agent: claim.run.agent.clone(),
        version: claim.run.version.clone(),
        step: claim.run.steps + 1,
        wake: wake_summary(wake),
        what,
    }
}
