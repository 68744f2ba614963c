//! Group commit: a worker claims the runs that are due together, steps each
//! in its own sandbox, and commits their checkpoints in one transaction, so
//! that many steps share one flush to disk. No step is reported before its
//! commit; a step refused at commit (its claim lost, a kv key or lease it
//! wrote changed) is undone alone, with the steps of its run after it.
//!
//! A step that continues (`Next::Continue`) is followed at once by the
//! run's next step, under the same claim and into the same commit, when
//! every tool its version may call is answered in the step (`kv`, `lease`,
//! `static`): the next step sees the effects of the ones before it, and a
//! run of several steps costs one claim and one flush instead of one each.
//! A chained step that would have to write before that commit, or that
//! ends any other way than with a checkpoint, is abandoned unchanged and
//! taken again on its own after it (`Worker::step_claimed`).

use std::collections::HashSet;

use super::{Failure, StepEnd, Stepped, Worker, wake_summary};
use crate::app::AppError;
use crate::model::{Millis, Next, Wake};
use crate::store::{Claim, ClaimedGroup, NextClaim, RunStatus, StepCommit, StoreError};

/// Where a worker's passes spent their time, summed since it was last
/// taken ([`Worker::take_pass_times`]): the benchmark of record splits a
/// step's time with it.
#[derive(Clone, Copy, Debug, Default)]
pub struct PassTimes {
    /// Claiming the group (or checking the runs claimed ahead against the
    /// kill switches).
    pub claim: std::time::Duration,
    /// Stepping the claimed runs: guests, tool calls, the writes of steps
    /// that end without a checkpoint, and giving back runs not stepped.
    pub step: std::time::Duration,
    /// Committing the group, waiting for the writer's turn and the flush
    /// included; with a claim taken ahead, that claim too.
    pub commit: std::time::Duration,
}

impl std::ops::AddAssign for PassTimes {
    fn add_assign(&mut self, other: PassTimes) {
        self.claim += other.claim;
        self.step += other.step;
        self.commit += other.commit;
    }
}

/// A claimed run whose step ran and whose checkpoint waits for the group's
/// commit.
struct Pending {
    claim: Claim,
    wake: Wake,
    /// What the step will have ended with once committed.
    end: StepEnd,
}

/// What stepping a group left: steps reported now, steps whose checkpoint
/// waits for the group's commit, and the error that stopped it.
struct Group {
    done: Vec<Stepped>,
    pending: Vec<Pending>,
    commits: Vec<StepCommit>,
    failed: Option<AppError>,
}

