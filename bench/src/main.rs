//! `wakeful-bench`: the benchmark of record of wakeful ([`record`]) and,
//! with `--scale`, the stores side by side ([`scale`]), each on scratch
//! stores of its own, measuring the repository's agents as
//! `scripts/build-agents.sh` builds them. `scripts/bench.sh` runs it in a
//! release build, with LangGraph's figures beside wakeful's.
//! `wakeful bench FILE.wasm`, measuring one agent, is the product's.

#![warn(clippy::too_many_lines)]

use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};

use wakeful::config::Config;

mod figures;
mod record;
mod scale;

/// As in `wakeful` itself (host/src/main.rs), so that a step costs here
/// what it costs there.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The benchmark of record of wakeful, on SQLite: the incident workload
/// one at a time and many in flight (steps/s, fsyncs and CPU per step),
/// the guest alone, event → committed step, many sleeping runs (claims,
/// stepping among them, `serve` start and memory), and the disk's floor;
/// `scripts/bench.sh` runs it in a release build.
///
/// With `--scale`, compares the stores instead: SQLite and, given a
/// PostgreSQL `--store`, PostgreSQL (a scratch schema in it), on steps/s
/// with several hosts, event → committed step latency, and claims among
/// many sleeping runs.
#[derive(Parser)]
#[command(name = "wakeful-bench", version)]
struct Cli {
    /// The benchmark of record (the default; see above): every workload in
    /// one run, each figure with its conditions and its ratio to the
    /// disk's floor measured in the same run. `--runs` incidents run one
    /// after another.
    #[arg(long, conflicts_with = "scale")]
    record: bool,
    /// Compare the stores (see above) instead.
    #[arg(long)]
    scale: bool,
    /// How many runs: incidents one after another (the record), or
    /// incident runs per throughput measurement (`--scale`).
    #[arg(long, default_value_t = 200)]
    runs: usize,
    /// Incidents started and stepped together.
    #[arg(long, default_value_t = 1000, conflicts_with = "scale")]
    in_flight: usize,
    /// Worker threads stepping the incidents in flight (as `serve
    /// --workers`).
    #[arg(long, default_value_t = 2, conflicts_with = "scale")]
    workers: usize,
    /// How many times (a) and (b) run, each after a measurement of the
    /// floor; each is reported by its median run, with every run's steps/s
    /// beside it.
    #[arg(long, default_value_t = 3, conflicts_with = "scale")]
    repeat: usize,
    /// LangGraph's figures on the same workload, measured in the same run
    /// (the JSON `scripts/bench-langgraph.sh` prints), set beside (a) and
    /// (b) with wakeful's ratio to them.
    #[arg(long, value_name = "FILE", conflicts_with = "scale")]
    compare_json: Option<PathBuf>,
    /// Guest calls timed.
    #[arg(long, default_value_t = 2000, conflicts_with = "scale")]
    guest_samples: usize,
    /// With `--scale`: the numbers of hosts to measure steps/s with.
    #[arg(long, value_delimiter = ',', default_value = "1,2,4")]
    hosts: Vec<usize>,
    /// Events timed from acceptance to committed step.
    #[arg(long, default_value_t = 200)]
    latency_samples: usize,
    /// Sleeping runs among which claims look for work (1000000 for the
    /// full measurement).
    #[arg(long, default_value_t = 100_000)]
    sleeping: usize,
    /// The `wakeful` binary whose `serve` start is measured on the store of
    /// sleeping runs; default: `wakeful` beside this executable.
    #[arg(long, value_name = "FILE", conflicts_with = "scale")]
    wakeful: Option<PathBuf>,
    /// Compile agents in this process rather than in a child process of
    /// their own: for tools that cannot follow the child, such as valgrind
    /// (`scripts/bench-instructions.sh`).
    #[arg(long, hide = true)]
    compile_in_process: bool,
    /// With `--scale`: a PostgreSQL store to measure beside SQLite
    /// (`postgres://USER@HOST:PORT/DATABASE`; a scratch schema is made in
    /// it and dropped afterwards).
    #[arg(long, env = "WAKEFUL_STORE", value_name = "URL")]
    store: Option<String>,
    /// Directory of compiled agents (default: the config's `[cache] dir`,
    /// else one in each scratch store's directory).
    #[arg(long, env = "WAKEFUL_CACHE", value_name = "DIR")]
    cache: Option<PathBuf>,
    /// Config file (tools, limits); default: `wakeful.toml` in the current
    /// directory when it exists, else safe defaults.
    #[arg(long, env = "WAKEFUL_CONFIG")]
    config: Option<PathBuf>,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
    #[command(subcommand)]
    child: Option<Child>,
}

/// What this binary is run as by itself.
#[derive(Subcommand)]
enum Child {
    /// Compile one component and exit, as `wakeful compile-component`
    /// does: the process each compile runs in.
    #[command(name = wakeful::runtime::compile::SUBCOMMAND, hide = true)]
    CompileComponent(wakeful::runtime::compile::ChildArgs),
}

fn main() {
    let cli = Cli::parse();
    if let Some(Child::CompileComponent(child)) = &cli.child {
        child.run();
    }
    // Compilers get a process each, as in `wakeful`: this binary, run as
    // its compile child above.
    if !cli.compile_in_process {
        wakeful::runtime::compile::compile_in_child_processes();
    }
    if let Err(e) = run(cli) {
        eprintln!("error: {e:#}");
        std::process::exit(1);
    }
}

fn run(cli: Cli) -> Result<()> {
    let config = load_config(&cli)?;
    if cli.scale {
        let options = scale::ScaleOptions {
            stores: std::iter::once(None)
                .chain(config.store_url().map(|u| Some(u.to_string())))
                .collect(),
            runs: cli.runs,
            hosts: cli.hosts,
            latency_samples: cli.latency_samples,
            sleeping: cli.sleeping,
        };
        let report = scale::scale(&options, &config).context("the scale bench failed")?;
        return if cli.json {
            print_json(&report)
        } else {
            scale::print_table(&report);
            Ok(())
        };
    }
    let options = record::RecordOptions {
        sequential: cli.runs,
        in_flight: cli.in_flight,
        workers: cli.workers,
        repeats: cli.repeat,
        guest_samples: cli.guest_samples,
        latency_samples: cli.latency_samples,
        sleeping: cli.sleeping,
        compare_json: cli.compare_json,
        wakeful: cli.wakeful,
    };
    let record = record::record(&options, &config).context("the benchmark of record failed")?;
    if cli.json {
        return print_json(&record);
    }
    for line in record::table::table(&record) {
        println!("{line}");
    }
    Ok(())
}

/// The config as `wakeful` loads it: the file named, else `wakeful.toml`
/// here if there is one, with `--store` and `--cache` over it.
fn load_config(cli: &Cli) -> Result<Config> {
    Ok(Config::for_command(
        cli.config.as_deref(),
        cli.store.as_deref(),
        cli.cache.as_deref(),
    )?)
}

fn print_json<T: serde::Serialize>(value: &T) -> Result<()> {
    println!("{}", serde_json::to_string_pretty(value)?);
    Ok(())
}
