//! The `wakeful` command line: argument definitions here, their dispatch
//! in [`commands`]; the commands by concern: agents and runs in [`runs`],
//! reads in [`lists`], the host in [`host`], kv, leases, schedules and
//! bench in [`admin`], the compile cache in [`cache`]; text and JSON
//! rendering in [`output`].

mod admin;
mod args;
mod cache;
mod check;
mod commands;
mod host;
mod lists;
mod output;
mod runs;
mod tokens;
mod work;

use std::path::PathBuf;

use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand};

pub use commands::run;

/// The global options `wakeful new` and `wakeful sdk` do not use: they
/// write files, and read no config, store or cache.
const NOT_FOR_NEW: &[&str] = &["data", "store", "cache", "config", "by"];

/// The command line's parser: [`Cli`]'s, with the global options `new`
/// and `sdk` do not use left out of their help.
pub fn command() -> clap::Command {
    let command = Cli::command();
    // A global option is copied into each subcommand that has no option of
    // its id: `new` and `sdk` get hidden copies of their own instead (still accepted,
    // as before, and ignored), and every other command keeps the globals.
    let unused: Vec<clap::Arg> = command
        .get_arguments()
        .filter(|arg| NOT_FOR_NEW.contains(&arg.get_id().as_str()))
        .map(|arg| arg.clone().global(false).hide(true))
        .collect();
    let command = command.mut_subcommand("new", |new| new.args(unused.clone()));
    command.mut_subcommand("sdk", |sdk| sdk.args(unused))
}

/// The process's command line, parsed; exits with clap's message (or the
/// help) when it does not parse.
pub fn parse() -> Cli {
    let matches = command().get_matches();
    Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.format(&mut command()).exit())
}

