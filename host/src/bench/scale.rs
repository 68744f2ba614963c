//! `wakeful bench --scale`: the stores side by side in one run, on
//! scratch stores of their own:
//! - steps per second of the incident workload with 1, 2, 4… hosts, each
//!   host a thread with its own store connection and worker, as separate
//!   `serve` processes would have;
//! - event accepted → step committed: one host accepts the event, another
//!   steps it, woken as `serve` wakes it (in-process on SQLite, through
//!   PostgreSQL `NOTIFY` and the listening connection on PostgreSQL);
//! - claims among many sleeping runs: the time to find that nothing is
//!   due, and to find the one run that is.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde::Serialize;

use super::scratch::Scratch;
use super::{BenchWake, Workload, ms, per_sec, send, workload};
use crate::app::{App, AppError};
use crate::config::Config;
use crate::store::is_postgres;
use crate::wakeup::Wakeup;
use crate::worker::Worker;

/// What to measure.
pub struct ScaleOptions {
    /// The stores: `None` for SQLite, else a PostgreSQL URL (a scratch
    /// schema is made in it).
    pub stores: Vec<Option<String>>,
    /// Incident runs per throughput measurement.
    pub runs: usize,
    /// The numbers of hosts to measure throughput with.
    pub hosts: Vec<usize>,
    /// Events timed from acceptance to committed step.
    pub latency_samples: usize,
    /// Sleeping runs among which claims look for due work.
    pub sleeping: usize,
}

#[derive(Debug, Serialize)]
pub struct ScaleReport {
    pub throughput: Vec<Throughput>,
    pub latency: Vec<Latency>,
    pub due_lookup: Vec<DueLookup>,
}

#[derive(Debug, Serialize)]
pub struct Throughput {
    pub store: String,
    pub hosts: usize,
    pub runs: usize,
    pub steps: usize,
    pub steps_per_sec: f64,
}

#[derive(Debug, Serialize)]
pub struct Latency {
    pub store: String,
    /// How the stepping host heard of the event.
    pub woken_by: &'static str,
    pub samples: usize,
    pub p50_ms: f64,
    pub p99_ms: f64,
    pub max_ms: f64,
}

#[derive(Debug, Serialize)]
pub struct DueLookup {
    pub store: String,
    pub sleeping_runs: usize,
    pub seed_secs: f64,
    /// A claim that finds nothing due (median of 20).
    pub idle_claim_ms: f64,
    /// A claim that finds the one due run (median of 20).
    pub due_claim_ms: f64,
    pub store_bytes: u64,
}

/// Runs every measurement on every store.
pub fn scale(options: &ScaleOptions, config: &Config) -> Result<ScaleReport, AppError> {
    let mut report = ScaleReport {
        throughput: Vec::new(),
        latency: Vec::new(),
        due_lookup: Vec::new(),
    };
    for store in &options.stores {
        for &hosts in &options.hosts {
            report
                .throughput
                .push(throughput(store.as_deref(), hosts, options.runs, config)?);
        }
        if options.latency_samples > 0 {
            report
                .latency
                .push(latency(store.as_deref(), options.latency_samples, config)?);
        }
        if options.sleeping > 0 {
            report
                .due_lookup
                .push(due_lookup(store.as_deref(), options.sleeping, config)?);
        }
    }
    Ok(report)
}

/// A scratch store with `workload`'s agent deployed; returns the app, the
/// scratch (kept alive by the caller) and `name@version`.
pub(super) fn prepare(
    store: Option<&str>,
    workload: &Workload,
    config: &Config,
) -> Result<(App, Scratch, String), AppError> {
    let scratch = Scratch::new(store)?;
    let mut config = config.clone();
    config.tools.extend(workload.tools.iter().cloned());
    config.store.url = scratch.url.clone();
    let mut app = App::open(&scratch.dir, config)?;
    let bytes = std::fs::read(&workload.wasm)
        .map_err(|e| AppError::Invalid(format!("cannot read {}: {e}", workload.wasm.display())))?;
    let deployed = app.deploy(&bytes, &[], true, None, "bench")?;
    let agent = format!("{}@{}", deployed.agent.name, deployed.agent.version);
    Ok((app, scratch, agent))
}

/// Another host on the same scratch store, sharing the engine.
pub(super) fn host(app: &App, scratch: &Scratch) -> Result<App, AppError> {
    let other = App::open(&scratch.dir, app.config.clone())?;
    other.share_runtime(app.runtime()?);
    Ok(other)
}

