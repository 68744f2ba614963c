//! `wakeful.toml`: tools and limits. Every setting has a safe default, so a
//! host with no config file at all runs on a local SQLite file.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;

pub mod approval;
pub use approval::{ApprovalConfig, ApprovalRule};
pub mod api_tokens;
pub mod mcp;
pub use mcp::McpToolConfig;

/// The whole configuration file.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    #[serde(default)]
    pub limits: LimitsConfig,
    /// Configured tools by name, besides the built-in `kv`, `lease` and
    /// `callback`.
    #[serde(default)]
    pub tools: BTreeMap<String, ToolConfig>,
    #[serde(default)]
    pub api: ApiConfig,
    #[serde(default)]
    pub retention: RetentionConfig,
    #[serde(default)]
    pub store: StoreConfig,
    #[serde(default)]
    pub cache: CacheConfig,
    /// `[secrets.<name>]`: credentials that tools name as
    /// `${secret:NAME}` (see [`crate::secrets`]).
    #[serde(default)]
    pub secrets: BTreeMap<String, crate::secrets::SecretConfig>,
    /// Their values, read by [`Config::parse`].
    #[serde(skip)]
    pub secret_values: crate::secrets::Secrets,
    /// Named sets of principals, which `approvers` lists as `group:NAME`.
    #[serde(default)]
    pub groups: BTreeMap<String, Vec<String>>,
    /// Who may answer approval requests, and the tools whose calls need
    /// an approval the gate checks.
    #[serde(default)]
    pub approvals: ApprovalConfig,
    #[serde(default)]
    pub links: LinksConfig,
}

/// `[links]`: the key approval links are derived with (`store::links`).
/// Hosts sharing a PostgreSQL store must name the same key; a host on its
/// own SQLite file keeps its own in `<data>/link-key`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct LinksConfig {
    /// A file (0600) holding the key as 64 hex digits.
    pub key_file: Option<std::path::PathBuf>,
    /// The name of an environment variable holding the key as 64 hex digits.
    pub key_env: Option<String>,
}

/// Where compiled agents are kept, and how much of them.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct CacheConfig {
    /// The directory of compiled agents and compiled functions. Unset:
    /// `cache` in the data directory. Hosts with several data directories
    /// on one machine can share one: artifacts are named by the
    /// component's digest and the engine's settings, and a new build of
    /// an agent reuses the functions an earlier one compiled. Its files
    /// are loaded as native code, so it is refused unless it belongs to
    /// the host's user and no one else may write it (it is created 0700),
    /// and every file of code in it is sealed with the key in its `key`
    /// file (0600), which every host sharing it uses. `--cache` and
    /// `WAKEFUL_CACHE` take precedence.
    pub dir: Option<std::path::PathBuf>,
    /// Bytes on disk the directory may hold (precompiled agents and
    /// compiled functions): after each compile, the least recently used
    /// files are removed until it fits. A removed file only costs a
    /// compile, from the component stored in the store, when it is next
    /// needed. A process never removes the artifacts it has loaded, so the
    /// cache may stay above the bound while one process uses more. Hosts
    /// sharing the directory each prune it to their own bound. Default
    /// 2 GiB.
    pub max_bytes: u64,
}

impl Default for CacheConfig {
    fn default() -> Self {
        CacheConfig {
            dir: None,
            max_bytes: crate::runtime::prune::DEFAULT_MAX_BYTES,
        }
    }
}

impl CacheConfig {
    fn check(&self) -> Result<(), String> {
        if self.max_bytes == 0 {
            return Err(
                "cache.max_bytes must be at least 1 (bytes on disk of compiled agents kept); \
                 leave it out for the default of 2 GiB, and use `wakeful cache prune \
                 --max-bytes 0` to empty the cache once"
                    .into(),
            );
        }
        Ok(())
    }
}