/// A host for long-running AI agents compiled to WebAssembly components.
#[derive(Debug, Parser)]
#[command(name = "wakeful", version, about)]
pub struct Cli {
    /// Data directory: the SQLite store and the compiled-component cache.
    #[arg(
        long,
        global = true,
        env = "WAKEFUL_DATA",
        default_value = "./.wakeful"
    )]
    pub data: PathBuf,
    /// The store: `postgres://USER@HOST:PORT/DATABASE` (several hosts
    /// share one PostgreSQL database) or `sqlite:PATH`; default: the
    /// config's `[store] url`, else `wakeful.db` in the data directory.
    #[arg(long, global = true, env = "WAKEFUL_STORE", value_name = "URL")]
    pub store: Option<String>,
    /// Directory of compiled agents (default: the config's `[cache] dir`,
    /// else `cache` in the data directory). Data directories on one
    /// machine may share one.
    #[arg(long, global = true, env = "WAKEFUL_CACHE", value_name = "DIR")]
    pub cache: Option<PathBuf>,
    /// Config file (tools, limits); default: `wakeful.toml` in the current
    /// directory when it exists, else safe defaults.
    #[arg(long, global = true, env = "WAKEFUL_CONFIG")]
    pub config: Option<PathBuf>,
    /// Print JSON instead of a table.
    #[arg(long, global = true)]
    pub json: bool,
    /// The name you give for yourself, recorded as `said` on `approve` and
    /// `resolve`. Who acted (an audit row's `by`) is the OS user this
    /// command runs as (`os:<user>`): whoever can write the data directory
    /// owns the host.
    #[arg(long, global = true, env = "WAKEFUL_BY", value_name = "NAME")]
    pub by: Option<String>,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Deploy an agent component (`.wasm`) with the tools it may use.
    Deploy {
        /// The agent component, built for `wasm32-wasip2`.
        file: PathBuf,
        /// Grant a tool the agent asks for (repeatable); or a shared
        /// namespace (`kv:shared/NAME`, `lease:shared/NAME`), or naming its
        /// own lease holder (`lease:holder`).
        #[arg(long = "grant", value_name = "TOOL")]
        grants: Vec<String>,
        /// Grant every tool the agent asks for.
        #[arg(long)]
        grant_all: bool,
        /// Who answers for this version (a person or a team); given again
        /// for a version already deployed, it changes the owner.
        #[arg(long)]
        owner: Option<String>,
    },
    /// List deployed agent versions.
    Agents,
    /// Start a run of AGENT or AGENT@VERSION (default: the highest version).
    Start {
        /// AGENT (the highest version) or AGENT@VERSION.
        agent: String,
        /// Start input, JSON (`@FILE` reads a file, `-` standard input).
        #[arg(long)]
        input: Option<String>,
        /// Run id to use instead of a generated one.
        #[arg(long = "id")]
        run_id: Option<String>,
    },
    /// Process runs that have something to wake them.
    Work {
        /// Exit once no run has a wake to deliver.
        #[arg(long)]
        until_idle: bool,
        /// How often an idle worker looks for due runs, in milliseconds.
        #[arg(long, default_value_t = 200)]
        poll_ms: u64,
    },
    /// Run the scheduler (worker threads) and the HTTP API in one process
    /// until Ctrl-C or SIGTERM.
    Serve {
        /// Address to listen on (`127.0.0.1:0` picks a free port).
        #[arg(long, env = "WAKEFUL_LISTEN")]
        listen: Option<String>,
        /// Worker threads stepping due runs.
        #[arg(long, default_value_t = 2)]
        workers: usize,
        /// Log lines on standard error: `text`, or `json` (one object a
        /// line). `WAKEFUL_LOG` filters them (default `info`).
        #[arg(long, env = "WAKEFUL_LOG_FORMAT", value_enum, default_value_t)]
        log_format: crate::logs::LogFormat,
    },
    /// List runs, newest first.
    Runs {
        /// Only runs with this status (active, waiting, done, parked,
        /// cancelled).
        #[arg(long)]
        status: Option<String>,
        /// Only runs of this agent.
        #[arg(long)]
        agent: Option<String>,
        /// Only runs on this version of their agent.
        #[arg(long)]
        version: Option<String>,
        /// Only runs waiting on this: a topic, `approval` or `timer`.
        #[arg(long, value_name = "TOPIC|approval|timer")]
        waiting_on: Option<String>,
        /// At most this many (default: all).
        #[arg(long)]
        limit: Option<usize>,
        /// Start after this run (the last one of the previous page).
        #[arg(long, value_name = "RUN")]
        after: Option<String>,
    },
    /// Show one run: status, state, waits, pending approvals.
    Show {
        /// The run's id.
        run: String,
    },
    /// The run's checkpoints, one per step.
    History {
        /// The run's id.
        run: String,
    },
    /// The audit log, or one run's part of it, oldest first.
    Audit {
        /// Only this run's rows.
        run: Option<String>,
        /// At most this many rows (default: all).
        #[arg(long)]
        limit: Option<usize>,
        /// Start after the row with this id (the last of the previous page).
        #[arg(long, value_name = "ID")]
        after: Option<u64>,
    },
    /// Write the run's recorded tool calls as a cassette (JSON) that an
    /// agent's unit tests replay (each SDK's `testing.replay`).
    Cassette {
        /// The run's id.
        run: String,
        /// Write it to FILE (replaced if it exists) instead of standard
        /// output.
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
    },
    /// Deliver an event to RUN, or to every run waiting on the topic.
    Send {
        /// The run to deliver to; without it, every live run gets the
        /// event when it waits on the topic.
        run: Option<String>,
        /// The topic the event is on.
        #[arg(long)]
        topic: String,
        /// Event id: a second event with the same id for a run is ignored.
        #[arg(long = "id")]
        event_id: String,
        /// Event payload, JSON (`@FILE` reads a file, `-` standard input).
        #[arg(long)]
        payload: Option<String>,
    },
    /// Answer an approval request (approve, or --reject) as the OS user,
    /// bound to the digest of the details `show` printed (--digest).
    Approve {
        /// The run that asked.
        run: String,
        /// The approval request's id, as `show` lists it.
        request: String,
        /// Reject the request instead of approving it.
        #[arg(long)]
        reject: bool,
        /// A comment the run sees with the answer.
        #[arg(long)]
        comment: Option<String>,
        /// Required: refuse the answer unless the request's details still
        /// have this SHA-256 digest (`show` prints it).
        #[arg(long)]
        digest: Option<String>,
    },
    /// Settle a parked run's tool call whose outcome is unknown (the host
    /// sent it and never learnt what happened): give its result, have it
    /// sent again, or fail it. The run then retries its step.
    #[command(group(clap::ArgGroup::new("how").required(true).args(["result", "retry", "fail"])))]
    Resolve {
        /// The parked run.
        run: String,
        /// The call's idempotency key, as `show` lists it.
        key: String,
        /// The call took effect and returned this (JSON; `@FILE`, `-`).
        #[arg(long)]
        result: Option<String>,
        /// The call did not take effect: send it again.
        #[arg(long)]
        retry: bool,
        /// The call failed: the step sees `failed` with this reason.
        #[arg(long, value_name = "REASON")]
        fail: Option<String>,
    },
    /// End a run for good: it takes no further step (a step in flight is
    /// discarded).
    Cancel {
        /// The run to end.
        run: String,
        /// Why it is cancelled (kept in the audit log).
        #[arg(long)]
        reason: String,
    },
    /// Kill switch: stop runs before their next step, losing nothing.
    Pause {
        #[command(flatten)]
        scope: Scope,
        /// Why (kept with the switch and in the audit log).
        #[arg(long)]
        reason: Option<String>,
        /// Pause an agent or tool that is not deployed yet (a name that
        /// exists nowhere is refused as a typo otherwise).
        #[arg(long)]
        preemptive: bool,
    },
    /// Lift a kill switch; `--run` also resumes a parked run.
    Resume {
        #[command(flatten)]
        scope: Scope,
    },
    /// Move runs to another deployed version of their agent through its
    /// `migrate` export.
    Upgrade {
        /// One run; or use --agent for every live run of an agent.
        #[arg(required_unless_present = "agent", conflicts_with = "agent")]
        run: Option<String>,
        /// Every live run of this agent.
        #[arg(long)]
        agent: Option<String>,
        /// The version to move to.
        #[arg(long)]
        to: String,
        /// Migrate without saving, and report which runs would fail.
        #[arg(long)]
        dry_run: bool,
        /// Accept tools the new version is granted that the old one was not.
        #[arg(long)]
        allow_new_tools: bool,
    },
    /// Start an agent at each tick of a cron expression.
    Schedule {
        #[command(subcommand)]
        op: ScheduleCommand,
    },
    /// Delete ended runs older than the retention (the audit log stays).
    Prune {
        /// Days an ended run is kept; default: `[retention] ended_runs_days`.
        #[arg(long)]
        older_than_days: Option<u64>,
    },
    /// List the kill switches that are on.
    Switches,
    /// Write a consistent copy of the store to FILE (a new file) while
    /// workers and `serve` keep running; the copy is checked, and can be
    /// used as `<data>/wakeful.db` of another data directory.
    Backup {
        /// The copy to write; it must not exist yet.
        file: PathBuf,
    },
    /// Without FILE: check the whole store for damage (every page). With
    /// FILE: say whether this host would accept that component, and why
    /// not (imports, exports, WIT version, `info`, requested tools),
    /// without deploying it.
    Check {
        /// An agent component (`.wasm`) to check instead of the store.
        file: Option<PathBuf>,
        /// With FILE: only read its imports and exports (well under a
        /// second for any component); do not compile it or call `info`.
        #[arg(long, requires = "file")]
        no_compile: bool,
    },
    /// Print the WIT contract this host speaks (`wit/agent.wit`): what an
    /// agent in any language implements.
    Wit,
    /// Write a new agent project (a starter agent, its unit test, the SDK
    /// and the contract) that builds with one command.
    New {
        /// The agent's name: a letter, then letters, digits, `-`, `_`.
        name: String,
        /// The language to write it in.
        #[arg(long, value_enum)]
        lang: crate::scaffold::Lang,
        /// Where to write it (default: ./NAME); must be missing or empty.
        #[arg(long)]
        dir: Option<PathBuf>,
    },
    /// Write the SDKs this host embeds as packages, versioned with its WIT
    /// contract: a wheel for pip, a tarball for npm and the Rust crates for
    /// a Cargo path dependency. Reads no config, store or cache.
    Sdk {
        /// The directory to write them in (made if missing).
        #[arg(long, value_name = "DIR", default_value = ".")]
        out: PathBuf,
    },
    /// List the hosts (`serve` processes) sharing the store: live, stopped
    /// or silent, their last heartbeat and the runs they are stepping.
    Hosts,
    /// Copy a whole store into an empty one, such as the SQLite file into
    /// PostgreSQL, in one transaction, and verify the copy table by table.
    /// Stop every host using the source first: a copy during which the
    /// source is written is refused. `--data` and `--store` are not used.
    MigrateStore {
        /// The store to copy: `sqlite:PATH` or
        /// `postgres://USER@HOST:PORT/DATABASE`. An older SQLite file is
        /// migrated to this build's schema first.
        #[arg(long, value_name = "URL")]
        from: String,
        /// The store to copy into, as --from; created (or its schema
        /// migrated) if needed, and refused if it holds any row.
        #[arg(long, value_name = "URL")]
        to: String,
    },
    /// List the crash points of this build (empty without the `failpoints`
    /// feature): `WAKEFUL_FAILPOINT=<point>[:<key>]` kills the process there.
    #[command(hide = true)]
    Failpoints,
    /// Compile the component in the file COMPONENT into the artifact OUT
    /// (in the cache directory): how the host compiles, in a child process
    /// of its own (`runtime/compile.rs`).
    #[command(hide = true, name = crate::runtime::compile::SUBCOMMAND)]
    CompileComponent(crate::runtime::compile::ChildArgs),
    /// Measure deploy, start and step speed of a real agent on a
    /// throwaway store in a new temporary directory (removed afterwards;
    /// `--data` is not touched): start N runs, step them, send each an
    /// event, step them again. The benchmark of record and the stores side
    /// by side are the `wakeful-bench` binary's (`scripts/bench.sh`).
    Bench {
        /// Built-in workloads (`invoice`, `incident`: the repository's
        /// agents as `scripts/build-agents.sh` builds them, with their
        /// inputs and wakes; `invoice-py`, `incident-ts`… the same agents
        /// in Python and TypeScript), or agent components (`.wasm` files).
        /// Several are measured one after another in one run and compared
        /// with the first.
        #[arg(required = true)]
        agents: Vec<String>,
        /// Compile agents in this process rather than in a child process
        /// of their own: for tools that cannot follow the child, such as
        /// valgrind.
        #[arg(long, hide = true)]
        compile_in_process: bool,
        /// How many runs to start.
        #[arg(long, default_value_t = 200)]
        runs: usize,
        /// Start input of every run, JSON (`@FILE` reads a file); default:
        /// the workload's, or null.
        #[arg(long)]
        input: Option<String>,
        /// After the first steps, send each run an event on this topic;
        /// default: the workload's, or no event.
        #[arg(long)]
        topic: Option<String>,
        /// The event's payload, JSON (`@FILE` reads a file); default: the
        /// workload's, or `{}`.
        #[arg(long)]
        payload: Option<String>,
    },
    /// Read and write the built-in kv store.
    Kv {
        #[command(subcommand)]
        op: KvCommand,
    },
    /// Take and give back leases on shared resources.
    Lease {
        #[command(subcommand)]
        op: LeaseCommand,
    },
    /// The compile cache (`--cache`, else `[cache] dir`, else `cache` in
    /// the data directory): what it holds, and pruning it. Uses no store.
    Cache {
        #[command(subcommand)]
        op: CacheCommand,
    },
    /// API tokens: make a new one (printed once, with the config lines
    /// that name it by its SHA-256), and end a token's console sessions.
    Tokens {
        #[command(subcommand)]
        op: TokensCommand,
    },
}

