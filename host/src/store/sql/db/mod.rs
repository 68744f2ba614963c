//! One small SQL interface over the two databases the store runs on, so
//! that the store's logic and its SQL are written once.
//!
//! It mirrors the part of rusqlite's API the store uses (`prepare_cached`,
//! `execute`, `query_row`, `query_map`, `exists`, `optional`, `params!`).
//! Statements are written with SQLite's `?N` placeholders in SQL both
//! databases accept; on PostgreSQL they are rewritten to `$N` once and kept
//! prepared per connection.
//!
//! Transactions keep SQLite's meaning on PostgreSQL: SQLite runs one writer
//! at a time (`BEGIN IMMEDIATE`), so the store's read-then-write logic was
//! written for serial execution. PostgreSQL runs each write transaction
//! `SERIALIZABLE`, which promises the same outcome as some serial order, and
//! [`write`] runs a transaction again when PostgreSQL aborts it for a
//! conflict with a concurrent one (nothing of the aborted attempt remains).

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::sync::Arc;

mod error;
mod pg;
mod statement;
mod transaction;
mod values;

use super::sqlite::{wal, writer};

pub use error::{Context, Error, OptionalExtension, Result, db_error};
pub use statement::Statement;
#[cfg(doc)]
use transaction::Durability;
pub use transaction::{Isolation, Transaction, write, write_deferred, write_with};
pub(crate) use values::params;
pub use values::{Field, FromSql, Params, Row, ToSql, Value};
pub use writer::Open;

/// Which database a connection talks to, for the few statements that must
/// be written differently.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    Sqlite,
    Postgres,
}

/// One connection to the store's database.
pub struct Connection {
    backend: Backend,
    /// On SQLite, whether `synchronous` is known to be `FULL` on this
    /// connection: `Some(false)` inside and after a [`Durability::Deferred`]
    /// transaction until set back, `None` when setting it failed.
    sync_full: Cell<Option<bool>>,
    /// Commits of [`Durability::Synced`] write transactions on this
    /// connection: each is one flush of the log to disk.
    synced_commits: Cell<u64>,
    /// Statements run on this connection (each use of a prepared one,
    /// transaction control included): the store's work per step in a
    /// figure that, unlike time, does not move with the machine.
    statements: Cell<u64>,
    /// On SQLite, the turn to write that this process's connections to
    /// the file take before they begin a write transaction, and the
    /// connection the transaction then runs on (`writer.rs`).
    pub(in crate::store::sql) writer: Option<Arc<writer::WriterGate>>,
    /// Whether a packer thread copies the WAL into the data file for this
    /// handle's commits (see `wal.rs`).
    checkpoints_by_packer: Cell<bool>,
    /// Whether this is a file's shared writer (`writer.rs`), which runs
    /// write transactions only, each setting `synchronous` as it begins.
    shared_writer: bool,
    /// On the shared writer, whether the next synced transaction leaves
    /// the flush to the thread that made it, after its turn (`flush.rs`).
    flush_after_turn: Cell<bool>,
}

enum Backend {
    Sqlite(rusqlite::Connection),
    Postgres(Box<Pg>),
}

pub struct Pg {
    /// `None` only while being dropped.
    pub(super) client: RefCell<Option<postgres::Client>>,
    /// To connect again after the connection was lost.
    pub(super) config: postgres::Config,
    /// Whether a transaction is open on the connection.
    pub(super) in_transaction: Cell<bool>,
    /// Prepared statements by their SQLite-style text.
    pub(super) statements: RefCell<HashMap<String, postgres::Statement>>,
    /// Set when PostgreSQL aborted the transaction for a conflict with a
    /// concurrent one: [`write`] runs it again.
    pub(super) conflicted: Cell<bool>,
}

impl Connection {
    /// A handle's connection to a SQLite file that `open` opened; its
    /// write transactions run on another connection `open` makes, which
    /// all such connections of the process to the file share.
    pub fn sqlite(conn: rusqlite::Connection, open: Open) -> Connection {
        // An in-memory database has no file name, and no other connection.
        let writer = conn
            .path()
            .filter(|path| !path.is_empty())
            .map(|path| writer::for_file(std::path::Path::new(path), open));
        Connection {
            writer,
            ..Connection::sqlite_writer(conn)
        }
    }