/// Where runs are stored.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StoreConfig {
    /// `postgres://USER@HOST:PORT/DATABASE` for a PostgreSQL store shared
    /// by several hosts, or `sqlite:PATH` for a SQLite file elsewhere than
    /// the data directory. Unset: the SQLite file `wakeful.db` in the data
    /// directory. `--store` and `WAKEFUL_STORE` take precedence.
    pub url: Option<String>,
}

/// How long ended runs and sent events are kept.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RetentionConfig {
    /// Days a done or cancelled run (its state, checkpoints, inbox,
    /// approvals and ledger) is kept after it ended; `wakeful serve` prunes
    /// older ones hourly, `wakeful prune` on demand. Unset: kept forever.
    /// The audit log is never pruned.
    pub ended_runs_days: Option<u64>,
    /// Hours an event sent to a topic (`send --topic` without a run) is
    /// kept for the runs that were live when it was sent but did not wait
    /// on the topic yet: each gets it once, when it next waits on it.
    pub broadcast_hours: u64,
    /// Checkpoints kept of each run: each step keeps the newest N and
    /// deletes the older ones in its own commit, so that a long-lived run's
    /// history stays bounded. Unset: every checkpoint is kept. The run's
    /// state, its step count and the audit log's line per step are kept
    /// either way.
    pub checkpoints_per_run: Option<u64>,
}

impl Config {
    /// The config a command runs with: the file named, else `wakeful.toml`
    /// in the working directory if there is one, else the defaults; then
    /// a store URL and a cache directory given on the command line (empty
    /// ones ignored) over it. `wakeful` and `wakeful-bench` load it alike.
    pub fn for_command(
        file: Option<&Path>,
        store: Option<&str>,
        cache: Option<&Path>,
    ) -> Result<Config, ConfigError> {
        let default = Path::new("wakeful.toml");
        let mut config = match file {
            Some(path) => Config::load(path)?,
            None if default.exists() => Config::load(default)?,
            None => Config::default(),
        };
        if let Some(url) = store.filter(|u| !u.is_empty()) {
            config.store.url = Some(url.to_string());
        }
        if let Some(dir) = cache.filter(|d| !d.as_os_str().is_empty()) {
            config.cache.dir = Some(dir.to_path_buf());
        }
        Ok(config)
    }

    /// The store URL, if one is configured.
    pub fn store_url(&self) -> Option<&str> {
        self.store.url.as_deref().filter(|u| !u.is_empty())
    }

    /// The directory of compiled agents for the data directory `data`.
    pub fn cache_dir(&self, data: &std::path::Path) -> std::path::PathBuf {
        self.cache
            .dir
            .clone()
            .filter(|d| !d.as_os_str().is_empty())
            .unwrap_or_else(|| data.join("cache"))
    }
}

impl Default for RetentionConfig {
    fn default() -> Self {
        RetentionConfig {
            ended_runs_days: None,
            broadcast_hours: 24,
            checkpoints_per_run: None,
        }
    }
}

