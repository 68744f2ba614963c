//! The embedded store: one SQLite file in WAL mode, shared by the processes
//! of one machine (workers, the CLI). Leases and fencing epochs keep them
//! apart; `busy_timeout` makes them wait for each other's write transactions
//! instead of failing.
//!
//! Layout, one file per table group:
//! - [`agents`]: deployed agent versions and their bytes;
//! - [`runs`]: creating and reading runs, checkpoints, inbox and approvals;
//! - [`claims`]: the step protocol (claim, commit, fail, park, release) and
//!   the choice of the wake to deliver;
//! - [`triggers`]: events, approval answers, resuming parked runs;
//! - [`tools`]: the tool-call ledger, kv and leases;
//! - [`callbacks`]: callback links, made by a tool call and used once;
//! - [`switches`]: kill switches;
//! - [`audit`]: the append-only audit log;
//! - [`pages`]: lists a page at a time, and counts, for the API.
//!
//! Every write runs in one `BEGIN IMMEDIATE` transaction: it takes the write
//! lock up front, so a transaction never fails halfway on a lock upgrade.

mod agents;
mod audit;
mod callbacks;
mod claims;
mod commits;
mod health;
mod intents;
mod pages;
mod runs;
mod schedules;
mod schema;
mod store_impl;
mod switches;
mod tools;
mod triggers;
mod upgrades;

#[cfg(test)]
mod tests;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rusqlite::{Connection, Transaction, TransactionBehavior};
use serde::Serialize;
use serde::de::DeserializeOwned;

use super::{Result, StoreError};
use schema::MIGRATIONS;
pub use schema::SCHEMA_VERSION;

/// How long a process waits for another one's write transaction before it
/// gives up with "database is locked".
const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// The SQLite implementation of [`Store`]. One connection; `Send` so that a
/// worker thread or a `spawn_blocking` task can own it.
pub struct SqliteStore {
    /// This process's only connection; other processes have their own, and
    /// SQLite's file locks (with `busy_timeout`) order their transactions.
    conn: Connection,
    path: PathBuf,
}

// The store moves into worker threads; a field that is not `Send` must fail
// the build here, not in some caller.
const _: fn() = || {
    fn assert_send<T: Send>() {}
    assert_send::<SqliteStore>();
};

impl SqliteStore {
    /// Opens (creating if needed) the store at `path` and brings its schema
    /// up to date. A file written by a newer schema is refused untouched.
    pub fn open(path: impl AsRef<Path>) -> Result<SqliteStore> {
        let path = path.as_ref().to_path_buf();
        let shown = path.display().to_string();
        if let Some(parent) = path.parent()
            && !parent.as_os_str().is_empty()
        {
            std::fs::create_dir_all(parent).map_err(|e| {
                StoreError::Db(format!(
                    "creating the directory {} for {shown}: {e}",
                    parent.display()
                ))
            })?;
        }
        // Before SQLite touches it: a damaged file is refused as it is.
        health::check_file_once(&path)?;
        let mut conn =
            Connection::open(&path).ctx_with(|| format!("opening the data file {shown}"))?;
        conn.busy_timeout(BUSY_TIMEOUT)
            .ctx("setting the busy timeout")?;

        // Checked before any pragma that writes to the file, so that a newer
        // file is left exactly as it was.
        let found = user_version(&conn)?;
        if found > SCHEMA_VERSION {
            return Err(too_new(&shown, found));
        }

        // Pragmas cannot change inside a transaction; set them first.
        enable_wal(&conn, &shown)?;
        conn.pragma_update(None, "synchronous", "FULL")
            .ctx("setting synchronous=FULL")?;
        conn.pragma_update(None, "foreign_keys", "ON")
            .ctx("enabling foreign keys")?;

        migrate(&mut conn, &shown)?;
        Ok(SqliteStore { conn, path })
    }

