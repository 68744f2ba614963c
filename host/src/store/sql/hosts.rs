//! The hosts sharing the store: each `serve` (or `work`) process writes
//! its row at start and at every heartbeat; what each is stepping is read
//! off the live claims whose owner starts with its id.

use super::db::{Connection, Row, params};
use super::{Context, clamp_time, write};
use crate::model::Millis;
use crate::store::{HostRecord, Result};

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