/// The HTTP API of `wakeful serve`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ApiConfig {
    /// Address to listen on, e.g. `127.0.0.1:7070`; `--listen` and
    /// `WAKEFUL_LISTEN` win over it.
    pub listen: Option<String>,
    /// Refused when set: a token is never written in the file
    /// (`WAKEFUL_API_TOKEN`, or `[api.tokens.<name>]` by hash).
    pub token: Option<String>,
    /// The API's tokens by name (`[api.tokens.alice]`, each with its hash
    /// or variable and its scopes): the audit log names who made each
    /// change by the name of the token the request carried. Without any
    /// (nor `WAKEFUL_API_TOKEN`), `serve` creates an admin token in
    /// `<data>/api-token`.
    pub tokens: BTreeMap<String, api_tokens::TokenEntry>,
    /// Host names (or `name:port`) the API answers to besides its listen
    /// address (and `localhost` on loopback), e.g. behind a proxy. A
    /// request naming another `Host` is refused: DNS rebinding.
    pub allowed_hosts: Vec<String>,
    /// The address other systems reach this API at, e.g.
    /// `https://wakeful.example.com`: the base of the callback links the
    /// `callback` tool hands out. Unset: `serve` uses its listen address,
    /// `work` `http://` and `listen` (or `127.0.0.1:7070`).
    pub public_url: Option<String>,
    /// Connections `serve` holds open at once, each a file descriptor. A
    /// new one past it closes a connection that waits on its client (the
    /// longest-waiting one of the client with the most); while none waits,
    /// new ones wait in the kernel's queue.
    pub max_connections: usize,
    /// Connections one client (an IPv4 address, or an IPv6 /64) may have
    /// waiting on it: sending a request, reading an answer, or idle between
    /// requests. A new one past it closes that client's longest-waiting one,
    /// answered 429 when it was sending a request. Behind a proxy every
    /// client has the proxy's address: raise it there.
    pub max_connections_per_client: usize,
    /// Of `max_connections`, the connections each of two kinds of request
    /// keeps from the other: links (answer links, callback links,
    /// `/v1/health`, the pages' static files) and the rest (operator calls,
    /// the console). Requests of one kind hold at most `max_connections -
    /// reserved_connections` connections from their headers to their
    /// answer; one more is answered 503.
    pub reserved_connections: usize,
    /// Bytes a second a connection the server waits on must move on
    /// average (the request it sends, or the answer it reads) once it has
    /// waited `slow_grace_ms`; a slower one is closed, answered 408 when it
    /// was sending a request.
    pub min_bytes_per_s: u64,
    /// How long a connection may wait on its client before
    /// `min_bytes_per_s` applies: also how long an idle connection is kept.
    pub slow_grace_ms: u64,
    /// How long a client has to send a request's headers.
    pub header_timeout_ms: u64,
}

impl Default for ApiConfig {
    fn default() -> Self {
        ApiConfig {
            listen: None,
            token: None,
            tokens: BTreeMap::new(),
            allowed_hosts: Vec::new(),
            public_url: None,
            max_connections: 512,
            max_connections_per_client: 64,
            reserved_connections: 128,
            min_bytes_per_s: 256,
            slow_grace_ms: 5_000,
            header_timeout_ms: 10_000,
        }
    }
}

impl ApiConfig {
    /// The connection limits: each kind keeps its reserve, one client
    /// cannot hold more than the server, and no rule is turned off.
    fn check_connections(&self) -> Result<(), String> {
        let max = self.max_connections;
        if !(4..=1 << 20).contains(&max) {
            return Err(format!(
                "api.max_connections must be between 4 and 1048576, got {max}"
            ));
        }
        if !(1..=max).contains(&self.max_connections_per_client) {
            return Err(format!(
                "api.max_connections_per_client must be between 1 and api.max_connections \
                 ({max}), got {}",
                self.max_connections_per_client
            ));
        }
        if self.reserved_connections > max / 2 {
            return Err(format!(
                "api.reserved_connections ({}) must be at most half of api.max_connections \
                 ({max}): each of the two kinds of request keeps that many from the other",
                self.reserved_connections
            ));
        }
        if self.min_bytes_per_s == 0 {
            return Err(
                "api.min_bytes_per_s must be at least 1 (bytes a second a connection \
                 the server waits on must move)"
                    .into(),
            );
        }
        for (name, ms) in [
            ("slow_grace_ms", self.slow_grace_ms),
            ("header_timeout_ms", self.header_timeout_ms),
        ] {
            if !(100..=600_000).contains(&ms) {
                return Err(format!(
                    "api.{name} must be between 100 and 600000, got {ms}"
                ));
            }
        }
        Ok(())
    }
}

