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
use std::time::Duration;

use crate::store::{Result as StoreResult, StoreError};

mod pg;
mod values;
mod wal;
mod writer;

use pg::{pg_args, pg_refs};
pub(crate) use values::params;
pub use values::{Field, FromSql, Params, Row, ToSql, Value};
pub use wal::{CHECKPOINT_PAGES, take_pages as take_wal_pages};
pub use writer::Open;

/// An error from either database, or a value that does not fit its type.
#[derive(Debug)]
pub enum Error {
    Sqlite(rusqlite::Error),
    Postgres(postgres::Error),
    /// `query_row` found no row (see [`OptionalExtension`]).
    NoRows,
    /// A value that cannot be stored or read as the type asked for.
    Conversion(String),
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Sqlite(e) => write!(f, "{e}"),
            // `postgres::Error`'s own text is only "db error"; the server's
            // message, detail and hint are what an operator can act on.
            Error::Postgres(e) => match e.as_db_error() {
                Some(db) => {
                    write!(f, "{}: {}", db.severity(), db.message())?;
                    if let Some(detail) = db.detail() {
                        write!(f, " ({detail})")?;
                    }
                    if let Some(hint) = db.hint() {
                        write!(f, "; hint: {hint}")?;
                    }
                    Ok(())
                }
                None => write!(f, "{e}"),
            },
            Error::NoRows => write!(f, "the query returned no row"),
            Error::Conversion(what) => write!(f, "{what}"),
        }
    }
}

impl std::error::Error for Error {}

impl From<rusqlite::Error> for Error {
    fn from(e: rusqlite::Error) -> Error {
        match e {
            rusqlite::Error::QueryReturnedNoRows => Error::NoRows,
            e => Error::Sqlite(e),
        }
    }
}

