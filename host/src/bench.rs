//! `wakeful bench`: how fast this machine deploys, starts and steps runs of
//! a real agent, on a throwaway data directory with the real SQLite store.
//! Numbers, not assertions: the targets live in the issues, the
//! measurements here.

use std::path::Path;
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::app::{App, AppError};
use crate::config::Config;
use crate::worker::{StepEnd, Worker};

/// What one benchmark run measured.
#[derive(Debug, Serialize)]
pub struct Report {
    pub runs: usize,
    /// Compiling the component and recording it.
    pub deploy_ms: f64,
    /// Loading the precompiled component in a fresh runtime (what a new
    /// process pays before its first step).
    pub cached_load_ms: f64,
    pub starts_per_sec: f64,
    pub events_per_sec: f64,
    pub steps: usize,
    pub steps_per_sec: f64,
    pub step_p50_ms: f64,
    pub step_p99_ms: f64,
    pub step_max_ms: f64,
    pub db_bytes: u64,
    /// Peak resident memory of this process.
    pub peak_rss_kib: Option<u64>,
}

/// Deploys `wasm` into a fresh data directory under `scratch`, starts `runs`
/// runs, steps them until idle, sends each an event on `topic`, and steps
/// them again.
pub fn run(
    wasm: &Path,
    runs: usize,
    topic: &str,
    scratch: &Path,
    config: Config,
) -> Result<Report, AppError> {
    let _ = std::fs::remove_dir_all(scratch);
    let bytes = std::fs::read(wasm)
        .map_err(|e| AppError::Invalid(format!("cannot read {}: {e}", wasm.display())))?;
    let mut app = App::open(scratch, config.clone())?;

    let t = Instant::now();
    let deployed = app.deploy(&bytes, &[], true, None, "bench")?;
    let deploy_ms = ms(t.elapsed());

    let fresh = App::open(scratch, config)?;
    let t = Instant::now();
    let runtime = fresh.runtime()?;
    runtime.load_stored(&deployed.agent.digest, || {
        Err("the artifact should be cached".into())
    })?;
    let cached_load_ms = ms(t.elapsed());

    let agent = format!("{}@{}", deployed.agent.name, deployed.agent.version);
    let t = Instant::now();
    let ids: Vec<String> = (0..runs)
        .map(|i| {
            app.start(&agent, None, Some(&format!("bench-{i}")), "bench")
                .map(|r| r.run_id)
        })
        .collect::<Result<_, _>>()?;
    let starts_per_sec = per_sec(runs, t.elapsed());

    let mut latencies = Vec::with_capacity(runs * 2);
    let t = Instant::now();
    step_all(&mut app, &mut latencies)?;
    let t_events = Instant::now();
    for (i, id) in ids.iter().enumerate() {
        app.send(Some(id), topic, &format!("e{i}"), Some("{}"), "bench")?;
    }
    let events_per_sec = per_sec(runs, t_events.elapsed());
    let first_wave = t_events - t;
    let t = Instant::now();
    step_all(&mut app, &mut latencies)?;
    let stepping = first_wave + t.elapsed();

    latencies.sort_unstable();
    let pick = |q: f64| {
        latencies
            .get(((latencies.len() as f64 - 1.0) * q).round() as usize)
            .copied()
            .map_or(0.0, ms)
    };
    Ok(Report {
        runs,
        deploy_ms,
        cached_load_ms,
        starts_per_sec,
        events_per_sec,
        steps: latencies.len(),
        steps_per_sec: per_sec(latencies.len(), stepping),
        step_p50_ms: pick(0.5),
        step_p99_ms: pick(0.99),
        step_max_ms: pick(1.0),
        db_bytes: db_size(scratch),
        peak_rss_kib: peak_rss_kib(),
    })
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

fn db_size(dir: &Path) -> u64 {
    ["wakeful.db", "wakeful.db-wal"]
        .iter()
        .filter_map(|f| std::fs::metadata(dir.join(f)).ok())
        .map(|m| m.len())
        .sum()
}

/// `VmHWM` from `/proc/self/status`, where there is one.
fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}
