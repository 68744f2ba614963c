//! The append-only audit log. Other table groups append their rows through
//! [`insert`] inside their own transaction, so that an action and its audit
//! row are written together or not at all.

use std::sync::LazyLock;

use super::db::{Connection, Row, ToSql, params};

use super::SqlStore;
use super::{Context, from_json, to_json};
use crate::model::Millis;
use crate::store::{AuditEntry, AuditRow, Result};

/// The audit log.
impl SqlStore {
    pub fn append_audit(&mut self, entry: &AuditEntry, at: Millis) -> Result<()> {
        super::write(&mut self.conn, "appending an audit row", |tx| {
            insert(tx, entry, at)
        })
    }

    /// The audit log, oldest first; only one run's rows with `run_id`.
    pub fn audit(&self, run_id: Option<&str>) -> Result<Vec<AuditRow>> {
        audit(&self.conn, run_id)
    }
}

/// Appends one row inside the caller's transaction.
pub(super) fn insert(conn: &Connection, entry: &AuditEntry, at: Millis) -> Result<()> {
    insert_all(conn, [entry], at)
}

/// The most rows one statement of [`insert_all`] appends. A group commit
/// appends its steps' rows together, a few hundred of them.
const ROWS_PER_INSERT: usize = 32;

/// `INSERT INTO audit` statements of 1 to [`ROWS_PER_INSERT`] rows.
static INSERTS: LazyLock<Vec<String>> = LazyLock::new(|| {
    (1..=ROWS_PER_INSERT)
        .map(|rows| {
            let values: Vec<String> = (0..rows)
                .map(|r| {
                    let p = r * 4;
                    format!("(?{}, ?{}, ?{}, ?{})", p + 1, p + 2, p + 3, p + 4)
                })
                .collect();
            format!(
                "INSERT INTO audit (at, run_id, kind, data) VALUES {}",
                values.join(", ")
            )
        })
        .collect()
});

/// Appends rows in their order inside the caller's transaction, several
/// to a statement: a statement's fixed cost (binding, running it, and the
/// update of `sqlite_sequence` that `AUTOINCREMENT` makes at its end) is
/// paid once for a step's rows instead of once for each. Ids are given in
/// the order of the values, as one insert after another would.
pub(super) fn insert_all<'a>(
    conn: &Connection,
    entries: impl IntoIterator<Item = &'a AuditEntry>,
    at: Millis,
) -> Result<()> {
    let entries: Vec<&AuditEntry> = entries.into_iter().collect();
    let data = data_of(entries.iter().copied())?;
    let rows: Vec<Timed<'_>> = entries
        .into_iter()
        .zip(&data)
        .map(|(entry, data)| (entry, data, at))
        .collect();
    insert_rows(conn, &rows)
}

/// The JSON text of each row's data, as [`insert_rows`] takes it, with
/// every secret redacted ([`crate::secrets::redact`]): every audit row is
/// written through here.
pub(super) fn data_of<'a>(
    entries: impl IntoIterator<Item = &'a AuditEntry>,
) -> Result<Vec<String>> {
    entries
        .into_iter()
        .map(|entry| {
            let text = to_json(&entry.data, "an audit row")?;
            Ok(match crate::secrets::redact(&text) {
                std::borrow::Cow::Borrowed(_) => text,
                std::borrow::Cow::Owned(redacted) => redacted,
            })
        })
        .collect()
}

/// An audit row to append, its data as JSON text, and its time.
pub(super) type Timed<'a> = (&'a AuditEntry, &'a String, Millis);

/// [`insert_all`] for rows whose data is already JSON text, each at its
/// own time: a group commit appends its steps' rows together, in the
/// order of their steps.
pub(super) fn insert_rows(conn: &Connection, rows: &[Timed<'_>]) -> Result<()> {
    for chunk in rows.chunks(ROWS_PER_INSERT) {
        let mut values: Vec<&dyn ToSql> = Vec::with_capacity(chunk.len() * 4);
        for (entry, data, at) in chunk {
            values.extend([at as &dyn ToSql, &entry.run_id, &entry.kind, *data]);
        }
        conn.prepare_cached(&INSERTS[chunk.len() - 1])
            .and_then(|mut stmt| stmt.execute(&values[..]))
            .ctx_with(|| {
                let kinds: Vec<&str> = chunk.iter().map(|(e, _, _)| e.kind.as_str()).collect();
                format!("appending audit rows of kind {}", kinds.join(", "))
            })?;
    }
    Ok(())
}

/// Shorthand for the rows the store writes itself.
pub(super) fn insert_kind(
    conn: &Connection,
    run_id: Option<&str>,
    kind: &str,
    data: serde_json::Value,
    at: Millis,
) -> Result<()> {
    let entry = AuditEntry {
        run_id: run_id.map(str::to_string),
        kind: kind.to_string(),
        data,
    };
    insert(conn, &entry, at)
}

pub(super) struct AuditRecord {
    pub(super) id: u64,
    pub(super) at: Millis,
    pub(super) run_id: Option<String>,
    pub(super) kind: String,
    pub(super) data: String,
}

impl AuditRecord {
    pub(super) fn from_row(row: &Row<'_>) -> super::db::Result<AuditRecord> {
        Ok(AuditRecord {
            id: row.get((0, "id"))?,
            at: row.get((1, "at"))?,
            run_id: row.get((2, "run_id"))?,
            kind: row.get((3, "kind"))?,
            data: row.get((4, "data"))?,
        })
    }

    pub(super) fn into_row(self) -> Result<AuditRow> {
        let id = self.id;
        Ok(AuditRow {
            data: from_json(&self.data, || format!("data of audit row {id}"))?,
            id: self.id,
            at: self.at,
            run_id: self.run_id,
            kind: self.kind,
        })
    }
}

/// The run's rows in the live table, oldest first.
pub(super) fn live_audit(conn: &Connection, run_id: &str) -> Result<Vec<AuditRecord>> {
    conn.prepare_cached(
        "SELECT id, at, run_id, kind, data FROM audit WHERE run_id = ?1 ORDER BY id",
    )
    .and_then(|mut stmt| {
        stmt.query_map([run_id], AuditRecord::from_row)?
            .collect::<super::db::Result<Vec<_>>>()
    })
    .ctx_with(|| format!("reading the audit log of run {run_id}"))
}

pub(super) fn audit(conn: &Connection, run_id: Option<&str>) -> Result<Vec<AuditRow>> {
    let records = match run_id {
        Some(run_id) => merge(
            live_audit(conn, run_id)?,
            super::archive::read(conn, run_id)?.audit(run_id, 0),
        ),
        None => {
            let live = conn
                .prepare_cached("SELECT id, at, run_id, kind, data FROM audit ORDER BY id")
                .and_then(|mut stmt| {
                    stmt.query_map(params![], AuditRecord::from_row)?
                        .collect::<super::db::Result<Vec<_>>>()
                })
                .ctx("reading the audit log")?;
            merge(live, super::archive::all_audit(conn)?)
        }
    };
    records.into_iter().map(AuditRecord::into_row).collect()
}

/// Live and archived rows as one list in id order. A row read live and then
/// from the archive its run was packed into meanwhile is kept once.
pub(super) fn merge(mut live: Vec<AuditRecord>, archived: Vec<AuditRecord>) -> Vec<AuditRecord> {
    if !archived.is_empty() {
        live.extend(archived);
        live.sort_by_key(|a| a.id);
        live.dedup_by_key(|a| a.id);
    }
    live
}
