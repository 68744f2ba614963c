//! `wakeful bench`: how fast this machine deploys, starts and steps runs of
//! an agent, on a throwaway store in a new temporary directory that is
//! removed afterwards (the operator's data directory is never opened).
//! Numbers, not assertions. Given a PostgreSQL `--store`, the scratch store
//! is a new schema in that database, dropped afterwards.
//!
//! A [`Workload`] says what to measure ([`workload`]). The benchmark of
//! record and the stores side by side, which measure the repository's
//! agents, are the `wakeful-bench` crate's (`bench/` in the repository);
//! they use the workloads, scratch stores and guest calls defined here.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::app::{App, AppError};
use crate::config::Config;
use crate::store::Delivery;
use crate::worker::{StepEnd, Worker};

mod process;
mod scratch;
mod workload;

pub use scratch::Scratch;
pub use workload::{BenchWake, WORKLOADS, Workload, file_workload, workload};

/// What one benchmark run measured.
#[derive(Debug, Serialize)]
pub struct Report {
    /// The agent version measured.
    pub agent: String,
    pub runs: usize,
    /// The component's size.
    pub component_bytes: u64,
    /// Compiling the component and recording it, with nothing cached.
    pub deploy_ms: f64,
    /// Compiling it again in a new runtime, with the functions the deploy
    /// compiled cached: what deploying a new build costs when only the
    /// agent's own code changed (a Python or JavaScript agent's
    /// interpreter is unchanged between builds).
    pub redeploy_ms: f64,
    /// The compiled artifact in the cache.
    pub artifact_bytes: u64,
    /// Loading the precompiled component in a fresh runtime (what a new
    /// process pays before its first step).
    pub cached_load_ms: f64,
    pub starts_per_sec: f64,
    /// Events sent or approvals answered per second; `None` when the
    /// workload sends no wake.
    pub wakes_per_sec: Option<f64>,
    pub steps: usize,
    pub steps_per_sec: f64,
    pub step_p50_ms: f64,
    pub step_p99_ms: f64,
    pub step_max_ms: f64,
    /// Instantiating the agent and calling its first step, without a store
    /// or tools (tool calls are answered `failed`): the guest's own cost.
    pub guest_call_p50_ms: f64,
    pub guest_call_p99_ms: f64,
    /// Page faults the process took per guest call (minor and major), where
    /// `/proc/self/stat` tells: what instantiating a fresh memory costs the
    /// kernel.
    pub guest_call_faults: Option<u64>,
    /// Where the scratch store was: `sqlite` or the PostgreSQL URL.
    pub store: String,
    pub db_bytes: u64,
    /// Peak resident memory of this process: the host, which compiles in
    /// child processes (`runtime/compile.rs`).
    pub peak_rss_kib: Option<u64>,
    /// Peak resident memory of the largest compiling child process so far
    /// in this benchmark (`getrusage(RUSAGE_CHILDREN)`), where one ran.
    pub compiler_peak_rss_kib: Option<u64>,
    /// Peak resident memory while runs were started and stepped, with the
    /// agent loaded from its cached artifact (as a host that did not
    /// compile it): measured from after the compiling runtimes were
    /// dropped and the heap they freed was given back to the system
    /// ([`trim_heap`](crate::runtime::trim_heap)), so that it counts what
    /// stepping holds, not what compiling left behind (nor the component's
    /// bytes, which the benchmark drops first). It still counts the
    /// benchmark's own process: the binary, SQLite's cache, and what the
    /// agents measured before this one in the same run left.
    pub stepping_rss_kib: Option<u64>,
}

