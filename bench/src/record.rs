//! The benchmark of record. Every figure in one run, each with its
//! conditions, and the ones the disk bounds as a ratio to the disk's floor
//! measured in the same run (a machine's floor moves between runs):
//! - (a) the incident workload, one incident at a time;
//! - (b) many incidents in flight, stepped with group commit;
//! - (c) instantiating the agent and calling its step, with no store;
//! - (d) an event accepted → its step committed, as `serve` steps it;
//! - (e) many sleeping runs: creating them, their bytes, finding due work
//!   among them, stepping among them, and `serve` starting on them;
//! - (f) the floor: one-row SQLite commits per second, WAL and
//!   `synchronous=FULL`, on the disk the scratch store is on.

use std::time::{Duration, Instant};

use serde::Serialize;

use wakeful::app::{App, AppError};
use wakeful::config::Config;
use wakeful::measure::{BenchWake, Scratch, Workload, guest_calls, send, workload};

use crate::figures::{ms, per_sec, pick_ms, round1, round2, round3};
use crate::scale::{self, Latency, prepare, start};

mod compare;
mod serve_start;
mod steppers;
pub mod table;

use steppers::with_steppers;

/// What to measure.
pub struct RecordOptions {
    /// Incidents run one after another (a).
    pub sequential: usize,
    /// Incidents started together and stepped together (b).
    pub in_flight: usize,
    /// Worker threads stepping them, each its own connection (as `serve
    /// --workers`).
    pub workers: usize,
    /// How many times (a) and (b) run, each after a measurement of the
    /// floor; the median run of each is reported.
    pub repeats: usize,
    /// Guest calls timed (c).
    pub guest_samples: usize,
    /// Events timed from acceptance to committed step (d).
    pub latency_samples: usize,
    /// Sleeping runs (e).
    pub sleeping: usize,
    /// LangGraph's figures on the same workload, from this run
    /// (`bench/langgraph/incident.py`'s JSON), set beside (a) and (b).
    pub compare_json: Option<std::path::PathBuf>,
    /// The `wakeful` binary whose `serve` is started on the sleeping runs
    /// (e); `None`: `wakeful` beside this executable.
    pub wakeful: Option<std::path::PathBuf>,
}

#[derive(Debug, Serialize)]
pub struct Record {
    pub conditions: Conditions,
    /// (f) measured before each run of (a) and of (b), and at the end;
    /// ratios use the median.
    pub floor: Floor,
    pub sequential: Flow,
    pub in_flight: Flow,
    pub guest: Guest,
    pub event_to_commit: Latency,
    pub sleeping: Sleeping,
    /// `None` when LangGraph was not measured (no `--compare-json`).
    pub langgraph: Option<compare::LangGraph>,
}

#[derive(Debug, Serialize)]
pub struct Conditions {
    pub cpus: usize,
    /// `release` or `debug`: only a release build's figures mean anything.
    pub build: &'static str,
    pub store: &'static str,
    pub steps_per_commit: usize,
    pub scratch_dir: String,
}

#[derive(Debug, Serialize)]
pub struct Floor {
    pub commits_per_sec: f64,
    pub samples: Vec<f64>,
}

/// A flow of incidents: start, step to the approval, approve, step to done.
#[derive(Debug, Serialize)]
pub struct Flow {
    pub incidents: usize,
    pub workers: usize,
    pub steps: usize,
    /// Steps per second of stepping time (starts and approvals apart).
    pub steps_per_sec: f64,
    /// Steps per second of each run of the flow, in the order they ran.
    /// The machine's speed moves by a fifth from one run to the next, so
    /// the flow is run several times and every other figure here is the
    /// median run's.
    pub runs_steps_per_sec: Vec<f64>,
    pub ratio_to_floor: f64,
    /// CPU time of the whole process per step (every thread: guest threads,
    /// SQLite), while stepping.
    pub cpu_ms_per_step: f64,
    /// SQL statements the workers ran per step (claims, tool calls,
    /// commits; transaction control included): the store's share of a
    /// step in a figure that does not move with the machine's load.
    pub statements_per_step: f64,
    /// Commits flushed to disk per step, per start, per approval: each is
    /// one fsync of SQLite's WAL (checkpoints aside).
    pub synced_commits_per_step: f64,
    pub synced_commits_per_start: f64,
    pub synced_commits_per_approval: f64,
    pub starts_per_sec: f64,
    pub approvals_per_sec: f64,
    /// Time per worker pass (claim, step the runs claimed, commit), p50 and
    /// p99: one step in (a), a group in (b).
    pub pass_p50_ms: f64,
    pub pass_p99_ms: f64,
    /// Where a step's time went, in µs per step.
    pub split: Split,
    /// The store's growth per finished incident, history included: pages
    /// that hold tables and indexes.
    pub bytes_per_incident: u64,
    /// Free pages the file grew by, per incident: space the in-flight
    /// runs' live history took before their ends archived it, kept for the
    /// next runs' rows.
    pub free_bytes_per_incident: u64,
}

