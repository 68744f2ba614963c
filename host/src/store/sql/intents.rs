//! Calls that leave the host: the claim is checked and extended, and the
//! intent to call is made durable, before a call is sent; an operator
//! settles a call whose outcome is unknown.
//!
//! An intent row lives from just before the call is sent until the
//! transaction that records its result (`tools::record` deletes it). One
//! found by a later attempt of the step means the earlier attempt died or
//! lost its answer mid-call: its outcome is unknown.

use super::db::{Connection, Isolation, OptionalExtension, Row, params, write_deferred};
use serde_json::json;

use super::SqlStore;
use super::claims::check_claim;
use super::{Context, audit, clamp_time, to_json, write};
use crate::model::{Millis, ToolError};
use crate::store::{AuditEntry, Intent, Resolution, ResolveRefused, Result};

/// Calls that leave the host, and settling those of unknown outcome.
impl SqlStore {
    /// Checks that the claim is still the run's current one (not taken over,
    /// the run not cancelled) and extends its lease to `now + lease_ms`.
    pub fn extend_claim(
        &mut self,
        run_id: &str,
        epoch: u64,
        now: Millis,
        lease_ms: u64,
    ) -> Result<()> {
        extend_claim(&mut self.conn, run_id, epoch, now, lease_ms)
    }

    /// Fences a call about to leave the host: checks and extends the claim
    /// (`intent.epoch`) as `extend_claim` does, and records the intent
    /// durably with `audit` (the row of this send), in one transaction.
    /// Recording the call's result (any `ledger_put`) deletes the intent.
    pub fn begin_external(
        &mut self,
        intent: &Intent,
        audit: &[AuditEntry],
        now: Millis,
        lease_ms: u64,
    ) -> Result<()> {
        begin_external(&mut self.conn, intent, audit, now, lease_ms)
    }

    /// Deletes the intent of a call whose request never left the host (no
    /// connection, an untrusted server), under the claim's epoch.
    pub fn forget_intent(&mut self, run_id: &str, key: &str, epoch: u64) -> Result<()> {
        forget(&mut self.conn, run_id, key, epoch)
    }

    /// The intent of a call whose result was never recorded, if any.
    pub fn intent(&self, run_id: &str, key: &str) -> Result<Option<Intent>> {
        intent(&self.conn, run_id, key)
    }

    /// The run's calls of unknown outcome, oldest first.
    pub fn intents(&self, run_id: &str) -> Result<Vec<Intent>> {
        intents(&self.conn, run_id)
    }

    /// An operator settles a parked run's call of unknown outcome: records
    /// the given result or failure in the ledger (or, for a retry, nothing),
    /// clears the intent, puts the run back to retry its step, and appends a
    /// `resolved` audit row — in one transaction.
    pub fn resolve(
        &mut self,
        run_id: &str,
        key: &str,
        resolution: &Resolution,
        by: &str,
        said: Option<&str>,
        at: Millis,
    ) -> Result<std::result::Result<(), ResolveRefused>> {
        resolve(&mut self.conn, run_id, key, resolution, by, said, at)
    }
}

fn intent_from_row(row: &Row<'_>) -> super::db::Result<Intent> {
    Ok(Intent {
        run_id: row.get("run_id")?,
        key: row.get("key")?,
        tool: row.get("tool")?,
        args: row.get("args")?,
        args_digest: row.get("args_digest")?,
        epoch: row.get("epoch")?,
        at: row.get("at")?,
    })
}

/// Checks the claim (not superseded by another worker, the run not
/// cancelled) and extends its lease to `now + lease_ms`, inside the caller's
/// transaction.
fn check_and_extend(
    conn: &Connection,
    run_id: &str,
    epoch: u64,
    now: Millis,
    lease_ms: u64,
) -> Result<()> {
    check_claim(conn, run_id, epoch)?;
    conn.prepare_cached("UPDATE runs SET lease_expires = ?3 WHERE run_id = ?1 AND epoch = ?2")
        .and_then(|mut stmt| {
            stmt.execute(params![
                run_id,
                epoch,
                clamp_time(now.saturating_add(lease_ms))
            ])
        })
        .ctx_with(|| format!("extending the claim on run {run_id}"))?;
    Ok(())
}

