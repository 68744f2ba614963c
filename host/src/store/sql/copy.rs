//! `wakeful migrate-store`: copies a whole store into an empty one, such as
//! a SQLite file into PostgreSQL, and proves the copy.
//!
//! Every table is copied column for column, identity values included (audit
//! ids, and the rowids that order runs, approvals and inbox events made in
//! the same millisecond), in one transaction on the target: a copy that
//! fails leaves the target as empty as it found it.
//!
//! The source is read from one snapshot, so the copy is consistent however
//! the source is used. But a write the source takes after the snapshot would
//! be left behind with the source, so the rule is that no host writes to the
//! source during the copy; a copy during which the source changed is
//! refused, not kept.
//!
//! Proof, per table: the row count and a digest of the rows in key order
//! ([`tables::Digest`]) on the source snapshot, on the target inside the
//! copying transaction, and on the source read again at the end must all
//! agree before the target commits.

mod tables;

use std::cell::RefCell;

use serde::Serialize;
use serde_json::json;

use super::db::{Connection, Dialect, Isolation, params, write_with};
use super::{Context, SqlStore, audit, postgres, sqlite};
use crate::model::Millis;
use crate::store::{StoreError, StoreUrl};
use tables::{Cell, Digest, IDENTITIES, TABLES, Table};

/// Why a copy did not happen.
#[derive(Debug, thiserror::Error)]
pub enum CopyError {
    /// The copy was refused as asked: nothing was written to the target.
    #[error("{0}")]
    Refused(String),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// A copy that was made and verified.
#[derive(Debug, Serialize)]
pub struct Copied {
    /// The source and target as they can be shown (no password).
    pub from: String,
    pub to: String,
    /// The source's schema version before it was opened, when opening it
    /// migrated it to this build's.
    pub source_migrated_from: Option<i64>,
    pub schema_version: i64,
    /// Per table, in copy order: rows, and the digest both sides agreed on.
    pub tables: Vec<TableCopied>,
    pub rows: u64,
    /// Row counts and digests matched on both sides, and the source did not
    /// change during the copy (a copy is only kept when this holds).
    pub verified: bool,
}

#[derive(Debug, Serialize)]
pub struct TableCopied {
    pub table: &'static str,
    pub rows: u64,
    pub sha256: String,
}

/// What to copy where, for whom.
#[derive(Clone, Copy, Debug)]
pub struct CopyOrder<'a> {
    /// Store URLs: `sqlite:PATH` or `postgres://…`.
    pub from: &'a str,
    pub to: &'a str,
    /// Named in the target's `store migrated` audit row.
    pub by: &'a str,
    pub at: Millis,
    /// A host of the source that has not said it stopped and beat at or
    /// after this time is taken to be running: the copy is refused.
    pub live_since: Millis,
}

