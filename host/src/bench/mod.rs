//! `wakeful bench`: how fast this machine deploys, starts and steps runs of
//! a real agent, on a throwaway store in a new temporary directory that is
//! removed afterwards (the operator's data directory is never opened).
//! Numbers, not assertions: the targets live in the issues, the
//! measurements here. Given a PostgreSQL `--store`, the scratch store is a
//! new schema in that database, dropped afterwards.
//!
//! A [`Workload`] says what to measure: the component, each run's start
//! input, the kv values its runs expect to find, and the wake each run gets
//! after its first steps. The repository's agents are built-in workloads
//! by name ([`WORKLOADS`]); any other component is measured with the input
//! and event the operator gives.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::app::{App, AppError};
use crate::config::{Config, ToolConfig};
use crate::store::{Delivery, KvOp};
use crate::worker::{StepEnd, Worker};
use scratch::Scratch;

mod record;
mod scale;
mod scratch;

pub use record::{Record, RecordOptions, record};
pub use scale::{ScaleOptions, ScaleReport, scale};

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

/// The wake each run gets once its first steps are taken.
#[derive(Clone, Debug)]
pub enum BenchWake {
    /// An event on `topic` with a JSON `payload`.
    Event { topic: String, payload: String },
    /// An approving answer to the approval request `request`.
    Approval { request: String },
}

/// What a benchmark measures.
pub struct Workload {
    /// The agent component.
    pub wasm: PathBuf,
    /// The start input of run `i` (JSON text).
    pub input: Box<dyn Fn(usize) -> String>,
    /// The kv keys and JSON values run `i` expects, written before the
    /// runs start (not timed).
    pub world: Box<dyn Fn(usize) -> Vec<(String, String)>>,
    pub wake: Option<BenchWake>,
    /// Tools the workload needs, set on the scratch host whatever the
    /// operator's config says (a canned model answer rather than a paid
    /// model).
    pub tools: Vec<(String, ToolConfig)>,
}

impl Workload {
    /// Writes the kv keys run `i` expects.
    pub(crate) fn write_world(&self, app: &mut App, i: usize) -> Result<(), AppError> {
        for (key, value) in (self.world)(i) {
            let put = KvOp::Put {
                key,
                value,
                expected_version: None,
            };
            app.kv(&put, "bench")?;
        }
        Ok(())
    }
}

/// The built-in workloads: the repository's agents, as
/// `scripts/build-agents.sh` builds them; `-py` and `-ts` are the same
/// agents written in Python and TypeScript.
pub const WORKLOADS: &[&str] = &[
    "invoice",
    "incident",
    "invoice-py",
    "incident-py",
    "invoice-ts",
    "incident-ts",
];

/// Where the build scripts put the components of each language, below the
/// repository's root, by workload suffix.
/// and the script that builds them.
const BUILT_AGENTS: &[(&str, &str, &str)] = &[
    (
        "",
        "agents/target/wasm32-wasip2/release",
        "scripts/build-agents.sh",
    ),
    (
        "-py",
        "agents/target/python",
        "scripts/build-python-agents.sh",
    ),
    ("-ts", "agents/target/ts", "scripts/build-ts-agents.sh"),
];

/// The incident agent's model answer (as in `agents/incident/wakeful.toml`).
const INCIDENT_LLM: &str = r#"
[tools.llm]
kind = "static"
description = "A fixed model answer: the benchmark measures the host, not a model."
result = { action = "scale_out", reason = "memory at 97% after an OutOfMemoryError; scale out" }
"#;

