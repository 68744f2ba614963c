//! The bytes the store takes on disk and keeps free, which `wakeful bench`
//! reports per run.

use super::Context;
use super::SqlStore;
use super::db::{Connection, Dialect};
use crate::store::Result;

/// The store's size.
impl SqlStore {
    /// Bytes the store's tables and indexes take.
    pub fn size_bytes(&self) -> Result<u64> {
        size_bytes(&self.conn)
    }

    /// Bytes of free space the store keeps for later rows (SQLite's free
    /// pages; 0 where the database reuses space within each table).
    pub fn free_bytes(&self) -> Result<u64> {
        free_bytes(&self.conn)
    }
}

/// Bytes the store's tables and indexes take: the SQLite file's pages, or
/// the relations of the PostgreSQL schema the connection works in.
/// Bytes in pages that hold tables and indexes; free pages, which the
/// file keeps for the next rows, are [`free_bytes`].
fn size_bytes(conn: &Connection) -> Result<u64> {
    let sql = match conn.dialect() {
        Dialect::Sqlite => {
            "SELECT (page_count - freelist_count) * page_size \
             FROM pragma_page_count(), pragma_freelist_count(), pragma_page_size()"
        }
        Dialect::Postgres => {
            "SELECT CAST(COALESCE(SUM(pg_total_relation_size(c.oid)), 0) AS BIGINT) \
             FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace \
             WHERE n.nspname = current_schema() AND c.relkind = 'r'"
        }
    };
    conn.query_row(sql, [0i64; 0], |row| row.get::<_, u64>(0))
        .ctx("measuring the store's size")
}

/// Bytes of free pages in the file, kept for rows to come: the peak of
/// what was in flight (live history of running runs, before it is
/// archived) less what is there now. PostgreSQL reuses space in each
/// table instead, and counts it in [`size_bytes`].
fn free_bytes(conn: &Connection) -> Result<u64> {
    match conn.dialect() {
        Dialect::Sqlite => conn
            .query_row(
                "SELECT freelist_count * page_size FROM pragma_freelist_count(), \
                 pragma_page_size()",
                [0i64; 0],
                |row| row.get::<_, u64>(0),
            )
            .ctx("measuring the store's free pages"),
        Dialect::Postgres => Ok(0),
    }
}
