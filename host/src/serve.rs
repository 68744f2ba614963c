//! `wakeful serve`: the scheduler and the HTTP API in one process. Worker
//! threads step due runs, each on its own store connection; the API answers
//! on a tokio runtime. Ctrl-C or SIGTERM stops the API from taking new
//! requests, lets the workers finish the step they are in, and exits.

use std::io::Write;
use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use anyhow::{Context, Result, bail};

use crate::access;
use crate::api;
use crate::app::App;
use crate::config::{DEFAULT_LISTEN, HEARTBEAT};
use crate::identity::Identity;
use crate::logs::{self, LogFormat};
use crate::server::admission::{self, Admission};
use crate::server::pool::{Opener, Pool};
use crate::server::{AllowedHosts, ApiState, BodyLimits, Counters};
use crate::wakeup::Wakeup;
use crate::worker::Worker;

mod integrity;

use integrity::Integrity;

/// Store connections the API may have open at once, one per operation in
/// flight; opened on first need.
const API_CONNECTIONS: usize = 8;

/// Of those, how many deploys and upgrades may hold at once: the rest are
/// always there for answers, events and reads.
const SLOW_OPERATIONS: usize = 2;

/// How long a worker whose store failed waits before it tries again.
const POLL: Duration = Duration::from_millis(200);

/// How long a silent host's row is kept for `wakeful hosts` to show.
const FORGET_SILENT_AFTER_MS: u64 = 24 * 60 * 60 * 1000;

/// The token file in the data directory, used when no token is configured.
pub const TOKEN_FILE: &str = "api-token";

/// How many runs left unpacked one heartbeat packs; the next goes on.
const PACKED_PER_HEARTBEAT: usize = 256;

/// How often `serve` deletes ended runs past `[retention] ended_runs_days`.
const PRUNE_EVERY: Duration = Duration::from_secs(60 * 60);

/// Runs the API on `app` and `workers` worker threads until a shutdown
/// signal, logging in `log_format`.
pub fn run(
    app: App,
    data_dir: &Path,
    listen: Option<String>,
    workers: usize,
    log_format: LogFormat,
) -> Result<()> {
    logs::init(log_format).map_err(anyhow::Error::msg)?;
    let served = serve(app, data_dir, listen, workers);
    if let Err(e) = &served {
        tracing::error!(error = format!("{e:#}"), "serve stopped on an error");
    }
    served
}

/// What the threads of one `serve` share: when to stop, the API's
/// counters, what wakes an idle worker, and the integrity check's verdict.
#[derive(Clone, Default)]
struct Shared {
    stop: Arc<AtomicBool>,
    counters: Arc<Counters>,
    wakeup: Arc<Wakeup>,
    integrity: Arc<Integrity>,
}

fn serve(app: App, data_dir: &Path, listen: Option<String>, workers: usize) -> Result<()> {
    if workers == 0 {
        bail!("--workers must be at least 1: runs are only stepped by workers");
    }
    let shared = Shared::default();
    let mut threads = vec![check_integrity(&app, data_dir, &shared.integrity)?];
    let listen = listen
        .or_else(|| app.config.api.listen.clone())
        .unwrap_or_else(|| DEFAULT_LISTEN.to_string());
    let tokens = api_tokens(&app, data_dir)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let listener = runtime
        .block_on(api::bind(&listen))
        .with_context(|| format!("cannot listen on {listen}"))?;
    let addr: SocketAddr = listener.local_addr()?;
    let hosts = AllowedHosts::new(addr, &app.config.api.allowed_hosts);
    let mut stdout = std::io::stdout();
    writeln!(stdout, "listening on http://{addr}")?;
    stdout.flush()?;
    tracing::info!(addr = %addr, workers, "listening on http://{addr}");

    let engine = app.runtime()?;
    // Callback links point at this server unless `[api] public_url` says
    // where others reach it.
    let public_url = crate::tools::public_url(&app.config, Some(addr));
    threads.push(register_host(&app, data_dir, addr, &shared.stop)?);
    threads.extend(listen_for_wakes(&app, &shared)?);
    // The workers hand the runs they end to one thread that packs their
    // history; dropped after the workers have stopped, it packs what they
    // handed it before it ends.
    let packer = app.start_packer()?;
    let crew = Crew {
        data_dir,
        engine: &engine,
        packer: &packer,
        public_url: &public_url,
    };
    for n in 0..workers {
        threads.push(start_worker(&app, &crew, n, &shared)?);
    }
    let state = api_state(app, data_dir, engine.clone(), tokens, hosts, &shared);
    let served = runtime.block_on(api::serve(
        listener,
        shutdown(shared.integrity.clone()),
        state,
    ));
    shared.stop.store(true, Ordering::SeqCst);
    for t in threads {
        if t.join().is_err() {
            tracing::error!("a worker thread panicked; its run is retried when its claim expires");
        }
    }
    drop(packer);
    if let Some(damage) = shared.integrity.failure() {
        bail!(
            "the store failed its integrity check; serve stopped before stepping any run: {damage}"
        );
    }
    served.context("the API server failed")?;
    tracing::info!("stopped");
    Ok(())
}