/// The built-in workload `name`, its component looked up below the
/// current directory's and this executable's ancestors.
pub fn workload(name: &str) -> Result<Workload, AppError> {
    let (base, dir, script) = BUILT_AGENTS
        .iter()
        .rev()
        .find_map(|(suffix, dir, script)| Some((name.strip_suffix(suffix)?, *dir, *script)))
        .unwrap_or((name, BUILT_AGENTS[0].1, BUILT_AGENTS[0].2));
    let file = match base {
        "invoice" => "invoice_mail.wasm",
        "incident" => "incident.wasm",
        _ => {
            return Err(AppError::Invalid(format!(
                "there is no workload `{name}`: name one of {}, or give an agent component \
                 (a .wasm file)",
                WORKLOADS.join(", ")
            )));
        }
    };
    let wasm = find_built(dir, file).ok_or_else(|| {
        AppError::Invalid(format!(
            "workload `{name}` runs {dir}/{file}, which is not built here: run \
             {script} in the repository (it is looked for below the current \
             directory and the wakeful executable), or give the .wasm file's path"
        ))
    })?;
    Ok(match base {
        "invoice" => Workload {
            wasm,
            input: Box::new(|_| "null".into()),
            world: Box::new(|_| vec![]),
            wake: Some(BenchWake::Event {
                topic: "mail:invoice".into(),
                payload: r#"{"amount":120}"#.into(),
            }),
            tools: vec![],
        },
        _ => {
            // One service per run: runs acting on one service would find
            // the world changed by each other and stop short.
            let agent = name.to_string();
            let llm = Config::parse(INCIDENT_LLM)
                .map_err(AppError::Invalid)?
                .tools
                .into_iter()
                .collect();
            Workload {
                wasm,
                input: Box::new(|i| {
                    serde_json::json!({"incident": format!("BENCH-{i}"), "service": format!("svc-{i}")})
                        .to_string()
                }),
                // Keys of the agent's own namespace: the workload's name is
                // the name its agent deploys under (`incident`, `incident-py`).
                world: Box::new(move |i| {
                    vec![(
                        format!("agent/{agent}/service/svc-{i}"),
                        r#"{"status":"degraded","memory_pct":97,"actions_applied":0}"#.into(),
                    )]
                }),
                wake: Some(BenchWake::Approval {
                    request: "approve-scale_out".into(),
                }),
                tools: llm,
            }
        }
    })
}

/// Any agent component: started with a null input and sent no wake until
/// the operator says otherwise.
pub fn file_workload(wasm: &Path) -> Workload {
    Workload {
        wasm: wasm.to_path_buf(),
        input: Box::new(|_| "null".into()),
        world: Box::new(|_| vec![]),
        wake: None,
        tools: vec![],
    }
}

fn find_built(dir: &str, file: &str) -> Option<PathBuf> {
    let cwd = std::env::current_dir().ok();
    let exe = std::env::current_exe().ok();
    let roots = cwd.iter().chain(exe.iter()).flat_map(|p| p.ancestors());
    roots
        .map(|root| root.join(dir).join(file))
        .find(|path| path.is_file())
}

