//! The hosts sharing the store: each `serve` (or `work`) process writes
//! its row at start and at every heartbeat; what each is stepping is read
//! off the live claims whose owner starts with its id.

use serde_json::json;

use super::SqlStore;
use super::db::{Connection, OptionalExtension, Row, params};
use super::{Context, audit, clamp_time, write};
use crate::model::Millis;
use crate::store::{ClaimedRun, HostRecord, Result};

/// The hosts sharing the store.
impl SqlStore {
    /// Records that the host `id` (the start of its claims' owner, see
    /// `identity.rs`) of `kind` (`serve`, `work`) is alive at `at`.
    pub fn heartbeat(
        &mut self,
        id: &str,
        kind: &str,
        listen: Option<&str>,
        at: Millis,
    ) -> Result<()> {
        heartbeat(&mut self.conn, id, kind, listen, at)
    }

    /// Records that host `id` started at `at` (replacing the row of an
    /// earlier process that had the id), alive as [`heartbeat`](SqlStore::heartbeat) says.
    pub fn host_started(
        &mut self,
        id: &str,
        kind: &str,
        listen: Option<&str>,
        at: Millis,
    ) -> Result<()> {
        started(&mut self.conn, id, kind, listen, at)
    }

    /// The owners of the claims live at `now`, each once.
    pub fn claim_owners(&self, now: Millis) -> Result<Vec<String>> {
        claim_owners(&self.conn, now)
    }

    /// Ends every claim of host `id`, whose process is known to be gone,
    /// with a `takeover` audit row on each run naming `by` and `why`;
    /// returns those runs.
    pub fn release_claims_of(
        &mut self,
        id: &str,
        by: &str,
        why: &str,
        at: Millis,
    ) -> Result<Vec<String>> {
        release_claims_of(&mut self.conn, id, by, why, at)
    }

    /// The claim on `run_id` that is live at `now`, if any.
    pub fn live_claim(&self, run_id: &str, now: Millis) -> Result<Option<ClaimedRun>> {
        live_claim(&self.conn, run_id, now)
    }

    /// Records that host `id` stopped cleanly at `at`.
    pub fn host_stopped(&mut self, id: &str, at: Millis) -> Result<()> {
        stopped(&mut self.conn, id, at)
    }

    /// Deletes the rows of hosts silent since before `before`; returns how
    /// many.
    pub fn forget_silent_hosts(&mut self, before: Millis) -> Result<u64> {
        forget_silent(&mut self.conn, before)
    }

    /// Every recorded host, latest heartbeat first, each with the runs it
    /// holds a live claim on at `now`.
    pub fn hosts(&self, now: Millis) -> Result<Vec<HostRecord>> {
        hosts(&self.conn, now)
    }
}

/// Records that host `id` is alive at `at` (a new row at its first beat).
pub(super) fn heartbeat(
    conn: &mut Connection,
    id: &str,
    kind: &str,
    listen: Option<&str>,
    at: Millis,
) -> Result<()> {
    write(conn, "recording the host's heartbeat", |tx| {
        tx.prepare_cached(
            "INSERT INTO hosts (id, kind, listen, started_at, heartbeat_at) \
             VALUES (?1, ?2, ?3, ?4, ?4) \
             ON CONFLICT (id) DO UPDATE SET heartbeat_at = excluded.heartbeat_at, \
             listen = excluded.listen, stopped_at = NULL",
        )
        .and_then(|mut stmt| stmt.execute(params![id, kind, listen, clamp_time(at)]))
        .ctx_with(|| format!("recording the heartbeat of host {id}"))?;
        Ok(())
    })
}

/// Records that host `id` started at `at`: a new row, or the row of a
/// process that had the id before it, whose start it replaces.
pub(super) fn started(
    conn: &mut Connection,
    id: &str,
    kind: &str,
    listen: Option<&str>,
    at: Millis,
) -> Result<()> {
    write(conn, "recording that the host started", |tx| {
        tx.prepare_cached(
            "INSERT INTO hosts (id, kind, listen, started_at, heartbeat_at) \
             VALUES (?1, ?2, ?3, ?4, ?4) \
             ON CONFLICT (id) DO UPDATE SET kind = excluded.kind, listen = excluded.listen, \
             started_at = excluded.started_at, heartbeat_at = excluded.heartbeat_at, \
             stopped_at = NULL",
        )
        .and_then(|mut stmt| stmt.execute(params![id, kind, listen, clamp_time(at)]))
        .ctx_with(|| format!("recording that host {id} started"))?;
        Ok(())
    })
}

/// The owners of the claims live at `now`, each once.
pub(super) fn claim_owners(conn: &Connection, now: Millis) -> Result<Vec<String>> {
    conn.prepare_cached(
        "SELECT DISTINCT lease_owner FROM runs \
         WHERE lease_owner IS NOT NULL AND lease_expires > ?1",
    )
    .and_then(|mut stmt| {
        stmt.query_map([clamp_time(now)], |row| row.get(0))?
            .collect::<super::db::Result<Vec<String>>>()
    })
    .ctx("listing the owners of live claims")
}