/// Sandbox limits and run budgets.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct LimitsConfig {
    /// Fuel one step may burn (roughly one unit per WebAssembly instruction).
    pub fuel_per_step: u64,
    /// Fuel a run may burn over its whole life; spending it parks the run.
    pub fuel_per_run: u64,
    /// Steps a run may take; taking them all parks the run.
    pub steps_per_run: u64,
    pub memory_mib: u64,
    /// Wall-clock limit of one step.
    pub step_deadline_ms: u64,
    pub max_state_bytes: usize,
    /// Limit on event payloads, start inputs and tool arguments/results.
    pub max_payload_bytes: usize,
    pub max_log_bytes: usize,
    pub max_component_mib: u64,
    /// The largest function body (bytes of code) a component may have; a
    /// component with a larger one is refused before it is compiled.
    pub max_function_bytes: usize,
    /// Wall-clock limit of compiling one component: the compiler process is
    /// killed past it and the component refused.
    pub compile_timeout_ms: u64,
    /// Address space of the compiler process (`RLIMIT_AS`): a compile that
    /// needs more fails and the component is refused.
    pub compile_memory_mib: u64,
    /// Compiles that run at once; more wait for a turn. Steps of agents
    /// already compiled, and the API, never wait for one.
    pub compiles_at_once: usize,
    /// Tool calls one step may make.
    pub tool_calls_per_step: u32,
    /// Failed attempts of one step before the run is parked for an operator.
    pub max_attempts: u32,
    /// Wait before the first retry of a failed step; doubles at each attempt.
    pub retry_backoff_ms: u64,
    /// How long a worker's claim on a run lasts. It must outlast the step
    /// deadline, or a slow step could be taken over while it runs.
    pub claim_ms: u64,
    /// Model tokens (as the model server counts them) a run may spend over
    /// its life; an `llm` call that could pass it is refused and the run
    /// parked.
    pub tokens_per_run: u64,
    /// Money (USD, priced by each `llm` tool's `price_per_1k_tokens_usd`) a
    /// run may spend; `0` means no money limit.
    pub usd_per_run: f64,
    /// The longest an approval request may stay open; a guest asking for
    /// longer gets its step refused.
    pub max_approval_valid_ms: u64,
    /// How often an idle `serve` worker looks for due runs when nothing
    /// woke it: timers, and wakes written by other processes, are seen
    /// within this (the API's own wake its workers at once).
    pub idle_recheck_ms: u64,
    /// Due runs a worker claims at once and commits in one transaction
    /// (group commit: one flush to disk for all of them). `1` commits each
    /// step alone.
    pub steps_per_commit: usize,
}

impl Default for LimitsConfig {
    fn default() -> Self {
        LimitsConfig {
            fuel_per_step: 2_000_000_000,
            fuel_per_run: 200_000_000_000,
            steps_per_run: 100,
            memory_mib: 64,
            step_deadline_ms: 10_000,
            max_state_bytes: 1 << 20,
            max_payload_bytes: 256 << 10,
            max_log_bytes: 64 << 10,
            max_component_mib: 128,
            max_function_bytes: crate::runtime::DEFAULT_MAX_FUNCTION_BYTES,
            compile_timeout_ms: crate::runtime::DEFAULT_COMPILE_TIMEOUT.as_millis() as u64,
            compile_memory_mib: crate::runtime::DEFAULT_COMPILE_MEMORY_BYTES >> 20,
            compiles_at_once: crate::runtime::DEFAULT_COMPILES_AT_ONCE,
            tool_calls_per_step: 64,
            max_attempts: 5,
            retry_backoff_ms: 1_000,
            claim_ms: 30_000,
            tokens_per_run: 200_000,
            usd_per_run: 5.0,
            max_approval_valid_ms: 30 * 24 * 3600 * 1000,
            idle_recheck_ms: 200,
            // The steps a run chains under one claim share the group's
            // room: at 16, a group of incidents (three steps each) was
            // full after five runs, and its other claimed runs committed
            // one step, to be claimed and committed again for the rest.
            steps_per_commit: 64,
        }
    }
}

