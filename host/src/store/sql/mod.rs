//! The store on SQL: [`SqlStore`], on SQLite (the embedded default, one
//! file in WAL mode shared by the processes of one machine) or PostgreSQL
//! (several hosts sharing one database).
//!
//! Each concern (agents, runs, claims, commits, triggers, the ledger,
//! hosts…) is a file of its own: its SQL, and an `impl SqlStore` block
//! with the methods the rest of the host calls. [`db`] hides the
//! differences between the two client libraries, so that each statement
//! is written once; the few that differ ask the connection's
//! [`db::Dialect`]. SQLite's tuning (its file layer, the writer queue,
//! the flushes and the WAL) is under [`sqlite`]. Every write runs in one
//! transaction ([`db::write`]); leases and fencing epochs keep writers
//! apart on both databases.

mod agents;
mod archive;
mod audit;
#[cfg(feature = "bench")]
mod bench;
mod callbacks;
mod claim_ends;
mod claims;
mod commits;
mod copy;
pub(crate) mod db;
mod delta;
mod effects;
mod gated;
mod health;
pub mod host_locks;
mod hosts;
mod intents;
pub mod listen;
mod pages;
mod pg_schema;
mod postgres;
mod prune;
mod runs;
mod schedules;
mod schema;
mod sessions;
mod size;
mod sqlite;
mod switches;
mod tools;
mod triggers;
mod upgrades;

#[cfg(test)]
mod tests;

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::{Result, StoreError};
pub use copy::{Copied, CopyError, CopyOrder, TableCopied, copy_store};
use db::{Connection, Context, write};
pub use postgres::shown_url as postgres_shown_url;
pub use schema::SCHEMA_VERSION;

/// The store on one SQLite file or one PostgreSQL database. One
/// connection; `Send` so that a worker thread or a `spawn_blocking` task
/// can own it.
pub struct SqlStore {
    conn: Connection,
    /// The SQLite file, or the PostgreSQL URL with any password hidden.
    location: Location,
    /// Where the runs this handle's commits end are packed: by a packer
    /// thread when one was given, else by this handle after the commit.
    packer: Option<crate::store::PackSignal>,
    /// The WAL's length in pages when this handle last asked its packer
    /// to checkpoint it.
    wal_pages_asked: i32,
    /// The key approval link tokens are derived with; without one a new
    /// request's link is random and cannot be shown again.
    links: Option<crate::store::links::LinkKey>,
}

/// Where a store's data lives.
#[derive(Clone, Debug)]
pub enum Location {
    Sqlite(std::path::PathBuf),
    /// The URL as it can be shown (no password).
    Postgres(String),
}

impl std::fmt::Display for Location {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Location::Sqlite(path) => write!(f, "{}", path.display()),
            Location::Postgres(url) => write!(f, "{url}"),
        }
    }
}

// The store moves into worker threads; a field that is not `Send` must fail
// the build here, not in some caller.
const _: fn() = || {
    fn assert_send<T: Send>() {}
    assert_send::<SqlStore>();
};

impl SqlStore {
    /// Opens (creating if needed) the SQLite store at `path` and brings its
    /// schema up to date. A file written by a newer schema is refused
    /// untouched.
    pub fn open(path: impl AsRef<std::path::Path>) -> Result<SqlStore> {
        let path = path.as_ref().to_path_buf();
        let conn = sqlite::open(&path)?;
        Ok(SqlStore {
            conn: Connection::sqlite(conn, sqlite::open),
            location: Location::Sqlite(path),
            packer: None,
            wal_pages_asked: 0,
            links: None,
        })
    }

    /// Connects to the PostgreSQL database at `url` and brings its schema
    /// up to date, as [`SqlStore::open`] does for a file.
    pub fn connect(url: &str) -> Result<SqlStore> {
        let (client, config, shown) = postgres::connect(url)?;
        Ok(SqlStore {
            conn: Connection::postgres(client, config),
            location: Location::Postgres(shown),
            packer: None,
            wal_pages_asked: 0,
            links: None,
        })
    }

    /// The SQLite data file this store was opened on, if it is one.
    pub fn path(&self) -> Option<&std::path::Path> {
        match &self.location {
            Location::Sqlite(path) => Some(path),
            Location::Postgres(_) => None,
        }
    }

    pub fn location(&self) -> &Location {
        &self.location
    }

    /// Derives new approval links with `key`, and shows the links derived
    /// with it.
    pub fn set_link_key(&mut self, key: crate::store::links::LinkKey) {
        self.links = Some(key);
    }
}

/// This handle's counters.
impl SqlStore {
    /// How many write transactions this store handle committed with a
    /// flush to disk (an fsync of SQLite's WAL, a synchronous PostgreSQL
    /// commit); claims and built-in tool calls commit without one.
    pub fn synced_commits(&self) -> u64 {
        self.conn.synced_commits()
    }

    /// How many SQL statements this store handle ran (transaction control
    /// included).
    pub fn statements_run(&self) -> u64 {
        self.conn.statements()
    }
}

/// Wakes idle workers on other hosts once the caller's transaction
/// commits: something it wrote may give a run a wake.
fn wake_workers(tx: &Connection) -> Result<()> {
    tx.notify_wake().ctx("notifying idle workers")
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
