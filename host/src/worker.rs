//! The step protocol (DESIGN.md, "The step protocol"): claim a run that has a
//! wake, check its budgets, step it once in the sandbox with every tool call
//! going through the gate, then commit the checkpoint, status, waits and
//! audit in one transaction — or, on a failure, change nothing of the run's
//! state and retry it later, parking it after too many attempts.

use serde::Serialize;

use crate::app::{App, AppError};
use crate::clock::rfc3339;
use crate::model::{Millis, Next, Wake};
use crate::store::{AuditEntry, Claim, ClaimedRun, StoreError};
use crate::waits;

mod batch;
mod decide;
mod endings;
mod step;
mod versions;
mod void;

pub use batch::PassTimes;
use endings::Failure;

/// What happened to one claimed run.
#[derive(Debug, Serialize)]
pub struct Stepped {
    pub run_id: String,
    /// The agent and version the run was on when it was claimed.
    pub agent: String,
    pub version: String,
    /// The number of the step taken (its checkpoint's `seq` when committed).
    pub step: u64,
    /// What woke the run, as [`wake_summary`] says it.
    pub wake: String,
    #[serde(flatten)]
    pub what: StepEnd,
}

impl std::fmt::Display for Stepped {
    /// The line `work` and `serve` print for a step.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let run = &self.run_id;
        match &self.what {
            StepEnd::Committed {
                seq, next, status, ..
            } => {
                write!(f, "{run} step {seq}: {next}")?;
                match status {
                    Some(status) => write!(f, " ({status})"),
                    None => Ok(()),
                }
            }
            StepEnd::Failed {
                error, retry_at, ..
            } => {
                write!(f, "{run} step failed: {error}; retry at {retry_at}")
            }
            StepEnd::Parked { reason } => write!(f, "{run} parked: {reason}"),
            StepEnd::LostClaim => write!(f, "{run} was taken over by another worker"),
            StepEnd::Held { switch, reason } => {
                write!(f, "{run} paused by kill switch `{switch}`")?;
                if let Some(reason) = reason {
                    write!(f, " ({reason})")?;
                }
                write!(f, ": step abandoned unchanged, retried when it lifts")
            }
        }
    }
}

/// How a claimed step ended.
#[derive(Debug, Serialize)]
#[serde(tag = "result", rename_all = "snake_case")]
pub enum StepEnd {
    /// A checkpoint was written.
    Committed {
        seq: u64,
        next: String,
        status: Option<String>,
        /// Fuel the step burned, and how long it ran in the sandbox.
        fuel: u64,
        wall_ms: u64,
    },
    /// The step failed; nothing changed; it is retried later.
    Failed {
        error: String,
        retry_at: String,
        /// Fuel the failed attempt burned (charged to the run).
        fuel: u64,
    },
    /// The run is parked for an operator.
    Parked { reason: String },
    /// Another worker took the run over; this step's writes were discarded.
    LostClaim,
    /// A kill switch stopped the step in flight: nothing changed, and the
    /// run takes its step again once the switch lifts.
    Held {
        switch: String,
        reason: Option<String>,
    },
}

/// A worker bound to one process's app.
pub struct Worker<'a> {
    app: &'a mut App,
    /// Names this worker in claims: `<host id>[:<thread>]`.
    owner: String,
    /// Whether its last claim took as many runs as it could: then more
    /// are likely due, and the next claim goes straight for the lock.
    busy: bool,
    /// Steps each run of its last group took, on average (rounded up):
    /// the next claim takes as many runs as the group has room for at
    /// that rate, so that the steps a run chains fit in it.
    steps_per_run: usize,
    /// Whether every tool the last stepped version may call is answered in
    /// the step (`kv`, `lease`, `static`): a step of it that continues can
    /// be followed by the next under the same claim and commit.
    chainable: bool,
    /// The versions its runs ran on, each read once (a step chained after
    /// another runs on the same).
    versions: versions::Versions,
    /// Runs claimed for its next group by the commit of its last one
    /// (`SqlStore::commit_steps_then_claim`), and when: stepped by the next
    /// call, released if the worker is dropped first.
    ahead: crate::store::ClaimedGroup,
    ahead_at: Millis,
    times: PassTimes,
}