impl LimitsConfig {
    /// The compile limits: each must leave room for a real compile.
    fn check_compiles(&self) -> Result<(), String> {
        if !(1_000..=3_600_000).contains(&self.compile_timeout_ms) {
            return Err(format!(
                "limits.compile_timeout_ms must be between 1000 and 3600000, got {}",
                self.compile_timeout_ms
            ));
        }
        if !(MIN_COMPILE_MEMORY_MIB..=1 << 20).contains(&self.compile_memory_mib) {
            return Err(format!(
                "limits.compile_memory_mib must be between {MIN_COMPILE_MEMORY_MIB} and 1048576 \
                 (the compiler process's address space, in MiB), got {}",
                self.compile_memory_mib
            ));
        }
        if !(1..=64).contains(&self.compiles_at_once) {
            return Err(format!(
                "limits.compiles_at_once must be between 1 and 64, got {}",
                self.compiles_at_once
            ));
        }
        if self.max_function_bytes == 0 {
            return Err("limits.max_function_bytes must be at least 1".into());
        }
        Ok(())
    }
}

/// The least address space a compiler process is given: its binary, its
/// threads' stacks and the engine take part of it before any code does.
const MIN_COMPILE_MEMORY_MIB: u64 = 256;

/// One configured tool.
#[derive(Clone, Debug, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum ToolConfig {
    /// Answers every call with the same JSON result: offline demos and tests.
    Static {
        result: toml::Value,
        #[serde(default)]
        description: Option<String>,
    },
    /// Calls one fixed URL (`tools/http.rs`); the guest adds a path below it,
    /// a query and a JSON body, never another host.
    Http(HttpToolConfig),
    /// An OpenAI-compatible chat-completions endpoint (`tools/llm.rs`),
    /// metered against the run's token and money budgets.
    Llm(LlmToolConfig),
    /// An MCP server (`tools/mcp`): a guest calls each of its allowed
    /// tools as `<name>/<tool>`.
    Mcp(McpToolConfig),
}

/// `[tools.<name>] kind = "http"`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HttpToolConfig {
    /// The only URL this tool calls: `https://`, or `http://` to a loopback
    /// host (or to any host with `allow_plain_http`). It may name secrets
    /// (`https://hooks.example/services/${secret:slack}`); errors show it
    /// with those path segments and its query redacted.
    pub url: String,
    /// A PEM file of the CA certificates an `https://` server's certificate
    /// must chain to, instead of the built-in public roots (a private CA); a
    /// relative path is read from the working directory.
    #[serde(default)]
    pub ca_file: Option<String>,
    /// Allows `http://` to a host that is not loopback: requests, headers
    /// and answers then cross the network unencrypted and unauthenticated.
    #[serde(default)]
    pub allow_plain_http: bool,
    #[serde(default = "default_method")]
    pub method: String,
    /// Default: 10 s, or a second less than `limits.step_deadline_ms` when
    /// that is shorter; a given one must be below the step deadline.
    #[serde(default)]
    pub timeout_ms: Option<u64>,
    /// Sent with every request; the guest cannot change them. Values may
    /// name secrets (`Authorization = "Bearer ${secret:erp}"`), and every
    /// value but `Accept`'s, `Content-Type`'s and `User-Agent`'s is
    /// redacted wherever it could be shown.
    #[serde(default)]
    pub headers: BTreeMap<String, String>,
    /// Whether the system reached drops a repeat of an `Idempotency-Key`.
    /// Default false: a call whose outcome is unknown (a timeout, a 5xx, a
    /// lost connection) is then never sent again without an operator.
    #[serde(default)]
    pub idempotent: bool,
    #[serde(default)]
    pub description: Option<String>,
}

fn default_true() -> bool {
    true
}