/// A step's time, in µs per step, by where the workers spent it. Each of
/// `claim`, `step` and `commit` is summed over the workers, so with
/// several they add up to more than the wall time per step.
#[derive(Debug, Default, Serialize)]
pub struct Split {
    /// Claiming runs (a group's claim taken with the commit before it is
    /// in `commit`).
    pub claim_us: f64,
    /// Stepping: guests and tool calls.
    pub step_us: f64,
    /// Committing: the SQL, the wait for the writer's turn, the flush.
    pub commit_us: f64,
    /// The workers' looks for more work after their last pass.
    pub idle_look_us: f64,
    /// Time of the stepping's wall clock the workers spent outside their
    /// loops: being told to step and telling back (a thread wake-up each),
    /// one worker waiting for the others, the packer's last packing.
    pub outside_us: f64,
}

#[derive(Debug, Serialize)]
pub struct Guest {
    pub agent: String,
    pub samples: usize,
    pub p50_us: f64,
    pub p99_us: f64,
}

#[derive(Debug, Serialize)]
pub struct Sleeping {
    pub runs: usize,
    pub seed_secs: f64,
    pub store_bytes: u64,
    pub bytes_per_run: u64,
    /// A claim finding that nothing is due, and finding the one due run
    /// (median of 20).
    pub idle_claim_ms: f64,
    pub due_claim_ms: f64,
    /// (a)'s workload stepped among the sleeping runs, and its ratio to
    /// (a) on an empty store: 1.0 is flat.
    pub incidents: usize,
    pub steps: usize,
    pub steps_per_sec: f64,
    pub ratio_to_sequential: f64,
    /// Then one event wakes every one of them: the time to deliver it, and
    /// a claim's time among them all (median of 20), against `due_claim_ms`
    /// with one woken.
    pub wake_all_secs: f64,
    pub claim_among_woken_ms: f64,
    /// `wakeful serve` on this store: process start to listening, and its
    /// resident memory once at rest.
    pub serve_start_ms: Option<f64>,
    pub serve_rss_kib: Option<u64>,
    /// Why serve was not measured, if it was not.
    pub serve_note: Option<String>,
}

/// Runs every measurement on SQLite scratch stores.
pub fn record(options: &RecordOptions, config: &Config) -> Result<Record, AppError> {
    if options.sequential == 0 || options.in_flight == 0 || options.repeats == 0 {
        return Err(AppError::Invalid(
            "--runs, --in-flight and --repeat must be at least 1".into(),
        ));
    }
    // Read first: a bad file is refused before minutes of measuring.
    let langgraph = options
        .compare_json
        .as_deref()
        .map(compare::read)
        .transpose()?;
    let scratch_dir = std::env::temp_dir();
    let incident = workload("incident")?;
    let mut floors = Vec::with_capacity(2 * options.repeats + 1);
    let (mut sequentials, mut in_flights) = (Vec::new(), Vec::new());
    // Interleaved, so that a slow minute of the machine or of its disk
    // weighs on one run of each rather than on all runs of one.
    for _ in 0..options.repeats {
        floors.push(floor()?);
        sequentials.push(flow(&incident, options.sequential, false, 1, config)?);
        floors.push(floor()?);
        in_flights.push(flow(
            &incident,
            options.in_flight,
            true,
            options.workers,
            config,
        )?);
    }
    let sequential = median_run(sequentials);
    let in_flight = median_run(in_flights);
    let guest = guest(options.guest_samples, config)?;
    let event_to_commit = scale::latency(None, options.latency_samples, config)?;
    let sleeping = sleeping(
        options.sleeping,
        &incident,
        &sequential,
        options.wakeful.as_deref(),
        config,
    )?;
    floors.push(floor()?);

    let mut sorted = floors.clone();
    sorted.sort_by(f64::total_cmp);
    let floor = sorted[sorted.len() / 2];
    let ratio = |f: &mut Flow| f.ratio_to_floor = round2(f.steps_per_sec / floor);
    let (mut sequential, mut in_flight) = (sequential, in_flight);
    ratio(&mut sequential);
    ratio(&mut in_flight);
    Ok(Record {
        conditions: Conditions {
            cpus: std::thread::available_parallelism().map_or(1, |n| n.get()),
            build: if cfg!(debug_assertions) {
                "debug"
            } else {
                "release"
            },
            store: "sqlite (WAL, synchronous=FULL)",
            steps_per_commit: config.limits.steps_per_commit,
            scratch_dir: scratch_dir.display().to_string(),
        },
        // Before (a) and (b) move into the record.
        langgraph: langgraph.map(|l| l.compare(&sequential, &in_flight)),
        floor: Floor {
            commits_per_sec: floor,
            samples: floors,
        },
        sequential,
        in_flight,
        guest,
        event_to_commit,
        sleeping,
    })
}