#[derive(Debug, Subcommand)]
pub enum TokensCommand {
    /// Print a fresh random token, once, and the `[api.tokens.NAME]` lines
    /// for the config (its SHA-256 and scopes, never the token). Uses no
    /// config and no store.
    New {
        /// The token's name: who the audit log says acted.
        name: String,
        /// What it may do, comma-separated: read, operate, approve,
        /// resolve, deploy, admin.
        #[arg(long, value_delimiter = ',', required = true)]
        scopes: Vec<String>,
        /// Limit the approve scope to these agents' runs, comma-separated.
        #[arg(long, value_delimiter = ',')]
        agents: Vec<String>,
    },
    /// End every console session signed in with token NAME, on every host
    /// sharing the store, at once (the token itself stays valid: change it
    /// in the config to stop it too).
    Revoke {
        /// The token's name.
        name: String,
    },
}

#[derive(Debug, Subcommand)]
pub enum CacheCommand {
    /// The cache directory, and the number and bytes on disk of its
    /// precompiled agents and compiled functions.
    Show,
    /// Remove the least recently used precompiled agents and compiled
    /// functions until the cache fits, and temporary files left by writers
    /// that died. Safe while hosts run: a removed file is compiled again
    /// from the store when next needed.
    Prune {
        /// The bytes on disk to prune to; default: `[cache] max_bytes`.
        /// `0` empties the cache.
        #[arg(long, value_name = "BYTES")]
        max_bytes: Option<u64>,
    },
}

