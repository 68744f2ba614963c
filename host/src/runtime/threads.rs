//! The threads guests run on, started on demand and kept for the next call.
//!
//! Kept so that a call does not pay for creating a thread, mapping its
//! stack and unmapping it again (an unmap of a multi-threaded process
//! interrupts every core that ran it to flush its TLB).
//!
//! Each thread has a channel of its own. An idle thread's sender waits in
//! the pool; a call takes one (or starts a thread when none is idle), sends
//! it its job, and the thread puts its sender back once the job is done.
//! The thread that came back last is taken first, so that one worker's
//! calls keep to one thread, and to the instance-pool slot its last call
//! left (see [`Leftover`]). At most [`MAX_IDLE`] threads wait; one more
//! ends instead. When the pool is dropped (with its runtime), the idle
//! senders go with it, and every thread ends after its current job.

use std::sync::mpsc;
use std::sync::{Arc, Mutex, PoisonError, Weak};
use std::thread;

/// Idle threads kept for later calls. Concurrent calls beyond this start
/// threads that end after their call. An idle thread costs the stack pages
/// its deepest guest touched.
const MAX_IDLE: usize = 8;

/// What a guest thread runs: one call, start to finish. It reports its own
/// result (the pool does not) and must not unwind: panics are caught by the
/// caller's job (see `exec.rs`).
pub(super) type Job = Box<dyn FnOnce() -> Leftover + Send + 'static>;

/// What a job leaves to be done once it has reported its result: the
/// thread is back in the pool by then, and a job sent to it meanwhile runs
/// once the leftover is done. A call leaves its store to drop, which resets
/// a large agent's memory, and the next instance of its agent to make
/// (`spare.rs`): its caller need not wait for either, while the next call
/// on this thread finds the pool slot that store held free again.
pub(super) type Leftover = Option<Box<dyn FnOnce() + Send>>;

/// A job, and the way back to the thread that runs it.
struct Task {
    job: Job,
    home: mpsc::Sender<Task>,
}

type Idle = Mutex<Vec<mpsc::Sender<Task>>>;

/// Long-lived threads with a native stack of `stack_size` bytes, named
/// `name`.
pub(super) struct GuestThreads {
    idle: Arc<Idle>,
    name: &'static str,
    stack_size: usize,
}

impl GuestThreads {
    pub(super) fn new(name: &'static str, stack_size: usize) -> Self {
        GuestThreads {
            idle: Arc::new(Mutex::new(Vec::new())),
            name,
            stack_size,
        }
    }

    /// Runs `job` on an idle thread, or on a new one when none is idle.
    /// Fails only when no thread could be started; the job is then dropped
    /// without running.
    pub(super) fn run(&self, job: Job) -> std::io::Result<()> {
        let mut job = job;
        loop {
            let idle = self
                .idle
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .pop();
            let Some(home) = idle else { break };
            match home.send(Task {
                job,
                home: home.clone(),
            }) {
                Ok(()) => return Ok(()),
                // That thread is gone (it cannot be, as threads only put
                // their sender back right before they wait; be safe anyway).
                Err(mpsc::SendError(task)) => job = task.job,
            }
        }
        self.spawn(job)
    }

    fn spawn(&self, job: Job) -> std::io::Result<()> {
        let (home, inbox) = mpsc::channel();
        let pool = Arc::downgrade(&self.idle);
        let first = Task { job, home };
        thread::Builder::new()
            .name(self.name.into())
            .stack_size(self.stack_size)
            .spawn(move || serve(first, &inbox, &pool))
            .map(drop)
    }

    /// Idle threads now (for tests).
    #[cfg(test)]
    fn idle(&self) -> usize {
        self.idle
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .len()
    }
}