/// Deploys the workload's agent into a fresh scratch store, starts `runs`
/// runs, steps them until idle, gives each its wake, and steps them again.
pub fn run(workload: &Workload, runs: usize, mut config: Config) -> Result<Report, AppError> {
    if runs == 0 {
        return Err(AppError::Invalid("--runs must be at least 1".into()));
    }
    for i in 0..runs {
        check_json("--input", &(workload.input)(i))?;
    }
    if let Some(BenchWake::Event { payload, .. }) = &workload.wake {
        check_json("--payload", payload)?;
    }
    let bytes = std::fs::read(&workload.wasm)
        .map_err(|e| AppError::Invalid(format!("cannot read {}: {e}", workload.wasm.display())))?;
    config.tools.extend(workload.tools.iter().cloned());
    let scratch = Scratch::new(config.store_url())?;
    config.store.url = scratch.url.clone();
    // A cache of its own, so that nothing is compiled before the deploy.
    config.cache.dir = None;
    let cache_dir = config.cache_dir(&scratch.dir);
    let deployed = {
        let mut app = App::open(&scratch.dir, config.clone())?;
        let t = Instant::now();
        let deployed = app.deploy(&bytes, &[], true, None, "bench")?;
        (deployed, ms(t.elapsed()))
    };
    let (deployed, deploy_ms) = deployed;
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
        recompiling.runtime()?.load(&bytes)?;
        ms(t.elapsed())
    };

    // Not held while stepping is measured.
    let component_bytes = bytes.len() as u64;
    drop(bytes);
    let mut app = App::open(&scratch.dir, config)?;
    crate::runtime::trim_heap();
    let before_stepping = reset_peak_rss();
    let t = Instant::now();
    let runtime = app.runtime()?;
    let loaded = runtime.load_stored(&deployed.agent.digest, |_| {
        Err("the artifact should be cached".into())
    })?;
    let cached_load_ms = ms(t.elapsed());
    let faults_before = page_faults();
    let (guest_call_p50_ms, guest_call_p99_ms) =
        guest_calls(&runtime, &loaded, workload, runs, false)?;
    let guest_call_faults = faults_before
        .zip(page_faults())
        .map(|(before, after)| after.saturating_sub(before) / runs as u64);

    for i in 0..runs {
        workload.write_world(&mut app, i)?;
    }
    let agent = format!("{}@{}", deployed.agent.name, deployed.agent.version);
    let t = Instant::now();
    let ids: Vec<String> = (0..runs)
        .map(|i| {
            let input = (workload.input)(i);
            app.start(&agent, Some(&input), Some(&format!("bench-{i}")), "bench")
                .map(|r| r.run_id)
        })
        .collect::<Result<_, _>>()?;
    let starts_per_sec = per_sec(runs, t.elapsed());

    let mut latencies = Vec::with_capacity(runs * 2);
    let t = Instant::now();
    step_all(&mut app, &mut latencies)?;
    let mut stepping = t.elapsed();
    let mut wakes_per_sec = None;
    if let Some(wake) = &workload.wake {
        let t = Instant::now();
        for (i, id) in ids.iter().enumerate() {
            send(&mut app, id, i, wake)?;
        }
        wakes_per_sec = Some(per_sec(runs, t.elapsed()));
        let t = Instant::now();
        step_all(&mut app, &mut latencies)?;
        stepping += t.elapsed();
    }

    latencies.sort_unstable();
    let pick = |q: f64| {
        latencies
            .get(((latencies.len() as f64 - 1.0) * q).round() as usize)
            .copied()
            .map_or(0.0, ms)
    };
    Ok(Report {
        agent,
        runs,
        deploy_ms,
        cached_load_ms,
        starts_per_sec,
        wakes_per_sec,
        steps: latencies.len(),
        steps_per_sec: per_sec(latencies.len(), stepping),
        step_p50_ms: pick(0.5),
        step_p99_ms: pick(0.99),
        step_max_ms: pick(1.0),
        guest_call_p50_ms,
        guest_call_p99_ms,
        guest_call_faults,
        store: scratch.describe(),
        db_bytes: scratch.bytes(&app)?,
        stepping_rss_kib: before_stepping.then(peak_rss_kib).flatten(),
        peak_rss_kib: peak_rss_kib_ever(),
        compiler_peak_rss_kib: children_peak_rss_kib(),
        component_bytes,
        redeploy_ms,
        artifact_bytes,
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
fn guest_calls(
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
                let report = runtime.step(agent, &input, &mut NoTools);
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
fn send(app: &mut App, id: &str, i: usize, wake: &BenchWake) -> Result<(), AppError> {
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

/// Page faults (minor and major) the process has taken, from
/// `/proc/self/stat`, where there is one.
fn page_faults() -> Option<u64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name, which is in parentheses and may
    // contain spaces: state is field 3, minflt 10, majflt 12.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let minor: u64 = fields.get(7)?.parse().ok()?;
    let major: u64 = fields.get(9)?.parse().ok()?;
    Some(minor + major)
}

/// The process's peak resident memory since it started (or since the last
/// [`reset_peak_rss`]): `VmHWM` from `/proc/self/status`, where there is
/// one.
fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// The peak resident memory of the largest child process waited for.
#[allow(unsafe_code)]
fn children_peak_rss_kib() -> Option<u64> {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: `getrusage` fills the zeroed struct it is given and
        // touches nothing else.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        if unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) } == 0 && usage.ru_maxrss > 0
        {
            // Linux counts it in KiB.
            return Some(usage.ru_maxrss as u64);
        }
    }
    None
}

/// The peak before any reset: the highest of what was read before the
/// reset and what was read after it.
fn peak_rss_kib_ever() -> Option<u64> {
    let before = PEAK_BEFORE_RESET.load(std::sync::atomic::Ordering::Relaxed);
    peak_rss_kib().map(|now| now.max(before))
}

static PEAK_BEFORE_RESET: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Starts measuring the peak anew (Linux: writing 5 to `clear_refs` resets
/// `VmHWM` to the current resident size); `false` where it cannot.
fn reset_peak_rss() -> bool {
    if let Some(peak) = peak_rss_kib() {
        PEAK_BEFORE_RESET.fetch_max(peak, std::sync::atomic::Ordering::Relaxed);
    }
    std::fs::write("/proc/self/clear_refs", "5").is_ok()
}