    /// The connection a file's writes run on (or one to an in-memory
    /// database): it writes itself.
    fn sqlite_writer(conn: rusqlite::Connection) -> Connection {
        Connection {
            backend: Backend::Sqlite(conn),
            // The store opens SQLite files with `synchronous=FULL`.
            sync_full: Cell::new(Some(true)),
            synced_commits: Cell::new(0),
            statements: Cell::new(0),
            writer: None,
            checkpoints_by_packer: Cell::new(false),
            shared_writer: false,
            flush_after_turn: Cell::new(false),
        }
    }

    /// A file's shared writer (`writer.rs`).
    pub(in crate::store::sql) fn shared_writer(conn: rusqlite::Connection) -> Connection {
        Connection {
            shared_writer: true,
            ..Connection::sqlite_writer(conn)
        }
    }

    /// Leaves copying the WAL into the data file to a packer thread, which
    /// the handle asks when [`take_pages`](super::sqlite::wal::take_pages) finds the WAL long: SQLite
    /// would do it in the middle of a commit.
    pub fn leave_checkpoints_to_packer(&self) {
        self.checkpoints_by_packer.set(true);
        if let Backend::Sqlite(c) = &self.backend {
            c.wal_hook(Some(wal::note_pages));
        }
    }

    /// Takes this process's turn to write to the SQLite file and keeps it
    /// until the turn is dropped: the handle's write transactions meanwhile
    /// follow one another with no other writer of the process between
    /// them. `None` on PostgreSQL, on an in-memory database, or when the
    /// turn did not come within the busy timeout.
    pub fn hold_writer_turn(&self) -> Option<writer::HeldTurn> {
        self.writer.as_ref()?.hold(super::sqlite::BUSY_TIMEOUT)
    }

    pub fn postgres(client: postgres::Client, config: postgres::Config) -> Connection {
        Connection {
            backend: Backend::Postgres(Box::new(Pg {
                client: RefCell::new(Some(client)),
                config,
                in_transaction: Cell::new(false),
                statements: RefCell::new(HashMap::new()),
                conflicted: Cell::new(false),
            })),
            sync_full: Cell::new(Some(true)),
            synced_commits: Cell::new(0),
            statements: Cell::new(0),
            writer: None,
            checkpoints_by_packer: Cell::new(false),
            shared_writer: false,
            flush_after_turn: Cell::new(false),
        }
    }

    pub fn dialect(&self) -> Dialect {
        match self.backend {
            Backend::Sqlite(_) => Dialect::Sqlite,
            Backend::Postgres(_) => Dialect::Postgres,
        }
    }

    /// The SQLite connection, for what only SQLite has (pragmas, backups).
    pub fn as_sqlite(&self) -> Option<&rusqlite::Connection> {
        match &self.backend {
            Backend::Sqlite(c) => Some(c),
            Backend::Postgres(_) => None,
        }
    }

    /// Runs one statement without parameters or results that runs often
    /// (transaction control), kept compiled on SQLite.
    pub fn control(&self, sql: &str) -> Result<()> {
        match &self.backend {
            Backend::Sqlite(c) => {
                self.ran();
                c.prepare_cached(sql)?.raw_execute()?;
                Ok(())
            }
            Backend::Postgres(_) => self.execute_batch(sql),
        }
    }

    /// Runs statements without parameters or results (schema changes,
    /// transaction control).
    pub fn execute_batch(&self, sql: &str) -> Result<()> {
        self.ran();
        match &self.backend {
            Backend::Sqlite(c) => Ok(c.execute_batch(sql)?),
            Backend::Postgres(pg) => pg.run(|client| client.batch_execute(sql)),
        }
    }

