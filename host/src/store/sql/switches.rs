//! Kill switches. Run-level scopes (`all`, `agent:<name>`, `run:<id>`) are
//! enforced by the claim query itself, so a paused run is never leased;
//! `tool:<name>` scopes are read by the tool gate.

use super::db::{Connection, Row, params};

use super::SqlStore;
use super::{Context, audit, write};
use crate::model::Millis;
use crate::store::{AuditEntry, Result, Switch};

/// Kill switches.
impl SqlStore {
    pub fn set_switch(&mut self, switch: &Switch) -> Result<()> {
        set_switch(&mut self.conn, switch)
    }

    /// Returns false when no such switch was set.
    pub fn clear_switch(&mut self, scope: &str) -> Result<bool> {
        clear_switch(&mut self.conn, scope)
    }

    pub fn switches(&self) -> Result<Vec<Switch>> {
        switches(&self.conn)
    }

    /// The oldest switch that stops run `run_id` of `agent` (`all`,
    /// `agent:` or `run:` scope), or with `tool` a call of that tool in it
    /// (`tool:` scope too), if any.
    pub fn switch_covering(
        &self,
        agent: &str,
        run_id: &str,
        tool: Option<&str>,
    ) -> Result<Option<Switch>> {
        covering(&self.conn, agent, run_id, tool)
    }

    /// Sets a kill switch and appends `audit`, in one transaction.
    pub fn set_switch_audited(&mut self, switch: &Switch, audit: &AuditEntry) -> Result<()> {
        set_switch_audited(&mut self.conn, switch, audit)
    }

    /// Clears a kill switch and, when one was set, appends `audit`, in one
    /// transaction. Returns false (and appends nothing) when none was set.
    pub fn clear_switch_audited(
        &mut self,
        scope: &str,
        audit: &AuditEntry,
        at: Millis,
    ) -> Result<bool> {
        clear_switch_audited(&mut self.conn, scope, audit, at)
    }
}

fn switch_from_row(row: &Row<'_>) -> super::db::Result<Switch> {
    Ok(Switch {
        scope: row.get("scope")?,
        reason: row.get("reason")?,
        at: row.get("at")?,
    })
}

/// Sets a switch inside the caller's transaction; setting one that is
/// already on replaces its reason and time.
fn put(conn: &Connection, switch: &Switch) -> Result<()> {
    conn.prepare_cached(
        "INSERT INTO switches (scope, reason, at) VALUES (?1, ?2, ?3) \
         ON CONFLICT (scope) DO UPDATE SET reason = excluded.reason, at = excluded.at",
    )
    .and_then(|mut stmt| stmt.execute(params![switch.scope, switch.reason, switch.at]))
    .ctx_with(|| format!("setting kill switch {}", switch.scope))?;
    Ok(())
}

/// Clears a switch inside the caller's transaction; false when none was set.
fn delete(conn: &Connection, scope: &str) -> Result<bool> {
    let deleted = conn
        .prepare_cached("DELETE FROM switches WHERE scope = ?1")
        .and_then(|mut stmt| stmt.execute([scope]))
        .ctx_with(|| format!("clearing kill switch {scope}"))?;
    Ok(deleted > 0)
}

pub(super) fn set_switch(conn: &mut Connection, switch: &Switch) -> Result<()> {
    write(
        conn,
        &format!("setting kill switch {}", switch.scope),
        |tx| put(tx, switch),
    )
}

pub(super) fn clear_switch(conn: &mut Connection, scope: &str) -> Result<bool> {
    write(conn, &format!("clearing kill switch {scope}"), |tx| {
        super::wake_workers(tx)?;
        delete(tx, scope)
    })
}

/// Sets a switch and appends its audit row in one transaction.
pub(super) fn set_switch_audited(
    conn: &mut Connection,
    switch: &Switch,
    entry: &AuditEntry,
) -> Result<()> {
    write(
        conn,
        &format!("setting kill switch {}", switch.scope),
        |tx| {
            put(tx, switch)?;
            audit::insert(tx, entry, switch.at)
        },
    )
}

/// Clears a switch and, when one was set, appends its audit row, in one
/// transaction.
pub(super) fn clear_switch_audited(
    conn: &mut Connection,
    scope: &str,
    entry: &AuditEntry,
    at: Millis,
) -> Result<bool> {
    write(conn, &format!("clearing kill switch {scope}"), |tx| {
        super::wake_workers(tx)?;
        let cleared = delete(tx, scope)?;
        if cleared {
            audit::insert(tx, entry, at)?;
        }
        Ok(cleared)
    })
}

/// The oldest switch that stops run `run_id` of `agent`, or with `tool`
/// a call of it in the run. Read whole and chosen here: the table holds a
/// handful of rows at most, and a lookup per scope (an `IN` list) or an
/// `ORDER BY` would cost every tool call a temporary table or a sorter.
pub(super) fn covering(
    conn: &Connection,
    agent: &str,
    run_id: &str,
    tool: Option<&str>,
) -> Result<Option<Switch>> {
    let tool = tool.map(|t| format!("tool:{t}"));
    let mut found: Option<Switch> = None;
    conn.prepare_cached("SELECT scope, reason, at FROM switches")
        .and_then(|mut stmt| {
            for switch in stmt.query_map(params![], switch_from_row)? {
                let switch = switch?;
                // `tool:<server>` covers each `<server>/<tool>` of an MCP
                // server too.
                let covers = switch.covers_run(agent, run_id)
                    || tool.as_deref().is_some_and(|t| {
                        t == switch.scope
                            || t.strip_prefix(switch.scope.as_str())
                                .is_some_and(|rest| rest.starts_with('/'))
                    });
                let older = found
                    .as_ref()
                    .is_none_or(|f| (switch.at, &switch.scope) < (f.at, &f.scope));
                if covers && older {
                    found = Some(switch);
                }
            }
            Ok(())
        })
        .ctx_with(|| format!("reading the kill switches over run {run_id}"))?;
    Ok(found)
}

/// Every switch that is on, oldest first.
pub(super) fn switches(conn: &Connection) -> Result<Vec<Switch>> {
    conn.prepare_cached("SELECT scope, reason, at FROM switches ORDER BY at, scope")
        .and_then(|mut stmt| {
            stmt.query_map(params![], switch_from_row)?
                .collect::<super::db::Result<Vec<_>>>()
        })
        .ctx("listing kill switches")
}
