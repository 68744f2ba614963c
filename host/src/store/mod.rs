//! Durable state: agent versions, runs, checkpoints, the inbox, approvals,
//! the tool-call ledger, kv, leases, kill switches and the audit log. It is
//! kept by [`SqlStore`], on SQLite (the embedded default) or PostgreSQL
//! (several hosts sharing one database); this module holds the types its
//! methods take and return.
//!
//! Every method that writes does so in one transaction: it happens entirely
//! or not at all. Writes made on behalf of a claimed run carry the claim's
//! fencing `epoch`; a writer whose claim was taken over gets
//! [`StoreError::LostClaim`] and changes nothing.

mod callbacks;
mod effects;
mod error;
pub mod links;
mod pack_signal;
mod tool_rows;
mod types;

pub mod sql;

pub use sql::SqlStore;

pub use callbacks::*;
pub use effects::*;
pub use error::{Result, StoreError};
pub use pack_signal::{PackQueue, PackSignal, PackState};
pub use tool_rows::*;
pub use types::*;

/// Whether a store URL names a PostgreSQL database.
pub fn is_postgres(url: &str) -> bool {
    url.starts_with("postgres://") || url.starts_with("postgresql://")
}

/// Opens the store `url` names: `postgres://…` (or `postgresql://…`), or
/// `sqlite:PATH`; without one, the SQLite file `wakeful.db` in `data_dir`.
pub fn open(url: Option<&str>, data_dir: &std::path::Path) -> Result<sql::SqlStore> {
    match url.map(StoreUrl::parse).transpose()? {
        None => sql::SqlStore::open(data_dir.join("wakeful.db")),
        Some(StoreUrl::Postgres(url)) => sql::SqlStore::connect(url),
        Some(StoreUrl::Sqlite(path)) => sql::SqlStore::open(path),
    }
}

/// A store URL, told apart by its scheme.
#[derive(Clone, Copy, Debug)]
pub enum StoreUrl<'a> {
    /// `postgres://…` or `postgresql://…`, whole.
    Postgres(&'a str),
    /// The file of `sqlite:PATH`.
    Sqlite(&'a std::path::Path),
}

impl<'a> StoreUrl<'a> {
    pub fn parse(url: &'a str) -> Result<StoreUrl<'a>> {
        if is_postgres(url) {
            return Ok(StoreUrl::Postgres(url));
        }
        match url.strip_prefix("sqlite:") {
            Some(path) if !path.is_empty() => Ok(StoreUrl::Sqlite(std::path::Path::new(path))),
            _ => Err(StoreError::Db(format!(
                "unknown store `{}`: give postgres://USER@HOST:PORT/DATABASE or sqlite:PATH",
                sql::postgres_shown_url(url)
            ))),
        }
    }
}

/// Renders the JSON result a built-in tool records in the ledger, inside the
/// same transaction as the tool's effect.
pub type RenderResult<'a, T> = &'a dyn Fn(&T) -> String;

/// One page of a list, and the cursor that asks for the next (`None` on
/// the last page).
#[derive(Clone, Debug, serde::Serialize)]
pub struct Page<T, C> {
    pub items: Vec<T>,
    pub next: Option<C>,
}

/// Which runs a list shows.
#[derive(Clone, Debug, Default)]
pub struct RunFilter {
    pub status: Option<RunStatus>,
    pub agent: Option<String>,
    /// Only runs on this version of their agent.
    pub version: Option<String>,
    /// Only runs whose current waits include this one.
    pub waiting_on: Option<WaitingOn>,
}

/// What a run may be waiting on, as a list filters it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WaitingOn {
    /// An event on this topic.
    Topic(String),
    /// The answer to an approval request.
    Approval,
    /// A time: a timer or a cron tick.
    Timer,
}

impl WaitingOn {
    /// `approval`, `timer`, or else a topic name. The two words are taken
    /// as words: a topic named so cannot be filtered on.
    pub fn parse(text: &str) -> Option<WaitingOn> {
        match text {
            "" => None,
            "approval" => Some(WaitingOn::Approval),
            "timer" => Some(WaitingOn::Timer),
            topic => Some(WaitingOn::Topic(topic.to_string())),
        }
    }
}