    pub fn prepare_cached(&self, sql: &str) -> Result<Statement<'_>> {
        self.ran();
        match &self.backend {
            Backend::Sqlite(c) => Ok(Statement::Sqlite(c.prepare_cached(sql)?)),
            Backend::Postgres(pg) => {
                let stmt = match pg.prepare(sql) {
                    Err(_) if pg.lost_outside_transaction() => pg.prepare(sql)?,
                    prepared => prepared?,
                };
                Ok(Statement::Postgres(pg, stmt, sql.to_string()))
            }
        }
    }

    pub fn prepare(&self, sql: &str) -> Result<Statement<'_>> {
        self.prepare_cached(sql)
    }

    pub fn query_row<T>(
        &self,
        sql: &str,
        params: impl Params,
        f: impl FnOnce(&Row<'_>) -> Result<T>,
    ) -> Result<T> {
        self.prepare_cached(sql)?.query_row(params, f)
    }

    /// Tells the hosts listening on this database that a run may have a
    /// wake now, when the transaction commits (PostgreSQL `NOTIFY` is
    /// transactional: an aborted one sends nothing). A no-op on SQLite,
    /// whose processes share one machine and re-check on an interval.
    pub fn notify_wake(&self) -> Result<()> {
        match &self.backend {
            Backend::Sqlite(_) => Ok(()),
            Backend::Postgres(_) => self
                .prepare_cached("SELECT pg_notify('wakeful_wake', '')")?
                .query_row(params![], |_| Ok(())),
        }
    }

    /// Records that a transaction is open (or no longer): a connection
    /// lost inside one is not silently opened again. [`Transaction`] keeps
    /// it; a read transaction opened with `execute_batch` says so here.
    pub(super) fn set_in_transaction(&self, open: bool) {
        if let Backend::Postgres(pg) = &self.backend {
            pg.in_transaction.set(open);
        }
    }

    /// Refreshes the planner's statistics where they are stale (see
    /// [`Pg::refresh_statistics`]); SQLite plans the store's queries well
    /// without them. Returns the tables analyzed.
    pub fn refresh_statistics(&self) -> Result<Vec<String>> {
        match &self.backend {
            Backend::Sqlite(_) => Ok(Vec::new()),
            Backend::Postgres(pg) => pg.refresh_statistics(),
        }
    }

    /// How many synced write transactions this connection committed.
    pub fn synced_commits(&self) -> u64 {
        self.synced_commits.get()
    }

    /// Pages this SQLite connection has had to read from the file (or the
    /// OS's cache of it) rather than from its own cache, since it opened.
    #[cfg(test)]
    #[allow(unsafe_code)]
    pub fn cache_misses(&self) -> i64 {
        let Backend::Sqlite(c) = &self.backend else {
            return 0;
        };
        let (mut current, mut highest) = (0, 0);
        // SAFETY: the handle is this open connection's, used on its thread
        // for one call that only reads a counter.
        let rc = unsafe {
            rusqlite::ffi::sqlite3_db_status(
                c.handle(),
                rusqlite::ffi::SQLITE_DBSTATUS_CACHE_MISS,
                &mut current,
                &mut highest,
                0,
            )
        };
        assert_eq!(rc, rusqlite::ffi::SQLITE_OK, "reading the cache's misses");
        i64::from(current)
    }

    /// How many statements this connection ran.
    pub fn statements(&self) -> u64 {
        self.statements.get()
    }

    fn ran(&self) {
        self.statements.set(self.statements.get() + 1);
    }

    /// Sets SQLite's `synchronous` to `FULL` (a commit flushes the WAL to
    /// disk) or `NORMAL` (it does not), unless it is known to be so
    /// already. A no-op on PostgreSQL, where a transaction says it itself.
    fn set_sync_full(&self, full: bool) -> Result<()> {
        let Backend::Sqlite(c) = &self.backend else {
            return Ok(());
        };
        if self.sync_full.get() == Some(full) {
            return Ok(());
        }
        self.sync_full.set(None);
        self.ran();
        let sql = if full {
            "PRAGMA synchronous = FULL"
        } else {
            "PRAGMA synchronous = NORMAL"
        };
        c.prepare_cached(sql)?.execute([])?;
        self.sync_full.set(Some(full));
        Ok(())
    }

    /// Whether the last failure was PostgreSQL aborting the transaction
    /// for a conflict; reading it clears it.
    fn take_conflict(&self) -> bool {
        match &self.backend {
            Backend::Sqlite(_) => false,
            Backend::Postgres(pg) => pg.conflicted.replace(false),
        }
    }
}

/// A directory of its own for a test's SQLite file, removed afterwards.
#[cfg(test)]
pub(super) struct Scratch(std::path::PathBuf);

#[cfg(test)]
impl Scratch {
    pub(super) fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("wakeful-db-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    pub(super) fn file(&self) -> std::path::PathBuf {
        self.0.join("store.db")
    }
}

#[cfg(test)]
impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