impl From<postgres::Error> for Error {
    fn from(e: postgres::Error) -> Error {
        Error::Postgres(e)
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

/// `query_row(...).optional()`: no row is `None`, not an error.
pub trait OptionalExtension<T> {
    fn optional(self) -> Result<Option<T>>;
}

impl<T> OptionalExtension<T> for Result<T> {
    fn optional(self) -> Result<Option<T>> {
        match self {
            Ok(v) => Ok(Some(v)),
            Err(Error::NoRows) => Ok(None),
            Err(e) => Err(e),
        }
    }
}

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
    writer: Option<Arc<writer::WriterGate>>,
    /// Whether a packer thread copies the WAL into the data file for this
    /// handle's commits (see `wal.rs`).
    checkpoints_by_packer: Cell<bool>,
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
        }
    }

    /// Leaves copying the WAL into the data file to a packer thread, which
    /// the handle asks when [`take_wal_pages`] finds the WAL long: SQLite
    /// would do it in the middle of a commit.
    pub fn leave_checkpoints_to_packer(&self) {
        self.checkpoints_by_packer.set(true);
        if let Backend::Sqlite(c) = &self.backend {
            c.wal_hook(Some(wal::note_pages));
        }
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

/// A prepared statement.
pub enum Statement<'c> {
    Sqlite(rusqlite::CachedStatement<'c>),
    /// With its SQLite-style text, to prepare it again on a new connection.
    Postgres(&'c Pg, postgres::Statement, String),
}

impl Statement<'_> {
    /// Runs the statement; returns how many rows it changed.
    pub fn execute(&mut self, params: impl Params) -> Result<usize> {
        params.with_values(|values| match self {
            Statement::Sqlite(stmt) => Ok(stmt.execute(rusqlite::params_from_iter(values))?),
            Statement::Postgres(pg, stmt, sql) => {
                let args = pg_args(values);
                let n = pg.again_if_lost(stmt, sql, |client, stmt| {
                    client.execute(stmt, &pg_refs(&args))
                })?;
                Ok(n as usize)
            }
        })
    }

    /// The first row, mapped by `f`; [`Error::NoRows`] when there is none.
    pub fn query_row<T>(
        &mut self,
        params: impl Params,
        f: impl FnOnce(&Row<'_>) -> Result<T>,
    ) -> Result<T> {
        params.with_values(|values| match self {
            Statement::Sqlite(stmt) => {
                let mut rows = stmt.query(rusqlite::params_from_iter(values))?;
                match rows.next()? {
                    Some(row) => f(&Row::Sqlite(row)),
                    None => Err(Error::NoRows),
                }
            }
            Statement::Postgres(pg, stmt, sql) => {
                let args = pg_args(values);
                let row = pg.again_if_lost(stmt, sql, |client, stmt| {
                    client.query_opt(stmt, &pg_refs(&args))
                })?;
                match row {
                    Some(row) => f(&Row::Postgres(&row)),
                    None => Err(Error::NoRows),
                }
            }
        })
    }

    /// Every row, mapped by `f`, read before this returns.
    pub fn query_map<T>(
        &mut self,
        params: impl Params,
        mut f: impl FnMut(&Row<'_>) -> Result<T>,
    ) -> Result<std::vec::IntoIter<Result<T>>> {
        params.with_values(|values| {
            let mut out = Vec::new();
            match self {
                Statement::Sqlite(stmt) => {
                    let mut rows = stmt.query(rusqlite::params_from_iter(values))?;
                    while let Some(row) = rows.next()? {
                        out.push(f(&Row::Sqlite(row)));
                    }
                }
                Statement::Postgres(pg, stmt, sql) => {
                    let args = pg_args(values);
                    let rows = pg.again_if_lost(stmt, sql, |client, stmt| {
                        client.query(stmt, &pg_refs(&args))
                    })?;
                    out.extend(rows.iter().map(|row| f(&Row::Postgres(row))));
                }
            }
            Ok(out.into_iter())
        })
    }

    /// Hands each row to `f` as it arrives, holding one row at a time:
    /// for reads larger than memory should hold (copying a whole store).
    /// Stops at the first error of `f`, which is returned inside: the outer
    /// error is the database's. `f` must not use this statement's
    /// connection, which is busy until the last row.
    pub fn for_each<E>(
        &mut self,
        params: impl Params,
        mut f: impl FnMut(&Row<'_>) -> Result<(), E>,
    ) -> Result<Result<(), E>> {
        params.with_values(|values| match self {
            Statement::Sqlite(stmt) => {
                let mut rows = stmt.query(rusqlite::params_from_iter(values))?;
                while let Some(row) = rows.next()? {
                    if let Err(e) = f(&Row::Sqlite(row)) {
                        return Ok(Err(e));
                    }
                }
                Ok(Ok(()))
            }
            Statement::Postgres(pg, stmt, _) => {
                use postgres::fallible_iterator::FallibleIterator;
                let args = pg_args(values);
                let mut failed = None;
                pg.run(|client| {
                    let mut rows = client.query_raw(&*stmt, pg_refs(&args))?;
                    while let Some(row) = rows.next()? {
                        if let Err(e) = f(&Row::Postgres(&row)) {
                            failed = Some(e);
                            break;
                        }
                    }
                    Ok(())
                })?;
                Ok(failed.map_or(Ok(()), Err))
            }
        })
    }

    /// Whether the statement returns at least one row.
    pub fn exists(&mut self, params: impl Params) -> Result<bool> {
        self.query_row(params, |_| Ok(()))
            .optional()
            .map(|r| r.is_some())
    }
}

/// A write transaction; rolled back when dropped without [`commit`].
///
/// [`commit`]: Transaction::commit
pub struct Transaction<'c> {
    conn: &'c Connection,
    open: bool,
    durability: Durability,
}

impl<'c> Transaction<'c> {
    fn begin(
        conn: &'c Connection,
        isolation: Isolation,
        durability: Durability,
    ) -> Result<Transaction<'c>> {
        // A synced transaction must never run with the flush turned off:
        // setting it back failed once, so it is set again here or the
        // transaction does not start.
        conn.set_sync_full(durability == Durability::Synced)?;
        conn.control(match (conn.dialect(), isolation) {
            // Takes the write lock up front, so a transaction never fails
            // halfway on a lock upgrade.
            (Dialect::Sqlite, _) => "BEGIN IMMEDIATE",
            (Dialect::Postgres, Isolation::Serializable) => "BEGIN ISOLATION LEVEL SERIALIZABLE",
            (Dialect::Postgres, Isolation::RowLocks) => "BEGIN ISOLATION LEVEL READ COMMITTED",
        })?;
        conn.set_in_transaction(true);
        let tx = Transaction {
            conn,
            open: true,
            durability,
        };
        if durability == Durability::Deferred && conn.dialect() == Dialect::Postgres {
            // Asynchronous commit: PostgreSQL flushes its WAL in order, so
            // the next synchronous commit on any connection flushes this
            // one with it.
            conn.execute_batch("SET LOCAL synchronous_commit TO OFF")?;
        }
        Ok(tx)
    }

    pub fn commit(mut self) -> Result<()> {
        self.open = false;
        let committed = self.conn.control("COMMIT");
        self.conn.set_in_transaction(false);
        if committed.is_err() {
            // SQLite keeps the transaction open after a failed COMMIT;
            // PostgreSQL has ended it already and only warns here.
            let _ = self.conn.control("ROLLBACK");
        } else if self.durability == Durability::Synced {
            self.conn
                .synced_commits
                .set(self.conn.synced_commits.get() + 1);
        }
        self.restore_sync();
        committed
    }

    /// Turns the flush back on after a deferred transaction, so that
    /// statements outside transactions are synced as before. Should this
    /// fail, the next synced transaction sets it before it begins.
    fn restore_sync(&self) {
        if self.durability == Durability::Deferred {
            let _ = self.conn.set_sync_full(true);
        }
    }
}

impl std::ops::Deref for Transaction<'_> {
    type Target = Connection;

    fn deref(&self) -> &Connection {
        self.conn
    }
}

impl Drop for Transaction<'_> {
    fn drop(&mut self) {
        if self.open {
            self.conn.set_in_transaction(false);
            // A connection whose rollback failed is broken; its next
            // statement reports that (or, on PostgreSQL, connects again).
            let _ = self.conn.control("ROLLBACK");
            self.restore_sync();
        }
    }
}