/// Ends every claim of host `id` (owned by `id` or `id:<thread>`), with
/// an audit row on each run naming `by` and `why`; returns those runs.
/// Only for a host whose process is known to be gone: the claims are
/// given back as a dead worker's would be once they ran out.
pub(super) fn release_claims_of(
    conn: &mut Connection,
    id: &str,
    by: &str,
    why: &str,
    at: Millis,
) -> Result<Vec<String>> {
    write(
        conn,
        "taking over the claims of a host that is gone",
        |tx| {
            let runs: Vec<String> = tx
                .prepare_cached(
                    "SELECT run_id FROM runs WHERE lease_owner IS NOT NULL \
                 AND (lease_owner = ?1 OR substr(lease_owner, 1, length(?1) + 1) = ?1 || ':') \
                 ORDER BY run_id",
                )
                .and_then(|mut stmt| {
                    stmt.query_map([id], |row| row.get(0))?
                        .collect::<super::db::Result<Vec<String>>>()
                })
                .ctx_with(|| format!("listing the claims of host {id}"))?;
            for run_id in &runs {
                super::claim_ends::drop_lease(tx, run_id)?;
                let data = json!({"from": id, "by": by, "why": why});
                audit::insert_kind(tx, Some(run_id), "takeover", data, at)?;
            }
            Ok(runs)
        },
    )
}

/// The claim on `run_id` live at `now`, if any.
pub(super) fn live_claim(
    conn: &Connection,
    run_id: &str,
    now: Millis,
) -> Result<Option<ClaimedRun>> {
    conn.prepare_cached(
        "SELECT run_id, lease_owner, lease_expires FROM runs \
         WHERE run_id = ?1 AND lease_owner IS NOT NULL AND lease_expires > ?2",
    )
    .and_then(|mut stmt| {
        stmt.query_row(params![run_id, clamp_time(now)], |row| {
            Ok(ClaimedRun {
                run_id: row.get(0)?,
                owner: row.get(1)?,
                expires: row.get(2)?,
            })
        })
        .optional()
    })
    .ctx_with(|| format!("reading the claim on run {run_id}"))
}

/// Marks host `id` stopped cleanly at `at`.
pub(super) fn stopped(conn: &mut Connection, id: &str, at: Millis) -> Result<()> {
    write(conn, "recording that the host stopped", |tx| {
        tx.prepare_cached("UPDATE hosts SET stopped_at = ?2 WHERE id = ?1")
            .and_then(|mut stmt| stmt.execute(params![id, clamp_time(at)]))
            .ctx_with(|| format!("recording that host {id} stopped"))?;
        Ok(())
    })
}

/// Forgets hosts silent since before `before` (their rows only: a dead
/// host's claims expire on their own).
pub(super) fn forget_silent(conn: &mut Connection, before: Millis) -> Result<u64> {
    write(conn, "forgetting silent hosts", |tx| {
        tx.prepare_cached("DELETE FROM hosts WHERE heartbeat_at < ?1")
            .and_then(|mut stmt| stmt.execute([clamp_time(before)]))
            .map(|n| n as u64)
            .ctx("forgetting silent hosts")
    })
}

fn from_row(row: &Row<'_>) -> super::db::Result<HostRecord> {
    Ok(HostRecord {
        id: row.get(0)?,
        kind: row.get(1)?,
        listen: row.get(2)?,
        started_at: row.get(3)?,
        heartbeat_at: row.get(4)?,
        stopped_at: row.get(5)?,
        stepping: Vec::new(),
    })
}

/// Every recorded host, most recent heartbeat first, with the runs each
/// holds a claim on that is live at `now`.
pub(super) fn hosts(conn: &Connection, now: Millis) -> Result<Vec<HostRecord>> {
    let mut hosts = conn
        .prepare_cached(
            "SELECT id, kind, listen, started_at, heartbeat_at, stopped_at FROM hosts \
             ORDER BY heartbeat_at DESC, id",
        )
        .and_then(|mut stmt| {
            stmt.query_map(params![], from_row)?
                .collect::<super::db::Result<Vec<_>>>()
        })
        .ctx("listing hosts")?;
    // Claims are owned by `<id>` (a `work` process) or `<id>:<thread>`.
    for host in &mut hosts {
        host.stepping = conn
            .prepare_cached(
                "SELECT run_id FROM runs WHERE lease_owner IS NOT NULL \
                 AND (lease_owner = ?1 OR substr(lease_owner, 1, length(?1) + 1) = ?1 || ':') \
                 AND lease_expires > ?2 ORDER BY run_id",
            )
            .and_then(|mut stmt| {
                stmt.query_map(params![host.id, clamp_time(now)], |row| row.get(0))?
                    .collect::<super::db::Result<Vec<String>>>()
            })
            .ctx_with(|| format!("listing the runs host {} is stepping", host.id))?;
    }
    Ok(hosts)
}