/// Deploys the workload's agent into a fresh scratch store, starts `runs`
/// runs, steps them until idle, gives each its wake, and steps them again.
pub fn run(workload: &Workload, runs: usize, mut config: Config) -> Result<Report, AppError> {
    check_inputs(workload, runs)?;
    let bytes = std::fs::read(&workload.wasm)
        .map_err(|e| AppError::Invalid(format!("cannot read {}: {e}", workload.wasm.display())))?;
    config.tools.extend(workload.tools.iter().cloned());
    let scratch = Scratch::new(config.store_url())?;
    config.store.url = scratch.url.clone();
    // A cache of its own, so that nothing is compiled before the deploy.
    config.cache.dir = None;
    let deploying = deploy(&bytes, &scratch, &config)?;

    // Not held while stepping is measured.
    let component_bytes = bytes.len() as u64;
    drop(bytes);
    let mut app = App::open(&scratch.dir, config)?;
    crate::runtime::trim_heap();
    let before_stepping = process::reset_peak_rss();
    let guest = guest_alone(&app, &deploying.digest, workload, runs)?;
    let stepping = start_and_step(&mut app, workload, runs, &deploying.agent)?;
    let pick = |q: f64| {
        let latencies = &stepping.latencies;
        latencies
            .get(((latencies.len() as f64 - 1.0) * q).round() as usize)
            .copied()
            .map_or(0.0, ms)
    };
    Ok(Report {
        agent: deploying.agent,
        runs,
        deploy_ms: deploying.deploy_ms,
        cached_load_ms: guest.cached_load_ms,
        starts_per_sec: stepping.starts_per_sec,
        wakes_per_sec: stepping.wakes_per_sec,
        steps: stepping.latencies.len(),
        steps_per_sec: per_sec(stepping.latencies.len(), stepping.took),
        step_p50_ms: pick(0.5),
        step_p99_ms: pick(0.99),
        step_max_ms: pick(1.0),
        guest_call_p50_ms: guest.p50_ms,
        guest_call_p99_ms: guest.p99_ms,
        guest_call_faults: guest.faults,
        store: scratch.describe(),
        db_bytes: scratch.bytes(&app)?,
        stepping_rss_kib: before_stepping.then(process::peak_rss_kib).flatten(),
        peak_rss_kib: process::peak_rss_kib_ever(),
        compiler_peak_rss_kib: process::children_peak_rss_kib(),
        component_bytes,
        redeploy_ms: deploying.redeploy_ms,
        artifact_bytes: deploying.artifact_bytes,
    })
}

/// Refuses a measurement of no runs, or with input or payload that is not
/// JSON, before anything is deployed.
fn check_inputs(workload: &Workload, runs: usize) -> Result<(), AppError> {
    if runs == 0 {
        return Err(AppError::Invalid("--runs must be at least 1".into()));
    }
    for i in 0..runs {
        check_json("--input", &(workload.input)(i))?;
    }
    if let Some(BenchWake::Event { payload, .. }) = &workload.wake {
        check_json("--payload", payload)?;
    }
    Ok(())
}

/// What deploying the agent took.
struct Deploying {
    /// `name@version`.
    agent: String,
    digest: String,
    deploy_ms: f64,
    artifact_bytes: u64,
    redeploy_ms: f64,
}

/// Deploys the component with nothing cached, then removes the compiled
/// artifact and compiles it again in a new runtime, with the functions the
/// deploy compiled still cached.
fn deploy(bytes: &[u8], scratch: &Scratch, config: &Config) -> Result<Deploying, AppError> {
    let cache_dir = config.cache_dir(&scratch.dir);
    let (deployed, deploy_ms) = {
        let mut app = App::open(&scratch.dir, config.clone())?;
        let t = Instant::now();
        let deployed = app.deploy(bytes, &[], true, None, "bench")?;
        (deployed, ms(t.elapsed()))
    };
    let artifacts = artifacts(&cache_dir);
    let artifact_bytes = artifacts
        .iter()
        .filter_map(|p| std::fs::metadata(p).ok())
        .map(|m| m.len())
        .sum();
    for artifact in &artifacts {
        std::fs::remove_file(artifact)
            .map_err(|e| AppError::Invalid(format!("cannot remove {}: {e}", artifact.display())))?;
    }
    let redeploy_ms = {
        let recompiling = App::open(&scratch.dir, config.clone())?;
        let t = Instant::now();
        recompiling.runtime()?.load(bytes)?;
        ms(t.elapsed())
    };
    Ok(Deploying {
        agent: format!("{}@{}", deployed.agent.name, deployed.agent.version),
        digest: deployed.agent.digest,
        deploy_ms,
        artifact_bytes,
        redeploy_ms,
    })
}