/// What a kill switch covers.
#[derive(Debug, Args)]
#[group(required = true, multiple = false)]
pub struct Scope {
    /// Every run.
    #[arg(long)]
    pub all: bool,
    /// One run.
    #[arg(long, value_name = "RUN")]
    pub run: Option<String>,
    /// Every run of one agent.
    #[arg(long, value_name = "NAME")]
    pub agent: Option<String>,
    /// One tool, for every run: a step that calls it is abandoned unchanged
    /// and retried when the switch lifts.
    #[arg(long, value_name = "NAME")]
    pub tool: Option<String>,
}

impl Scope {
    pub fn key(&self) -> String {
        if let Some(run) = &self.run {
            format!("run:{run}")
        } else if let Some(agent) = &self.agent {
            format!("agent:{agent}")
        } else if let Some(tool) = &self.tool {
            format!("tool:{tool}")
        } else {
            "all".into()
        }
    }
}

#[derive(Debug, Subcommand)]
pub enum ScheduleCommand {
    /// Add a schedule (`--replace` to replace one).
    Add {
        /// The schedule's id; its runs are named `<id>-<tick>`.
        id: String,
        /// AGENT (the highest version at each tick) or AGENT@VERSION.
        agent: String,
        /// Five fields (minute, hour, day, month, weekday; UTC), or six
        /// with seconds first.
        #[arg(long)]
        cron: String,
        /// Start input of every run, JSON (`@FILE` reads a file).
        #[arg(long)]
        input: Option<String>,
        /// When the previous run is still live at a tick: `skip` the tick,
        /// or `allow` another run.
        #[arg(long, default_value = "skip")]
        overlap: String,
        /// Replace the schedule with this id, if there is one, by this
        /// one whole (without it, an existing id is refused).
        #[arg(long)]
        replace: bool,
    },
    /// List schedules.
    List,
    /// Remove a schedule; the runs it started go on.
    Remove {
        /// The schedule's id.
        id: String,
    },
}

