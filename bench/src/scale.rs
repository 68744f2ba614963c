//! `wakeful-bench --scale`: the stores side by side in one run, on
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

use wakeful::app::{App, AppError};
use wakeful::config::Config;
use wakeful::measure::{BenchWake, Scratch, Workload, send, workload};
use wakeful::store::is_postgres;
use wakeful::wakeup::Wakeup;
use wakeful::worker::Worker;

use crate::figures::{ms, per_sec};

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
pub(crate) fn prepare(
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
pub(crate) fn host(app: &App, scratch: &Scratch) -> Result<App, AppError> {
    let other = App::open(&scratch.dir, app.config.clone())?;
    other.share_runtime(app.runtime()?);
    Ok(other)
}

pub(crate) fn start(
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
                wakeful::runtime::spawn_worker_scoped(
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

/// Event accepted → step committed, `samples` times: this host accepts
/// each event, another steps it, woken as `serve`'s workers are.
pub(crate) fn latency(
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
    let stepper = host(&app, &scratch)?;
    let listening = scratch.url.clone().filter(|u| is_postgres(u));
    let woken_by = if listening.is_some() {
        "PostgreSQL NOTIFY to another connection"
    } else {
        "in-process signal"
    };
    let measured = std::thread::scope(|scope| {
        if let Some(url) = &listening {
            let (stop, wakeup) = (stop.clone(), wakeup.clone());
            scope.spawn(move || {
                wakeful::store::sql::listen::listen(url, &stop, || wakeup.notify(), |_| {})
            });
            // The listener's LISTEN must be in place before the first event.
            std::thread::sleep(Duration::from_millis(300));
        }
        let woken = Woken {
            stop: stop.clone(),
            wakeup: wakeup.clone(),
        };
        wakeful::runtime::spawn_worker_scoped(scope, "bench-worker".into(), move || {
            step_when_woken(stepper, &woken, &done_tx);
        })
        .expect("starting a bench worker");
        // Without a listener, this host wakes the stepper itself.
        let notify = listening.is_none().then_some(&*wakeup);
        let sent = Event {
            topic: &topic,
            payload: &payload,
        };
        let measured = time_events(&mut app, &sent, samples, &done_rx, notify);
        stop.store(true, Ordering::SeqCst);
        wakeup.notify();
        measured
    });
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
}

/// What the stepping host is told by: a flag to stop, and the wake-up it
/// waits on when nothing is due.
struct Woken {
    stop: Arc<AtomicBool>,
    wakeup: Arc<Wakeup>,
}

/// Steps runs on `stepper` as `serve`'s workers do, waiting on the wake-up
/// when nothing is due, and sends each stepped run's id to `done`, until
/// told to stop.
fn step_when_woken(mut stepper: App, woken: &Woken, done: &mpsc::Sender<String>) {
    let recheck = Duration::from_millis(stepper.config.limits.idle_recheck_ms);
    let mut worker = Worker::new(&mut stepper);
    while !woken.stop.load(Ordering::SeqCst) {
        let seen = woken.wakeup.generation();
        match worker.claim_and_step_many() {
            Ok(stepped) if stepped.is_empty() => {
                if woken.wakeup.wait(seen, recheck) {
                    worker.expect_work();
                }
            }
            Ok(stepped) => {
                for s in stepped {
                    let _ = done.send(s.run_id);
                }
            }
            Err(_) => std::thread::sleep(recheck),
        }
    }
}

/// The event each sleeping invoice run is sent.
struct Event<'a> {
    topic: &'a str,
    payload: &'a str,
}

/// Sends runs `bench-0`… their event one at a time, each timed until the
/// stepping host says it stepped that run.
fn time_events(
    app: &mut App,
    event: &Event,
    samples: usize,
    done: &mpsc::Receiver<String>,
    notify: Option<&Wakeup>,
) -> Result<Vec<Duration>, AppError> {
    let mut times = Vec::with_capacity(samples);
    for i in 0..samples {
        let run = format!("bench-{i}");
        let t = Instant::now();
        app.send(
            Some(&run),
            event.topic,
            &format!("e{i}"),
            Some(event.payload),
            "bench",
        )?;
        if let Some(wakeup) = notify {
            wakeup.notify();
        }
        loop {
            match done.recv_timeout(Duration::from_secs(30)) {
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
pub(crate) fn claim_medians(
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

/// The stores side by side, as a table.
pub fn print_table(report: &ScaleReport) {
    println!("steps/s (incident workload; each host its own connection and worker)");
    println!(
        "  {:<10} {:>5} {:>6} {:>10}",
        "STORE", "HOSTS", "RUNS", "STEPS/S"
    );
    for t in &report.throughput {
        println!(
            "  {:<10} {:>5} {:>6} {:>10}",
            t.store, t.hosts, t.runs, t.steps_per_sec
        );
    }
    println!("event accepted -> step committed (another host steps it)");
    for l in &report.latency {
        println!(
            "  {:<10} p50 {:>8.3} ms  p99 {:>8.3} ms  max {:>8.3} ms  ({} samples; woken by {})",
            l.store, l.p50_ms, l.p99_ms, l.max_ms, l.samples, l.woken_by
        );
    }
    println!("claims among sleeping runs");
    for d in &report.due_lookup {
        println!(
            "  {:<10} {} sleeping (seeded in {} s, {} MB): nothing due {:.3} ms, one due {:.3} ms",
            d.store,
            d.sleeping_runs,
            d.seed_secs,
            d.store_bytes / 1_000_000,
            d.idle_claim_ms,
            d.due_claim_ms
        );
    }
}