/// How often a transaction that PostgreSQL aborted for a conflict is run
/// again before the conflict is reported.
const CONFLICT_RETRIES: u32 = 100;

/// Runs `f` in one write transaction and commits when it returns `Ok`; an
/// `Err` rolls everything back. A transaction aborted for a conflict with a
/// concurrent one is run again from the start, after a short random pause
/// that keeps two conflicting writers from meeting again.
pub fn write<T>(
    conn: &mut Connection,
    what: &str,
    f: impl FnMut(&Transaction<'_>) -> StoreResult<T>,
) -> StoreResult<T> {
    write_with(conn, what, Isolation::Serializable, f)
}

/// Whether a write transaction's commit waits for the disk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Durability {
    /// On disk when the commit returns: an fsync of SQLite's WAL, a flush
    /// of PostgreSQL's.
    Synced,
    /// Written to the log, but forced to disk only by the next synced
    /// commit (both logs are flushed in order, so a synced commit carries
    /// every earlier one with it). A crash of the process loses nothing; a
    /// power loss may lose it, together with everything that came after
    /// it and was not synced. Only for writes whose loss is harmless
    /// because nothing outside the store has seen their effect before the
    /// next synced commit: a claim (the run is claimed again), a built-in
    /// tool call (its step has not committed; the step runs again and so
    /// does the call).
    Deferred,
}

/// [`write_with`] for a [`Durability::Deferred`] transaction.
pub fn write_deferred<T>(
    conn: &mut Connection,
    what: &str,
    isolation: Isolation,
    f: impl FnMut(&Transaction<'_>) -> StoreResult<T>,
) -> StoreResult<T> {
    write_as(conn, what, isolation, Durability::Deferred, f)
}

/// How a PostgreSQL write transaction keeps concurrent ones apart (SQLite
/// always has one writer at a time).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Isolation {
    /// As if transactions ran one after another: the default.
    Serializable,
    /// Each statement sees what is committed when it starts; the
    /// transaction keeps others off the rows it locks (`FOR UPDATE`). For
    /// claims, which take one row each with `SKIP LOCKED` and check it
    /// again once locked: serializable claimers reading the same due runs
    /// would abort each other.
    RowLocks,
}

