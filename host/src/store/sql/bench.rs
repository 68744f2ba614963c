//! What only the benchmarks ask of the store, compiled with the `bench`
//! feature: the bytes it takes and keeps free, and many sleeping runs at
//! once for measuring how claims scale (copies of one waiting run, written
//! by the database itself in one statement per table).

use super::Context;
use super::SqlStore;
use super::db::{Connection, Dialect, Isolation, params, write_with};
use crate::store::{Result, StoreError};

/// For the benchmarks only.
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

    /// `n` copies of the waiting run `run_id`, with its
    /// waits, as runs `<run_id>-copy-<i>`, in one transaction.
    pub fn seed_sleeping_copies(&mut self, run_id: &str, n: usize) -> Result<()> {
        seed_sleeping_copies(&mut self.conn, run_id, n)
    }
}

/// The runs table's columns, the id first.
const RUN_COLUMNS: &str = "agent, version, digest, status, status_text, state, outcome, \
    wake_when, waits, steps, fuel_used, step_budget, fuel_budget, tokens_used, token_budget, \
    usd_used, usd_budget, attempts, last_error, retry_at, input, created_at, updated_at, \
    pending_wake, lease_owner, lease_expires, epoch, broadcast_floor, held_by";

fn seed_sleeping_copies(conn: &mut Connection, run_id: &str, n: usize) -> Result<()> {
    let series = match conn.dialect() {
        Dialect::Sqlite => {
            "WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < ?2) \
             SELECT i FROM k"
        }
        Dialect::Postgres => "SELECT i FROM generate_series(1, CAST(?2 AS BIGINT)) AS k(i)",
    };
    // Row locks: a serializable transaction would track a predicate lock
    // per row its foreign-key checks read, more than the lock table holds.
    write_with(conn, "seeding sleeping runs", Isolation::RowLocks, |tx| {
        let status: String = tx
            .query_row(
                "SELECT status FROM runs WHERE run_id = ?1",
                [run_id],
                |row| row.get(0),
            )
            .ctx_with(|| format!("reading run {run_id}"))?;
        if status != "waiting" {
            return Err(StoreError::Db(format!(
                "run {run_id} is {status}; sleeping copies are made of a waiting run"
            )));
        }
        tx.prepare(&format!(
            "INSERT INTO runs (run_id, incarnation, {RUN_COLUMNS}) \
             SELECT ?1 || '-copy-' || k.i, 'copy-' || k.i, {RUN_COLUMNS} \
             FROM runs, ({series}) AS k WHERE run_id = ?1"
        ))
        .and_then(|mut stmt| stmt.execute(params![run_id, n as i64]))
        .ctx("copying the run")?;
        tx.prepare(&format!(
            "INSERT INTO waits (run_id, pos, kind, key, due_at, wait) \
             SELECT ?1 || '-copy-' || k.i, pos, kind, key, due_at, wait \
             FROM waits, ({series}) AS k WHERE run_id = ?1"
        ))
        .and_then(|mut stmt| stmt.execute(params![run_id, n as i64]))
        .ctx("copying the run's waits")?;
        Ok(())
    })
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
