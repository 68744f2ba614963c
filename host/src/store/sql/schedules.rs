//! Schedules: agents started at each tick of a cron expression.

use super::db::{Connection, OptionalExtension, Row, params};

use super::SqlStore;
use super::{Context, clamp_time, write};
use crate::model::Millis;
use crate::store::{Overlap, PutSchedule, Result, Schedule, StoreError};

/// Schedules.
impl SqlStore {
    /// Records a schedule. One with the same id is replaced whole (its
    /// last run kept, for the overlap policy) when `replace` is set, and
    /// otherwise left as it is.
    pub fn put_schedule(&mut self, schedule: &Schedule, replace: bool) -> Result<PutSchedule> {
        put(&mut self.conn, schedule, replace)
    }

    pub fn schedules(&self) -> Result<Vec<Schedule>> {
        list(&self.conn, None)
    }

    /// Returns false when there was no such schedule.
    pub fn remove_schedule(&mut self, id: &str) -> Result<bool> {
        remove(&mut self.conn, id)
    }

    /// Schedules whose next tick is at or before `now`.
    pub fn due_schedules(&self, now: Millis) -> Result<Vec<Schedule>> {
        list(&self.conn, Some(now))
    }

    /// Moves a schedule past the tick `due_at` to `next_at`, recording the
    /// run it started. Returns false (and changes nothing) when the
    /// schedule is gone or another process already moved it past `due_at`.
    pub fn advance_schedule(
        &mut self,
        id: &str,
        due_at: Millis,
        next_at: Millis,
        last_run_id: Option<&str>,
    ) -> Result<bool> {
        advance(&mut self.conn, id, due_at, next_at, last_run_id)
    }
}

const COLUMNS: &str = "id, agent, cron, input, overlap, next_at, last_run_id, created_at";

fn from_row(row: &Row<'_>) -> super::db::Result<(Schedule, String)> {
    let overlap: String = row.get("overlap")?;
    Ok((
        Schedule {
            id: row.get("id")?,
            agent: row.get("agent")?,
            cron: row.get("cron")?,
            input: row.get("input")?,
            overlap: Overlap::Skip,
            next_at: row.get("next_at")?,
            last_run_id: row.get("last_run_id")?,
            created_at: row.get("created_at")?,
        },
        overlap,
    ))
}

fn with_overlap((mut s, overlap): (Schedule, String)) -> Result<Schedule> {
    s.overlap = Overlap::parse(&overlap)
        .ok_or_else(|| StoreError::Corrupt(format!("schedule {} has overlap `{overlap}`", s.id)))?;
    Ok(s)
}

/// Checks for a schedule with the same id and writes under one write lock,
/// so that of two operators adding the same id one is told it exists.
pub(super) fn put(conn: &mut Connection, s: &Schedule, replace: bool) -> Result<PutSchedule> {
    write(conn, &format!("saving schedule {}", s.id), |tx| {
        let existing = tx
            .prepare_cached(&format!("SELECT {COLUMNS} FROM schedules WHERE id = ?1"))
            .and_then(|mut stmt| stmt.query_row([&s.id], from_row).optional())
            .ctx_with(|| format!("looking up schedule {}", s.id))?
            .map(with_overlap)
            .transpose()?;
        if let Some(existing) = &existing
            && !replace
        {
            return Ok(PutSchedule::Exists(existing.clone()));
        }
        tx.prepare_cached(
            "INSERT INTO schedules (id, agent, cron, input, overlap, next_at, last_run_id, \
             created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) \
             ON CONFLICT (id) DO UPDATE SET agent = excluded.agent, cron = excluded.cron, \
             input = excluded.input, overlap = excluded.overlap, next_at = excluded.next_at",
        )
        .and_then(|mut stmt| {
            stmt.execute(params![
                s.id,
                s.agent,
                s.cron,
                s.input,
                s.overlap.as_str(),
                clamp_time(s.next_at),
                s.last_run_id,
                s.created_at
            ])
        })
        .ctx_with(|| format!("saving schedule {}", s.id))?;
        Ok(existing.map_or(PutSchedule::Added, PutSchedule::Replaced))
    })
}

/// Every schedule, or only those due at `due_at`, soonest first.
pub(super) fn list(conn: &Connection, due_at: Option<Millis>) -> Result<Vec<Schedule>> {
    let sql = format!(
        "SELECT {COLUMNS} FROM schedules WHERE CAST(?1 AS BIGINT) IS NULL OR next_at <= ?1 ORDER BY next_at, id"
    );
    let rows = conn
        .prepare_cached(&sql)
        .and_then(|mut stmt| {
            stmt.query_map([due_at.map(clamp_time)], from_row)?
                .collect::<super::db::Result<Vec<_>>>()
        })
        .ctx("reading schedules")?;
    rows.into_iter().map(with_overlap).collect()
}

pub(super) fn remove(conn: &mut Connection, id: &str) -> Result<bool> {
    write(conn, &format!("removing schedule {id}"), |tx| {
        let n = tx
            .prepare_cached("DELETE FROM schedules WHERE id = ?1")
            .and_then(|mut stmt| stmt.execute([id]))
            .ctx_with(|| format!("removing schedule {id}"))?;
        Ok(n > 0)
    })
}

pub(super) fn advance(
    conn: &mut Connection,
    id: &str,
    due_at: Millis,
    next_at: Millis,
    last_run_id: Option<&str>,
) -> Result<bool> {
    write(conn, &format!("advancing schedule {id}"), |tx| {
        // Compare-and-set on the tick: of two workers firing it, one moves it.
        let n = tx
            .prepare_cached(
                "UPDATE schedules SET next_at = ?3, last_run_id = ?4 \
                 WHERE id = ?1 AND next_at = ?2",
            )
            .and_then(|mut stmt| {
                stmt.execute(params![
                    id,
                    clamp_time(due_at),
                    clamp_time(next_at),
                    last_run_id
                ])
            })
            .ctx_with(|| format!("advancing schedule {id}"))?;
        Ok(n > 0)
    })
}
