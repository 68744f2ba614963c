//! A thread of its own that packs the history of the runs a process's
//! workers end, so that a worker goes on to its next claim as soon as the
//! commit that ended them is on disk.
//!
//! Packing an ended run (reading its rows, encoding and compressing them,
//! swapping them for the archive row) is about a sixth of an incident's
//! instructions, and nothing a caller waits for needs it: every read merges
//! live and archived rows. Done by the worker after its commit, it delayed
//! that worker's next step; done here, it uses a core the workers leave
//! idle, one packing transaction for all the runs ended meanwhile.
//!
//! Nothing is lost if the process stops first: the ending commit queued
//! the run in the store (`unpacked_runs`), and the next `wakeful work` or
//! `serve`'s heartbeat packs what is left there.
//!
//! The same thread copies SQLite's WAL into the data file when a
//! worker's commit finds it long (`SqlStore::pack_by`): done by SQLite in that
//! commit, it was a few milliseconds of writes and an fsync in the middle
//! of the worker's steps.

use std::sync::atomic::Ordering;
use std::sync::{Arc, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::store::{PackQueue, PackSignal, SqlStore};

/// Runs packed in one transaction, at most: a worker's commit ends up to
/// `steps_per_commit` runs, and a longer swap would hold the write lock
/// the workers need.
const PER_TRANSACTION: usize = 64;

/// How long the packer gathers runs before it packs them, unless a
/// transaction's worth is waiting. Every write transaction empties the
/// page caches of the workers' reading connections (SQLite finds the file
/// changed), so fewer, larger packing transactions cost the workers less;
/// a run's history reads the same meanwhile.
const GATHER: Duration = Duration::from_millis(50);

/// The packer thread, its store handle and the runs handed to it.
pub struct Packer {
    shared: Arc<PackQueue>,
    thread: Option<JoinHandle<()>>,
}

impl Packer {
    /// Starts the packer on `store`, a handle of its own on the workers'
    /// store.
    pub fn start(mut store: Box<SqlStore>) -> std::io::Result<Packer> {
        let shared = Arc::new(PackQueue::default());
        // Its own packing commits leave the WAL to it as the workers' do:
        // copied inside such a commit, the copy and the data file's fsync
        // would hold the process's write turn, which the workers wait for.
        store.pack_by(PackSignal::new(shared.clone()));
        let thread = {
            let shared = shared.clone();
            std::thread::Builder::new()
                .name("packer".into())
                .spawn(move || pack_until_stopped(store, &shared))?
        };
        Ok(Packer {
            shared,
            thread: Some(thread),
        })
    }

    /// What a worker's store handle is given ([`SqlStore::pack_by`]).
    pub fn signal(&self) -> PackSignal {
        PackSignal::new(self.shared.clone())
    }

    /// Waits until every run handed to the packer so far has been packed
    /// (or failed to be, and stays queued in the store).
    pub fn wait_idle(&self) {
        let mut state = self.shared.lock();
        state.flushing = true;
        self.shared.changed.notify_all();
        while !state.ended.is_empty() || state.busy {
            state = self
                .shared
                .changed
                .wait(state)
                .unwrap_or_else(PoisonError::into_inner);
        }
        state.flushing = false;
    }

    /// How many SQL statements the packer ran (as
    /// [`SqlStore::statements_run`] counts them), up to its last packing.
    pub fn statements_run(&self) -> u64 {
        self.shared.statements.load(Ordering::Relaxed)
    }
}

impl Drop for Packer {
    /// Packs what was handed to it, then stops the thread.
    fn drop(&mut self) {
        self.shared.lock().stopping = true;
        self.shared.changed.notify_all();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn pack_until_stopped(mut store: Box<SqlStore>, shared: &PackQueue) {
    loop {
        let (ended, checkpoint) = {
            let mut state = shared.lock();
            while state.ended.is_empty() && !state.checkpoint && !state.stopping {
                state = shared
                    .changed
                    .wait(state)
                    .unwrap_or_else(PoisonError::into_inner);
            }
            if state.ended.is_empty() && !state.checkpoint {
                return;
            }
            if !state.ended.is_empty() {
                let until = Instant::now() + GATHER;
                while state.ended.len() < PER_TRANSACTION && !state.stopping && !state.flushing {
                    let Some(left) = until.checked_duration_since(Instant::now()) else {
                        break;
                    };
                    state = shared
                        .changed
                        .wait_timeout(state, left)
                        .unwrap_or_else(PoisonError::into_inner)
                        .0;
                }
                state.busy = true;
            }
            (
                std::mem::take(&mut state.ended),
                std::mem::take(&mut state.checkpoint),
            )
        };
        if checkpoint {
            // Failing, it is asked again at the next commit; meanwhile the
            // WAL grows, and reads stay correct.
            if let Err(e) = store.checkpoint() {
                tracing::warn!(error = %e, "checkpointing the WAL failed");
            }
        }
        if ended.is_empty() {
            continue;
        }
        for chunk in ended.chunks(PER_TRANSACTION) {
            let ids: Vec<&str> = chunk.iter().map(String::as_str).collect();
            // The commits that ended them stand; a run not packed stays
            // queued in the store with its history live, which reads the
            // same, for the next `work` or heartbeat to pack.
            if let Err(e) = store.pack_ended(&ids) {
                tracing::warn!(error = %e, runs = ids.join(","), "packing ended runs failed; they stay queued");
            }
        }
        shared
            .statements
            .store(store.statements_run(), Ordering::Relaxed);
        shared.lock().busy = false;
        shared.changed.notify_all();
    }
}
