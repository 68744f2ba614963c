//! What only the benchmarks ask of the store, compiled with the `bench`
//! feature: many sleeping runs at once, for measuring how claims scale
//! (copies of one waiting run, written by the database itself in one
//! statement per table).

use super::Context;
use super::SqlStore;
use super::db::{Connection, Dialect, Isolation, params, write_with};
use crate::store::{Result, StoreError};

/// For the benchmarks only.
impl SqlStore {
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