/// Reads every page of the store once, on a thread of its own: a
/// long-lived process with a damaged store stops before any step, not
/// found by a step at 3 a.m. Workers wait for its verdict.
fn check_integrity(
    app: &App,
    data_dir: &Path,
    integrity: &Arc<Integrity>,
) -> Result<std::thread::JoinHandle<()>> {
    let checker = App::open(data_dir, app.config.clone())?;
    let integrity = integrity.clone();
    std::thread::Builder::new()
        .name("integrity".into())
        .spawn(move || {
            crate::failpoint::hold("integrity");
            let checking = std::time::Instant::now();
            let verdict = checker.store.check_integrity().map_err(|e| e.to_string());
            match &verdict {
                Ok(()) => tracing::info!(
                    ms = checking.elapsed().as_millis() as u64,
                    "store integrity checked; workers start"
                ),
                Err(e) => tracing::error!(error = %e, "the store failed its integrity check"),
            }
            integrity.set(verdict);
        })
        .context("cannot start the integrity check's thread")
}

/// Takes this host's id, records the host in the store and starts its
/// heartbeat. Done before any worker starts: their claims carry the id.
fn register_host(
    app: &App,
    data_dir: &Path,
    addr: SocketAddr,
    stop: &Arc<AtomicBool>,
) -> Result<std::thread::JoinHandle<()>> {
    let mut beat_app = App::open(data_dir, app.config.clone())?;
    let identity = Identity::take(&mut beat_app).context("cannot take this host's id")?;
    let host = identity.id().to_string();
    let listen_at = addr.to_string();
    let now = beat_app.now();
    beat_app
        .store
        .host_started(&host, "serve", Some(&listen_at), now)
        .context("cannot record this host in the store")?;
    tracing::info!(host = %host, "host registered");
    let stop = stop.clone();
    std::thread::Builder::new()
        .name("heartbeat".into())
        .spawn(move || heartbeat(beat_app, identity, &listen_at, &stop))
        .context("cannot start the heartbeat thread")
}

/// On PostgreSQL, a thread that wakes this host's idle workers when
/// another host makes a run due.
fn listen_for_wakes(app: &App, shared: &Shared) -> Result<Option<std::thread::JoinHandle<()>>> {
    let Some(url) = app.store_url().filter(|u| crate::store::is_postgres(u)) else {
        return Ok(None);
    };
    let (stop, wakeup, url) = (shared.stop.clone(), shared.wakeup.clone(), url.to_string());
    let thread = std::thread::Builder::new()
        .name("listen".into())
        .spawn(move || {
            crate::store::sql::listen::listen(
                &url,
                &stop,
                || wakeup.notify(),
                |why| tracing::warn!(error = why, "listening for other hosts' wakes failed; reconnecting (workers still re-check on their interval)"),
            )
        })
        .context("cannot start the thread that listens for wakes")?;
    Ok(Some(thread))
}

/// What every worker of this process is given: its store, the shared
/// engine, the packer and the base of callback links.
struct Crew<'a> {
    data_dir: &'a Path,
    engine: &'a Arc<crate::runtime::Runtime>,
    packer: &'a crate::packer::Packer,
    public_url: &'a str,
}

/// Worker thread `n`, on a store connection of its own; it steps nothing
/// before the integrity check has passed.
fn start_worker(
    app: &App,
    crew: &Crew<'_>,
    n: usize,
    shared: &Shared,
) -> Result<std::thread::JoinHandle<()>> {
    let mut worker_app = App::open(crew.data_dir, app.config.clone())?;
    worker_app.share_runtime(crew.engine.clone());
    worker_app.store.pack_by(crew.packer.signal());
    Arc::make_mut(&mut worker_app.tools).set_public_url(crew.public_url.to_string());
    let Shared {
        stop,
        counters,
        wakeup,
        integrity,
    } = shared.clone();
    crate::runtime::spawn_worker(format!("worker-{n}"), move || {
        if integrity.passed_unless(&stop) {
            work(worker_app, &stop, &counters, &wakeup)
        }
    })
    .context("cannot start a worker thread")
}