pub(super) fn extend_claim(
    conn: &mut Connection,
    run_id: &str,
    epoch: u64,
    now: Millis,
    lease_ms: u64,
) -> Result<()> {
    write_deferred(
        conn,
        &format!("extending the claim on run {run_id}"),
        Isolation::Serializable,
        |tx| check_and_extend(tx, run_id, epoch, now, lease_ms),
    )
}

pub(super) fn begin_external(
    conn: &mut Connection,
    intent: &Intent,
    audit_rows: &[AuditEntry],
    now: Millis,
    lease_ms: u64,
) -> Result<()> {
    let (run_id, key) = (intent.run_id.as_str(), intent.key.as_str());
    write(
        conn,
        &format!("recording the intent to call {key} of run {run_id}"),
        |tx| {
            check_and_extend(tx, run_id, intent.epoch, now, lease_ms)?;
            tx.prepare_cached(
                "INSERT INTO intents (run_id, key, tool, args, args_digest, epoch, at) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) \
                 ON CONFLICT (run_id, key) DO UPDATE SET epoch = excluded.epoch, at = excluded.at",
            )
            .and_then(|mut stmt| {
                stmt.execute(params![
                    run_id,
                    key,
                    intent.tool,
                    intent.args,
                    intent.args_digest,
                    intent.epoch,
                    intent.at
                ])
            })
            .ctx_with(|| format!("recording the intent to call {key} of run {run_id}"))?;
            // Durable before the request leaves: a send cut short by a
            // crash is in the audit too.
            if !audit_rows.is_empty() {
                audit::insert_all(tx, audit_rows, intent.at)?;
            }
            Ok(())
        },
    )
}

pub(super) fn forget(conn: &mut Connection, run_id: &str, key: &str, epoch: u64) -> Result<()> {
    // Deferred: an intent forgotten only in memory at a power cut is
    // remembered as in doubt, the safe side.
    write_deferred(
        conn,
        &format!("forgetting the intent {key} of run {run_id}"),
        Isolation::Serializable,
        |tx| {
            check_claim(tx, run_id, epoch)?;
            tx.prepare_cached("DELETE FROM intents WHERE run_id = ?1 AND key = ?2")
                .and_then(|mut stmt| stmt.execute([run_id, key]))
                .ctx_with(|| format!("forgetting the intent {key} of run {run_id}"))?;
            Ok(())
        },
    )
}

pub(super) fn intent(conn: &Connection, run_id: &str, key: &str) -> Result<Option<Intent>> {
    conn.prepare_cached(
        "SELECT run_id, key, tool, args, args_digest, epoch, at FROM intents \
         WHERE run_id = ?1 AND key = ?2",
    )
    .and_then(|mut stmt| stmt.query_row([run_id, key], intent_from_row).optional())
    .ctx_with(|| format!("reading the intent {key} of run {run_id}"))
}

pub(super) fn intents(conn: &Connection, run_id: &str) -> Result<Vec<Intent>> {
    conn.prepare_cached(
        "SELECT run_id, key, tool, args, args_digest, epoch, at FROM intents \
         WHERE run_id = ?1 ORDER BY at, key",
    )
    .and_then(|mut stmt| {
        stmt.query_map([run_id], intent_from_row)?
            .collect::<super::db::Result<Vec<_>>>()
    })
    .ctx_with(|| format!("reading the intents of run {run_id}"))
}