/// The guest without a store: loading its cached artifact, then its calls.
struct GuestAlone {
    cached_load_ms: f64,
    p50_ms: f64,
    p99_ms: f64,
    /// Page faults per call.
    faults: Option<u64>,
}

/// Loads the agent `digest` from its cached artifact in a fresh runtime
/// and times `runs` guest calls with no store behind them.
fn guest_alone(
    app: &App,
    digest: &str,
    workload: &Workload,
    runs: usize,
) -> Result<GuestAlone, AppError> {
    let t = Instant::now();
    let runtime = app.runtime()?;
    let loaded = runtime.load_stored(digest, |_| Err("the artifact should be cached".into()))?;
    let cached_load_ms = ms(t.elapsed());
    let faults_before = process::page_faults();
    let (p50_ms, p99_ms) = guest_calls(&runtime, &loaded, workload, runs, false)?;
    let faults = faults_before
        .zip(process::page_faults())
        .map(|(before, after)| after.saturating_sub(before) / runs as u64);
    Ok(GuestAlone {
        cached_load_ms,
        p50_ms,
        p99_ms,
        faults,
    })
}

/// Starting the runs and stepping them through their wake.
struct Stepping {
    starts_per_sec: f64,
    wakes_per_sec: Option<f64>,
    /// Each claim-step-commit's time.
    latencies: Vec<Duration>,
    /// The time spent stepping (starts and wakes apart).
    took: Duration,
}

/// Writes each run's world, starts `runs` runs of `agent`, steps them
/// until idle, gives each its wake, and steps them again.
fn start_and_step(
    app: &mut App,
    workload: &Workload,
    runs: usize,
    agent: &str,
) -> Result<Stepping, AppError> {
    for i in 0..runs {
        workload.write_world(app, i)?;
    }
    let t = Instant::now();
    let ids: Vec<String> = (0..runs)
        .map(|i| {
            let input = (workload.input)(i);
            app.start(agent, Some(&input), Some(&format!("bench-{i}")), "bench")
                .map(|r| r.run_id)
        })
        .collect::<Result<_, _>>()?;
    let starts_per_sec = per_sec(runs, t.elapsed());

    let mut latencies = Vec::with_capacity(runs * 2);
    let t = Instant::now();
    step_all(app, &mut latencies)?;
    let mut took = t.elapsed();
    let mut wakes_per_sec = None;
    if let Some(wake) = &workload.wake {
        let t = Instant::now();
        for (i, id) in ids.iter().enumerate() {
            send(app, id, i, wake)?;
        }
        wakes_per_sec = Some(per_sec(runs, t.elapsed()));
        let t = Instant::now();
        step_all(app, &mut latencies)?;
        took += t.elapsed();
    }
    latencies.sort_unstable();
    Ok(Stepping {
        starts_per_sec,
        wakes_per_sec,
        latencies,
        took,
    })
}

/// The compiled artifacts in a cache directory (not its function cache).
fn artifacts(cache_dir: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(cache_dir)
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "cwasm"))
        .collect()
}