/// [`write`] with the isolation given.
pub fn write_with<T>(
    conn: &mut Connection,
    what: &str,
    isolation: Isolation,
    f: impl FnMut(&Transaction<'_>) -> StoreResult<T>,
) -> StoreResult<T> {
    write_as(conn, what, isolation, Durability::Synced, f)
}

fn write_as<T>(
    conn: &mut Connection,
    what: &str,
    isolation: Isolation,
    durability: Durability,
    f: impl FnMut(&Transaction<'_>) -> StoreResult<T>,
) -> StoreResult<T> {
    let Some(gate) = conn.writer.clone() else {
        return transact(conn, what, isolation, durability, f);
    };
    // Past its patience the caller goes on without a turn, on its own
    // connection, and SQLite's lock decides (as between processes).
    let Some(turn) = gate.enter(super::sqlite::BUSY_TIMEOUT) else {
        return transact(conn, what, isolation, durability, f);
    };
    let Some(mut shared) = turn.connection() else {
        return transact(conn, what, isolation, durability, f);
    };
    let writer = shared.as_mut().expect("opened by `connection`");
    let (synced, statements) = (writer.synced_commits(), writer.statements());
    let out = wal::as_handle(conn.checkpoints_by_packer.get(), || {
        transact(writer, what, isolation, durability, f)
    });
    // Counted as this handle's work, as if it had run on its connection.
    conn.synced_commits
        .set(conn.synced_commits() + writer.synced_commits() - synced);
    conn.statements
        .set(conn.statements() + writer.statements() - statements);
    out
}

/// Runs `f` in a write transaction on `conn`, again after a conflict.
fn transact<T>(
    conn: &mut Connection,
    what: &str,
    isolation: Isolation,
    durability: Durability,
    mut f: impl FnMut(&Transaction<'_>) -> StoreResult<T>,
) -> StoreResult<T> {
    let mut attempt = 0;
    loop {
        // A failure outside this transaction must not make it run again.
        conn.take_conflict();
        let outcome = Transaction::begin(conn, isolation, durability)
            .map_err(|e| db_error(&format!("starting a transaction for {what}"), e))
            .and_then(|tx| {
                let value = f(&tx)?;
                tx.commit()
                    .map_err(|e| db_error(&format!("committing {what}"), e))?;
                Ok(value)
            });
        match outcome {
            Err(_) if conn.take_conflict() && attempt < CONFLICT_RETRIES => {
                attempt += 1;
                let pause = rand::random_range(0..=(attempt.min(20) as u64) * 2);
                std::thread::sleep(Duration::from_millis(pause));
            }
            outcome => return outcome,
        }
    }
}

/// Adds what was being done to a database error.
pub trait Context<T> {
    fn ctx(self, what: &str) -> StoreResult<T>;
    fn ctx_with(self, what: impl FnOnce() -> String) -> StoreResult<T>;
}

impl<T> Context<T> for Result<T> {
    fn ctx(self, what: &str) -> StoreResult<T> {
        self.map_err(|e| db_error(what, e))
    }

    fn ctx_with(self, what: impl FnOnce() -> String) -> StoreResult<T> {
        self.map_err(|e| db_error(&what(), e))
    }
}

impl<T> Context<T> for rusqlite::Result<T> {
    fn ctx(self, what: &str) -> StoreResult<T> {
        self.map_err(|e| db_error(what, e.into()))
    }

    fn ctx_with(self, what: impl FnOnce() -> String) -> StoreResult<T> {
        self.map_err(|e| db_error(&what(), e.into()))
    }
}

/// A damaged file is not a passing fault: say so, and what to do.
pub fn db_error(what: &str, e: Error) -> StoreError {
    if let Error::Sqlite(e) = &e {
        match e.sqlite_error_code() {
            Some(rusqlite::ErrorCode::DatabaseCorrupt | rusqlite::ErrorCode::NotADatabase) => {
                return StoreError::Corrupt(format!(
                    "{what}: the data file is damaged ({e}); restore it from a backup \
                     (`wakeful backup`)"
                ));
            }
            Some(rusqlite::ErrorCode::DiskFull) => {
                return StoreError::Db(format!(
                    "{what}: the disk is full ({e}); nothing of this operation was kept: free \
                     space and retry"
                ));
            }
            _ => {}
        }
    }
    StoreError::Db(format!("{what}: {e}"))
}
