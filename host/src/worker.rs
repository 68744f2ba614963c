//! The step protocol (DESIGN.md, "The step protocol"): claim a run that has a
//! wake, check its budgets, step it once in the sandbox with every tool call
//! going through the gate, then commit the checkpoint, status, waits and
//! audit in one transaction — or, on a failure, change nothing of the run's
//! state and retry it later, parking it after too many attempts.

use serde::Serialize;
use serde_json::json;

use crate::app::{App, AppError};
use crate::clock::rfc3339;
use crate::model::{Millis, Next, WaitFor, Wake, approval_digest};
use crate::runtime::{StepFailure, StepInput};
use crate::store::{AuditEntry, Claim, ClaimedRun, StepCommit, StoreError};
use crate::tools::gate::{Spend, StepGate};
use crate::waits;

mod batch;
mod endings;
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
    /// (`Store::commit_steps_then_claim`), and when: stepped by the next
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
        let what = match self.step_alone(&claim, wake.clone()) {
            Ok(end) => end,
            Err(AppError::Store(StoreError::LostClaim { .. })) => StepEnd::LostClaim,
            Err(AppError::Store(e @ StoreError::Conflict(_))) => {
                self.void(&claim, &wake, e.to_string(), vec![])?
            }
            Err(AppError::Store(e)) => self.store_failed(&claim, &wake, e)?,
            Err(e) => return Err(e),
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
    fn step_alone(&mut self, claim: &Claim, wake: Wake) -> Result<StepEnd, AppError> {
        self.step_claimed(claim, wake, None, None)?
            .ok_or_else(|| AppError::Invalid("a step taken alone was abandoned as chained".into()))
    }

    /// Steps a claimed run. Its checkpoint is committed here, or, given
    /// `later`, pushed there for the caller to commit with others; the
    /// other endings (failed, parked, held) are written here either way.
    ///
    /// Given `under` (what earlier steps of the run left, whose commit is
    /// pushed to `later` too), the step is chained: it sees those effects,
    /// and any ending other than a checkpoint, or a write it would need
    /// before their commit, abandons it unchanged (`None`): written
    /// before their commit, that ending would lose them; the run takes the
    /// step again on its own after it.
    fn step_claimed(
        &mut self,
        claim: &Claim,
        wake: Wake,
        later: Option<&mut Vec<StepCommit>>,
        under: Option<crate::store::Uncommitted>,
    ) -> Result<Option<StepEnd>, AppError> {
        let chained = under.is_some();
        let run = &claim.run;
        let now = self.app.now();
        if run.steps >= run.step_budget {
            if chained {
                return Ok(None);
            }
            let reason = format!(
                "step budget of {} steps is spent; resume the run to grant it more, or cancel it",
                run.step_budget
            );
            return self.park(claim, reason).map(Some);
        }
        if run.fuel_used >= run.fuel_budget {
            if chained {
                return Ok(None);
            }
            let reason = format!(
                "fuel budget of {} is spent ({} used); resume the run to grant it more, or cancel it",
                run.fuel_budget, run.fuel_used
            );
            return self.park(claim, reason).map(Some);
        }
        let found = self
            .versions
            .get(&self.app.store, &run.agent, &run.version)?;
        let Some(version) = found else {
            if chained {
                return Ok(None);
            }
            let reason = format!("agent {}@{} is no longer deployed", run.agent, run.version);
            return self.park(claim, reason).map(Some);
        };
        let tools = &self.app.tools;
        self.chainable = version
            .granted_tools
            .iter()
            .filter(|t| crate::tools::namespace::qualified_grant(t).is_none())
            .all(|t| tools.is_held(t));
        let runtime = self.app.runtime()?;
        let store = &self.app.store;
        let loaded = runtime.load_stored(&run.digest, |max| {
            store
                .agent_bytes(&run.digest, max)
                .map_err(|e| e.to_string())
        });
        // Compiling a component on a cache miss can outlast the claim: check
        // that no other worker took the run over meanwhile, and renew the
        // lease for the step itself. A load from memory or the cache takes
        // a sliver of the lease, and the step needs no extra write then.
        let claim_ms = self.app.config.limits.claim_ms;
        let loaded_at = self.app.now();
        if loaded_at.saturating_sub(now) > claim_ms / 8 {
            self.app
                .store
                .extend_claim(&run.run_id, claim.epoch, loaded_at, claim_ms)?;
        }
        let loaded = match loaded {
            Ok(l) => l,
            Err(_) if chained => return Ok(None),
            Err(e) => {
                let error = format!("cannot load the agent: {e}");
                let f = Failure {
                    error,
                    fuel_used: 0,
                    rows: vec![],
                    park: false,
                };
                return self.fail(claim, &wake, f).map(Some);
            }
        };
        let input = StepInput {
            run_id: run.run_id.clone(),
            step_number: run.steps + 1,
            now_ms: now,
            state: run.state.clone(),
            wake: wake.clone(),
            fuel_left: Some(run.fuel_budget - run.fuel_used),
        };
        let mut gate = StepGate {
            store: self.app.store.as_mut(),
            tools: &self.app.tools,
            run_id: &run.run_id,
            incarnation: &run.incarnation,
            epoch: claim.epoch,
            claim_ms,
            clock: self.app.clock.as_ref(),
            agent: &run.agent,
            seq: run.steps + 1,
            granted: &version.granted_tools,
            now,
            calls_left: self.app.config.limits.tool_calls_per_step,
            executed: 0,
            replayed: 0,
            spend: Spend {
                tokens_used: run.tokens_used,
                token_budget: run.token_budget,
                usd_used: run.usd_used,
                usd_budget: run.usd_budget,
            },
            budget_spent: None,
            unknown_outcome: None,
            held: None,
            audit: vec![],
            note: None,
            call_rows: 0,
            unaudited_calls: 0,
            effects: crate::store::Effects::over(under.unwrap_or_default()),
            conflict: None,
            chained,
            unchain: false,
        };
        let report = runtime.step(&loaded, &input, &mut gate);
        // Abandoned before anything is written: the step is taken again.
        if gate.unchain {
            return Ok(None);
        }
        // Written with the checkpoint; dropped with a step that fails, is
        // held or parked, which then runs again and calls again.
        let effects = std::mem::take(&mut gate.effects);
        let (executed, replayed) = (gate.executed, gate.replayed);
        // A tool call found a run budget spent: whatever the step did with
        // that refusal, the run waits for an operator after it.
        let budget_spent = gate.budget_spent.take();
        let unknown_outcome = gate.unknown_outcome.take();
        let held = gate.held.take();
        let conflict = gate.conflict.take();
        let mut logs = gate.take_audit();
        logs.extend(report.logs.iter().map(|l| audit(run, "log", json!(l))));
        let ends_without_checkpoint = conflict.is_some()
            || held.is_some()
            || unknown_outcome.is_some()
            || report.result.is_err();
        if chained && ends_without_checkpoint {
            return Ok(None);
        }
        if let Some(why) = conflict {
            return self.void(claim, &wake, why, logs).map(Some);
        }
        if let Some(switch) = held {
            return self.hold(claim, &wake, switch, logs).map(Some);
        }
        if let Some(reason) = unknown_outcome {
            // Whatever the guest did after the call, the step is void: it
            // is retried once an operator has said what the call did.
            return self.park_with(claim, reason, logs).map(Some);
        }
        let result = match report.result {
            Ok(result) => result,
            Err(failure) => {
                // Out of fuel because the run's budget had less left than a
                // step may burn: retrying cannot help.
                let fuel_spent = matches!(failure, StepFailure::OutOfFuel { limit }
                    if limit < self.app.config.limits.fuel_per_step);
                let error = if fuel_spent {
                    format!(
                        "fuel budget of {} is spent; resume the run to grant it more, or cancel it",
                        run.fuel_budget
                    )
                } else if let Some(reason) = &budget_spent {
                    format!("{reason} (the step then failed: {failure})")
                } else {
                    failure.to_string()
                };
                let f = Failure {
                    error,
                    fuel_used: report.fuel_used,
                    rows: logs,
                    park: fuel_spent || budget_spent.is_some(),
                };
                return self.fail(claim, &wake, f).map(Some);
            }
        };
        let mut existing = vec![];
        let planned = match &result.next {
            Next::Wait { waits } => {
                existing = self.app.store.approvals(&run.run_id)?;
                let delivered = match &wake {
                    Wake::Approval(a) => Some(a.request_id.as_str()),
                    Wake::Expired { request_id } => Some(request_id.as_str()),
                    _ => None,
                };
                let max_valid = self.app.config.limits.max_approval_valid_ms;
                match waits::plan(waits, now, &existing, delivered, max_valid) {
                    Ok(p) => p,
                    Err(_) if chained => return Ok(None),
                    Err(e) => {
                        let error = StepFailure::InvalidOutput(e).to_string();
                        let f = Failure {
                            error,
                            fuel_used: report.fuel_used,
                            rows: logs,
                            park: false,
                        };
                        return self.fail(claim, &wake, f).map(Some);
                    }
                }
            }
            _ => vec![],
        };
        let wait_list: Vec<WaitFor> = planned.iter().map(|w| w.wait.clone()).collect();
        let seq = run.steps + 1;
        let mut rows = vec![audit(
            run,
            "step",
            json!({
                "seq": seq,
                "version": run.version,
                "wake": wake_summary(&wake),
                "next": next_summary(&result.next),
                "status": result.status,
                "fuel": report.fuel_used,
                "wall_ms": report.wall.as_millis() as u64,
                "tool_calls": executed,
                "replayed_tool_calls": replayed,
            }),
        )];
        rows.extend(logs);
        for w in &planned {
            if let WaitFor::Approval(req) = &w.wait {
                let digest = approval_digest(&req.question, &req.details);
                let before = existing.iter().find(|a| a.id == req.id);
                if let Some(old) = before.filter(|a| a.details_digest != digest) {
                    // The approver may have seen the old question: their
                    // link and any answer to it are void.
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
        }
        if let Next::Done { outcome } = &result.next {
            rows.push(audit(run, "done", json!({"outcome": outcome})));
        }
        let commit = StepCommit {
            run_id: run.run_id.clone(),
            epoch: claim.epoch,
            wake,
            state: result.state,
            next: result.next.clone(),
            status_text: match (&result.status, &result.next) {
                (Some(status), _) => Some(status.clone()),
                (None, Next::Done { outcome }) => Some(format!("done: {outcome}")),
                (None, _) => run.status_text.clone(),
            },
            fuel_used: report.fuel_used,
            waits: planned,
            wake_when: waits::wake_when(&wait_list),
            audit: rows,
            at: now,
            park: budget_spent.clone(),
            keep_checkpoints: self.app.config.retention.checkpoints_per_run,
            effects,
            keep_claim: false,
            // A first step's checkpoint is stored whole: nothing to encode.
            state_before: (run.steps > 0).then(|| run.state.clone()),
        };
        match later {
            Some(later) => later.push(commit),
            None => {
                crate::failpoint::hit("before-commit", &run.run_id);
                self.app.store.commit_step(&commit)?;
                crate::failpoint::hit("after-commit", &run.run_id);
            }
        }
        if let (Some(reason), false) = (budget_spent, matches!(result.next, Next::Done { .. })) {
            return Ok(Some(StepEnd::Parked { reason }));
        }
        Ok(Some(StepEnd::Committed {
            seq,
            next: next_summary(&result.next),
            status: result.status,
            fuel: report.fuel_used,
            wall_ms: report.wall.as_millis() as u64,
        }))
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