/// The run of a flow with the median steps/s (of an even number, the
/// faster of the two middle ones, as for the floor), with every run's
/// steps/s.
fn median_run(mut runs: Vec<Flow>) -> Flow {
    let each: Vec<f64> = runs.iter().map(|f| f.steps_per_sec).collect();
    runs.sort_by(|a, b| a.steps_per_sec.total_cmp(&b.steps_per_sec));
    let mut median = runs.swap_remove(runs.len() / 2);
    median.runs_steps_per_sec = each;
    median
}

/// (f) One-row commits per second on a new SQLite file in `dir`, set up as
/// the store sets up its own: WAL, `synchronous=FULL`. Runs for about a
/// second.
fn floor() -> Result<f64, AppError> {
    let scratch = Scratch::new(None)?;
    let path = scratch.dir.join("floor.db");
    let fail = |e: rusqlite::Error| AppError::Invalid(format!("measuring the disk's floor: {e}"));
    let conn = rusqlite::Connection::open(&path).map_err(fail)?;
    conn.pragma_update_and_check(None, "journal_mode", "WAL", |_| Ok(()))
        .map_err(fail)?;
    conn.pragma_update(None, "synchronous", "FULL")
        .map_err(fail)?;
    conn.execute_batch("CREATE TABLE t (id INTEGER PRIMARY KEY, v BLOB NOT NULL)")
        .map_err(fail)?;
    let mut insert = conn
        .prepare("INSERT INTO t (v) VALUES (zeroblob(100))")
        .map_err(fail)?;
    let t = Instant::now();
    let mut n = 0;
    while n < 20 || (t.elapsed() < Duration::from_secs(1) && n < 20_000) {
        insert.execute([]).map_err(fail)?;
        n += 1;
    }
    Ok(per_sec(n, t.elapsed()))
}

/// CPU time this process has used, all threads: user and system time from
/// `/proc/self/stat`, in the kernel's fixed 1/100 s ticks (`USER_HZ`);
/// zero where there is no such file.
fn cpu_time() -> Duration {
    cpu_time_in("/proc/self/stat")
}

/// CPU time the calling thread has used, as [`cpu_time`] counts it.
fn thread_cpu_time() -> Duration {
    cpu_time_in("/proc/thread-self/stat")
}

fn cpu_time_in(stat: &str) -> Duration {
    let ticks = || -> Option<u64> {
        let stat = std::fs::read_to_string(stat).ok()?;
        // After the command name (in parentheses, which may hold spaces):
        // utime is field 14, stime 15.
        let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
        Some(fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?)
    };
    Duration::from_millis(ticks().unwrap_or(0) * 10)
}

/// What stepping took: steps, wall time, CPU time, synced commits, and each
/// worker pass's time.
#[derive(Default)]
struct Stepping {
    steps: usize,
    wall: Duration,
    cpu: Duration,
    synced: u64,
    statements: u64,
    passes: Vec<Duration>,
    /// The workers' time from being told to step to finding nothing due,
    /// summed over the workers.
    busy: Duration,
    times: wakeful::worker::PassTimes,
}