/// `[tools.<name>] kind = "llm"`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LlmToolConfig {
    /// The model server's URL, e.g. `http://127.0.0.1:8080/v1/chat/completions`
    /// or `https://api.anthropic.com/v1/messages`; the same rules as an
    /// `http` tool's.
    pub url: String,
    /// The wire format the server speaks: `openai` (chat completions, the
    /// default) or `anthropic` (the Messages API); checked when the config
    /// is loaded.
    #[serde(default)]
    pub format: Option<String>,
    /// `format = "openai"` only: the body field the token limit is sent
    /// in: `max_completion_tokens` (the default, OpenAI's current field,
    /// which its reasoning models require) or `max_tokens` (for a
    /// compatible server that knows only the older one).
    #[serde(default)]
    pub max_tokens_field: Option<String>,
    /// `format = "anthropic"` only: how a `response_format` is asked for:
    /// `output_config` (the default: structured outputs, which combine
    /// with tools) or `tool` (one forced tool whose input is the answer,
    /// for a model without structured outputs; not with tools).
    #[serde(default)]
    pub structured_output: Option<String>,
    /// A PEM file of the CA certificates an `https://` server's certificate
    /// must chain to, instead of the built-in public roots (a private CA); a
    /// relative path is read from the working directory.
    #[serde(default)]
    pub ca_file: Option<String>,
    /// Allows `http://` to a host that is not loopback: requests, headers
    /// and answers then cross the network unencrypted and unauthenticated.
    #[serde(default)]
    pub allow_plain_http: bool,
    pub model: String,
    /// The most tokens one call may ask the model for; a guest may ask less.
    #[serde(default = "default_max_tokens")]
    pub max_tokens: u64,
    /// The bearer key as a secret: `api_key = "${secret:openai}"` (see
    /// `[secrets]`); a key written here literally is refused.
    #[serde(default)]
    pub api_key: Option<String>,
    /// The environment variable holding the bearer key; the key itself never
    /// belongs in the file.
    #[serde(default)]
    pub api_key_env: Option<String>,
    #[serde(default)]
    pub price_per_1k_tokens_usd: f64,
    /// As for `http` tools.
    #[serde(default)]
    pub timeout_ms: Option<u64>,
    /// Whether a call whose outcome is unknown may be sent again. Default
    /// true: a repeated model call costs tokens but changes nothing.
    #[serde(default = "default_true")]
    pub idempotent: bool,
    #[serde(default)]
    pub description: Option<String>,
}

fn default_method() -> String {
    "POST".into()
}

fn default_max_tokens() -> u64 {
    256
}

/// Why a config file could not be used.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read config {path}: {error}")]
    Read { path: String, error: std::io::Error },
    #[error("config {path} is not valid: {message}")]
    Invalid { path: String, message: String },
}

/// The built-in tools every host has.
pub const BUILTIN_TOOLS: &[&str] = &["kv", "lease", "callback"];

/// Where `serve` listens when neither `--listen`, `WAKEFUL_LISTEN` nor
/// `[api] listen` says.
pub const DEFAULT_LISTEN: &str = "127.0.0.1:7070";

/// How often a `serve` host writes its heartbeat; `wakeful hosts` calls a
/// host silent after three missed beats.
pub const HEARTBEAT: std::time::Duration = std::time::Duration::from_secs(2);