pub(super) fn start(
    app: &mut App,
    workload: &Workload,
    agent: &str,
    runs: usize,
) -> Result<(), AppError> {
    for i in 0..runs {
        workload.write_world(app, i)?;
        let input = (workload.input)(i);
        app.start(agent, Some(&input), Some(&format!("bench-{i}")), "bench")?;
    }
    Ok(())
}

fn throughput(
    store: Option<&str>,
    hosts: usize,
    runs: usize,
    config: &Config,
) -> Result<Throughput, AppError> {
    let workload = workload("incident")?;
    let (mut app, scratch, agent) = prepare(store, &workload, config)?;
    start(&mut app, &workload, &agent, runs)?;
    // What `serve` does on its heartbeat once tables have grown.
    app.store.maintain()?;
    let mut apps = (0..hosts)
        .map(|_| host(&app, &scratch))
        .collect::<Result<Vec<_>, _>>()?;
    let t = Instant::now();
    let mut steps = step_with(&mut apps)?;
    let mut stepping = t.elapsed();
    if let Some(wake) = &workload.wake {
        for i in 0..runs {
            send(&mut app, &format!("bench-{i}"), i, wake)?;
        }
        app.store.maintain()?;
        let t = Instant::now();
        steps += step_with(&mut apps)?;
        stepping += t.elapsed();
    }
    Ok(Throughput {
        store: scratch.describe(),
        hosts,
        runs,
        steps,
        steps_per_sec: per_sec(steps, stepping),
    })
}

/// Steps every due run with one thread per app until none is due or in
/// flight; returns how many steps were taken.
fn step_with(apps: &mut [App]) -> Result<usize, AppError> {
    std::thread::scope(|scope| {
        let threads: Vec<_> = apps
            .iter_mut()
            .enumerate()
            .map(|(i, app)| {
                let name = format!("bench-host-{i}");
                crate::runtime::spawn_worker_scoped(
                    scope,
                    name,
                    move || -> Result<usize, AppError> {
                        let mut worker = Worker::new(app);
                        let mut steps = 0;
                        loop {
                            let stepped = worker.claim_and_step_many()?.len();
                            if stepped > 0 {
                                steps += stepped;
                                continue;
                            }
                            let now = worker.app().now();
                            if worker.app().store.due_but_claimed(now)? == 0 {
                                return Ok(steps);
                            }
                            std::thread::sleep(Duration::from_millis(1));
                        }
                    },
                )
                .expect("starting a bench host")
            })
            .collect();
        threads
            .into_iter()
            .map(|t| t.join().expect("a bench host panicked"))
            .sum()
    })
}

