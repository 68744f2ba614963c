//! Worker threads that stay for a whole workload, as `serve`'s do: each has
//! its own connection (an `App` of its own on the scratch store) and its
//! `Worker`, is told to step until nothing is due, reports what it did,
//! and waits to be told again. Spawning threads for every batch would add
//! their start (a guest-sized stack, signal stacks, thread-local caches)
//! to each incident's time, which `serve` never pays. As in `serve`, the
//! workers hand the runs they end to a packer thread.

use std::panic::AssertUnwindSafe;
use std::sync::mpsc::{self, Receiver, Sender};
use std::time::{Duration, Instant};

use wakeful::app::{App, AppError};
use wakeful::packer::Packer;
use wakeful::worker::{PassTimes, StepEnd, Worker};

use super::{Stepping, cpu_time, thread_cpu_time};

/// What one worker did when told to step.
struct Did {
    steps: usize,
    /// The time of each pass.
    passes: Vec<Duration>,
    /// Its commits that waited for the disk.
    synced: u64,
    /// The statements its store handle ran.
    statements: u64,
    /// Its time from being told to step to finding nothing due.
    busy: Duration,
    /// Where its passes spent their time.
    times: PassTimes,
}

type Report = Result<Did, AppError>;

pub(super) struct Steppers {
    go: Vec<Sender<()>>,
    done: Receiver<Report>,
    packer: Packer,
    /// The CPU time of every thread but the caller's, when the first
    /// stepping began.
    cpu_from: Option<Duration>,
}

/// The CPU time of the process's threads other than the calling one: the
/// workers', their guests' and the packer's, not the caller's starts and
/// approvals.
fn others_cpu_time() -> Duration {
    cpu_time().saturating_sub(thread_cpu_time())
}

impl Steppers {
    /// Tells every worker to step until no run is due or claimed, and adds
    /// what they did, and the wall time it took, to `into`.
    pub(super) fn step_until_idle(&mut self, into: &mut Stepping) -> Result<(), AppError> {
        // Reading the CPU time (files in /proc) is outside the wall time.
        self.cpu_from.get_or_insert_with(others_cpu_time);
        let wall = Instant::now();
        for go in &self.go {
            go.send(())
                .map_err(|_| AppError::Invalid("a bench worker stopped".into()))?;
        }
        let reports: Vec<Report> = (0..self.go.len())
            .map(|_| {
                self.done
                    .recv()
                    .map_err(|_| AppError::Invalid("a bench worker stopped".into()))
            })
            .collect::<Result<_, _>>()?;
        into.wall += wall.elapsed();
        for report in reports {
            let did = report?;
            into.steps += did.steps;
            into.passes.extend(did.passes);
            into.synced += did.synced;
            into.statements += did.statements;
            into.busy += did.busy;
            into.times += did.times;
        }
        Ok(())
    }

    /// Waits for the packer to pack every run the workers ended, adding
    /// that wait to `into`'s wall time, and sets `into`'s CPU time: all the
    /// workers', guests' and packer's since the first stepping, packing
    /// done while the caller started or approved runs included.
    pub(super) fn finish(&mut self, into: &mut Stepping) {
        let wall = Instant::now();
        self.packer.wait_idle();
        into.wall += wall.elapsed();
        into.statements += self.packer.statements_run();
        if let Some(from) = self.cpu_from {
            into.cpu = others_cpu_time().saturating_sub(from);
        }
    }
}

/// Runs `body` with one worker thread per app in `apps`, and a packer
/// thread they hand the runs they end to.
pub(super) fn with_steppers<T>(
    apps: Vec<App>,
    body: impl FnOnce(&mut Steppers) -> Result<T, AppError>,
) -> Result<T, AppError> {
    let packer = apps
        .first()
        .ok_or_else(|| AppError::Invalid("a bench needs at least one worker".into()))?
        .start_packer()?;
    std::thread::scope(|scope| {
        let (report, done) = mpsc::channel();
        let mut go = Vec::with_capacity(apps.len());
        for (i, mut app) in apps.into_iter().enumerate() {
            app.store.pack_by(packer.signal());
            let (tell, told) = mpsc::channel::<()>();
            let report = report.clone();
            // Named, so that each worker's claims carry an owner of its own.
            wakeful::runtime::spawn_worker_scoped(scope, format!("bench-worker-{i}"), move || {
                let mut worker = Worker::new(&mut app);
                while told.recv().is_ok() {
                    // Told after runs were started or answered, as `serve`'s
                    // workers are signalled.
                    worker.expect_work();
                    // A panic is reported, not left to hang the caller.
                    let stepped = std::panic::catch_unwind(AssertUnwindSafe(|| {
                        let store = &worker.app().store;
                        let (synced, statements) = (store.synced_commits(), store.statements_run());
                        let busy = Instant::now();
                        let (steps, passes) = work_until_idle(&mut worker)?;
                        let busy = busy.elapsed();
                        let times = worker.take_pass_times();
                        let store = &worker.app().store;
                        Ok(Did {
                            steps,
                            passes,
                            busy,
                            times,
                            synced: store.synced_commits() - synced,
                            statements: store.statements_run() - statements,
                        })
                    }))
                    .unwrap_or_else(|_| Err(AppError::Invalid("a bench worker panicked".into())));
                    if report.send(stepped).is_err() {
                        return;
                    }
                }
            })
            .map_err(|e| AppError::Invalid(format!("starting a bench worker: {e}")))?;
            go.push(tell);
        }
        drop(report);
        let mut steppers = Steppers {
            go,
            done,
            packer,
            cpu_from: None,
        };
        // The workers end when their senders are dropped with `steppers`.
        body(&mut steppers)
    })
}

/// One worker's loop until nothing is due: the steps it took and the time
/// of each pass.
fn work_until_idle(worker: &mut Worker) -> Result<(usize, Vec<Duration>), AppError> {
    let (mut steps, mut passes) = (0, Vec::new());
    loop {
        let t = Instant::now();
        let stepped = worker.claim_and_step_many()?;
        if stepped.is_empty() {
            let now = worker.app().now();
            if worker.app().store.due_but_claimed(now)? == 0 {
                return Ok((steps, passes));
            }
            std::thread::sleep(Duration::from_millis(1));
            continue;
        }
        passes.push(t.elapsed());
        steps += stepped.len();
        if let Some(bad) = stepped.iter().find(|s| {
            matches!(
                s.what,
                StepEnd::Failed { .. } | StepEnd::Parked { .. } | StepEnd::LostClaim
            )
        }) {
            return Err(AppError::Invalid(format!(
                "run {} did not step cleanly: {bad}",
                bad.run_id
            )));
        }
    }
}