/// Times instantiating the agent and calling its first step `n` times,
/// with no store behind it, on a thread started as workers are: the guest
/// runs on it in place, as a worker's step runs it. (Called from any other
/// thread, each call would be handed to a guest thread and back, a wake-up
/// and a context switch on each side that no worker pays.) With
/// `must_succeed`, a call the agent does not answer with a step result
/// fails the measurement: for a workload known to succeed without tools,
/// such a call measured something else. Otherwise each call is timed
/// whatever it returns (an agent's own tools are not answered here).
/// Returns the calls' p50 and p99, in milliseconds.
pub fn guest_calls(
    runtime: &crate::runtime::Runtime,
    agent: &crate::runtime::LoadedAgent,
    workload: &Workload,
    n: usize,
    must_succeed: bool,
) -> Result<(f64, f64), AppError> {
    struct NoTools;
    impl crate::runtime::ToolGate for NoTools {
        fn call(&mut self, _: &str, _: &str, _: &str) -> crate::runtime::ToolReply {
            Ok(Err(crate::model::ToolError::Failed(
                "the bench answers no tool calls".into(),
            )))
        }
    }
    // Made here: the workload's closures stay on this thread.
    let inputs: Vec<String> = (0..n).map(|i| (workload.input)(i)).collect();
    let calls = || {
        inputs
            .into_iter()
            .enumerate()
            .map(|(i, input)| {
                let input = crate::runtime::StepInput {
                    run_id: format!("bench-{i}"),
                    step_number: 1,
                    now_ms: 0,
                    state: "null".into(),
                    wake: crate::model::Wake::Start { input },
                    fuel_left: None,
                };
                let t = Instant::now();
                let (report, NoTools) = runtime.step(agent, &input, NoTools);
                let took = t.elapsed();
                match report.result {
                    Err(e) if must_succeed => {
                        Err(AppError::Invalid(format!("guest call {i} failed: {e}")))
                    }
                    _ => Ok(took),
                }
            })
            .collect::<Result<Vec<Duration>, AppError>>()
    };
    let mut times = crate::runtime::run_on_worker("bench-guest".into(), calls).map_err(|e| {
        AppError::Invalid(format!("could not start a thread for the guest calls: {e}"))
    })??;
    times.sort_unstable();
    let pick = |q: f64| ms(times[((times.len() as f64 - 1.0) * q).round() as usize]);
    Ok((pick(0.5), pick(0.99)))
}

fn check_json(what: &str, text: &str) -> Result<(), AppError> {
    serde_json::from_str::<serde_json::Value>(text)
        .map(|_| ())
        .map_err(|e| AppError::Invalid(format!("{what} is not valid JSON: {e}")))
}

/// Gives run `id` its wake; a run that cannot take it is a failed bench.
pub fn send(app: &mut App, id: &str, i: usize, wake: &BenchWake) -> Result<(), AppError> {
    match wake {
        BenchWake::Event { topic, payload } => {
            let sent = app.send(Some(id), topic, &format!("e{i}"), Some(payload), "bench")?;
            if let Some(s) = sent.iter().find(|s| s.delivery == Delivery::Finished) {
                return Err(AppError::Invalid(format!(
                    "run {} ended before its event on {topic} was sent: give a --topic the \
                     agent waits on, or no --topic",
                    s.run_id
                )));
            }
        }
        BenchWake::Approval { request } => {
            // The bench deploys as `bench`; another principal answers
            // (separation of duties), bound to the request's digest.
            let digest = app
                .store
                .approvals(id)?
                .into_iter()
                .find(|a| a.id == *request)
                .map(|a| a.details_digest);
            let who = crate::app::Acting {
                by: "bench-approver",
                said: None,
            };
            app.approve(id, request, who, true, None, digest.as_deref())?;
        }
    }
    Ok(())
}

/// Steps every due run, timing each claim-step-commit, on a worker thread
/// as `wakeful work` and `serve` step (the guest runs in place).
fn step_all(app: &mut App, latencies: &mut Vec<Duration>) -> Result<(), AppError> {
    crate::runtime::run_on_worker("bench-worker".into(), || step_all_here(app, latencies))
        .map_err(|e| AppError::Invalid(format!("cannot start the bench's worker: {e}")))?
}

fn step_all_here(app: &mut App, latencies: &mut Vec<Duration>) -> Result<(), AppError> {
    let mut worker = Worker::new(app);
    loop {
        let t = Instant::now();
        let Some(stepped) = worker.step_next()? else {
            return Ok(());
        };
        latencies.push(t.elapsed());
        if let StepEnd::Failed { error, .. } | StepEnd::Parked { reason: error } = stepped.what {
            return Err(AppError::Invalid(format!(
                "run {} failed: {error}",
                stepped.run_id
            )));
        }
    }
}

fn ms(d: Duration) -> f64 {
    (d.as_secs_f64() * 1000.0 * 1000.0).round() / 1000.0
}

fn per_sec(n: usize, d: Duration) -> f64 {
    (n as f64 / d.as_secs_f64().max(1e-9)).round()
}