/// The API's state: a pool of store connections (the first is `app`),
/// each sharing the engine, and what every request is checked against.
fn api_state(
    app: App,
    data_dir: &Path,
    engine: Arc<crate::runtime::Runtime>,
    tokens: access::Tokens,
    hosts: AllowedHosts,
    shared: &Shared,
) -> Arc<ApiState> {
    let (config, dir) = (app.config.clone(), data_dir.to_path_buf());
    let limits = BodyLimits::of(&config);
    let connections = Arc::new(Admission::new(admission::Limits::of(&config.api)));
    let console = crate::server::Console::of(&config);
    let open: Opener = Box::new(move || {
        let app = App::open(&dir, config.clone())?;
        app.share_runtime(engine.clone());
        Ok(app)
    });
    Arc::new(ApiState {
        pool: Arc::new(Pool::new(API_CONNECTIONS, SLOW_OPERATIONS, Some(app), open)),
        tokens,
        hosts,
        counters: shared.counters.clone(),
        limits,
        wakeup: shared.wakeup.clone(),
        connections,
        console,
    })
}

/// Ends when a shutdown signal comes, or the integrity check fails.
async fn shutdown(integrity: Arc<Integrity>) {
    let damage = async move {
        let passed = tokio::task::spawn_blocking(move || integrity.passed()).await;
        if matches!(passed, Ok(true)) {
            std::future::pending::<()>().await;
        }
    };
    tokio::select! {
        _ = shutdown_signal() => {},
        _ = damage => {},
    }
}

/// The API's tokens: those of `[api.tokens]`, and `WAKEFUL_API_TOKEN`
/// (named `api`, admin). With neither, the admin token kept in
/// `<data>/api-token` (created on first use; its path, never the token, is
/// printed). With tokens configured that file is neither written nor read:
/// a token left in it from before opens nothing.
fn api_tokens(app: &App, data_dir: &Path) -> Result<access::Tokens> {
    let mut tokens = crate::config::api_tokens::configured_tokens(&app.config.api, |var| {
        std::env::var(var).ok()
    })
    .map_err(anyhow::Error::msg)?;
    let path = data_dir.join(TOKEN_FILE);
    let single = match std::env::var("WAKEFUL_API_TOKEN") {
        Ok(t) if t.trim().is_empty() => {
            bail!("WAKEFUL_API_TOKEN is empty; set it to a long random token, or unset it")
        }
        Ok(t) => Some(t),
        Err(_) if tokens.is_empty() => {
            let token = access::token_file(&path).map_err(anyhow::Error::msg)?;
            tracing::info!(
                path = %path.display(),
                "the API token is in its file (Authorization: Bearer <its contents>)"
            );
            Some(token)
        }
        Err(_) => {
            if path.exists() {
                tracing::warn!(
                    path = %path.display(),
                    "[api.tokens] is configured: the token in this file is not accepted; delete it"
                );
            }
            None
        }
    };
    if let Some(token) = single {
        let sha = access::token_sha256(&token);
        tokens.insert(
            0,
            access::Token::new(access::SINGLE_TOKEN_NAME, sha, access::Grant::admin()),
        );
    }
    access::Tokens::new(tokens).map_err(anyhow::Error::msg)
}

