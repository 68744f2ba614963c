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
//! ([`proof::Digest`]) on the source snapshot, on the target inside the
//! copying transaction, and on the source read again at the end must all
//! agree before the target commits.

mod checks;
mod proof;
mod rows;
mod tables;

use std::cell::RefCell;

use serde::Serialize;
use serde_json::json;

use super::db::{Isolation, write_with};
use super::{SqlStore, audit, postgres, sqlite};
use crate::model::Millis;
use crate::store::{StoreError, StoreUrl};
use rows::Snapshot;
use tables::IDENTITIES;

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
    let (ends, source, mut target) = open_ends(order.from, order.to)?;
    let snapshot = Snapshot::begin(&source.conn)?;
    let running = checks::live_hosts(snapshot.conn, order.live_since)?;
    if !running.is_empty() {
        return Err(CopyError::Refused(format!(
            "{} still running on the source {}: stop every host using it, then \
             run migrate-store again",
            running.join(", "),
            ends.shown_from
        )));
    }
    let marks = IDENTITIES
        .iter()
        .map(|(table, column)| tables::high_water(snapshot.conn, table, column))
        .collect::<crate::store::Result<Vec<_>>>()?;
    let copied = copy_into(&mut target, &snapshot, &ends, &marks, order);
    drop(snapshot);
    let copied = copied?;
    Ok(Copied {
        rows: copied.iter().map(|t| t.rows).sum(),
        source_migrated_from: migrated_from(ends.before),
        schema_version: ends.version,
        from: ends.shown_from,
        to: ends.shown_to,
        tables: copied,
        verified: true,
    })
}

/// What a copy knows of its two stores once both are open and checked.
struct Ends<'a> {
    from: StoreUrl<'a>,
    shown_from: String,
    shown_to: String,
    /// The source's schema version before this build opened it.
    before: i64,
    /// The schema version both are at.
    version: i64,
}

/// Opens the source and the target, refusing a copy of a store into
/// itself, of no store, of a store of another schema, or between stores
/// whose tables are not the ones this build copies.
fn open_ends<'a>(from: &'a str, to: &'a str) -> Result<(Ends<'a>, SqlStore, SqlStore), CopyError> {
    let shown_from = super::postgres_shown_url(from);
    let shown_to = super::postgres_shown_url(to);
    let from_url = StoreUrl::parse(from)?;
    let to_url = StoreUrl::parse(to)?;
    if checks::same_store(from_url, to_url) {
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
    let version = checks::schema_version(&source.conn)?;
    if version != super::SCHEMA_VERSION {
        return Err(CopyError::Refused(format!(
            "the source {shown_from} is at schema {version}, this build writes {}",
            super::SCHEMA_VERSION
        )));
    }
    let target = open(to_url)?;
    checks::check_schema(&source.conn, &shown_from)?;
    checks::check_schema(&target.conn, &shown_to)?;
    let ends = Ends {
        from: from_url,
        shown_from,
        shown_to,
        before,
        version,
    };
    Ok((ends, source, target))
}

/// Copies every table from `snapshot` into the empty `target`, moves its
/// counters past `marks` and appends the `store migrated` row, in one
/// transaction. A refusal (a target not empty, a table that reads back
/// otherwise, a source written meanwhile) keeps nothing and says why.
fn copy_into(
    target: &mut SqlStore,
    snapshot: &Snapshot<'_>,
    ends: &Ends<'_>,
    marks: &[Option<i64>],
    order: &CopyOrder<'_>,
) -> Result<Vec<TableCopied>, CopyError> {
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
            let copied = rows::copy_tables(tx, snapshot, ends, &refuse)?;
            #[cfg(test)]
            AFTER_READ.with(|hook| {
                if let Some(hook) = hook.borrow_mut().as_mut() {
                    hook()
                }
            });
            if let Some(change) = proof::source_change(ends.from, &copied)? {
                return Err(refuse(format!(
                    "the source {} was written during the copy ({change}); nothing \
                     was kept: stop every host using the source and run migrate-store again",
                    ends.shown_from
                )));
            }
            for ((table, column), mark) in IDENTITIES.iter().zip(marks) {
                tables::set_counter(tx, table, column, *mark)?;
            }
            let data = migrated_row(ends, &copied, order.by);
            audit::insert_kind(tx, None, "store migrated", data, order.at)?;
            Ok(copied)
        },
    );
    copied.map_err(|e| match refusal.into_inner() {
        Some(why) => CopyError::Refused(why),
        None => CopyError::Store(e),
    })
}

/// The data of the target's `store migrated` audit row.
fn migrated_row(ends: &Ends<'_>, copied: &[TableCopied], by: &str) -> serde_json::Value {
    let counts: serde_json::Map<String, serde_json::Value> = copied
        .iter()
        .map(|t| (t.table.to_string(), json!(t.rows)))
        .collect();
    json!({
        "from": ends.shown_from,
        "to": ends.shown_to,
        "by": by,
        "rows": counts,
        "source_migrated_from": migrated_from(ends.before),
    })
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

#[cfg(test)]
thread_local! {
    /// Tests write to the source here, after the copy read it and before
    /// it is read again.
    pub(super) static AFTER_READ: RefCell<Option<Box<dyn FnMut()>>> = const { RefCell::new(None) };
}
