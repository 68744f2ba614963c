//! What a store handle hands the runs it ended to, for the packer thread
//! ([`crate::packer`]) to pack; and what asks that thread to copy SQLite's
//! WAL into the data file.

use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};

/// What a worker's store handle keeps to hand the runs it ended to the
/// packer.
#[derive(Clone)]
pub struct PackSignal(Arc<PackQueue>);

/// The runs handed to the packer, and its state, shared by the packer and
/// every [`PackSignal`] of it.
#[derive(Default)]
pub struct PackQueue {
    pub state: Mutex<PackState>,
    pub changed: Condvar,
    /// The SQL statements the packer's store handle ran, for benchmarks.
    pub statements: AtomicU64,
}

#[derive(Default)]
pub struct PackState {
    /// Runs ended and not yet taken by the packer.
    pub ended: Vec<String>,
    /// Whether the packer is packing runs it took.
    pub busy: bool,
    /// Whether a caller waits for the packer to be idle: it packs what it
    /// holds without gathering more.
    pub flushing: bool,
    /// Whether a worker found the WAL long enough to copy into the file.
    pub checkpoint: bool,
    pub stopping: bool,
}

impl PackQueue {
    pub fn lock(&self) -> MutexGuard<'_, PackState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl PackSignal {
    /// A signal to the packer that holds `queue`.
    pub fn new(queue: Arc<PackQueue>) -> PackSignal {
        PackSignal(queue)
    }

    /// Hands `run_ids`, whose ending has committed, to the packer.
    pub fn ended(&self, run_ids: &[&str]) {
        if run_ids.is_empty() {
            return;
        }
        let mut state = self.0.lock();
        // A stopped packer takes no more: the runs stay queued in the
        // store, for the next `work` or heartbeat.
        if state.stopping {
            return;
        }
        state.ended.extend(run_ids.iter().map(|id| id.to_string()));
        self.0.changed.notify_all();
    }

    /// Asks the packer to copy the WAL into the data file.
    pub fn checkpoint(&self) {
        let mut state = self.0.lock();
        if !state.stopping {
            state.checkpoint = true;
            self.0.changed.notify_all();
        }
    }
}