/// Writes this host's heartbeat every [`HEARTBEAT`] until `stop`, then
/// records that it stopped cleanly. Keeps the host's id, takes over the
/// claims of hosts proven gone, and forgets hosts long silent.
fn heartbeat(mut app: App, mut identity: Identity, listen: &str, stop: &AtomicBool) {
    let host = identity.id().to_string();
    let host = host.as_str();
    let mut last = std::time::Instant::now();
    while !stop.load(Ordering::SeqCst) {
        std::thread::sleep(Duration::from_millis(100));
        if last.elapsed() < HEARTBEAT {
            continue;
        }
        last = std::time::Instant::now();
        if let Err(e) = identity.keep() {
            // Another process is this host now: stopping at once is a
            // crash like any other, which loses nothing committed.
            tracing::error!(error = %e, "this host lost its id; stopping");
            std::process::exit(1);
        }
        let now = app.now();
        if let Err(e) = app.store.heartbeat(host, "serve", Some(listen), now) {
            tracing::error!(error = %e, "writing this host's heartbeat failed");
        }
        if let Err(e) = identity.take_over_gone(&mut app) {
            tracing::error!(error = %e, "taking over the claims of hosts that are gone failed");
        }
        if let Err(e) = app
            .store
            .forget_silent_hosts(now.saturating_sub(FORGET_SILENT_AFTER_MS))
        {
            tracing::error!(error = %e, "forgetting long-silent hosts failed");
        }
        match app.store.maintain() {
            Ok(tables) if !tables.is_empty() => {
                tracing::info!(
                    tables = tables.join(","),
                    "refreshed the planner's statistics"
                )
            }
            Ok(_) => {}
            Err(e) => tracing::error!(error = %e, "refreshing the planner's statistics failed"),
        }
        // Runs ended by a process that stopped before it packed them.
        match app.store.pack_queued(PACKED_PER_HEARTBEAT) {
            Ok(0) => {}
            Ok(runs) => tracing::info!(runs, "packed the history of runs left unpacked"),
            Err(e) => tracing::error!(error = %e, "packing the history of ended runs failed"),
        }
    }
    let now = app.now();
    if let Err(e) = app.store.host_stopped(host, now) {
        tracing::error!(error = %e, "recording that this host stopped failed");
    }
}

/// One worker thread: step due runs until `stop`, checking it between
/// groups of steps committed together, so that a shutdown waits for at most
/// the group in flight (`[limits] steps_per_commit`).
fn work(mut app: App, stop: &AtomicBool, counters: &Counters, wakeup: &Wakeup) {
    let retention = app.config.retention.ended_runs_days;
    let recheck = Duration::from_millis(app.config.limits.idle_recheck_ms);
    let mut pruned_at: Option<std::time::Instant> = None;
    let mut worker = Worker::new(&mut app);
    while !stop.load(Ordering::SeqCst) {
        // Every worker prunes; once one has, the others find nothing to do.
        if let Some(days) = retention
            && pruned_at.is_none_or(|t| t.elapsed() >= PRUNE_EVERY)
        {
            match worker.app().prune(days, "retention") {
                Ok(0) => {}
                Ok(pruned) => tracing::info!(pruned, days, "pruned ended runs"),
                Err(e) => tracing::error!(error = %e, "pruning ended runs failed"),
            }
            pruned_at = Some(std::time::Instant::now());
        }
        // Fired here, not by the worker, so that each tick is logged.
        match crate::schedule::fire_due(worker.app()) {
            Ok(fired) => fired.iter().for_each(log_fired),
            Err(e) => tracing::error!(error = %e, "firing due schedules failed"),
        }
        let seen = wakeup.generation();
        let stepped = worker.claim_and_step_many();
        counters.add_times(worker.take_pass_times());
        match stepped {
            Ok(stepped) if stepped.is_empty() => {
                if wakeup.wait(seen, until_next_timer(worker.app(), recheck)) {
                    worker.expect_work();
                }
            }
            Ok(stepped) => {
                for s in &stepped {
                    counters.record(&s.what);
                    logs::step(s);
                }
            }
            Err(e) => {
                tracing::error!(error = %e, "the worker could not take a step");
                std::thread::sleep(POLL);
            }
        }
    }
}

/// How long an idle worker sleeps: until the next wait comes due (a timer,
/// a cron tick, an approval's expiry), at most `recheck`. Other wakes
/// arrive as signals; the re-check catches what a signal missed.
fn until_next_timer(app: &App, recheck: Duration) -> Duration {
    let now = app.now();
    match app.store.next_due_wait(now) {
        Ok(Some(due)) => recheck.min(Duration::from_millis(due.saturating_sub(now))),
        Ok(None) => recheck,
        Err(e) => {
            tracing::error!(error = %e, "finding the next timer failed");
            recheck
        }
    }
}

fn log_fired(f: &crate::schedule::Fired) {
    match &f.run_id {
        Some(run) => tracing::info!(
            schedule = %f.schedule,
            tick = %f.tick,
            run = %run,
            "schedule fired"
        ),
        None => tracing::warn!(
            schedule = %f.schedule,
            tick = %f.tick,
            "schedule tick started no run (skipped or failed; see the audit log)"
        ),
    }
}

/// Completes at Ctrl-C or SIGTERM.
async fn shutdown_signal() {
    let ctrl_c = async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = term => {},
    }
    tracing::info!("shutting down: finishing the steps in flight");
}