/// Copies the whole store at `order.from` into the empty store at
/// `order.to` and appends a `store migrated` audit row to the target, in
/// one transaction on the target.
///
/// The source must hold a store; an older SQLite file is migrated to this
/// build's schema when it is opened (the result says so). The target is
/// created or migrated like any store, and must hold no row.
pub fn copy_store(order: &CopyOrder<'_>) -> Result<Copied, CopyError> {
    let CopyOrder {
        from,
        to,
        by,
        at,
        live_since,
    } = *order;
    let shown_from = super::postgres_shown_url(from);
    let shown_to = super::postgres_shown_url(to);
    let from_url = StoreUrl::parse(from)?;
    let to_url = StoreUrl::parse(to)?;
    if same_store(from_url, to_url) {
        return Err(CopyError::Refused(format!(
            "{shown_from} is both the source and the target; name another target"
        )));
    }
    let before = match from_url {
        StoreUrl::Sqlite(path) => sqlite::stored_version(path)?,
        StoreUrl::Postgres(url) => postgres::stored_version(url)?,
    };
    let Some(before) = before else {
        return Err(CopyError::Refused(format!(
            "there is no store at {shown_from}: nothing to copy"
        )));
    };
    let source = open(from_url)?;
    let version = schema_version(&source.conn)?;
    if version != super::SCHEMA_VERSION {
        return Err(CopyError::Refused(format!(
            "the source {shown_from} is at schema {version}, this build writes {}",
            super::SCHEMA_VERSION
        )));
    }
    let mut target = open(to_url)?;
    tables::check_schema(&source.conn, &shown_from)?;
    tables::check_schema(&target.conn, &shown_to)?;

    let snapshot = Snapshot::begin(&source.conn)?;
    let running = live_hosts(snapshot.conn, live_since)?;
    if !running.is_empty() {
        return Err(CopyError::Refused(format!(
            "{} still running on the source {shown_from}: stop every host using it, then \
             run migrate-store again",
            running.join(", ")
        )));
    }
    let marks = IDENTITIES
        .iter()
        .map(|(table, column)| tables::high_water(snapshot.conn, table, column))
        .collect::<crate::store::Result<Vec<_>>>()?;
    let refusal = RefCell::new(None);
    let refuse = |why: String| {
        let error = StoreError::Db(why.clone());
        *refusal.borrow_mut() = Some(why);
        error
    };
    // Row locks, not serializable: the target is empty and nothing else
    // writes it, and a serializable transaction would track a predicate
    // lock per row read by each foreign-key check, more than PostgreSQL's
    // lock table holds for a large store.
    let copied = write_with(
        &mut target.conn,
        "copying the store",
        Isolation::RowLocks,
        |tx| {
            *refusal.borrow_mut() = None;
            let found = rows_found(tx)?;
            if !found.is_empty() {
                return Err(refuse(format!(
                    "the target {shown_to} is not empty ({}); migrate-store copies into an \
                 empty store only: name a new file, database or schema",
                    found.join(", ")
                )));
            }
            let mut copied = Vec::new();
            for table in TABLES {
                let (rows, sha256) = copy_table(snapshot.conn, tx, table)?;
                if tables::digest(tx, table)? != (rows, sha256.clone()) {
                    return Err(refuse(format!(
                        "table {} reads back differently from {shown_to} than from \
                     {shown_from}; nothing was kept",
                        table.name
                    )));
                }
                copied.push(TableCopied {
                    table: table.name,
                    rows,
                    sha256,
                });
            }
            #[cfg(test)]
            AFTER_READ.with(|hook| {
                if let Some(hook) = hook.borrow_mut().as_mut() {
                    hook()
                }
            });
            if let Some(change) = source_change(from_url, &copied)? {
                return Err(refuse(format!(
                    "the source {shown_from} was written during the copy ({change}); nothing \
                 was kept: stop every host using the source and run migrate-store again"
                )));
            }
            for ((table, column), mark) in IDENTITIES.iter().zip(&marks) {
                tables::set_counter(tx, table, column, *mark)?;
            }
            let counts: serde_json::Map<String, serde_json::Value> = copied
                .iter()
                .map(|t| (t.table.to_string(), json!(t.rows)))
                .collect();
            let data = json!({
                "from": shown_from,
                "to": shown_to,
                "by": by,
                "rows": counts,
                "source_migrated_from": migrated_from(before),
            });
            audit::insert_kind(tx, None, "store migrated", data, at)?;
            Ok(copied)
        },
    );
    drop(snapshot);
    let copied = match copied {
        Ok(copied) => copied,
        Err(e) => {
            return Err(match refusal.into_inner() {
                Some(why) => CopyError::Refused(why),
                None => CopyError::Store(e),
            });
        }
    };
    Ok(Copied {
        rows: copied.iter().map(|t| t.rows).sum(),
        from: shown_from,
        to: shown_to,
        source_migrated_from: migrated_from(before),
        schema_version: version,
        tables: copied,
        verified: true,
    })
}

/// How the source differs now from what was copied, if it does: read on
/// a connection of its own, which sees past the copy's snapshot.
fn source_change(
    from: StoreUrl<'_>,
    copied: &[TableCopied],
) -> crate::store::Result<Option<String>> {
    let now = open(from)?;
    for (table, copied) in TABLES.iter().zip(copied) {
        let (rows, sha256) = tables::digest(&now.conn, table)?;
        if rows != copied.rows {
            return Ok(Some(format!(
                "table {}: {} row(s) copied, {rows} now",
                table.name, copied.rows
            )));
        }
        if sha256 != copied.sha256 {
            return Ok(Some(format!("table {}: rows were changed", table.name)));
        }
    }
    Ok(None)
}

fn migrated_from(before: i64) -> Option<i64> {
    (before < super::SCHEMA_VERSION).then_some(before)
}

fn open(url: StoreUrl<'_>) -> crate::store::Result<SqlStore> {
    match url {
        StoreUrl::Sqlite(path) => SqlStore::open(path),
        StoreUrl::Postgres(url) => SqlStore::connect(url),
    }
}

/// The same file by two names, or the same URL: copying a store into
/// itself would find it non-empty, or copy nothing into nothing.
fn same_store(a: StoreUrl<'_>, b: StoreUrl<'_>) -> bool {
    match (a, b) {
        (StoreUrl::Sqlite(a), StoreUrl::Sqlite(b)) => {
            a == b
                || matches!(
                    (std::fs::canonicalize(a), std::fs::canonicalize(b)),
                    (Ok(a), Ok(b)) if a == b
                )
        }
        (StoreUrl::Postgres(a), StoreUrl::Postgres(b)) => a == b,
        _ => false,
    }
}