impl Config {
    /// Reads and checks a config file.
    pub fn load(path: &Path) -> Result<Config, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|error| ConfigError::Read {
            path: path.display().to_string(),
            error,
        })?;
        Config::parse(&text).map_err(|message| ConfigError::Invalid {
            path: path.display().to_string(),
            message,
        })
    }

    /// Parses and checks config text.
    pub fn parse(text: &str) -> Result<Config, String> {
        let mut config: Config = toml::from_str(text).map_err(|e| e.to_string())?;
        config.secret_values = crate::secrets::Secrets::load(&config.secrets)?;
        config.check()?;
        Ok(config)
    }

    fn check(&self) -> Result<(), String> {
        let l = &self.limits;
        if l.claim_ms <= l.step_deadline_ms {
            return Err(format!(
                "limits.claim_ms ({}) must be longer than limits.step_deadline_ms ({}), or a slow step could be claimed twice",
                l.claim_ms, l.step_deadline_ms
            ));
        }
        if l.max_attempts == 0 {
            return Err("limits.max_attempts must be at least 1".into());
        }
        if !(10..=3_600_000).contains(&l.idle_recheck_ms) {
            return Err(format!(
                "limits.idle_recheck_ms must be between 10 and 3600000, got {}",
                l.idle_recheck_ms
            ));
        }
        if !(1..=1024).contains(&l.steps_per_commit) {
            return Err(format!(
                "limits.steps_per_commit must be between 1 and 1024, got {}",
                l.steps_per_commit
            ));
        }
        l.check_compiles()?;
        if !(l.usd_per_run.is_finite() && l.usd_per_run >= 0.0) {
            return Err(format!(
                "limits.usd_per_run must be 0 (no money limit) or more, got {}",
                l.usd_per_run
            ));
        }
        if self.retention.checkpoints_per_run == Some(0) {
            return Err(
                "retention.checkpoints_per_run must be at least 1 (the checkpoint a step \
                 writes); leave it out to keep every checkpoint"
                    .into(),
            );
        }
        self.cache.check()?;
        self.api.check_connections()?;
        self.check_api_tokens()?;
        if let Some(url) = &self.api.public_url
            && !(url.starts_with("http://") || url.starts_with("https://"))
        {
            return Err(format!(
                "api.public_url `{url}` must start with http:// or https:// (it is the base of \
                 callback links, e.g. https://wakeful.example.com)"
            ));
        }
        for (name, tool) in &self.tools {
            if BUILTIN_TOOLS.contains(&name.as_str()) {
                return Err(format!(
                    "tools.{name}: `{name}` is a built-in tool and cannot be configured"
                ));
            }
            if name.contains('/') {
                return Err(format!(
                    "tools.{name}: a tool name cannot hold `/`, which separates an MCP \
                     server's name from its tools' (`server/tool`)"
                ));
            }
            crate::tools::check_config(name, tool, l, &self.secret_values)?;
        }
        self.approval_rules()?;
        Ok(())
    }

    /// The approval rule of each tool that requires approval, checked.
    pub fn approval_rules(&self) -> Result<BTreeMap<String, ApprovalRule>, String> {
        approval::resolve(&self.groups, &self.approvals, &self.tool_names())
    }

    /// `[api] token` and `[api.tokens]` ([`api_tokens::check`]).
    fn check_api_tokens(&self) -> Result<(), String> {
        api_tokens::check(&self.api)
    }

    /// Every tool name this host can run: an MCP server's allowed tools
    /// as `<server>/<tool>`, never the server's bare name.
    pub fn tool_names(&self) -> Vec<String> {
        let configured = self.tools.iter().flat_map(|(name, tool)| match tool {
            ToolConfig::Mcp(c) => c.allow.iter().map(|t| format!("{name}/{t}")).collect(),
            _ => vec![name.clone()],
        });
        BUILTIN_TOOLS
            .iter()
            .map(|s| s.to_string())
            .chain(configured)
            .collect()
    }

    /// The runtime's sandbox limits.
    pub fn runtime_limits(&self) -> crate::runtime::Limits {
        let l = &self.limits;
        crate::runtime::Limits {
            fuel_per_step: l.fuel_per_step,
            memory_bytes: (l.memory_mib as usize) << 20,
            step_deadline: std::time::Duration::from_millis(l.step_deadline_ms),
            max_state_bytes: l.max_state_bytes,
            max_log_bytes: l.max_log_bytes,
            max_component_bytes: (l.max_component_mib as usize) << 20,
            max_function_bytes: l.max_function_bytes,
            compile: crate::runtime::CompileLimits {
                timeout: std::time::Duration::from_millis(l.compile_timeout_ms),
                memory_bytes: l.compile_memory_mib << 20,
                at_once: l.compiles_at_once,
            },
            cache_max_bytes: self.cache.max_bytes,
        }
    }
}

#[cfg(test)]
mod tests;