/// A guest thread's life: run a task, wait in the pool, run the next.
fn serve(first: Task, inbox: &mpsc::Receiver<Task>, pool: &Weak<Idle>) {
    let mut task = first;
    loop {
        let Task { job, home } = task;
        let leftover = job();
        // The runtime (and its pool) is gone: nobody will call again.
        let Some(idle) = pool.upgrade() else { return };
        {
            let mut idle = idle.lock().unwrap_or_else(PoisonError::into_inner);
            if idle.len() >= MAX_IDLE {
                return;
            }
            // Back in the pool first: a call may pick this thread now, and
            // its job waits in the inbox until the leftover is dropped.
            idle.push(home);
        }
        // Not holding the pool while waiting, so that dropping the runtime
        // drops the idle senders and ends the wait below.
        drop(idle);
        if let Some(rest) = leftover {
            rest();
        }
        match inbox.recv() {
            Ok(next) => task = next,
            Err(mpsc::RecvError) => return,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    fn wait_for(what: impl Fn() -> bool) {
        let start = Instant::now();
        while !what() {
            assert!(start.elapsed() < Duration::from_secs(10), "timed out");
            thread::sleep(Duration::from_millis(1));
        }
    }

    #[test]
    fn a_thread_serves_one_call_after_another() {
        let pool = GuestThreads::new("test-guest", 1 << 20);
        let (tx, rx) = mpsc::channel();
        let mut threads = Vec::new();
        for _ in 0..3 {
            let tx = tx.clone();
            pool.run(Box::new(move || {
                tx.send(thread::current().id()).unwrap();
                None
            }))
            .unwrap();
            threads.push(rx.recv().unwrap());
            // Back in the pool before the next call.
            wait_for(|| pool.idle() == 1);
        }
        assert!(threads.iter().all(|t| *t == threads[0]), "{threads:?}");
    }

    #[test]
    fn concurrent_calls_get_threads_of_their_own_and_few_stay() {
        let pool = GuestThreads::new("test-guest", 1 << 20);
        let calls = MAX_IDLE + 4;
        let gate = Arc::new(std::sync::Barrier::new(calls + 1));
        for _ in 0..calls {
            let gate = Arc::clone(&gate);
            pool.run(Box::new(move || {
                gate.wait();
                None
            }))
            .unwrap();
        }
        // Every call runs at once: none waits for another's thread.
        gate.wait();
        wait_for(|| pool.idle() == MAX_IDLE);
        thread::sleep(Duration::from_millis(20));
        assert_eq!(pool.idle(), MAX_IDLE);
    }

    #[test]
    fn a_leftover_is_done_after_the_job_and_before_the_next() {
        struct Leftover(Arc<Mutex<Vec<&'static str>>>);
        impl Drop for Leftover {
            fn drop(&mut self) {
                thread::sleep(Duration::from_millis(20));
                self.0.lock().unwrap().push("leftover dropped");
            }
        }
        let pool = GuestThreads::new("test-guest", 1 << 20);
        let events = Arc::new(Mutex::new(Vec::new()));
        let (tx, rx) = mpsc::channel();
        let first = {
            let (events, tx) = (Arc::clone(&events), tx.clone());
            Box::new(move || {
                events.lock().unwrap().push("first job");
                tx.send(()).unwrap();
                let leftover = Leftover(events);
                Some(Box::new(move || drop(leftover)) as Box<dyn FnOnce() + Send>)
            })
        };
        pool.run(first).unwrap();
        rx.recv().unwrap();
        // The thread is back before its leftover is done; the second job
        // goes to it and runs once the leftover is done.
        wait_for(|| pool.idle() == 1);
        let second = {
            let events = Arc::clone(&events);
            Box::new(move || {
                events.lock().unwrap().push("second job");
                tx.send(()).unwrap();
                None
            })
        };
        pool.run(second).unwrap();
        rx.recv().unwrap();
        assert_eq!(
            *events.lock().unwrap(),
            ["first job", "leftover dropped", "second job"]
        );
    }

    #[test]
    fn threads_end_with_their_pool() {
        let pool = GuestThreads::new("test-guest", 1 << 20);
        let (tx, rx) = mpsc::channel::<()>();
        let (ended_tx, ended_rx) = mpsc::channel::<()>();
        pool.run(Box::new(move || {
            // Dropped when the thread ends.
            struct OnEnd(mpsc::Sender<()>);
            impl Drop for OnEnd {
                fn drop(&mut self) {
                    let _ = self.0.send(());
                }
            }
            thread_local! {
                static ON_END: std::cell::RefCell<Option<OnEnd>> =
                    const { std::cell::RefCell::new(None) };
            }
            ON_END.with(|slot| *slot.borrow_mut() = Some(OnEnd(ended_tx)));
            tx.send(()).unwrap();
            None
        }))
        .unwrap();
        rx.recv().unwrap();
        wait_for(|| pool.idle() == 1);
        drop(pool);
        ended_rx
            .recv_timeout(Duration::from_secs(10))
            .expect("the idle thread ended");
    }
}