pub(super) fn resolve(
    conn: &mut Connection,
    run_id: &str,
    key: &str,
    resolution: &Resolution,
    by: &str,
    said: Option<&str>,
    at: Millis,
) -> Result<std::result::Result<(), ResolveRefused>> {
    write(
        conn,
        &format!("resolving call {key} of run {run_id}"),
        |tx| {
            super::wake_workers(tx)?;
            let found = match settleable(tx, run_id, key)? {
                Ok(found) => found,
                Err(refused) => return Ok(Err(refused)),
            };
            settle(tx, &found, resolution, at)?;
            // The step the run was parked in is retried: it replays the
            // settled result, or sends the call again.
            tx.prepare_cached(
                "UPDATE runs SET \
                 status = CASE WHEN pending_wake IS NOT NULL THEN 'active' ELSE 'waiting' END, \
                 attempts = 0, retry_at = NULL, last_error = NULL, status_text = ?2, \
                 updated_at = ?3 WHERE run_id = ?1",
            )
            .and_then(|mut stmt| {
                stmt.execute(params![
                    run_id,
                    format!("call {key} settled by {by}; retrying the step"),
                    at
                ])
            })
            .ctx_with(|| format!("resuming run {run_id}"))?;
            let (how, result) = match resolution {
                Resolution::Result(json) => ("result", json!(json)),
                Resolution::Retry => ("retry", json!(null)),
                Resolution::Fail(reason) => ("fail", json!(reason)),
            };
            audit::insert_kind(
                tx,
                Some(run_id),
                "resolved",
                json!({
                    "key": key, "tool": found.tool, "by": by, "said": said, "how": how,
                    "result": result,
                }),
                at,
            )?;
            Ok(Ok(()))
        },
    )
}

/// The intent of call `key` of run `run_id`, if an operator may settle it
/// now: the run is parked (a run that is not may be stepping right now,
/// with this very call in flight, and settling it then could contradict
/// its answer).
fn settleable(
    tx: &Connection,
    run_id: &str,
    key: &str,
) -> Result<std::result::Result<Intent, ResolveRefused>> {
    let status: Option<String> = tx
        .prepare_cached("SELECT status FROM runs WHERE run_id = ?1")
        .and_then(|mut stmt| stmt.query_row([run_id], |row| row.get(0)).optional())
        .ctx_with(|| format!("looking up run {run_id}"))?;
    let Some(status) = status else {
        return Ok(Err(ResolveRefused::UnknownRun(run_id.to_string())));
    };
    let Some(found) = intent(tx, run_id, key)? else {
        let known: Vec<String> = intents(tx, run_id)?.into_iter().map(|i| i.key).collect();
        let known = if known.is_empty() {
            String::new()
        } else {
            format!(" (it has: {})", known.join(", "))
        };
        return Ok(Err(ResolveRefused::UnknownKey {
            run: run_id.to_string(),
            key: key.to_string(),
            known,
        }));
    };
    if status != "parked" {
        return Ok(Err(ResolveRefused::NotParked {
            run: run_id.to_string(),
            key: key.to_string(),
            status,
        }));
    }
    Ok(Ok(found))
}

/// Records the call's settled result or failure in the ledger (a retry
/// records nothing) and clears its intent.
fn settle(tx: &Connection, found: &Intent, resolution: &Resolution, at: Millis) -> Result<()> {
    let (run_id, key) = (found.run_id.as_str(), found.key.as_str());
    let result: Option<std::result::Result<String, ToolError>> = match resolution {
        Resolution::Result(json) => Some(Ok(json.clone())),
        Resolution::Fail(reason) => Some(Err(ToolError::Failed(reason.clone()))),
        Resolution::Retry => None,
    };
    if let Some(result) = &result {
        let result_json = to_json(result, "a tool result")?;
        tx.prepare_cached(
            "INSERT INTO ledger (run_id, key, tool, args, result, at) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        )
        .and_then(|mut stmt| {
            stmt.execute(params![
                run_id,
                key,
                found.tool,
                found.args,
                result_json,
                at
            ])
        })
        .ctx_with(|| format!("recording the settled call {key} of run {run_id}"))?;
    }
    tx.prepare_cached("DELETE FROM intents WHERE run_id = ?1 AND key = ?2")
        .and_then(|mut stmt| stmt.execute([run_id, key]))
        .ctx_with(|| format!("clearing the intent {key} of run {run_id}"))?;
    Ok(())
}
