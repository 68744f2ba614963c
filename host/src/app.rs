//! The host as the CLI and the HTTP API drive it: one store, one lazily
//! built runtime, the config and the tools. Operations here check their
//! input and write through the store; they hold no SQL and no wasmtime.
//! Every operator act takes `by`, who acted (the CLI's `--by`, the API
//! token's name), and names it in its audit row. Refusals that say what to
//! do are structured ([`AppError::BadInput`], [`AppError::MissingGrants`]…)
//! so that each front end words them in its own terms ([`terms`]).

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use crate::clock::{Clock, SystemClock};
use crate::config::Config;
use crate::model::Millis;
use crate::runtime::{LoadError, Runtime, RuntimeError};
use crate::store::{AgentVersion, AnswerRefused, AuditEntry, NewRun, Run, StoreError};
use crate::tools::Tools;
use terms::Terms;

mod controls;
mod deploy;
mod gated;
mod names;
mod reads;
mod slot;
pub mod terms;
mod triggers;

pub use deploy::{Deployed, OwnerChange, check_info};
pub use reads::{HostView, RunRecord};
pub use slot::StoreSlot;
pub use triggers::{Acting, OS_PRINCIPAL, Sent};

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
    /// A run that `prune` deleted: its id is known, its audit rows remain.
    #[error("{}", self.worded(Terms::Cli))]
    PrunedRun(crate::store::RetiredRun),
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
    /// An answer to run `.0`'s approval request that names no digest of
    /// the details it answers.
    #[error("{}", self.worded(Terms::Cli))]
    MissingDigest(String),
    /// The caller may not do this: separation of duties, an approver a
    /// tool's rule does not name, an answer link for a request that needs
    /// named approvers.
    #[error("{0}")]
    Forbidden(String),
}

pub type Result<T, E = AppError> = std::result::Result<T, E>;

/// The host's state for one process.
pub struct App {
    pub store: StoreSlot,
    pub config: Config,
    /// Shared with each step's gate, which owns what it uses.
    pub tools: Arc<Tools>,
    pub clock: Arc<dyn Clock>,
    data_dir: PathBuf,
    /// Built on first use: read-only commands never start an engine.
    runtime: OnceLock<Arc<Runtime>>,
}

/// The key approval links are derived with (`store::links`): the file or
/// variable `[links]` names (else `WAKEFUL_LINK_KEY_FILE`), else, for a
/// host on its own SQLite file, `<data>/link-key`, made on first use.
fn link_key(config: &Config, data_dir: &Path) -> Result<crate::store::links::LinkKey> {
    let from_env = std::env::var_os("WAKEFUL_LINK_KEY_FILE")
        .filter(|f| !f.is_empty())
        .map(PathBuf::from);
    let file = config.links.key_file.clone().or(from_env);
    let source = crate::store::links::KeySource {
        file: file.as_deref(),
        env: config.links.key_env.as_deref(),
        shared_store: config.store_url().is_some_and(crate::store::is_postgres),
        own_file: &data_dir.join("link-key"),
    };
    crate::store::links::load_key(&source).map_err(AppError::Invalid)
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
        let mut store = crate::store::open(config.store_url(), data_dir)?;
        store.set_link_key(link_key(&config, data_dir)?);
        Ok(App {
            store: StoreSlot::new(store),
            tools: Arc::new(Tools::from_config(&config)),
            config,
            clock: Arc::new(SystemClock),
            data_dir: data_dir.to_path_buf(),
            runtime: OnceLock::new(),
        })
    }

    /// The data directory this app was opened on.
    pub fn data_dir(&self) -> &Path {
        &self.data_dir
    }

    /// The store URL this app was opened with, if one was given.
    pub fn store_url(&self) -> Option<&str> {
        self.config.store_url()
    }

    pub fn runtime(&self) -> Result<Arc<Runtime>> {
        if let Some(rt) = self.runtime.get() {
            return Ok(rt.clone());
        }
        let rt = Arc::new(Runtime::new(
            &self.config.cache_dir(&self.data_dir),
            self.config.runtime_limits(),
        )?);
        Ok(self.runtime.get_or_init(|| rt).clone())
    }

    /// Starts a packer thread on a store handle of its own, for the
    /// workers of this process to hand the runs they end to
    /// ([`SqlStore::pack_by`]).
    pub fn start_packer(&self) -> Result<crate::packer::Packer> {
        let store = crate::store::open(self.config.store_url(), &self.data_dir)?;
        crate::packer::Packer::start(Box::new(store))
            .map_err(|e| AppError::Invalid(format!("cannot start the packer thread: {e}")))
    }

    /// Makes this app use an engine built elsewhere in the process, so
    /// that worker threads share one engine and one compiled-agent cache.
    pub fn share_runtime(&self, runtime: Arc<Runtime>) {
        let _ = self.runtime.set(runtime);
    }

    pub fn now(&self) -> Millis {
        self.clock.now()
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
        let audit = AuditEntry {
            run_id: Some(run_id.clone()),
            kind: "start".into(),
            data: serde_json::json!({"agent": version.name, "version": version.version, "by": by}),
        };
        self.store.create_run_audited(
            &NewRun {
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
            },
            &audit,
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
        Ok(match self.store.retired_run(run_id)? {
            Some(retired) => AppError::PrunedRun(retired),
            None => AppError::UnknownRun(run_id.to_string()),
        })
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
///
/// A new directory's entry is on disk only once the directory that holds
/// it is flushed: until then a power cut could take the data directory,
/// and the store SQLite flushes inside it, away whole. So each directory
/// made here is flushed into its parent before the call returns.
pub fn private_dir(dir: &Path) -> std::io::Result<()> {
    let made: Vec<&Path> = dir
        .ancestors()
        .take_while(|d| !d.as_os_str().is_empty() && !d.exists())
        .collect();
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir)?;
    #[cfg(feature = "failpoints")]
    for made in &made {
        crate::power_log::made_dir(made);
    }
    for made in made {
        flush_entry(made)?;
    }
    Ok(())
}

/// Flushes the directory that holds `path`: `path`'s entry is then on disk.
fn flush_entry(path: &Path) -> std::io::Result<()> {
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    #[cfg(feature = "failpoints")]
    let covers = crate::power_log::position();
    std::fs::File::open(parent)?.sync_all()?;
    #[cfg(feature = "failpoints")]
    crate::power_log::entry_flushed(path, covers);
    Ok(())
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
