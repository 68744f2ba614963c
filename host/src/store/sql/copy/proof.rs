//! How a copy proves itself: a digest of a table's rows that both
//! databases compute alike, taken of the source's snapshot, of the target
//! inside the copying transaction, and of the source read again at the
//! end.

use sha2::{Digest as _, Sha256};

use super::super::db::{Connection, params};
use super::rows::{Cell, read_row};
use super::tables::{TABLES, Table};
use super::{TableCopied, open};
use crate::store::sql::Context;
use crate::store::{Result, StoreUrl};

/// A table's row count and SHA-256 over its rows in key order, each value
/// rendered canonically with its type: `N` (NULL), `I` and the integer in
/// decimal, `R` and the real's shortest exact decimal, `T`, the text's
/// length in bytes and the text, `B` and the blob in hex. The same rows
/// give the same digest on both databases.
pub(super) struct Digest {
    pub rows: u64,
    hasher: Sha256,
}

impl Digest {
    pub fn new() -> Digest {
        Digest {
            rows: 0,
            hasher: Sha256::new(),
        }
    }

    pub fn add(&mut self, row: &[Cell]) {
        for cell in row {
            match cell {
                Cell::Null => self.hasher.update(b"N;"),
                Cell::Int(i) => self.hasher.update(format!("I{i};")),
                Cell::Real(f) => self.hasher.update(format!("R{f:?};")),
                Cell::Text(t) => {
                    self.hasher.update(format!("T{}:", t.len()));
                    self.hasher.update(t.as_bytes());
                    self.hasher.update(b";");
                }
                Cell::Blob(b) => {
                    self.hasher.update(b"B");
                    self.hasher.update(hex::encode(b));
                    self.hasher.update(b";");
                }
            }
        }
        self.hasher.update(b"\n");
        self.rows += 1;
    }

    pub fn finish(self) -> (u64, String) {
        (self.rows, hex::encode(self.hasher.finalize()))
    }
}

/// The count and digest of every row of `table` on `conn`, read in key
/// order.
pub(super) fn digest(conn: &Connection, table: &Table) -> Result<(u64, String)> {
    let mut digest = Digest::new();
    conn.prepare_cached(&table.select_sql(conn.dialect()))
        .and_then(|mut stmt| {
            stmt.for_each(params![], |row| {
                digest.add(&read_row(row, table.columns.len())?);
                Ok(())
            })?
        })
        .ctx_with(|| format!("reading table {}", table.name))?;
    Ok(digest.finish())
}

/// How the source differs now from what was copied, if it does: read on
/// a connection of its own, which sees past the copy's snapshot.
pub(super) fn source_change(from: StoreUrl<'_>, copied: &[TableCopied]) -> Result<Option<String>> {
    let now = open(from)?;
    for (table, copied) in TABLES.iter().zip(copied) {
        let (rows, sha256) = digest(&now.conn, table)?;
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
