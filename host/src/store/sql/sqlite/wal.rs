//! The WAL's length after each commit, and who copies it into the data
//! file: SQLite itself in the committing transaction (its own default), or
//! a packer thread asked by the committing handle (`SqlStore::pack_by`).

use std::cell::Cell;
use std::ffi::c_int;

use rusqlite::hooks::Wal;

use crate::store::Result;
use crate::store::sql::{Context, SqlStore};

/// Copying the WAL into the data file.
impl SqlStore {
    /// Copies what SQLite's WAL holds into the database file, as far as
    /// readers allow, without waiting for any of them (a passive
    /// checkpoint); nothing on PostgreSQL.
    pub fn checkpoint(&mut self) -> Result<()> {
        let Some(conn) = self.conn.as_sqlite() else {
            return Ok(());
        };
        conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()))
            .ctx("copying the WAL into the data file")
    }

    /// After a step's commit: each time the WAL has grown by as many pages
    /// as SQLite would checkpoint it at, asks the packer to (passively, on
    /// its own thread). Not at every commit while it is long: the WAL
    /// starts again from its beginning only once a writer finds it all
    /// copied, and a checkpoint of the few pages written since the last
    /// one would cost two fsyncs for nothing.
    pub(in crate::store::sql) fn checkpoint_when_due(&mut self) {
        let Some(packer) = &self.packer else {
            return;
        };
        let pages = take_pages();
        if pages == 0 {
            return;
        }
        if pages < self.wal_pages_asked {
            // The WAL started again.
            self.wal_pages_asked = 0;
        }
        if pages >= self.wal_pages_asked + CHECKPOINT_PAGES {
            packer.checkpoint();
            self.wal_pages_asked = pages;
        }
    }
}

/// SQLite's mark for copying the WAL into the data file: its own
/// `wal_autocheckpoint` default, in pages.
pub const CHECKPOINT_PAGES: i32 = 1000;

thread_local! {
    /// The WAL's length in pages after the last commit on this thread that
    /// noted it; read (and cleared) by [`take_pages`].
    static PAGES: Cell<i32> = const { Cell::new(0) };
    /// Whether the write transaction running on this thread belongs to a
    /// handle whose packer copies the WAL.
    static BY_PACKER: Cell<bool> = const { Cell::new(false) };
}

/// Checkpoints made inside a commit of a packer thread, counted for tests.
#[cfg(test)]
pub static PACKER_HOOK_CHECKPOINTS: std::sync::atomic::AtomicUsize =
    std::sync::atomic::AtomicUsize::new(0);

/// The hook of a handle's own connection once it is given to a packer, in
/// place of SQLite's, which checkpoints in the commit.
pub(in crate::store::sql) fn note_pages(_: &Wal, pages: c_int) -> rusqlite::Result<()> {
    PAGES.with(|p| p.set(pages));
    Ok(())
}

/// The hook of a file's shared writer connection (`writer.rs`), which
/// commits for handles with a packer and without: it notes the length,
/// and copies the WAL as SQLite's own hook would when the committing
/// handle has no packer to ask.
pub(super) fn note_pages_or_checkpoint(wal: &Wal, pages: c_int) -> rusqlite::Result<()> {
    note_pages(wal, pages)?;
    if !BY_PACKER.with(Cell::get) && pages >= CHECKPOINT_PAGES {
        #[cfg(test)]
        if std::thread::current().name() == Some("packer") {
            PACKER_HOOK_CHECKPOINTS.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        }
        // As SQLite's hook: a failed checkpoint is tried again at the next
        // commit, and the commit stands.
        let _ = wal.checkpoint();
    }
    Ok(())
}

/// The WAL's length noted by the last commit on this thread since the
/// last call; 0 when none was noted.
pub fn take_pages() -> i32 {
    PAGES.with(|p| p.replace(0))
}

/// Runs `f` (a write transaction on the shared writer) as a transaction of
/// a handle with a packer or without.
pub(in crate::store::sql) fn as_handle<T>(by_packer: bool, f: impl FnOnce() -> T) -> T {
    /// Puts the flag back on unwinding too.
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            BY_PACKER.with(|b| b.set(self.0));
        }
    }
    let _restore = Restore(BY_PACKER.with(|b| b.replace(by_packer)));
    f()
}
