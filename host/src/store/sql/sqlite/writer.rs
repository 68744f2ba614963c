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
//! writes change. Reads stay on each handle's own connection. With another
//! writer waiting, its synced commits are flushed to disk once the turn is
//! given back (`flush.rs`).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, OnceLock, PoisonError, TryLockError, Weak};
use std::thread::ThreadId;
use std::time::{Duration, Instant};

use super::flush::{self, WalFile};
use crate::store::Result as StoreResult;
use crate::store::sql::db::Connection;

/// Opens a connection to the file as the store opens its own.
pub type Open = fn(&Path) -> StoreResult<rusqlite::Connection>;

/// The turn to write to one file, shared by the process's connections to
/// it.
pub struct WriterGate {
    /// The thread whose connection is writing, if one is.
    busy: Mutex<Option<ThreadId>>,
    /// Threads waiting for the turn.
    waiting: AtomicUsize,
    done: Condvar,
    path: PathBuf,
    open: Open,
    /// The connection the writes run on, opened at the first of them;
    /// only the holder of the turn locks it.
    shared: Mutex<Option<Connection>>,
    /// The file's WAL, opened at the first commit to flush.
    wal: Mutex<Option<Arc<WalFile>>>,
}

/// A connection's turn: the next waiting writer goes when it is dropped.
/// A turn taken by a thread that holds one already ([`WriterGate::enter`]
/// inside [`WriterGate::enter`]) is part of the outer turn, which alone
/// gives the turn up.
pub struct WriterTurn<'g> {
    gate: &'g WriterGate,
    nested: bool,
}

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
            busy: Mutex::new(None),
            waiting: Default::default(),
            done: Condvar::new(),
            path: path.to_owned(),
            open,
            shared: Mutex::new(None),
            wal: Mutex::new(None),
        }
    }

    /// Waits for the turn to write, at most `patience`: past it the caller
    /// goes on without a turn, and SQLite's own lock decides (as between
    /// processes), so that a writer stuck in this process fails the others
    /// with "database is locked" as it would have without the gate.
    ///
    /// A thread that holds the turn already gets it again at once: a
    /// caller can keep the turn across several transactions (a group's
    /// commit and the claim of the next group) without another writer
    /// between them.
    pub fn enter(&self, patience: Duration) -> Option<WriterTurn<'_>> {
        let nested = self.take(patience)?;
        Some(WriterTurn { gate: self, nested })
    }

    /// [`enter`](WriterGate::enter) for a turn that outlives the borrow of
    /// the gate: held across several transactions of one caller.
    pub fn hold(self: &Arc<Self>, patience: Duration) -> Option<HeldTurn> {
        let nested = self.take(patience)?;
        Some(HeldTurn {
            gate: Arc::clone(self),
            nested,
        })
    }

    /// Waits for the turn; `Some(true)` when this thread holds it already.
    fn take(&self, patience: Duration) -> Option<bool> {
        let deadline = Instant::now() + patience;
        let me = std::thread::current().id();
        let mut busy = self.busy.lock().unwrap_or_else(PoisonError::into_inner);
        if *busy == Some(me) {
            return Some(true);
        }
        if busy.is_some() {
            self.waiting.fetch_add(1, Ordering::SeqCst);
            while busy.is_some() {
                let Some(left) = deadline.checked_duration_since(Instant::now()) else {
                    self.waiting.fetch_sub(1, Ordering::SeqCst);
                    return None;
                };
                busy = self
                    .done
                    .wait_timeout(busy, left)
                    .unwrap_or_else(PoisonError::into_inner)
                    .0;
            }
            self.waiting.fetch_sub(1, Ordering::SeqCst);
        }
        *busy = Some(me);
        Some(false)
    }

    /// Whether other threads are waiting for the turn.
    pub fn others_waiting(&self) -> bool {
        self.waiting.load(Ordering::SeqCst) > 0
    }

    fn give_back(&self) {
        *self.busy.lock().unwrap_or_else(PoisonError::into_inner) = None;
        self.done.notify_one();
    }

    /// Gives the turn back, then flushes what this thread's commits wrote.
    fn leave(&self) {
        self.give_back();
        flush::flush_deferred();
    }

    /// How many times the file's WAL was flushed after a turn.
    #[cfg(test)]
    fn wal_flushes(&self) -> u64 {
        let wal = self.wal.lock().unwrap_or_else(PoisonError::into_inner);
        wal.as_ref().map_or(0, |w| w.flushes())
    }

    /// The file's WAL, opened at the first call.
    fn wal(&self) -> std::io::Result<Arc<WalFile>> {
        let mut wal = self.wal.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(wal) = wal.as_ref() {
            return Ok(Arc::clone(wal));
        }
        let opened = Arc::new(WalFile::open(&self.path)?);
        *wal = Some(Arc::clone(&opened));
        Ok(opened)
    }
}