impl<'a> Worker<'a> {
    pub fn new(app: &'a mut App) -> Worker<'a> {
        let host = crate::identity::host_id();
        let owner = match std::thread::current().name() {
            Some(name) => format!("{host}:{name}"),
            None => host,
        };
        Worker {
            app,
            owner,
            busy: false,
            steps_per_run: 1,
            chainable: false,
            versions: versions::Versions::default(),
            ahead: Vec::new(),
            ahead_at: 0,
            times: PassTimes::default(),
        }
    }

    /// Says that a run was just made due (started, sent an event,
    /// answered): the next claim goes straight for the write lock, without
    /// first looking whether anything is due, as after a full group.
    pub fn expect_work(&mut self) {
        self.busy = true;
    }

    /// The app this worker steps runs of.
    pub fn app(&mut self) -> &mut App {
        self.app
    }

    /// Steps runs until none has a wake to deliver. Runs that are due but
    /// claimed by another worker are waited for (their claim ends when that
    /// worker commits, or when a dead worker's claim expires).
    /// `on_wait` hears of each run it waits for, once, with the time.
    pub fn until_idle(
        &mut self,
        mut on_step: impl FnMut(&Stepped),
        mut on_wait: impl FnMut(&ClaimedRun, Millis),
    ) -> Result<usize, AppError> {
        let mut told: Option<ClaimedRun> = None;
        let mut steps = 0;
        // Set when no run was claimable and none was under a live claim: one
        // more look then, because a dead worker's claim may have expired
        // between those two reads.
        let mut last_look = false;
        loop {
            crate::schedule::fire_due(self.app)?;
            let stepped = self.claim_and_step_many()?;
            match stepped.len() {
                0 if last_look => return Ok(steps),
                0 => {
                    let now = self.app.now();
                    match self.app.store.first_claimed_due(now)? {
                        None => last_look = true,
                        Some(claimed) => {
                            if told.as_ref().is_none_or(|t| t.run_id != claimed.run_id) {
                                on_wait(&claimed, now);
                                told = Some(claimed);
                            }
                            std::thread::sleep(std::time::Duration::from_millis(100));
                        }
                    }
                }
                n => {
                    steps += n;
                    last_look = false;
                    stepped.iter().for_each(&mut on_step);
                }
            }
        }
    }

    /// Starts the runs of due schedules, then claims and steps one run;
    /// `None` when no run has a wake now.
    pub fn step_next(&mut self) -> Result<Option<Stepped>, AppError> {
        crate::schedule::fire_due(self.app)?;
        self.claim_and_step()
    }

    /// Claims and steps one run, leaving schedules to the caller (`serve`
    /// fires them itself, to log each tick); `None` when no run has a wake
    /// now.
    pub fn claim_and_step(&mut self) -> Result<Option<Stepped>, AppError> {
        let now = self.app.now();
        let claim_ms = self.app.config.limits.claim_ms;
        let Some((claim, wake)) = self.app.store.claim(now, &self.owner, claim_ms)? else {
            return Ok(None);
        };
        let run_id = claim.run.run_id.clone();
        crate::failpoint::hit("claim", &run_id);
        let what = match self.step_alone(&claim, &wake) {
            Ok(end) => end,
            Err(e) => self.step_error(&claim, &wake, e)?,
        };
        Ok(Some(Stepped {
            run_id,
            agent: claim.run.agent.clone(),
            version: claim.run.version.clone(),
            step: claim.run.steps + 1,
            wake: wake_summary(&wake),
            what,
        }))
    }

    /// Steps a claimed run and commits its checkpoint.
    fn step_alone(&mut self, claim: &Claim, wake: &Wake) -> Result<StepEnd, AppError> {
        self.step_claimed(claim, wake, None, None)?
            .ok_or_else(|| AppError::Invalid("a step taken alone was abandoned as chained".into()))
    }

    /// How a step that the store refused or failed ends: the run was taken
    /// over, or the step is void (a key or lease it wrote changed), or it
    /// is a failed attempt. Any other error stops the worker.
    fn step_error(&mut self, claim: &Claim, wake: &Wake, e: AppError) -> Result<StepEnd, AppError> {
        match e {
            AppError::Store(StoreError::LostClaim { .. }) => Ok(StepEnd::LostClaim),
            AppError::Store(e @ StoreError::Conflict(_)) => {
                self.void(claim, wake, e.to_string(), vec![])
            }
            AppError::Store(e) => self.store_failed(claim, wake, e),
            e => Err(e),
        }
    }
}

fn audit(run: &crate::store::Run, kind: &str, data: serde_json::Value) -> AuditEntry {
    AuditEntry {
        run_id: Some(run.run_id.clone()),
        kind: kind.to_string(),
        data,
    }
}

/// A short text form of a wake for audit rows and history.
pub fn wake_summary(wake: &Wake) -> String {
    match wake {
        Wake::Start { .. } => "start".into(),
        Wake::Event(e) => format!("event {} on {}", e.id, e.topic),
        Wake::Approval(a) => format!(
            "approval {} {} by {}",
            a.request_id,
            if a.approved { "approved" } else { "rejected" },
            a.by
        ),
        Wake::Timer { due } => format!("timer {}", rfc3339(*due)),
        Wake::Expired { request_id } => format!("approval {request_id} expired"),
        Wake::Resume => "resume".into(),
    }
}

/// A short text form of what a step asked for next.
pub fn next_summary(next: &Next) -> String {
    match next {
        Next::Continue => "continue".into(),
        Next::Wait { waits } => format!("wait {}", waits::wake_when(waits).unwrap_or_default()),
        Next::Done { outcome } => format!("done: {outcome}"),
    }
}
