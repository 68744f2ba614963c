//! Moving live runs to another deployed version of their agent
//! (DESIGN.md, "Versions and upgrades"). The new version's `migrate` turns
//! each run's state into its shape, under the sandbox limits of a step, and
//! the new state is saved with an upgrade checkpoint in one transaction. A
//! run whose migration fails stays on its version, untouched, and the
//! failure is audited. A dry run migrates without saving.

use serde::Serialize;
use serde_json::json;

use crate::app::terms::Terms;
use crate::app::{App, AppError};
use crate::model::Wake;
use crate::runtime::StepInput;
use crate::store::{AgentVersion, AuditEntry, Migrated, Run, RunStatus, StoreError, UpgradeCommit};

/// What upgrading one run did, or would do.
#[derive(Debug, Serialize)]
pub struct Upgraded {
    pub run_id: String,
    pub from: String,
    pub to: String,
    #[serde(flatten)]
    pub result: UpgradeResult,
}

/// How one run's upgrade ended.
#[derive(Debug, Serialize, PartialEq, Eq)]
#[serde(tag = "result", content = "detail", rename_all = "snake_case")]
pub enum UpgradeResult {
    Upgraded,
    /// A dry run's migration succeeded; nothing was saved.
    WouldUpgrade,
    AlreadyOnVersion,
    /// The run has ended; ended runs keep their version.
    Ended,
    /// A worker is stepping the run; try again.
    Busy,
    /// The run stays on its version; the reason says why.
    Failed(String),
}

/// Options of an upgrade.
#[derive(Clone, Copy, Debug, Default)]
pub struct UpgradeOptions {
    pub dry_run: bool,
    /// Accept that the new version is granted tools the run's version was
    /// not: without it, such runs are not upgraded.
    pub allow_new_tools: bool,
    /// How a refusal says to accept new tools.
    pub terms: Terms,
}

/// Upgrades the given runs to version `to` of their agent; `by` is who
/// asked, for the audit log. The runs are taken in groups of up to
/// `[limits] steps_per_commit`, as a worker takes steps: each run of a group
/// is claimed and migrated, then the group is written in one transaction,
/// with one flush to disk.
pub fn upgrade_runs(
    app: &mut App,
    run_ids: &[String],
    to: &str,
    options: UpgradeOptions,
    by: &str,
) -> Result<Vec<Upgraded>, AppError> {
    let ask = Ask { to, options, by };
    let mut upgraded = Vec::with_capacity(run_ids.len());
    for group in run_ids.chunks(app.config.limits.steps_per_commit.max(1)) {
        upgraded.extend(upgrade_group(app, group, &ask)?);
    }
    Ok(upgraded)
}

/// What an upgrade asks of each of its runs.
struct Ask<'a> {
    to: &'a str,
    options: UpgradeOptions,
    /// Who asked, for the audit log.
    by: &'a str,
}

/// Where one run of a group stands before the group's commit.
enum Slot {
    Decided(UpgradeResult),
    /// Claimed: its end is the group's next commit, in order; `Some(error)`
    /// when its migration failed.
    Claimed(Option<String>),
}

fn upgrade_group(app: &mut App, run_ids: &[String], ask: &Ask) -> Result<Vec<Upgraded>, AppError> {
    let mut slots = Vec::with_capacity(run_ids.len());
    let mut commits = Vec::new();
    for id in run_ids {
        match plan(app, id, ask, &mut commits) {
            Ok(slot) => slots.push(slot),
            Err(e) => {
                give_back(app, &commits);
                return Err(e);
            }
        }
    }
    for c in commits.iter().filter(|c| c.to.is_some()) {
        crate::failpoint::hit("upgrade", &c.run_id);
    }
    let mut outcomes = if commits.is_empty() {
        vec![]
    } else {
        app.store.commit_upgrades(&commits)?
    }
    .into_iter();
    Ok(slots
        .into_iter()
        .map(|(upgraded, slot)| {
            let result = match slot {
                Slot::Decided(result) => result,
                Slot::Claimed(failed) => {
                    match outcomes.next().expect("one outcome per commit") {
                        Ok(()) => failed.map_or(UpgradeResult::Upgraded, UpgradeResult::Failed),
                        // Its claim ran out while the group migrated, and a
                        // worker took the run.
                        Err(StoreError::LostClaim { .. }) => UpgradeResult::Busy,
                        Err(e) => UpgradeResult::Failed(e.to_string()),
                    }
                }
            };
            Upgraded { result, ..upgraded }
        })
        .collect())
}

/// Gives back the claims of a group that will not be committed. A claim
/// that cannot be given back runs out after `[limits] claim_ms`.
fn give_back(app: &mut App, commits: &[UpgradeCommit]) {
    for c in commits {
        let _ = app.store.release(&c.run_id, c.epoch);
    }
}

