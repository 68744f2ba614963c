//! Moving rows: each table read from the source's snapshot in key order
//! and written to the target a batch at a time, its values whatever their
//! type.

use super::super::db::{Connection, Dialect, Field, FromSql, Row, ToSql, Value, params};
use super::proof::Digest;
use super::tables::{TABLES, Table};
use super::{Ends, TableCopied, checks};
use crate::store::sql::Context;
use crate::store::{Result, StoreError};

/// Copies each table from `snapshot` into the empty target `tx`, each
/// checked to read back as it was read; `refuse` makes the error of a
/// refusal.
pub(super) fn copy_tables(
    tx: &Connection,
    snapshot: &Snapshot<'_>,
    ends: &Ends<'_>,
    refuse: &dyn Fn(String) -> StoreError,
) -> Result<Vec<TableCopied>> {
    let found = checks::rows_found(tx)?;
    if !found.is_empty() {
        return Err(refuse(format!(
            "the target {} is not empty ({}); migrate-store copies into an \
             empty store only: name a new file, database or schema",
            ends.shown_to,
            found.join(", ")
        )));
    }
    let mut copied = Vec::new();
    for table in TABLES {
        let (rows, sha256) = copy_table(snapshot.conn, tx, table)?;
        if super::proof::digest(tx, table)? != (rows, sha256.clone()) {
            return Err(refuse(format!(
                "table {} reads back differently from {} than from {}; nothing was kept",
                table.name, ends.shown_to, ends.shown_from
            )));
        }
        copied.push(TableCopied {
            table: table.name,
            rows,
            sha256,
        });
    }
    Ok(copied)
}

/// Bytes of values a batch of rows holds at most before it is written: a
/// table of large rows (agents' bytes) is not held whole.
const BATCH_BYTES: usize = 8 << 20;

/// Copies every row of `table` from the source snapshot to the target in
/// key order, a batch of rows per statement; returns the count and digest
/// of what was read.
fn copy_table(source: &Connection, target: &Connection, table: &Table) -> Result<(u64, String)> {
    let mut digest = Digest::new();
    let mut batch: Vec<Vec<Cell>> = Vec::new();
    let mut bytes = 0;
    let flush = |batch: &mut Vec<Vec<Cell>>| -> Result<()> {
        if batch.is_empty() {
            return Ok(());
        }
        let values: Vec<&dyn ToSql> = batch.iter().flatten().map(|c| c as &dyn ToSql).collect();
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
                let cells: Vec<Cell> = read_row(row, table.columns.len())
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
pub(super) struct Snapshot<'c> {
    pub conn: &'c Connection,
}

impl<'c> Snapshot<'c> {
    pub fn begin(conn: &'c Connection) -> Result<Snapshot<'c>> {
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

/// One value of any column, as read from either database.
#[derive(Debug)]
pub(super) enum Cell {
    Null,
    Int(i64),
    Real(f64),
    Text(String),
    Blob(Vec<u8>),
}

impl FromSql for Cell {
    fn from_cell(cell: Field<'_>) -> Result<Self, String> {
        Ok(match cell {
            Field::Null => Cell::Null,
            Field::Int(i) => Cell::Int(i),
            Field::Real(f) => Cell::Real(f),
            Field::Text(t) => Cell::Text(t.to_string()),
            Field::Blob(b) => Cell::Blob(b.to_vec()),
        })
    }
}

impl Cell {
    /// Roughly the bytes the value takes, to bound what a batch holds.
    pub fn size(&self) -> usize {
        match self {
            Cell::Text(t) => t.len(),
            Cell::Blob(b) => b.len(),
            _ => 8,
        }
    }
}

impl ToSql for Cell {
    fn to_value(&self) -> Value<'_> {
        match self {
            Cell::Null => Value::Null,
            Cell::Int(i) => Value::Int(*i),
            Cell::Real(f) => Value::Real(*f),
            Cell::Text(t) => Value::Text(t),
            Cell::Blob(b) => Value::Blob(b),
        }
    }
}

pub(super) fn read_row(row: &Row<'_>, columns: usize) -> super::super::db::Result<Vec<Cell>> {
    (0..columns).map(|i| row.get(i)).collect()
}
