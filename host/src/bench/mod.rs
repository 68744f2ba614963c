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

mod scale;
mod scratch;

pub use scale::{ScaleOptions, ScaleReport, scale};

/// What one benchmark run measured.
#[derive(Debug, Serialize)]
pub struct Report {
    /// The agent version measured.
    pub agent: String,
    pub runs: usize,
    /// Compiling the component and recording it.
    pub deploy_ms: f64,
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
    /// Where the scratch store was: `sqlite` or the PostgreSQL URL.
    pub store: String,
    pub db_bytes: u64,
    /// Peak resident memory of this process.
    pub peak_rss_kib: Option<u64>,
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

/// The built-in workloads: the repository's agents, as
/// `scripts/build-agents.sh` builds them.
pub const WORKLOADS: &[&str] = &["invoice", "incident"];

/// Where `scripts/build-agents.sh` puts the components, below the
/// repository's root.
const BUILT_AGENTS: &str = "agents/target/wasm32-wasip2/release";

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
    let file = match name {
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
    let wasm = find_built(file).ok_or_else(|| {
        AppError::Invalid(format!(
            "workload `{name}` runs {BUILT_AGENTS}/{file}, which is not built here: run \
             scripts/build-agents.sh in the repository (it is looked for below the current \
             directory and the wakeful executable), or give the .wasm file's path"
        ))
    })?;
    Ok(match name {
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
                world: Box::new(|i| {
                    vec![(
                        format!("service/svc-{i}"),
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

fn find_built(file: &str) -> Option<PathBuf> {
    let cwd = std::env::current_dir().ok();
    let exe = std::env::current_exe().ok();
    let roots = cwd.iter().chain(exe.iter()).flat_map(|p| p.ancestors());
    roots
        .map(|root| root.join(BUILT_AGENTS).join(file))
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
    let mut app = App::open(&scratch.dir, config.clone())?;

    let t = Instant::now();
    let deployed = app.deploy(&bytes, &[], true, None, "bench")?;
    let deploy_ms = ms(t.elapsed());

    let fresh = App::open(&scratch.dir, config)?;
    let t = Instant::now();
    let runtime = fresh.runtime()?;
    runtime.load_stored(&deployed.agent.digest, || {
        Err("the artifact should be cached".into())
    })?;
    let cached_load_ms = ms(t.elapsed());

    for i in 0..runs {
        for (key, value) in (workload.world)(i) {
            app.kv(
                &KvOp::Put {
                    key,
                    value,
                    expected_version: None,
                },
                "bench",
            )?;
        }
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
        store: scratch.describe(),
        db_bytes: scratch.bytes(&app)?,
        peak_rss_kib: peak_rss_kib(),
    })
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
            app.approve(id, request, "bench", true, None, None)?;
        }
    }
    Ok(())
}

/// Steps every due run, timing each claim-step-commit.
fn step_all(app: &mut App, latencies: &mut Vec<Duration>) -> Result<(), AppError> {
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

/// `VmHWM` from `/proc/self/status`, where there is one.
fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}