/// Checks, claims and migrates one run; what its group's commit must
/// write for it is pushed on `commits`.
fn plan(
    app: &mut App,
    run_id: &str,
    ask: &Ask,
    commits: &mut Vec<UpgradeCommit>,
) -> Result<(Upgraded, Slot), AppError> {
    let to = ask.to;
    let run = app.run(run_id)?;
    let Some(target) = app.store.agent(&run.agent, Some(to))? else {
        let deployed = app
            .store
            .agents()?
            .into_iter()
            .filter(|a| a.name == run.agent)
            .map(|a| a.version)
            .collect();
        return Err(AppError::UnknownVersion {
            agent: run.agent.clone(),
            version: to.to_string(),
            deployed,
        });
    };
    let slot = plan_one(app, &run, &target, ask, commits)?;
    Ok((
        Upgraded {
            run_id: run.run_id.clone(),
            from: run.version.clone(),
            to: target.version.clone(),
            result: UpgradeResult::Upgraded,
        },
        slot,
    ))
}

/// The live runs of an agent, for `upgrade --agent`.
pub fn live_runs(app: &App, agent: &str) -> Result<Vec<String>, AppError> {
    Ok(app.store.live_run_ids(agent)?)
}

fn is_live(status: RunStatus) -> bool {
    matches!(
        status,
        RunStatus::Active | RunStatus::Waiting | RunStatus::Parked
    )
}

fn plan_one(
    app: &mut App,
    run: &Run,
    target: &AgentVersion,
    ask: &Ask,
    commits: &mut Vec<UpgradeCommit>,
) -> Result<Slot, AppError> {
    let (options, by) = (ask.options, ask.by);
    if !is_live(run.status) {
        return Ok(Slot::Decided(UpgradeResult::Ended));
    }
    if run.version == target.version {
        return Ok(Slot::Decided(UpgradeResult::AlreadyOnVersion));
    }
    let current = app.store.agent(&run.agent, Some(&run.version))?;
    let had: &[String] = current.as_ref().map_or(&[], |c| &c.granted_tools);
    let new_tools: Vec<&String> = target
        .granted_tools
        .iter()
        .filter(|t| !had.contains(t))
        .collect();
    if !new_tools.is_empty() && !options.allow_new_tools {
        let names: Vec<&str> = new_tools.iter().map(|s| s.as_str()).collect();
        return Ok(Slot::Decided(UpgradeResult::Failed(format!(
            "{}@{} is granted tools {}@{} was not: {}; {} to accept them",
            target.name,
            target.version,
            run.agent,
            run.version,
            names.join(", "),
            options.terms.allow_new_tools()
        ))));
    }
    if options.dry_run {
        return Ok(Slot::Decided(match migrate(app, run, target) {
            Ok(_) => UpgradeResult::WouldUpgrade,
            Err(e) => UpgradeResult::Failed(e),
        }));
    }
    let now = app.now();
    let owner = format!("upgrade:{}", std::process::id());
    let claim_ms = app.config.limits.claim_ms;
    let Some(claim) = app.store.claim_run(&run.run_id, now, &owner, claim_ms)? else {
        return Ok(Slot::Decided(UpgradeResult::Busy));
    };
    // The claim's copy is the truth: the run may have stepped since `run`.
    let run = &claim.run;
    let (to, audit, failed) = match migrate(app, run, target) {
        Ok(state) => (
            Some(Migrated {
                version: target.version.clone(),
                digest: target.digest.clone(),
                state,
            }),
            AuditEntry {
                run_id: Some(run.run_id.clone()),
                kind: "upgrade".into(),
                data: json!({"from": run.version, "to": target.version,
                    "digest": target.digest, "by": by}),
            },
            None,
        ),
        Err(error) => (
            None,
            AuditEntry {
                run_id: Some(run.run_id.clone()),
                kind: "upgrade failed".into(),
                data: json!({"from": run.version, "to": target.version, "error": error,
                    "by": by}),
            },
            Some(error),
        ),
    };
    commits.push(UpgradeCommit {
        run_id: run.run_id.clone(),
        epoch: claim.epoch,
        to,
        audit: vec![audit],
        at: now,
    });
    Ok(Slot::Claimed(failed))
}

/// Runs the target version's `migrate` on the run's state.
fn migrate(app: &App, run: &Run, target: &AgentVersion) -> Result<String, String> {
    let runtime = app.runtime().map_err(|e| e.to_string())?;
    let agent = runtime
        .load_stored(&target.digest, |max| {
            app.store
                .agent_bytes(&target.digest, max)
                .map_err(|e| e.to_string())
        })
        .map_err(|e| format!("cannot load {}@{}: {e}", target.name, target.version))?;
    let input = StepInput {
        run_id: run.run_id.clone(),
        step_number: run.steps + 1,
        now_ms: app.now(),
        state: run.state.clone(),
        wake: Wake::Resume,
        fuel_left: Some(run.fuel_budget.saturating_sub(run.fuel_used)),
    };
    runtime
        .migrate(&agent, &input, &run.version)
        .map_err(|e| format!("migrate failed: {e}"))
}