    /// The data file this store was opened on.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// Switches the file to WAL mode (a setting kept in the file). The switch
/// needs the file to itself, and SQLite reports "locked" at once instead of
/// calling the busy handler when another process is opening the same new
/// file; so it is retried here for as long as `busy_timeout` would wait.
fn enable_wal(conn: &Connection, path: &str) -> Result<()> {
    let deadline = Instant::now() + BUSY_TIMEOUT;
    loop {
        let mode = conn
            .pragma_query_value(None, "journal_mode", |row| row.get::<_, String>(0))
            .and_then(|mode| {
                if mode.eq_ignore_ascii_case("wal") {
                    Ok(mode)
                } else {
                    conn.pragma_update_and_check(None, "journal_mode", "WAL", |row| row.get(0))
                }
            });
        match mode {
            Ok(mode) if mode.eq_ignore_ascii_case("wal") => return Ok(()),
            Ok(mode) => {
                return Err(StoreError::Db(format!(
                    "{path} could not be switched to WAL mode (it reports `{mode}`)"
                )));
            }
            Err(e) if is_busy(&e) && Instant::now() < deadline => {
                std::thread::sleep(Duration::from_millis(10));
            }
            Err(e) => return Err(db_error(&format!("switching {path} to WAL mode"), e)),
        }
    }
}

fn is_busy(e: &rusqlite::Error) -> bool {
    matches!(
        e.sqlite_error_code(),
        Some(rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked)
    )
}

fn user_version(conn: &Connection) -> Result<i64> {
    conn.pragma_query_value(None, "user_version", |row| row.get(0))
        .ctx("reading the schema version")
}

fn too_new(path: &str, found: i64) -> StoreError {
    StoreError::TooNew {
        path: path.to_string(),
        found,
        supported: SCHEMA_VERSION,
    }
}

/// Applies the missing migrations in one transaction. The version is read
/// again under the write lock: another process may have migrated meanwhile.
fn migrate(conn: &mut Connection, path: &str) -> Result<()> {
    if user_version(conn)? == SCHEMA_VERSION {
        return Ok(());
    }
    let tx = conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .ctx("starting the schema migration")?;
    let found = user_version(&tx)?;
    if found > SCHEMA_VERSION {
        return Err(too_new(path, found));
    }
    for (from, sql) in MIGRATIONS.iter().enumerate().skip(found.max(0) as usize) {
        tx.execute_batch(sql)
            .ctx_with(|| format!("migrating {path} from schema {from} to {}", from + 1))?;
    }
    tx.pragma_update(None, "user_version", SCHEMA_VERSION)
        .ctx("recording the schema version")?;
    tx.commit()
        .ctx_with(|| format!("committing the schema migration of {path}"))
}

/// Runs `f` in one `BEGIN IMMEDIATE` transaction and commits when it returns
/// `Ok`; an `Err` rolls everything back.
fn write<T>(
    conn: &mut Connection,
    what: &str,
    f: impl FnOnce(&Transaction<'_>) -> Result<T>,
) -> Result<T> {
    let tx = conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .ctx_with(|| format!("starting a transaction for {what}"))?;
    let value = f(&tx)?;
    tx.commit().ctx_with(|| format!("committing {what}"))?;
    Ok(value)
}

/// Adds what was being done to a SQLite error.
trait Context<T> {
    fn ctx(self, what: &str) -> Result<T>;
    fn ctx_with(self, what: impl FnOnce() -> String) -> Result<T>;
}

impl<T> Context<T> for rusqlite::Result<T> {
    fn ctx(self, what: &str) -> Result<T> {
        self.map_err(|e| db_error(what, e))
    }

    fn ctx_with(self, what: impl FnOnce() -> String) -> Result<T> {
        self.map_err(|e| db_error(&what(), e))
    }
}

/// A damaged file is not a passing fault: say so, and what to do.
fn db_error(what: &str, e: rusqlite::Error) -> StoreError {
    match e.sqlite_error_code() {
        Some(rusqlite::ErrorCode::DatabaseCorrupt | rusqlite::ErrorCode::NotADatabase) => {
            StoreError::Corrupt(format!(
                "{what}: the data file is damaged ({e}); restore it from a backup \
                 (`wakeful backup`)"
            ))
        }
        Some(rusqlite::ErrorCode::DiskFull) => StoreError::Db(format!(
            "{what}: the disk is full ({e}); nothing of this operation was kept: free space \
             and retry"
        )),
        _ => StoreError::Db(format!("{what}: {e}")),
    }
}

fn to_json<T: Serialize + ?Sized>(value: &T, what: &str) -> Result<String> {
    serde_json::to_string(value).map_err(|e| StoreError::Db(format!("encoding {what}: {e}")))
}

/// Stored JSON that does not parse means the file was damaged or written by
/// something else: that is corruption, not a bad request.
fn from_json<T: DeserializeOwned>(text: &str, what: impl FnOnce() -> String) -> Result<T> {
    serde_json::from_str(text).map_err(|e| StoreError::Corrupt(format!("{}: {e}", what())))
}

/// SQLite integers are signed. Budgets may be `u64::MAX` ("no limit") and
/// are never compared in SQL, so they are stored bit for bit.
fn budget_to_sql(v: u64) -> i64 {
    v as i64
}

fn budget_from_sql(v: i64) -> u64 {
    v as u64
}

/// Times past `i64::MAX` ms (a "never expires" of `u64::MAX`) are clamped so
/// that they still compare as the far future in SQL.
fn clamp_time(ms: u64) -> u64 {
    ms.min(i64::MAX as u64)
}
