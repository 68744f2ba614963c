//! One step of a claimed run, in phases: [`precheck`] its budgets, load
//! its agent, run the guest with its tool calls going through the gate,
//! [`decide`] how it ends, then write that ending — the checkpoint, or a
//! failed, parked, held or void step.

use std::sync::Arc;

use super::decide::{Ending, Facts, Ran, decide, precheck};
use super::endings::Failure;
use super::{StepEnd, Worker};
use crate::app::AppError;
use crate::model::{Millis, Wake};
use crate::runtime::{LoadedAgent, Runtime, StepInput};
use crate::store::{Claim, StepCommit, Uncommitted};
use crate::tools::gate::{ForStep, StepGate};

/// A run's agent, loaded and ready to step.
struct Loaded {
    runtime: Arc<Runtime>,
    agent: Arc<LoadedAgent>,
    /// The tools its version was granted.
    granted: Arc<[String]>,
}

impl Worker<'_> {
    /// Steps a claimed run. Its checkpoint is committed here, or, given
    /// `later`, pushed there for the caller to commit with others; the
    /// other endings (failed, parked, held, void) are written here either
    /// way.
    ///
    /// Given `under` (what earlier steps of the run left, whose commit is
    /// pushed to `later` too), the step is chained: it sees those effects,
    /// and any ending other than a checkpoint abandons it unchanged
    /// (`None`): written before their commit, that ending would lose them;
    /// the run takes the step again on its own after it.
    pub(super) fn step_claimed(
        &mut self,
        claim: &Claim,
        wake: &Wake,
        later: Option<&mut Vec<StepCommit>>,
        under: Option<Uncommitted>,
    ) -> Result<Option<StepEnd>, AppError> {
        let chained = under.is_some();
        let ending = self.take_step(claim, wake, under)?;
        let (commit, end) = match ending {
            Ending::Checkpoint { commit, end } => (commit, end),
            // The one place a chained step is abandoned.
            _ if chained => return Ok(None),
            Ending::Fail(failure) => return self.fail(claim, wake, failure).map(Some),
            Ending::Park { reason, rows } => return self.park(claim, reason, rows).map(Some),
            Ending::Hold { switch, rows } => return self.hold(claim, wake, switch, rows).map(Some),
            Ending::Void { why, rows } => return self.void(claim, wake, why, rows).map(Some),
            Ending::Unchain => return Ok(None),
        };
        match later {
            Some(later) => later.push(*commit),
            None => {
                crate::failpoint::hit("before-commit", &commit.run_id);
                self.app.store.commit_step(&commit)?;
                crate::failpoint::hit("after-commit", &commit.run_id);
            }
        }
        Ok(Some(end))
    }

    /// The phases of a step up to its decided ending; only what the
    /// decision needs is read, and nothing of the run is written (but the
    /// claim's lease, after a slow load).
    fn take_step(
        &mut self,
        claim: &Claim,
        wake: &Wake,
        under: Option<Uncommitted>,
    ) -> Result<Ending, AppError> {
        let now = self.app.now();
        if let Some(parked) = precheck(&claim.run) {
            return Ok(parked);
        }
        let loaded = match self.load(claim, now)? {
            Ok(loaded) => loaded,
            Err(ending) => return Ok(ending),
        };
        let ran = self.run(claim, wake, now, &loaded, under);
        let approvals = match ran.waits() {
            true => self.app.store.approvals(&claim.run.run_id)?,
            false => vec![],
        };
        let limits = &self.app.config.limits;
        let facts = Facts {
            claim,
            wake,
            now,
            fuel_per_step: limits.fuel_per_step,
            max_approval_valid_ms: limits.max_approval_valid_ms,
            keep_checkpoints: self.app.config.retention.checkpoints_per_run,
            approvals: &approvals,
        };
        Ok(decide(&facts, ran))
    }

    /// Loads the run's agent version; a version no longer deployed parks
    /// the run, and one that cannot be loaded is a failed attempt.
    fn load(&mut self, claim: &Claim, now: Millis) -> Result<Result<Loaded, Ending>, AppError> {
        let run = &claim.run;
        let found = self
            .versions
            .granted(&self.app.store, &run.agent, &run.version)?;
        let Some(granted) = found else {
            let reason = format!("agent {}@{} is no longer deployed", run.agent, run.version);
            return Ok(Err(Ending::Park {
                reason,
                rows: vec![],
            }));
        };
        let tools = &self.app.tools;
        self.chainable = granted
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
        Ok(match loaded {
            Ok(agent) => Ok(Loaded {
                runtime,
                agent,
                granted,
            }),
            Err(e) => Err(Ending::Fail(Failure {
                error: format!("cannot load the agent: {e}"),
                fuel_used: 0,
                rows: vec![],
                park: false,
            })),
        })
    }

    /// Runs the guest's step, its tool calls going through the step's gate.
    fn run(
        &mut self,
        claim: &Claim,
        wake: &Wake,
        now: Millis,
        loaded: &Loaded,
        under: Option<Uncommitted>,
    ) -> Ran {
        let run = &claim.run;
        let input = StepInput {
            run_id: run.run_id.clone(),
            step_number: run.steps + 1,
            now_ms: now,
            state: run.state.clone(),
            wake: wake.clone(),
            fuel_left: Some(run.fuel_budget - run.fuel_used),
        };
        let limits = &self.app.config.limits;
        let gate = StepGate::for_step(ForStep {
            store: self.app.store.lend(),
            tools: self.app.tools.clone(),
            clock: self.app.clock.clone(),
            run,
            epoch: claim.epoch,
            claim_ms: limits.claim_ms,
            granted: loaded.granted.clone(),
            now,
            calls_per_step: limits.tool_calls_per_step,
            under,
        });
        let (report, gate) = loaded.runtime.step(&loaded.agent, &input, gate);
        let (gate, store) = gate.finish();
        self.app.store.give_back(store);
        Ran { report, gate }
    }
}