/// (a) or (b): `n` incidents one after another, or all in flight together.
fn flow(
    workload: &Workload,
    n: usize,
    together: bool,
    workers: usize,
    config: &Config,
) -> Result<Flow, AppError> {
    let (mut app, scratch, agent) = prepare(None, workload, config)?;
    // One worker steps as `wakeful work` does; more are other hosts on the
    // same store, as `serve --workers` has, each its own connection.
    let stepper_apps = (0..workers.max(1))
        .map(|_| scale::host(&app, &scratch))
        .collect::<Result<Vec<App>, AppError>>()?;
    let workers = stepper_apps.len();
    let wake = workload
        .wake
        .clone()
        .ok_or_else(|| AppError::Invalid("the incident workload is woken by an approval".into()))?;
    // The tables and indexes, not the WAL file (whose size says when it
    // was last checkpointed).
    let (bytes_before, free_before) = (app.store.size_bytes()?, app.store.free_bytes()?);
    let mut stepping = Stepping::default();
    let (mut starting, mut approving) = (Duration::ZERO, Duration::ZERO);
    let (mut start_synced, mut approve_synced) = (0, 0);
    let batches: Vec<Vec<usize>> = if together {
        vec![(0..n).collect()]
    } else {
        (0..n).map(|i| vec![i]).collect()
    };
    with_steppers(stepper_apps, |steppers| {
        for batch in batches {
            for &i in &batch {
                workload.write_world(&mut app, i)?;
            }
            let (t, synced) = (Instant::now(), app.store.synced_commits());
            for &i in &batch {
                start_one(&mut app, workload, &agent, i)?;
            }
            starting += t.elapsed();
            start_synced += app.store.synced_commits() - synced;
            steppers.step_until_idle(&mut stepping)?;
            let (t, synced) = (Instant::now(), app.store.synced_commits());
            for &i in &batch {
                send(&mut app, &format!("bench-{i}"), i, &wake)?;
            }
            approving += t.elapsed();
            approve_synced += app.store.synced_commits() - synced;
            steppers.step_until_idle(&mut stepping)?;
        }
        steppers.finish(&mut stepping);
        Ok(())
    })?;
    let steps = stepping.steps.max(1);
    let per_step = |d: Duration| round1(d.as_secs_f64() * 1e6 / steps as f64);
    let passes: Duration = stepping.passes.iter().sum();
    let split = Split {
        claim_us: per_step(stepping.times.claim),
        step_us: per_step(stepping.times.step),
        commit_us: per_step(stepping.times.commit),
        idle_look_us: per_step(stepping.busy.saturating_sub(passes)),
        outside_us: per_step((stepping.wall * workers as u32).saturating_sub(stepping.busy)),
    };
    stepping.passes.sort_unstable();
    Ok(Flow {
        incidents: n,
        workers,
        steps: stepping.steps,
        steps_per_sec: per_sec(stepping.steps, stepping.wall),
        runs_steps_per_sec: Vec::new(),
        ratio_to_floor: 0.0,
        cpu_ms_per_step: round3(stepping.cpu.as_secs_f64() * 1000.0 / steps as f64),
        statements_per_step: round2(stepping.statements as f64 / steps as f64),
        synced_commits_per_step: round2(stepping.synced as f64 / steps as f64),
        synced_commits_per_start: round2(start_synced as f64 / n as f64),
        synced_commits_per_approval: round2(approve_synced as f64 / n as f64),
        starts_per_sec: per_sec(n, starting),
        approvals_per_sec: per_sec(n, approving),
        pass_p50_ms: pick_ms(&stepping.passes, 0.5),
        pass_p99_ms: pick_ms(&stepping.passes, 0.99),
        split,
        bytes_per_incident: app.store.size_bytes()?.saturating_sub(bytes_before) / n as u64,
        free_bytes_per_incident: app.store.free_bytes()?.saturating_sub(free_before) / n as u64,
    })
}

/// (c) The invoice agent, instantiated and stepped with no store.
fn guest(samples: usize, config: &Config) -> Result<Guest, AppError> {
    let workload = workload("invoice")?;
    let (app, _scratch, agent) = prepare(None, &workload, config)?;
    let version = agent.split_once('@');
    let stored = match version {
        Some((name, version)) => app.store.agent(name, Some(version))?,
        None => None,
    }
    .ok_or_else(|| AppError::Invalid(format!("{agent} was not deployed")))?;
    let runtime = app.runtime()?;
    let loaded = runtime.load_stored(&stored.digest, |_| {
        Err("the artifact should be cached".into())
    })?;
    // Warm the instance pool and the guest threads first.
    guest_calls(&runtime, &loaded, &workload, 50, true)?;
    let (p50, p99) = guest_calls(&runtime, &loaded, &workload, samples.max(1), true)?;
    Ok(Guest {
        agent,
        samples: samples.max(1),
        p50_us: round3(p50 * 1000.0),
        p99_us: round3(p99 * 1000.0),
    })
}