impl Worker<'_> {
    /// Claims due runs, steps them, and commits their checkpoints together
    /// (up to `[limits] steps_per_commit` steps); empty when no run has a
    /// wake.
    pub fn claim_and_step_many(&mut self) -> Result<Vec<Stepped>, AppError> {
        let max = self.app.config.limits.steps_per_commit;
        // A run that chains its steps takes several of the group's places:
        // claiming `max` runs of three-step chains left two thirds of them
        // one step each, to be claimed and committed again for the rest.
        let runs = (max / self.steps_per_run).max(1);
        let started = std::time::Instant::now();
        let (claims, claimed_at) = self.claim_group(runs)?;
        // A claim that took fewer runs than it could took every run due
        // then: the next one looks without the write lock first, as an
        // idle worker's does, since most often nothing new is due.
        self.busy = claims.len() >= runs;
        let stepping = std::time::Instant::now();
        if !claims.is_empty() {
            // An empty claim is a look for work, not a pass.
            self.times.claim += stepping - started;
        }
        let Group {
            mut done,
            pending,
            commits,
            failed,
        } = self.step_group(claims, claimed_at, max);
        // Busy and well: the next group is claimed with this one's commit.
        let next = (self.busy && failed.is_none()).then_some(runs);
        let committing = std::time::Instant::now();
        self.times.step += committing - stepping;
        let committed = self.commit_group(pending, commits, next, &mut done);
        self.times.commit += committing.elapsed();
        committed?;
        match failed {
            Some(e) => Err(e),
            None => Ok(done),
        }
    }

    /// The runs of the next group, and when they were claimed: those
    /// claimed ahead with the last commit, else up to `runs` claimed now.
    fn claim_group(&mut self, runs: usize) -> Result<(ClaimedGroup, Millis), AppError> {
        if !self.ahead.is_empty() {
            return Ok((self.claimed_ahead()?, self.ahead_at));
        }
        let claimed_at = self.app.now();
        let claim_ms = self.app.config.limits.claim_ms;
        let claims =
            self.app
                .store
                .claim_many(claimed_at, &self.owner, claim_ms, runs, self.busy)?;
        Ok((claims, claimed_at))
    }

    /// Steps the claimed runs in turn, each chained as far as it goes,
    /// until an error stops the worker or half the claims' time is spent:
    /// the runs not stepped then go back, to be claimed again, so that
    /// the later claims of the group do not run out while it is stepped.
    fn step_group(&mut self, claims: ClaimedGroup, claimed_at: Millis, max: usize) -> Group {
        let claim_ms = self.app.config.limits.claim_ms;
        let claimed = claims.len();
        let mut group = Group {
            done: Vec::with_capacity(claimed),
            pending: Vec::new(),
            commits: Vec::new(),
            failed: None,
        };
        let mut claims = claims.into_iter();
        for (claim, wake) in claims.by_ref() {
            if let Err(e) = self.step_in_group(claim, wake, &mut group, max, claimed_at) {
                // What already ran is committed, then the error reported.
                group.failed = Some(e);
                break;
            }
            if self.app.now().saturating_sub(claimed_at) > claim_ms / 2 {
                break;
            }
        }
        let stepped_runs = claimed - claims.len();
        for (claim, _) in claims {
            if let Err(e) = self.app.store.release(&claim.run.run_id, claim.epoch) {
                // Its claim runs out on its own then.
                group.failed.get_or_insert(AppError::Store(e));
            }
        }
        if stepped_runs > 0 && !group.commits.is_empty() {
            self.steps_per_run = group.commits.len().div_ceil(stepped_runs).clamp(1, max);
        }
        group
    }

    /// Steps one claimed run of the group and, when its checkpoint waits
    /// for the group's commit, the steps chained after it.
    fn step_in_group(
        &mut self,
        claim: Claim,
        wake: Wake,
        group: &mut Group,
        max: usize,
        claimed_at: Millis,
    ) -> Result<(), AppError> {
        crate::failpoint::hit("claim", &claim.run.run_id);
        let before = group.commits.len();
        let end = match self.step_claimed(&claim, &wake, Some(&mut group.commits), None) {
            Ok(Some(end)) if group.commits.len() > before => {
                group.pending.push(Pending { claim, wake, end });
                return self.chain(&mut group.pending, &mut group.commits, max, claimed_at);
            }
            Ok(Some(end)) => end,
            // Only a chained step is abandoned.
            Ok(None) => {
                return Err(AppError::Invalid(
                    "a claimed step was abandoned as chained".into(),
                ));
            }
            Err(e) => self.step_error(&claim, &wake, e)?,
        };
        group.done.push(stepped(&claim, &wake, end));
        Ok(())
    }

    /// The time its passes spent claiming, stepping and committing since
    /// the last call.
    pub fn take_pass_times(&mut self) -> PassTimes {
        std::mem::take(&mut self.times)
    }

    /// Takes the next steps of the run whose step was just pushed to
    /// `pending`, each chained to the one before, while it continues, its
    /// version's tools are all answered in the step, the group has room,
    /// its claim has time, and no kill switch covers it.
    fn chain(
        &mut self,
        pending: &mut Vec<Pending>,
        commits: &mut Vec<StepCommit>,
        max: usize,
        claimed_at: Millis,
    ) -> Result<(), AppError> {
        let claim_ms = self.app.config.limits.claim_ms;
        loop {
            let room = commits.len() < max;
            let (Some(last), Some(commit)) = (pending.last(), commits.last_mut()) else {
                return Ok(());
            };
            let continues = matches!(commit.next, Next::Continue) && commit.park.is_none();
            if !continues
                || !self.chainable
                || !room
                || self.app.now().saturating_sub(claimed_at) > claim_ms / 2
                || self.switched_off(&last.claim)?
            {
                return Ok(());
            }
            // What the chain left so far: the overlay the last step read
            // through (its commit never writes it), plus that step's own.
            let mut under = std::mem::take(&mut commit.effects.under);
            under.absorb(&commit.effects);
            let claim = after(&last.claim, commit);
            let before = commits.len();
            match self.step_claimed(&claim, &Wake::Resume, Some(commits), Some(under))? {
                Some(end) if commits.len() > before => {
                    // The step before keeps the claim for this one.
                    commits[before - 1].keep_claim = true;
                    pending.push(Pending {
                        claim,
                        wake: Wake::Resume,
                        end,
                    });
                }
                // Abandoned (or ended without a checkpoint, which only an
                // unchained step does): the run takes it on its own later.
                _ => return Ok(()),
            }
        }
    }

    /// Commits a group, claiming the next one with it when `next` says.
    fn commit_steps(
        &mut self,
        commits: &[StepCommit],
        next: Option<usize>,
    ) -> Result<Vec<Result<(), StoreError>>, StoreError> {
        let Some(max) = next else {
            return self.app.store.commit_steps(commits);
        };
        let now = self.app.now();
        let claim = NextClaim {
            now,
            owner: &self.owner,
            lease_ms: self.app.config.limits.claim_ms,
            max,
        };
        let (outcomes, ahead) = self.app.store.commit_steps_then_claim(commits, claim)?;
        self.ahead = ahead;
        self.ahead_at = now;
        if !self.ahead.is_empty() {
            crate::failpoint::hold("claimed-ahead");
        }
        Ok(outcomes)
    }

    /// The runs claimed with the last commit, less those a kill switch has
    /// covered since (released: claims skip them until it lifts), so that a
    /// pause stops every step not begun when it was set.
    fn claimed_ahead(&mut self) -> Result<ClaimedGroup, AppError> {
        // Read once for the group: the table holds a handful of rows. On
        // failure the claims stay with the worker (given back when it is
        // dropped).
        let switches = self.app.store.switches()?;
        let mut claims = Vec::with_capacity(self.ahead.len());
        for (claim, wake) in std::mem::take(&mut self.ahead) {
            let run = &claim.run;
            if !switches
                .iter()
                .any(|s| s.covers_run(&run.agent, &run.run_id))
            {
                claims.push((claim, wake));
            } else if let Err(e) = self.app.store.release(&run.run_id, claim.epoch) {
                // Not stepped either way: its claim runs out on its own.
                tracing::warn!(error = %e, run = %run.run_id, "giving back a paused run failed");
            }
        }
        Ok(claims)
    }

    /// Whether a kill switch now covers the run (everything, its agent, or
    /// itself): a chained step is then not taken.
    fn switched_off(&mut self, claim: &Claim) -> Result<bool, AppError> {
        let run = &claim.run;
        Ok(self
            .app
            .store
            .switch_covering(&run.agent, &run.run_id, None)?
            .is_some())
    }

    /// Writes the group's checkpoints in one transaction and says how each
    /// step ended.
    ///
    /// With `next`, the runs of the next group (at most that many) are
    /// claimed right after the commit, before any other writer of the
    /// process: a worker whose commit queued behind the others' would
    /// otherwise queue again for its claim.
    fn commit_group(
        &mut self,
        pending: Vec<Pending>,
        commits: Vec<StepCommit>,
        next: Option<usize>,
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
            many => match self.commit_steps(many, next) {
                Ok(outcomes) => outcomes,
                Err(e) => {
                    // Nothing of the group was kept: each run's first step
                    // is a failed attempt, as a lone step's failed commit
                    // is; the steps chained after it were never written.
                    let text = e.to_string();
                    let mut failed = HashSet::new();
                    for p in pending {
                        let end = if failed.insert(p.claim.run.run_id.clone()) {
                            self.store_failed(&p.claim, &p.wake, StoreError::Db(text.clone()))?
                        } else {
                            unwritten(self.app.now())
                        };
                        done.push(stepped(&p.claim, &p.wake, end));
                    }
                    return Ok(());
                }
            },
        };
        // Runs whose step was refused: their later steps were not written
        // (`commit_steps` skips them) and their claim is settled already.
        let mut refused = HashSet::new();
        for (p, outcome) in pending.into_iter().zip(outcomes) {
            let run_id = p.claim.run.run_id.clone();
            let end = match outcome {
                _ if refused.contains(&run_id) => unwritten(self.app.now()),
                Ok(()) => {
                    crate::failpoint::hit("after-commit", &run_id);
                    p.end
                }
                Err(StoreError::LostClaim { .. }) => StepEnd::LostClaim,
                Err(e @ StoreError::Conflict(_)) => {
                    self.void(&p.claim, &p.wake, e.to_string(), vec![])?
                }
                Err(e) => self.store_failed(&p.claim, &p.wake, e)?,
            };
            if !matches!(end, StepEnd::Committed { .. } | StepEnd::Parked { .. }) {
                refused.insert(run_id);
            }
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

/// The run as a committed `commit` of its claimed step leaves it, for the
/// step chained after it.
fn after(claim: &Claim, commit: &StepCommit) -> Claim {
    let mut next = claim.clone();
    let run = &mut next.run;
    run.steps += 1;
    run.state = commit.state.clone();
    run.status = RunStatus::Active;
    run.status_text = commit.status_text.clone();
    run.fuel_used = run.fuel_used.saturating_add(commit.fuel_used);
    run.attempts = 0;
    run.last_error = None;
    run.retry_at = None;
    run.waits = vec![];
    run.wake_when = commit.wake_when.clone();
    run.updated_at = commit.at;
    next
}

/// How a step chained after a refused one ended: it was never written.
fn unwritten(now: crate::model::Millis) -> StepEnd {
    StepEnd::Failed {
        error: "not written: a step of this run before it in the same commit was refused".into(),
        retry_at: crate::clock::rfc3339(now),
        fuel: 0,
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

impl Drop for Worker<'_> {
    /// Gives back the runs claimed for a next group that never came, so
    /// that another worker takes them now rather than when the claims run
    /// out.
    fn drop(&mut self) {
        for (claim, _) in std::mem::take(&mut self.ahead) {
            if let Err(e) = self.app.store.release(&claim.run.run_id, claim.epoch) {
                tracing::warn!(error = %e, run = %claim.run.run_id, "releasing a claimed run failed; its claim runs out on its own");
            }
        }
    }
}
