//! The host as the CLI (and later the HTTP API) drives it: one store, one
//! lazily built runtime, the config and the tools. Operations here check
//! their input and write through the store; they hold no SQL and no wasmtime.
//! Every operator act takes `by`, who acted (the CLI's `--by`, the API
//! token's name), and names it in its audit row. Refusals that say what to
//! do are structured ([`AppError::BadInput`], [`AppError::MissingGrants`]…)
//! so that each front end words them in its own terms ([`crate::terms`]).

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use serde::Serialize;

use crate::clock::{Clock, SystemClock};
use crate::config::Config;
use crate::model::{ApprovalAnswer, Event, Millis};
use crate::runtime::{LoadError, Runtime, RuntimeError};
use crate::store::sqlite::SqliteStore;
use crate::store::{
    AgentVersion, AnswerRefused, AuditEntry, Budgets, Delivery, KvOp, KvOutcome, NewRun, PutAgent,
    Resolution, ResolveRefused, Run, Store, StoreError, Switch,
};
use crate::terms::Terms;
use crate::tools::Tools;

mod names;
mod reads;

pub use reads::RunRecord;

/// Everything an operation can refuse or fail with. Messages name what was
/// wrong and what to do.
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Load(#[from] LoadError),
    #[error(transparent)]
    Runtime(#[from] RuntimeError),
    #[error(transparent)]
    Refused(#[from] AnswerRefused),
    #[error("{0}")]
    Invalid(String),
    /// An input refused for `problem`; `word` names it (`--word` on the
    /// command line, the field `word` in the API: see [`Terms`]).
    #[error("{}", self.worded(Terms::Cli))]
    BadInput { word: &'static str, problem: String },
    /// A deploy that does not grant every tool the component asks for.
    #[error("{}", self.worded(Terms::Cli))]
    MissingGrants {
        /// `name@version`.
        agent: String,
        tools: Vec<String>,
    },
    #[error("{}", self.worded(Terms::Cli))]
    UnknownRun(String),
    /// `name` or `name@version`.
    #[error("{}", self.worded(Terms::Cli))]
    UnknownAgent(String),
    /// An agent that has no such version deployed.
    #[error("{}", self.worded(Terms::Cli))]
    UnknownVersion {
        agent: String,
        version: String,
        /// The versions of `agent` that are deployed.
        deployed: Vec<String>,
    },
    #[error("{0}")]
    NotFound(String),
    /// The request is sound but the state of things refuses it now.
    #[error("{0}")]
    Conflict(String),
}

pub type Result<T, E = AppError> = std::result::Result<T, E>;

/// The host's state for one process.
pub struct App {
    pub store: Box<dyn Store>,
    pub config: Config,
    pub tools: Tools,
    pub clock: Box<dyn Clock>,
    data_dir: PathBuf,
    /// Built on first use: read-only commands never start an engine.
    runtime: OnceLock<Arc<Runtime>>,
}

/// What `deploy` did.
#[derive(Debug, Serialize)]
pub struct Deployed {
    /// The version as stored (an existing one keeps its deploy time).
    pub agent: AgentVersion,
    pub already_deployed: bool,
    /// The version was already deployed and `--owner` named someone else:
    /// the owner before the change (`None`: it had none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub owner_changed: Option<OwnerChange>,
    /// Granted tools this host has no implementation for: calls to them fail
    /// with `unknown` until the config adds them.
    pub unconfigured_tools: Vec<String>,
}

/// Who answered for a version before its owner was changed.
#[derive(Debug, Serialize)]
pub struct OwnerChange {
    pub was: Option<String>,
}

/// How one `send` went for one run.
#[derive(Debug, Serialize)]
pub struct Sent {
    pub run_id: String,
    pub delivery: Delivery,
    /// Set when the run does not wait on the event's topic now: the event
    /// is kept for it, and this says what the run waits on instead.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub held: Option<String>,
}

/// Why an event on `topic` stored for `run` wakes nothing now, if it does
/// not: said to the sender, so that a typo in the topic is seen at once.
fn held_because(run: &Run, topic: &str) -> Option<String> {
    let waits_on_topic = run
        .waits
        .iter()
        .any(|w| matches!(w, crate::model::WaitFor::Event { topic: t } if t == topic));
    if waits_on_topic && run.status == crate::store::RunStatus::Waiting {
        return None;
    }
    let now = match (run.status, run.wake_when.as_deref()) {
        (crate::store::RunStatus::Active, _) if run.steps == 0 => {
            "has not taken its first step yet".to_string()
        }
        (crate::store::RunStatus::Parked, _) => format!(
            "is parked ({})",
            run.last_error.as_deref().unwrap_or("see `wakeful show`")
        ),
        (_, Some(waits)) if !waits.is_empty() => format!("waits on {waits}"),
        _ => "waits on nothing".to_string(),
    };
    Some(format!(
        "run {} {now}, not on topic `{topic}`; the event is held for it and delivered when it \
         waits on `{topic}` (`wakeful show {}` lists held events)",
        run.run_id, run.run_id
    ))
}

impl App {
    /// Opens (creating if needed) the data directory. A directory it
    /// creates is private to this user (0700): whoever can write the data
    /// directory owns the host (see [`private_dir`]).
    pub fn open(data_dir: &Path, config: Config) -> Result<App> {
        private_dir(data_dir).map_err(|e| {
            AppError::Invalid(format!(
                "cannot create data directory {}: {e}",
                data_dir.display()
            ))
        })?;
        let store = SqliteStore::open(data_dir.join("wakeful.db"))?;
        Ok(App {
            store: Box::new(store),
            tools: Tools::from_config(&config),
            config,
            clock: Box::new(SystemClock),
            data_dir: data_dir.to_path_buf(),
            runtime: OnceLock::new(),
        })
    }

    pub fn runtime(&self) -> Result<Arc<Runtime>> {
        if let Some(rt) = self.runtime.get() {
            return Ok(rt.clone());
        }
        let rt = Arc::new(Runtime::new(
            &self.data_dir.join("cache"),
            self.config.runtime_limits(),
        )?);
        Ok(self.runtime.get_or_init(|| rt).clone())
    }

    /// Makes this app use an engine built elsewhere in the process, so
    /// that worker threads share one engine and one compiled-agent cache.
    pub fn share_runtime(&self, runtime: Arc<Runtime>) {
        let _ = self.runtime.set(runtime);
    }

    pub fn now(&self) -> Millis {
        self.clock.now()
    }

    /// Checks a component, asks it what it is, and records it with its grants.
    pub fn deploy(
        &mut self,
        bytes: &[u8],
        grants: &[String],
        grant_all: bool,
        owner: Option<&str>,
        by: &str,
    ) -> Result<Deployed> {
        if owner.is_some_and(|o| o.trim().is_empty()) {
            return Err(AppError::BadInput {
                word: "owner",
                problem: "is empty: name who answers for this agent".into(),
            });
        }
        let runtime = self.runtime()?;
        let loaded = runtime.load(bytes)?;
        let info = runtime
            .info(&loaded)
            .map_err(|e| AppError::Invalid(format!("the component's `info` export failed: {e}")))?;
        if info.name.is_empty()
            || !info
                .name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            return Err(AppError::Invalid(format!(
                "the component calls itself `{}`; an agent name is letters, digits, `-` and `_`",
                info.name
            )));
        }
        semver::Version::parse(&info.version).map_err(|e| {
            AppError::Invalid(format!(
                "the component's version `{}` is not semver: {e}",
                info.version
            ))
        })?;
        let granted: Vec<String> = if grant_all {
            info.tools.clone()
        } else {
            if let Some(extra) = grants.iter().find(|g| !info.tools.contains(g)) {
                return Err(AppError::Invalid(format!(
                    "{}@{} does not ask for tool `{extra}`; it asks for: {}",
                    info.name,
                    info.version,
                    list_or_none(&info.tools)
                )));
            }
            grants.to_vec()
        };
        let missing: Vec<String> = info
            .tools
            .iter()
            .filter(|t| !granted.contains(t))
            .cloned()
            .collect();
        if !missing.is_empty() {
            return Err(AppError::MissingGrants {
                agent: format!("{}@{}", info.name, info.version),
                tools: missing,
            });
        }
        let version = AgentVersion {
            name: info.name.clone(),
            version: info.version.clone(),
            digest: loaded.digest.clone(),
            description: info.description.clone(),
            requested_tools: info.tools.clone(),
            granted_tools: granted.clone(),
            size: bytes.len() as u64,
            deployed_at: self.now(),
            owner: owner.map(str::to_string),
        };
        let put = self.store.put_agent(&version, bytes)?;
        let version = match put {
            PutAgent::Inserted => version,
            // What is stored: its deploy time, and its owner unless changed.
            _ => self
                .store
                .agent(&version.name, Some(&version.version))?
                .unwrap_or(version),
        };
        if put == PutAgent::Inserted {
            self.audit(
                None,
                "deploy",
                serde_json::json!({"agent": version.name, "version": version.version,
                    "digest": version.digest, "granted": granted, "owner": owner, "by": by}),
            )?;
        }
        let unconfigured_tools = version
            .granted_tools
            .iter()
            .filter(|t| !self.tools.knows(t))
            .cloned()
            .collect();
        Ok(Deployed {
            agent: version,
            already_deployed: put != PutAgent::Inserted,
            owner_changed: match put {
                PutAgent::OwnerChanged { was } => Some(OwnerChange { was }),
                _ => None,
            },
            unconfigured_tools,
        })
    }

    /// Resolves `name` or `name@version` to a deployed version.
    pub fn resolve_agent(&self, spec: &str) -> Result<AgentVersion> {
        let (name, version) = match spec.split_once('@') {
            Some((n, v)) => (n, Some(v)),
            None => (spec, None),
        };
        self.store
            .agent(name, version)?
            .ok_or_else(|| AppError::UnknownAgent(spec.to_string()))
    }

    /// Starts a run of an agent version with a JSON input.
    pub fn start(
        &mut self,
        agent: &str,
        input: Option<&str>,
        run_id: Option<&str>,
        by: &str,
    ) -> Result<Run> {
        let version = self.resolve_agent(agent)?;
        let input = input.unwrap_or("null");
        self.check_input("input", input)?;
        let run_id = match run_id {
            Some(id) => {
                check_id("run id", id)?;
                id.to_string()
            }
            None => new_run_id(),
        };
        let now = self.now();
        let limits = &self.config.limits;
        self.store.create_run(&NewRun {
            run_id: run_id.clone(),
            agent: version.name.clone(),
            version: version.version.clone(),
            digest: version.digest.clone(),
            input: input.to_string(),
            step_budget: limits.steps_per_run,
            fuel_budget: limits.fuel_per_run,
            token_budget: limits.tokens_per_run,
            usd_budget: limits.usd_per_run,
            created_at: now,
        })?;
        self.audit(
            Some(&run_id),
            "start",
            serde_json::json!({"agent": version.name, "version": version.version, "by": by}),
        )?;
        self.run(&run_id)
    }

    pub fn run(&self, run_id: &str) -> Result<Run> {
        match self.store.run(run_id)? {
            Some(run) => Ok(run),
            None => Err(self.no_run(run_id)?),
        }
    }

    /// Refuses an id that never named a run; a pruned run's id is known
    /// (its audit rows remain).
    pub fn check_run_id(&self, run_id: &str) -> Result<()> {
        if self.store.run(run_id)?.is_some() || self.store.retired_run(run_id)?.is_some() {
            return Ok(());
        }
        Err(self.no_run(run_id)?)
    }

    /// Why `run_id` names no live record: pruned, or never a run.
    fn no_run(&self, run_id: &str) -> Result<AppError> {
        Ok(AppError::NotFound(
            match self.store.retired_run(run_id)? {
                Some(r) => format!(
                    "run {run_id} ({}@{}) ended {} at {} and was pruned at {}; its audit rows \
                 remain: `wakeful audit {run_id}`, `GET /v1/runs/{run_id}/audit`",
                    r.agent,
                    r.version,
                    r.status,
                    crate::clock::rfc3339(r.ended_at),
                    crate::clock::rfc3339(r.pruned_at)
                ),
                None => return Ok(AppError::UnknownRun(run_id.to_string())),
            },
        ))
    }

    /// Delivers an event to one run, or (without a run) to every run waiting
    /// on its topic.
    pub fn send(
        &mut self,
        run_id: Option<&str>,
        topic: &str,
        event_id: &str,
        payload: Option<&str>,
        by: &str,
    ) -> Result<Vec<Sent>> {
        if topic.trim().is_empty() {
            return Err(AppError::Invalid("--topic is empty".into()));
        }
        check_id("event id", event_id)?;
        let payload = payload.unwrap_or("null");
        self.check_json("--payload", payload)?;
        let event = Event {
            id: event_id.to_string(),
            topic: topic.to_string(),
            payload: payload.to_string(),
            received_at: self.now(),
        };
        let keep_ms = self
            .config
            .retention
            .broadcast_hours
            .saturating_mul(3_600_000);
        let sent: Vec<Sent> = match run_id {
            Some(id) => {
                let run = self.run(id)?;
                let delivery = self.store.deliver_event(id, &event)?;
                let held = (delivery == Delivery::Accepted)
                    .then(|| held_because(&run, topic))
                    .flatten();
                vec![Sent {
                    run_id: id.to_string(),
                    delivery,
                    held,
                }]
            }
            None => self
                .store
                .broadcast_event(&event, event.received_at.saturating_add(keep_ms))?
                .into_iter()
                .map(|(run_id, delivery)| Sent {
                    run_id,
                    delivery,
                    held: None,
                })
                .collect(),
        };
        for s in sent.iter().filter(|s| s.delivery == Delivery::Accepted) {
            self.audit(
                Some(&s.run_id),
                "event",
                serde_json::json!({"id": event.id, "topic": event.topic, "by": by}),
            )?;
        }
        Ok(sent)
    }

    /// Records a human's answer to an approval request, stamped now.
    pub fn approve(
        &mut self,
        run_id: &str,
        request_id: &str,
        by: &str,
        approved: bool,
        comment: Option<&str>,
        details_digest: Option<&str>,
    ) -> Result<crate::store::Approval> {
        if by.trim().is_empty() {
            return Err(AppError::BadInput {
                word: "by",
                problem: "is empty: say who answers".into(),
            });
        }
        let answer = ApprovalAnswer {
            request_id: request_id.to_string(),
            approved,
            by: by.to_string(),
            at: self.now(),
            comment: comment.map(str::to_string),
            digest: String::new(),
        };
        let run = self.run(run_id)?;
        crate::failpoint::hit("approval-answer", run_id);
        match self
            .store
            .answer_approval(run_id, &answer, details_digest)?
        {
            Ok(approval) => Ok(approval),
            Err(refused @ AnswerRefused::UnknownRequest { .. }) => {
                let pending: Vec<String> =
                    crate::view::pending_approvals(&run, &self.store.approvals(run_id)?)
                        .iter()
                        .map(|a| a.id.clone())
                        .collect();
                Err(AppError::NotFound(format!(
                    "{refused}; it waits for {}",
                    if pending.is_empty() {
                        "no approval".to_string()
                    } else {
                        format!("approval of: {}", pending.join(", "))
                    }
                )))
            }
            Err(refused) => Err(refused.into()),
        }
    }

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
        if let KvOp::Get { .. } = op {
            return Ok(self.store.kv(op, None, now)?);
        }
        let key = match op {
            KvOp::Put { key, .. } | KvOp::Delete { key, .. } | KvOp::Get { key } => key.clone(),
        };
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
    /// [`Store::resolve`](crate::store::Store::resolve)).
    pub fn resolve(
        &mut self,
        run_id: &str,
        key: &str,
        resolution: &Resolution,
        by: &str,
    ) -> Result<()> {
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
        match self.store.resolve(run_id, key, resolution, by, at)? {
            Ok(()) => Ok(()),
            Err(refused @ ResolveRefused::NotParked { .. }) => {
                Err(AppError::Conflict(refused.to_string()))
            }
            Err(refused) => Err(AppError::NotFound(refused.to_string())),
        }
    }

    pub fn audit(
        &mut self,
        run_id: Option<&str>,
        kind: &str,
        data: serde_json::Value,
    ) -> Result<()> {
        let at = self.now();
        self.store.append_audit(
            &AuditEntry {
                run_id: run_id.map(str::to_string),
                kind: kind.to_string(),
                data,
            },
            at,
        )?;
        Ok(())
    }

    /// Refuses text that is not JSON or is over the payload limit.
    pub fn check_json(&self, what: &str, text: &str) -> Result<()> {
        match self.json_problem(text) {
            Some(problem) => Err(AppError::Invalid(format!("{what} {problem}"))),
            None => Ok(()),
        }
    }

    /// [`App::check_json`] of an operation's input named `word` (see
    /// [`AppError::BadInput`]).
    pub fn check_input(&self, word: &'static str, text: &str) -> Result<()> {
        match self.json_problem(text) {
            Some(problem) => Err(AppError::BadInput { word, problem }),
            None => Ok(()),
        }
    }

    fn json_problem(&self, text: &str) -> Option<String> {
        let limit = self.config.limits.max_payload_bytes;
        if text.len() > limit {
            return Some(format!(
                "is {} bytes; the limit is {limit} (limits.max_payload_bytes)",
                text.len()
            ));
        }
        serde_json::from_str::<serde_json::Value>(text)
            .err()
            .map(|e| format!("is not valid JSON: {e}"))
    }
}

/// Creates `dir` and its missing parents readable, writable and listable by
/// this user only (0700 on Unix). The data directory holds the store and
/// the compiled-component cache, whose files the host loads as native
/// code: anyone who can write there runs code in the host. An existing
/// directory is left as it is.
pub fn private_dir(dir: &Path) -> std::io::Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir)
}

fn list_or_none(items: &[String]) -> String {
    if items.is_empty() {
        "no tools".into()
    } else {
        items.join(", ")
    }
}

/// Ids appear in CLI arguments, URLs and audit rows: keep them plain.
pub(crate) fn check_id(what: &str, id: &str) -> Result<()> {
    let ok = !id.is_empty()
        && id.len() <= 128
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | ':' | '@'));
    if ok {
        Ok(())
    } else {
        Err(AppError::Invalid(format!(
            "{what} `{id}` is not valid: use 1-128 letters, digits and - _ . : @"
        )))
    }
}

/// A fresh run id: `run_` and 16 hex digits of OS randomness.
fn new_run_id() -> String {
    let mut bytes = [0u8; 8];
    // The OS source failing is not something a run id can recover from.
    getrandom::fill(&mut bytes).expect("the OS random source failed");
    format!("run_{}", hex::encode(bytes))
}
