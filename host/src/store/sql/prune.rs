//! Pruning: deleting ended runs older than a time with their history, and
//! the record each leaves behind (`retired_runs`), so that its id is never
//! given to another run and its audit rows stay readable under it.

use super::db::{Connection, Isolation, OptionalExtension, params, write_with};

use super::Context;
use super::SqlStore;
use crate::model::Millis;
use crate::store::{Result, RetiredRun};

/// Pruning ended runs, and the record each leaves.
impl SqlStore {
    /// Deletes the runs that ended (done or cancelled) before `ended_before`
    /// with their checkpoints, waits, inbox, approvals, ledger and callback
    /// links. The audit log keeps its rows: it is append-only. Each pruned
    /// run's id is
    /// retired (see [`SqlStore::retired_run`]) so that no run takes it again.
    /// Returns how many runs went.
    pub fn prune_runs(&mut self, ended_before: Millis, now: Millis) -> Result<u64> {
        prune(&mut self.conn, ended_before, now)
    }

    /// The record of a run that `prune_runs` deleted, if `run_id` named one.
    pub fn retired_run(&self, run_id: &str) -> Result<Option<RetiredRun>> {
        retired_run(&self.conn, run_id)
    }
}

/// The advisory lock a PostgreSQL host holds while it prunes.
const PRUNE_LOCK: i64 = 0x7761_6b65_6675_6c02;

pub(super) fn prune(conn: &mut Connection, ended_before: Millis, now: Millis) -> Result<u64> {
    // Row locks, not serializable: ended runs are written by no one else,
    // and pruning many at once would need a predicate lock per row read.
    write_with(conn, "pruning ended runs", Isolation::RowLocks, |tx| {
        // Hosts sharing a PostgreSQL store all prune on their schedule;
        // one at a time does the work and the others find it taken.
        if tx.dialect() == super::db::Dialect::Postgres {
            let ours: bool = tx
                .query_row(
                    "SELECT pg_try_advisory_xact_lock(?1)",
                    [PRUNE_LOCK],
                    |row| row.get(0),
                )
                .ctx("taking the pruning lock")?;
            if !ours {
                return Ok(0);
            }
        }
        let ended =
            "SELECT run_id FROM runs WHERE status IN ('done', 'cancelled') AND updated_at < ?1";
        tx.prepare(
            "INSERT INTO retired_runs (run_id, agent, version, status, created_at, ended_at, \
             pruned_at) SELECT run_id, agent, version, status, created_at, updated_at, ?2 \
             FROM runs WHERE status IN ('done', 'cancelled') AND updated_at < ?1",
        )
        .and_then(|mut stmt| stmt.execute(params![ended_before as i64, now as i64]))
        .ctx("keeping the ids of pruned runs")?;
        // Their archives keep the audit rows only.
        let archived: Vec<String> = tx
            .prepare(&format!(
                "SELECT run_id FROM run_archives WHERE run_id IN ({ended})"
            ))
            .and_then(|mut stmt| {
                stmt.query_map([ended_before as i64], |row| row.get(0))?
                    .collect::<super::db::Result<Vec<_>>>()
            })
            .ctx("finding the archives of ended runs")?;
        for run_id in archived {
            super::archive::prune(tx, &run_id)?;
        }
        for table in [
            "checkpoints",
            "waits",
            "inbox",
            "approvals",
            "ledger",
            "intents",
            "callbacks",
        ] {
            tx.prepare(&format!("DELETE FROM {table} WHERE run_id IN ({ended})"))
                .and_then(|mut stmt| stmt.execute([ended_before as i64]))
                .ctx_with(|| format!("pruning {table} of ended runs"))?;
        }
        let runs = tx
            .prepare("DELETE FROM runs WHERE status IN ('done', 'cancelled') AND updated_at < ?1")
            .and_then(|mut stmt| stmt.execute([ended_before as i64]))
            .ctx("pruning ended runs")?;
        Ok(runs as u64)
    })
}

/// A pruned run's record, if `run_id` named one.
pub(super) fn retired_run(conn: &Connection, run_id: &str) -> Result<Option<RetiredRun>> {
    conn.prepare_cached(
        "SELECT run_id, agent, version, status, created_at, ended_at, pruned_at \
         FROM retired_runs WHERE run_id = ?1",
    )
    .and_then(|mut stmt| {
        stmt.query_row([run_id], |row| {
            Ok(RetiredRun {
                run_id: row.get(0)?,
                agent: row.get(1)?,
                version: row.get(2)?,
                status: row.get(3)?,
                created_at: row.get(4)?,
                ended_at: row.get(5)?,
                pruned_at: row.get(6)?,
            })
        })
        .optional()
    })
    .ctx_with(|| format!("reading retired run {run_id}"))
}