fn schema_version(conn: &Connection) -> crate::store::Result<i64> {
    match conn.dialect() {
        Dialect::Sqlite => conn.query_row("PRAGMA user_version", params![], |row| row.get(0)),
        Dialect::Postgres => {
            conn.query_row("SELECT version FROM wakeful_schema", params![], |row| {
                row.get(0)
            })
        }
    }
    .ctx("reading the schema version")
}

/// The hosts of the source that beat at or after `since` and did not say
/// they stopped, as `host ID (KIND)`.
fn live_hosts(conn: &Connection, since: Millis) -> crate::store::Result<Vec<String>> {
    conn.prepare_cached(
        "SELECT id, kind FROM hosts WHERE stopped_at IS NULL AND heartbeat_at >= ?1 ORDER BY id",
    )
    .and_then(|mut stmt| {
        stmt.query_map(params![since], |row| {
            Ok(format!(
                "host {} ({})",
                row.get::<_, String>(0)?,
                row.get::<_, String>(1)?
            ))
        })?
        .collect()
    })
    .ctx("reading the hosts of the source")
}

/// Each table that has rows, as `table: N row(s)`.
fn rows_found(conn: &Connection) -> crate::store::Result<Vec<String>> {
    let mut found = Vec::new();
    for table in TABLES {
        let n: i64 = conn
            .query_row(
                &format!("SELECT COUNT(*) FROM {}", table.name),
                params![],
                |row| row.get(0),
            )
            .ctx_with(|| format!("counting the rows of {}", table.name))?;
        if n > 0 {
            found.push(format!("{}: {n} row(s)", table.name));
        }
    }
    Ok(found)
}

/// Bytes of values a batch of rows holds at most before it is written: a
/// table of large rows (agents' bytes) is not held whole.
const BATCH_BYTES: usize = 8 << 20;

/// Copies every row of `table` from the source snapshot to the target in
/// key order, a batch of rows per statement; returns the count and digest
/// of what was read.
fn copy_table(
    source: &Connection,
    target: &Connection,
    table: &Table,
) -> crate::store::Result<(u64, String)> {
    let mut digest = Digest::new();
    let mut batch: Vec<Vec<Cell>> = Vec::new();
    let mut bytes = 0;
    let flush = |batch: &mut Vec<Vec<Cell>>| -> crate::store::Result<()> {
        if batch.is_empty() {
            return Ok(());
        }
        let values: Vec<&dyn super::db::ToSql> = batch
            .iter()
            .flatten()
            .map(|c| c as &dyn super::db::ToSql)
            .collect();
        target
            .prepare_cached(&table.insert_sql(batch.len()))
            .and_then(|mut stmt| stmt.execute(values.as_slice()))
            .ctx_with(|| format!("copying rows of table {}", table.name))?;
        batch.clear();
        Ok(())
    };
    source
        .prepare_cached(&table.select_sql(source.dialect()))
        .and_then(|mut stmt| {
            stmt.for_each(params![], |row| {
                let cells: Vec<Cell> = tables::read_row(row, table.columns.len())
                    .ctx_with(|| format!("reading table {}", table.name))?;
                digest.add(&cells);
                bytes += cells.iter().map(Cell::size).sum::<usize>();
                batch.push(cells);
                if batch.len() >= table.batch_rows() || bytes >= BATCH_BYTES {
                    flush(&mut batch)?;
                    bytes = 0;
                }
                Ok::<_, StoreError>(())
            })
        })
        .ctx_with(|| format!("reading table {}", table.name))??;
    flush(&mut batch)?;
    Ok(digest.finish())
}

/// A read transaction on the source: every table is read as of one moment.
struct Snapshot<'c> {
    conn: &'c Connection,
}

impl<'c> Snapshot<'c> {
    fn begin(conn: &'c Connection) -> crate::store::Result<Snapshot<'c>> {
        conn.execute_batch(match conn.dialect() {
            Dialect::Sqlite => "BEGIN DEFERRED",
            Dialect::Postgres => "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY",
        })
        .ctx("starting a read of the source")?;
        // A connection lost now must fail the copy, not come back
        // outside the snapshot.
        conn.set_in_transaction(true);
        let snapshot = Snapshot { conn };
        // Both databases take the snapshot at the first read (SQLite keeps
        // it while writers append to the write-ahead log): take it now.
        conn.query_row("SELECT COUNT(*) FROM audit", params![], |_| Ok(()))
            .ctx("starting a read of the source")?;
        Ok(snapshot)
    }
}

impl Drop for Snapshot<'_> {
    fn drop(&mut self) {
        // Only read: ending it keeps or loses nothing.
        self.conn.set_in_transaction(false);
        let _ = self.conn.execute_batch("ROLLBACK");
    }
}

#[cfg(test)]
thread_local! {
    /// Tests write to the source here, after the copy read it and before
    /// it is read again.
    pub(super) static AFTER_READ: RefCell<Option<Box<dyn FnMut()>>> = const { RefCell::new(None) };
}