/// A turn held by a caller across several of its transactions (each takes
/// it again, nested); the next waiting writer goes when it is dropped.
pub struct HeldTurn {
    gate: Arc<WriterGate>,
    nested: bool,
}

impl Drop for HeldTurn {
    fn drop(&mut self) {
        if !self.nested {
            self.gate.leave();
        }
    }
}

impl WriterTurn<'_> {
    /// Whether this turn was taken inside one this thread holds already.
    pub fn inside_held(&self) -> bool {
        self.nested
    }

    /// The connection the turn's transaction runs on; `None` when it
    /// cannot be opened, and the caller writes on its own.
    pub fn connection(&self) -> Option<MutexGuard<'_, Option<Connection>>> {
        let gate = self.gate;
        let mut shared = if self.nested {
            // A transaction begun inside one of this thread's own holds the
            // connection: it writes on its own then, as it did before the
            // turn could be held.
            match gate.shared.try_lock() {
                Ok(shared) => shared,
                Err(TryLockError::Poisoned(e)) => e.into_inner(),
                Err(TryLockError::WouldBlock) => return None,
            }
        } else {
            gate.shared.lock().unwrap_or_else(PoisonError::into_inner)
        };
        if shared.is_none() {
            match (gate.open)(&gate.path) {
                Ok(conn) => {
                    conn.wal_hook(Some(super::wal::note_pages_or_checkpoint));
                    *shared = Some(Connection::shared_writer(conn));
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

    /// Has the commit just made on the turn's connection, which did not
    /// flush the WAL, flushed by this thread once the turn is given back
    /// (by the outermost turn, when this one is held inside another), and
    /// before the turn's holder goes on.
    pub fn flush_when_left(&self) {
        match self.gate.wal() {
            Ok(wal) => flush::defer(wal),
            Err(e) => flush::stop(
                &format!(
                    "opening the WAL of {} to flush it",
                    self.gate.path.display()
                ),
                &e,
            ),
        }
    }
}

impl Drop for WriterTurn<'_> {
    fn drop(&mut self) {
        if !self.nested {
            self.gate.leave();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::sql::db::Scratch;
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
        let gate = Arc::new(WriterGate::new(
            Path::new("/tmp/wakeful-writer-d.db"),
            unopened,
        ));
        let _held = gate.enter(Duration::ZERO).unwrap();
        let other = Arc::clone(&gate);
        let waited = std::thread::spawn(move || other.enter(Duration::from_millis(20)).is_none());
        assert!(waited.join().unwrap());
    }

    /// Whether another thread gets the turn within `patience`.
    fn another_thread_enters(gate: &Arc<WriterGate>, patience: Duration) -> bool {
        let gate = Arc::clone(gate);
        std::thread::spawn(move || gate.enter(patience).is_some())
            .join()
            .unwrap()
    }

    #[test]
    fn a_held_turn_lets_its_own_transactions_in_and_no_other_writer_between_them() {
        let gate = Arc::new(WriterGate::new(
            Path::new("/tmp/wakeful-writer-e.db"),
            unopened,
        ));
        let held = gate.hold(Duration::ZERO).expect("the gate is free");
        for _ in 0..2 {
            // One of the holder's transactions: in at once, and giving back
            // nothing when it ends.
            let own = gate.enter(Duration::ZERO);
            assert!(own.is_some(), "the holder waited for its own turn");
            drop(own);
            assert!(
                !another_thread_enters(&gate, Duration::from_millis(50)),
                "another writer came in between the held turn's transactions"
            );
        }
        drop(held);
        assert!(another_thread_enters(&gate, Duration::from_secs(10)));
    }

    fn open_plain(path: &Path) -> StoreResult<rusqlite::Connection> {
        rusqlite::Connection::open(path).map_err(|e| crate::store::StoreError::Db(e.to_string()))
    }

    #[test]
    fn a_transaction_begun_inside_the_holder_s_own_writes_on_its_own_connection() {
        let path = std::env::temp_dir().join(format!("wakeful-writer-f-{}.db", std::process::id()));
        let gate = WriterGate::new(&path, open_plain);
        let outer = gate.enter(Duration::ZERO).unwrap();
        let shared = outer.connection().expect("the writing connection opens");
        let inner = gate.enter(Duration::ZERO).expect("the holder's own turn");
        // The shared connection is in the outer transaction's hands: waiting
        // for it would never end.
        assert!(inner.connection().is_none());
        drop(inner);
        drop(shared);
        drop(outer);
        let _ = std::fs::remove_file(&path);
    }

    fn open_wal(path: &Path) -> StoreResult<rusqlite::Connection> {
        let conn = open_plain(path)?;
        conn.pragma_update(None, "journal_mode", "WAL")
            .map_err(|e| crate::store::StoreError::Db(e.to_string()))?;
        Ok(conn)
    }

    /// A handle on a new WAL-mode file of its own, and the file's gate.
    fn wal_store(name: &str) -> (Scratch, Connection, Arc<WriterGate>) {
        let dir = Scratch::new(name);
        let handle = Connection::sqlite(open_wal(&dir.file()).unwrap(), open_wal);
        let gate = handle
            .writer
            .clone()
            .expect("a file's handle writes through its gate");
        (dir, handle, gate)
    }

    fn insert(handle: &mut Connection, durability: &str) {
        let run = |tx: &crate::store::sql::db::Transaction<'_>| {
            tx.execute_batch("CREATE TABLE IF NOT EXISTS t (x); INSERT INTO t VALUES (1)")
                .map_err(|e| crate::store::StoreError::Db(e.to_string()))
        };
        match durability {
            "synced" => crate::store::sql::db::write(handle, "a synced insert", run),
            _ => crate::store::sql::db::write_deferred(
                handle,
                "a deferred insert",
                crate::store::sql::db::Isolation::Serializable,
                run,
            ),
        }
        .unwrap();
    }

    #[test]
    fn a_synced_commit_with_nobody_waiting_is_flushed_in_its_commit() {
        let (_dir, mut handle, gate) = wal_store("flush-alone");
        insert(&mut handle, "synced");
        insert(&mut handle, "synced");
        assert_eq!(
            gate.wal_flushes(),
            0,
            "flushed after the turn with nobody waiting"
        );
        assert_eq!(handle.synced_commits(), 2);
    }

    #[test]
    fn synced_commits_under_a_held_turn_are_flushed_once_when_it_ends_with_nobody_waiting() {
        let (_dir, mut handle, gate) = wal_store("flush-held");
        insert(&mut handle, "synced");
        let synced = handle.synced_commits();
        let held = handle.hold_writer_turn().expect("the turn is free");
        insert(&mut handle, "synced");
        insert(&mut handle, "deferred");
        insert(&mut handle, "synced");
        assert!(!gate.others_waiting());
        assert_eq!(gate.wal_flushes(), 0, "flushed while the turn was held");
        drop(held);
        assert_eq!(
            gate.wal_flushes(),
            1,
            "not flushed once before the held turn's end returned"
        );
        assert_eq!(handle.synced_commits(), synced + 2);
        // Alone again, a synced commit flushes in itself.
        insert(&mut handle, "synced");
        assert_eq!(gate.wal_flushes(), 1);
    }

    #[test]
    fn with_a_writer_waiting_synced_commits_are_flushed_once_after_the_turn_goes_to_it() {
        let (_dir, mut handle, gate) = wal_store("flush-after");
        insert(&mut handle, "synced");
        let synced = handle.synced_commits();

        // Another writer waits while this one holds the turn and commits.
        let held = handle.hold_writer_turn().expect("the turn is free");
        let (entered, has_entered) = std::sync::mpsc::channel();
        let other = {
            let gate = Arc::clone(&gate);
            std::thread::spawn(move || {
                let turn = gate.enter(Duration::from_secs(30));
                entered.send(turn.is_some()).unwrap();
            })
        };
        let deadline = Instant::now() + Duration::from_secs(30);
        while !gate.others_waiting() {
            assert!(Instant::now() < deadline, "the other writer never waited");
            std::thread::sleep(Duration::from_millis(1));
        }
        // Just before the flush: the other writer has had its turn, and
        // the WAL is not flushed yet.
        let seen = Arc::new(Mutex::new(None));
        flush::BEFORE_FLUSH.with(|hook| {
            let (gate, seen) = (Arc::clone(&gate), Arc::clone(&seen));
            *hook.borrow_mut() = Some(Box::new(move || {
                let entered = has_entered
                    .recv_timeout(Duration::from_secs(10))
                    .unwrap_or(false);
                *seen.lock().unwrap() = Some((entered, gate.wal_flushes()));
            }));
        });
        insert(&mut handle, "synced");
        insert(&mut handle, "deferred");
        insert(&mut handle, "synced");
        assert_eq!(gate.wal_flushes(), 0, "flushed while the turn was held");
        drop(held);
        assert_eq!(
            *seen.lock().unwrap(),
            Some((true, 0)),
            "(the waiting writer had its turn, flushes) before the flush"
        );
        assert_eq!(
            gate.wal_flushes(),
            1,
            "not flushed once before the turn's end returned"
        );
        assert_eq!(handle.synced_commits(), synced + 2);
        other.join().unwrap();
    }

    /// Set in the child process that [`a_failed_flush_after_the_turn_stops_the_process_before_the_holder_goes_on`] runs.
    const FLUSH_FAILS_HERE: &str = "WAKEFUL_TEST_FLUSH_FAILS_HERE";

    #[test]
    fn a_failed_flush_after_the_turn_stops_the_process_before_the_holder_goes_on() {
        use std::os::unix::process::ExitStatusExt;
        if std::env::var_os(FLUSH_FAILS_HERE).is_some() {
            let (_dir, mut handle, gate) = wal_store("flush-fails");
            insert(&mut handle, "synced");
            let held = handle.hold_writer_turn().expect("the turn is free");
            let _other = {
                let gate = Arc::clone(&gate);
                std::thread::spawn(move || drop(gate.enter(Duration::from_secs(30))))
            };
            let deadline = Instant::now() + Duration::from_secs(30);
            while !gate.others_waiting() {
                assert!(Instant::now() < deadline, "the other writer never waited");
                std::thread::sleep(Duration::from_millis(1));
            }
            insert(&mut handle, "synced");
            flush::FAIL_FLUSH.with(|f| f.set(true));
            eprintln!("giving the turn back");
            drop(held);
            eprintln!("went on after a failed flush");
            return;
        }
        // The process must stop, so it is another one: this test binary
        // again, running only this test.
        let name = format!(
            "{}::a_failed_flush_after_the_turn_stops_the_process_before_the_holder_goes_on",
            module_path!().split_once("::").map_or("", |(_, path)| path)
        );
        let child = std::process::Command::new(std::env::current_exe().unwrap())
            .args([&name, "--exact", "--nocapture", "--test-threads=1"])
            .env(FLUSH_FAILS_HERE, "1")
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let pid = child.id();
        let out = child.wait_with_output().unwrap();
        // Stopped, the child left its store behind.
        let left = std::env::temp_dir().join(format!("wakeful-db-flush-fails-{pid}"));
        let _ = std::fs::remove_dir_all(left);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("giving the turn back"), "{stderr}");
        assert!(!stderr.contains("went on after a failed flush"), "{stderr}");
        assert!(stderr.contains("an injected write-back error"), "{stderr}");
        assert_eq!(out.status.signal(), Some(6), "stopped by SIGABRT: {stderr}");
    }
}