#[derive(Debug, Subcommand)]
pub enum KvCommand {
    /// Print a key's value and version (version 0: never written).
    Get {
        /// The key.
        key: String,
    },
    /// Write a key (the write and its audit row are one transaction).
    Put {
        /// The key.
        key: String,
        /// The value, JSON (`@FILE` reads a file, `-` standard input).
        value: String,
        /// Write only if the key is at this version (0: absent).
        #[arg(long)]
        expected_version: Option<u64>,
    },
    /// Delete a key; its version goes on counting.
    Delete {
        /// The key.
        key: String,
    },
    /// List keys with their version and value, in key order.
    List {
        /// Only keys that start with this.
        prefix: Option<String>,
        /// At most this many (default: all).
        #[arg(long)]
        limit: Option<usize>,
        /// Start after this key (the last one of the previous page).
        #[arg(long, value_name = "KEY")]
        after: Option<String>,
    },
}

#[derive(Debug, Subcommand)]
pub enum LeaseCommand {
    /// Take (or renew) a lease; refused while another holder has it.
    Acquire {
        /// The resource's name.
        resource: String,
        /// Who takes it.
        #[arg(long)]
        holder: String,
        /// Lifetime, in seconds.
        #[arg(long)]
        ttl: u64,
    },
    /// Give a lease back.
    Release {
        /// The resource's name.
        resource: String,
        /// Who holds it.
        #[arg(long)]
        holder: String,
    },
}

#[cfg(test)]
mod tests;