/// (e) `n` sleeping runs (copies of an invoice run waiting for an event),
/// then claims among them, incidents stepped among them, and `serve`
/// started on them.
fn sleeping(
    n: usize,
    incident: &Workload,
    sequential: &Flow,
    wakeful: Option<&std::path::Path>,
    config: &Config,
) -> Result<Sleeping, AppError> {
    let invoice = workload("invoice")?;
    let Some(BenchWake::Event { topic, payload }) = invoice.wake.clone() else {
        return Err(AppError::Invalid(
            "the invoice workload waits for an event".into(),
        ));
    };
    let (mut app, scratch, agent) = prepare(None, &invoice, config)?;
    start(&mut app, &invoice, &agent, 1)?;
    with_steppers(vec![scale::host(&app, &scratch)?], |steppers| {
        steppers.step_until_idle(&mut Stepping::default())
    })?;
    let before = app.store.size_bytes()?;
    let t = Instant::now();
    app.store.seed_sleeping_copies("bench-0", n)?;
    let seed_secs = (t.elapsed().as_secs_f64() * 10.0).round() / 10.0;
    app.store.maintain()?;
    let store_bytes = app.store.size_bytes()?;
    let (idle_claim_ms, due_claim_ms) = scale::claim_medians(&mut app, &topic, &payload)?;

    // The incident workload among them: its runs are numbered past the
    // invoice run's, and its kv keys are its own.
    let bytes = std::fs::read(&incident.wasm)
        .map_err(|e| AppError::Invalid(format!("cannot read {}: {e}", incident.wasm.display())))?;
    let mut incident_config = app.config.clone();
    incident_config.tools.extend(incident.tools.iter().cloned());
    drop(app);
    let mut app = App::open(&scratch.dir, incident_config)?;
    let deployed = app.deploy(&bytes, &[], true, None, "bench")?;
    let incident_agent = format!("{}@{}", deployed.agent.name, deployed.agent.version);
    let incidents = sequential.incidents.min(100);
    let mut stepping = Stepping::default();
    let wake = incident
        .wake
        .clone()
        .ok_or_else(|| AppError::Invalid("the incident workload is woken by an approval".into()))?;
    // Stepped as (a) is: by a worker of its own, on its own connection.
    with_steppers(vec![scale::host(&app, &scratch)?], |steppers| {
        for i in 1..=incidents {
            incident.write_world(&mut app, i)?;
            start_one(&mut app, incident, &incident_agent, i)?;
            steppers.step_until_idle(&mut stepping)?;
            send(&mut app, &format!("bench-{i}"), i, &wake)?;
            steppers.step_until_idle(&mut stepping)?;
        }
        steppers.finish(&mut stepping);
        Ok(())
    })?;
    let steps_per_sec = per_sec(stepping.steps, stepping.wall);
    let serve = serve_start::measure(wakeful, &scratch);
    let (serve_start_ms, serve_rss_kib, serve_note) = match serve {
        Ok((start_ms, rss)) => (Some(start_ms), rss, None),
        Err(why) => (None, None, Some(why)),
    };
    let t = Instant::now();
    app.send(None, &topic, "wake-all", Some(&payload), "bench")?;
    let wake_all_secs = (t.elapsed().as_secs_f64() * 10.0).round() / 10.0;
    let claim_among_woken_ms = claim_any_median(&mut app)?;
    Ok(Sleeping {
        runs: n,
        seed_secs,
        store_bytes,
        bytes_per_run: store_bytes.saturating_sub(before) / n.max(1) as u64,
        idle_claim_ms,
        due_claim_ms,
        incidents,
        steps: stepping.steps,
        steps_per_sec,
        ratio_to_sequential: round2(steps_per_sec / sequential.steps_per_sec.max(1.0)),
        wake_all_secs,
        claim_among_woken_ms,
        serve_start_ms,
        serve_rss_kib,
        serve_note,
    })
}

/// The median time of 20 claims that each find some due run (released
/// again, so that every claim chooses among the same runs).
fn claim_any_median(app: &mut App) -> Result<f64, AppError> {
    let mut times = Vec::with_capacity(20);
    for _ in 0..20 {
        let now = app.now();
        let t = Instant::now();
        let claimed = app.store.claim(now, "bench", 60_000)?;
        times.push(t.elapsed());
        let (claim, _) =
            claimed.ok_or_else(|| AppError::Invalid("no run was due after the event".into()))?;
        app.store.release(&claim.run.run_id, claim.epoch)?;
    }
    times.sort_unstable();
    Ok(ms(times[times.len() / 2]))
}

/// Starts run `bench-<i>` of the workload (its kv world written already).
fn start_one(app: &mut App, workload: &Workload, agent: &str, i: usize) -> Result<(), AppError> {
    let input = (workload.input)(i);
    app.start(agent, Some(&input), Some(&format!("bench-{i}")), "bench")?;
    Ok(())
}