pub(super) fn latency(
    store: Option<&str>,
    samples: usize,
    config: &Config,
) -> Result<Latency, AppError> {
    let workload = workload("invoice")?;
    let Some(BenchWake::Event { topic, payload }) = workload.wake.clone() else {
        return Err(AppError::Invalid(
            "the invoice workload waits for an event".into(),
        ));
    };
    let (mut app, scratch, agent) = prepare(store, &workload, config)?;
    start(&mut app, &workload, &agent, samples)?;
    step_with(std::slice::from_mut(&mut app))?;
    app.store.maintain()?;

    let wakeup = Arc::new(Wakeup::default());
    let stop = Arc::new(AtomicBool::new(false));
    let (done_tx, done_rx) = mpsc::channel::<String>();
    let mut stepper = host(&app, &scratch)?;
    let recheck = Duration::from_millis(app.config.limits.idle_recheck_ms);
    let listening = scratch.url.clone().filter(|u| is_postgres(u));
    let woken_by = if listening.is_some() {
        "PostgreSQL NOTIFY to another connection"
    } else {
        "in-process signal"
    };
    std::thread::scope(|scope| -> Result<Latency, AppError> {
        if let Some(url) = &listening {
            let (stop, wakeup) = (stop.clone(), wakeup.clone());
            scope.spawn(move || {
                crate::store::sql::listen::listen(url, &stop, || wakeup.notify(), |_| {})
            });
            // The listener's LISTEN must be in place before the first event.
            std::thread::sleep(Duration::from_millis(300));
        }
        let (stop_worker, wakeup_worker) = (stop.clone(), wakeup.clone());
        let worker = crate::runtime::spawn_worker_scoped(scope, "bench-worker".into(), move || {
            let mut worker = Worker::new(&mut stepper);
            while !stop_worker.load(Ordering::SeqCst) {
                let seen = wakeup_worker.generation();
                // As `serve`'s workers do.
                match worker.claim_and_step_many() {
                    Ok(stepped) if stepped.is_empty() => {
                        if wakeup_worker.wait(seen, recheck) {
                            worker.expect_work();
                        }
                    }
                    Ok(stepped) => {
                        for s in stepped {
                            let _ = done_tx.send(s.run_id);
                        }
                    }
                    Err(_) => std::thread::sleep(recheck),
                }
            }
        });
        worker.expect("starting a bench worker");
        let measured = (|| {
            let mut times = Vec::with_capacity(samples);
            for i in 0..samples {
                let run = format!("bench-{i}");
                let t = Instant::now();
                app.send(
                    Some(&run),
                    &topic,
                    &format!("e{i}"),
                    Some(&payload),
                    "bench",
                )?;
                if listening.is_none() {
                    wakeup.notify();
                }
                loop {
                    match done_rx.recv_timeout(Duration::from_secs(30)) {
                        Ok(stepped) if stepped == run => break,
                        Ok(_) => continue,
                        Err(_) => {
                            return Err(AppError::Invalid(format!(
                                "run {run} was not stepped within 30 s of its event"
                            )));
                        }
                    }
                }
                times.push(t.elapsed());
            }
            Ok(times)
        })();
        stop.store(true, Ordering::SeqCst);
        wakeup.notify();
        let mut times = measured?;
        times.sort_unstable();
        let pick = |q: f64| ms(times[((times.len() as f64 - 1.0) * q).round() as usize]);
        Ok(Latency {
            store: scratch.describe(),
            woken_by,
            samples,
            p50_ms: pick(0.5),
            p99_ms: pick(0.99),
            max_ms: pick(1.0),
        })
    })
}

fn due_lookup(
    store: Option<&str>,
    sleeping: usize,
    config: &Config,
) -> Result<DueLookup, AppError> {
    let workload = workload("invoice")?;
    let Some(BenchWake::Event { topic, payload }) = workload.wake.clone() else {
        return Err(AppError::Invalid(
            "the invoice workload waits for an event".into(),
        ));
    };
    let (mut app, scratch, agent) = prepare(store, &workload, config)?;
    start(&mut app, &workload, &agent, 1)?;
    step_with(std::slice::from_mut(&mut app))?;
    let t = Instant::now();
    app.store.seed_sleeping_copies("bench-0", sleeping)?;
    let seed_secs = t.elapsed().as_secs_f64();
    app.store.maintain()?;

    let (idle_claim_ms, due_claim_ms) = claim_medians(&mut app, &topic, &payload)?;
    Ok(DueLookup {
        store: scratch.describe(),
        sleeping_runs: sleeping,
        seed_secs: (seed_secs * 10.0).round() / 10.0,
        idle_claim_ms,
        due_claim_ms,
        store_bytes: scratch.bytes(&app)?,
    })
}

/// Among sleeping runs of the invoice workload (`bench-0` among them,
/// waiting for an event on `topic`): the median time of a claim that finds
/// nothing due, and of one that finds `bench-0` once it has its event.
pub(super) fn claim_medians(
    app: &mut App,
    topic: &str,
    payload: &str,
) -> Result<(f64, f64), AppError> {
    let median = |app: &mut App, due: bool| -> Result<f64, AppError> {
        let mut times = Vec::new();
        for _ in 0..20 {
            let now = app.now();
            let t = Instant::now();
            let claimed = app.store.claim(now, "bench", 60_000)?;
            times.push(t.elapsed());
            match (claimed, due) {
                (Some((claim, _)), true) => app.store.release(&claim.run.run_id, claim.epoch)?,
                (None, false) => {}
                (found, _) => {
                    return Err(AppError::Invalid(format!(
                        "a claim among sleeping runs found {} where {} was due",
                        found.map_or("nothing".into(), |(c, _)| c.run.run_id),
                        if due { "bench-0" } else { "nothing" }
                    )));
                }
            }
        }
        times.sort_unstable();
        Ok(ms(times[times.len() / 2]))
    };
    let idle_claim_ms = median(app, false)?;
    app.send(Some("bench-0"), topic, "due", Some(payload), "bench")?;
    let due_claim_ms = median(app, true)?;
    Ok((idle_claim_ms, due_claim_ms))
}
