//! One writer at a time among this process's connections to one SQLite
//! file, queued in the process rather than in SQLite, and one connection
//! that their write transactions run on.
//!
//! SQLite runs one write transaction at a time and makes the others wait
//! in its busy handler, which sleeps (1, 2, 5, 10, … 100 ms) between
//! tries: two worker threads of one `serve` that met on the write lock
//! lost milliseconds each time, though the writer before them was done in
//! a fraction of one. Threads of one process wait here instead, each woken
//! as soon as the writer before it is done. Other processes (the CLI beside
//! `serve`) still meet in SQLite's busy handler.
//!
//! A connection that finds the file changed by another connection empties
//! its page cache: with each worker writing on its own connection, every
//! write transaction began by reading again, page by page, the indexes the
//! one before it (another worker's, the packer's) had just written, and
//! held the write lock meanwhile. The transactions of all the handles of
//! the process run on one connection instead, whose cache only its own
//! writes change. Reads stay on each handle's own connection.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, OnceLock, PoisonError, Weak};
use std::time::{Duration, Instant};

use super::Connection;
use crate::store::Result as StoreResult;

/// Opens a connection to the file as the store opens its own.
pub type Open = fn(&Path) -> StoreResult<rusqlite::Connection>;

/// The turn to write to one file, shared by the process's connections to
/// it.
pub struct WriterGate {
    /// Whether a connection of this process is writing.
    busy: Mutex<bool>,
    done: Condvar,
    path: PathBuf,
    open: Open,
    /// The connection the writes run on, opened at the first of them;
    /// only the holder of the turn locks it.
    shared: Mutex<Option<Connection>>,
}

/// A connection's turn: the next waiting writer goes when it is dropped.
pub struct WriterTurn<'g>(&'g WriterGate);

/// The gate of the file at `path`, made on first use and shared while any
/// connection to the file holds it.
pub fn for_file(path: &Path, open: Open) -> Arc<WriterGate> {
    static GATES: OnceLock<Mutex<HashMap<PathBuf, Weak<WriterGate>>>> = OnceLock::new();
    let mut gates = GATES
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(PoisonError::into_inner);
    if let Some(gate) = gates.get(path).and_then(Weak::upgrade) {
        return gate;
    }
    gates.retain(|_, gate| gate.strong_count() > 0);
    let gate = Arc::new(WriterGate::new(path, open));
    gates.insert(path.to_owned(), Arc::downgrade(&gate));
    gate
}

impl WriterGate {
    fn new(path: &Path, open: Open) -> WriterGate {
        WriterGate {
            busy: Mutex::new(false),
            done: Condvar::new(),
            path: path.to_owned(),
            open,
            shared: Mutex::new(None),
        }
    }

    /// Waits for the turn to write, at most `patience`: past it the caller
    /// goes on without a turn, and SQLite's own lock decides (as between
    /// processes), so that a writer stuck in this process fails the others
    /// with "database is locked" as it would have without the gate.
    pub fn enter(&self, patience: Duration) -> Option<WriterTurn<'_>> {
        let deadline = Instant::now() + patience;
        let mut busy = self.busy.lock().unwrap_or_else(PoisonError::into_inner);
        while *busy {
            let left = deadline.checked_duration_since(Instant::now())?;
            busy = self
                .done
                .wait_timeout(busy, left)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
        *busy = true;
        Some(WriterTurn(self))
    }
}

impl WriterTurn<'_> {
    /// The connection the turn's transaction runs on; `None` when it
    /// cannot be opened, and the caller writes on its own.
    pub fn connection(&self) -> Option<MutexGuard<'_, Option<Connection>>> {
        let gate = self.0;
        let mut shared = gate.shared.lock().unwrap_or_else(PoisonError::into_inner);
        if shared.is_none() {
            match (gate.open)(&gate.path) {
                Ok(conn) => {
                    conn.wal_hook(Some(super::wal::note_pages_or_checkpoint));
                    *shared = Some(Connection::sqlite_writer(conn));
                }
                Err(e) => {
                    tracing::warn!(
                        error = %e,
                        "opening the writing connection to {} failed; writing on the \
                         handle's own",
                        gate.path.display()
                    );
                    return None;
                }
            }
        }
        Some(shared)
    }
}

impl Drop for WriterTurn<'_> {
    fn drop(&mut self) {
        *self.0.busy.lock().unwrap_or_else(PoisonError::into_inner) = false;
        self.0.done.notify_one();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    fn unopened(path: &Path) -> StoreResult<rusqlite::Connection> {
        panic!("{} was opened", path.display())
    }

    #[test]
    fn one_file_has_one_gate_and_another_file_its_own() {
        let a = for_file(Path::new("/tmp/wakeful-writer-a.db"), unopened);
        let same = for_file(Path::new("/tmp/wakeful-writer-a.db"), unopened);
        let b = for_file(Path::new("/tmp/wakeful-writer-b.db"), unopened);
        assert!(Arc::ptr_eq(&a, &same));
        assert!(!Arc::ptr_eq(&a, &b));
    }

    #[test]
    fn writers_take_turns_and_the_next_goes_when_the_last_is_done() {
        let gate = Arc::new(WriterGate::new(
            Path::new("/tmp/wakeful-writer-c.db"),
            unopened,
        ));
        let inside = Arc::new(AtomicUsize::new(0));
        let threads: Vec<_> = (0..4)
            .map(|_| {
                let (gate, inside) = (Arc::clone(&gate), Arc::clone(&inside));
                std::thread::spawn(move || {
                    for _ in 0..200 {
                        let turn = gate.enter(Duration::from_secs(10));
                        assert!(turn.is_some());
                        assert_eq!(inside.fetch_add(1, Ordering::SeqCst), 0);
                        inside.fetch_sub(1, Ordering::SeqCst);
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
    }

    #[test]
    fn a_writer_that_waited_its_patience_goes_on_without_a_turn() {
        let gate = WriterGate::new(Path::new("/tmp/wakeful-writer-d.db"), unopened);
        let _held = gate.enter(Duration::ZERO).unwrap();
        assert!(gate.enter(Duration::from_millis(20)).is_none());
    }
}
