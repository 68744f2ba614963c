//! Kill switches. Run-level scopes (`all`, `agent:<name>`, `run:<id>`) are
//! enforced by the claim query itself, so a paused run is never leased;
//! `tool:<name>` scopes are read by the tool gate.

use rusqlite::{Connection, Row, params};

use super::{Context, write};
use crate::store::{Result, Switch};

fn switch_from_row(row: &Row<'_>) -> rusqlite::Result<Switch> {
    Ok(Switch {
        scope: row.get("scope")?,
        reason: row.get("reason")?,
        at: row.get("at")?,
    })
}

/// Sets a switch; setting one that is already on replaces its reason and time.
pub(super) fn set_switch(conn: &mut Connection, switch: &Switch) -> Result<()> {
    write(
        conn,
        &format!("setting kill switch {}", switch.scope),
        |tx| {
            tx.prepare_cached(
                "INSERT INTO switches (scope, reason, at) VALUES (?1, ?2, ?3) \
                 ON CONFLICT (scope) DO UPDATE SET reason = excluded.reason, at = excluded.at",
            )
            .and_then(|mut stmt| stmt.execute(params![switch.scope, switch.reason, switch.at]))
            .ctx_with(|| format!("setting kill switch {}", switch.scope))?;
            Ok(())
        },
    )
}

pub(super) fn clear_switch(conn: &mut Connection, scope: &str) -> Result<bool> {
    write(conn, &format!("clearing kill switch {scope}"), |tx| {
        let deleted = tx
            .prepare_cached("DELETE FROM switches WHERE scope = ?1")
            .and_then(|mut stmt| stmt.execute([scope]))
            .ctx_with(|| format!("clearing kill switch {scope}"))?;
        Ok(deleted > 0)
    })
}

/// Every switch that is on, oldest first.
pub(super) fn switches(conn: &Connection) -> Result<Vec<Switch>> {
    conn.prepare_cached("SELECT scope, reason, at FROM switches ORDER BY at, scope")
        .and_then(|mut stmt| {
            stmt.query_map([], switch_from_row)?
                .collect::<rusqlite::Result<Vec<_>>>()
        })
        .ctx("listing kill switches")
}
