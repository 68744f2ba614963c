//! Writing a step's held built-in calls (see [`crate::store::Effects`]):
//! each kv key and lease only over what the step found, then the calls'
//! ledger and audit rows.

use super::db::{Connection, Isolation, OptionalExtension, params, write_deferred};

use super::claims::check_claim;
use super::{Context, audit, tools};
use crate::model::Millis;
use crate::store::{AuditEntry, Effects, Held, Result, StoreError};

/// Writes `effects` inside the caller's transaction, or fails with
/// [`StoreError::Conflict`] when a key or lease is no longer what the step
/// found (the caller's transaction is then undone). Returns the calls'
/// audit rows, for the caller to append.
pub(super) fn apply(tx: &Connection, effects: &Effects, at: Millis) -> Result<Vec<AuditEntry>> {
    for (key, kv) in &effects.kv {
        let written = if kv.found == 0 {
            tx.prepare_cached(
                "INSERT INTO kv (key, value, version) VALUES (?1, ?2, ?3) \
                 ON CONFLICT (key) DO NOTHING",
            )
            .and_then(|mut stmt| stmt.execute(params![key, kv.value, kv.version]))
        } else {
            tx.prepare_cached(
                "UPDATE kv SET value = ?2, version = ?3 WHERE key = ?1 AND version = ?4",
            )
            .and_then(|mut stmt| stmt.execute(params![key, kv.value, kv.version, kv.found]))
        }
        .ctx_with(|| format!("writing kv key {key}"))?;
        if written != 1 {
            return Err(StoreError::Conflict(format!(
                "kv key `{key}` was written by someone else (the step found version {})",
                kv.found
            )));
        }
    }
    for (resource, lease) in &effects.leases {
        let written = match (&lease.found, &lease.leaves) {
            (None, None) => continue,
            (None, Some(leaves)) => tx
                .prepare_cached(
                    "INSERT INTO leases (resource, holder, expires_at) VALUES (?1, ?2, ?3) \
                     ON CONFLICT (resource) DO NOTHING",
                )
                .and_then(|mut stmt| {
                    stmt.execute(params![resource, leaves.holder, leaves.expires_at])
                }),
            (Some(found), Some(leaves)) => tx
                .prepare_cached(
                    "UPDATE leases SET holder = ?2, expires_at = ?3 \
                     WHERE resource = ?1 AND holder = ?4 AND expires_at = ?5",
                )
                .and_then(|mut stmt| {
                    stmt.execute(params![
                        resource,
                        leaves.holder,
                        leaves.expires_at,
                        found.holder,
                        found.expires_at
                    ])
                }),
            (Some(found), None) => tx
                .prepare_cached(
                    "DELETE FROM leases WHERE resource = ?1 AND holder = ?2 AND expires_at = ?3",
                )
                .and_then(|mut stmt| {
                    stmt.execute(params![resource, found.holder, found.expires_at])
                }),
        }
        .ctx_with(|| format!("writing lease {resource}"))?;
        if written != 1 {
            let found = match &lease.found {
                Some(found) => format!("held by {} until {}", found.holder, found.expires_at),
                None => "free".into(),
            };
            return Err(StoreError::Conflict(format!(
                "lease `{resource}` was changed by someone else (the step found it {found})"
            )));
        }
    }
    let mut rows = Vec::with_capacity(effects.calls.len());
    for (call, result) in &effects.calls {
        rows.extend(tools::record_ledger(tx, call, result, at)?);
    }
    Ok(rows)
}

/// Writes `effects` of the claimed run in a transaction of their own,
/// without waiting for the disk: until the step commits (synced), nobody
/// outside the store has seen them, and a power cut that loses them loses
/// the step too, which then runs again and makes its calls again.
pub(super) fn flush(
    conn: &mut Connection,
    run_id: &str,
    epoch: u64,
    effects: &Effects,
    at: Millis,
) -> Result<()> {
    if effects.is_empty() {
        return Ok(());
    }
    write_deferred(
        conn,
        &format!("writing the kv and lease calls of run {run_id}"),
        Isolation::Serializable,
        |tx| {
            check_claim(tx, run_id, epoch)?;
            let rows = apply(tx, effects, at)?;
            audit::insert_all(tx, &rows, at)
        },
    )
}

/// The lease on `resource`, expired or not.
pub(super) fn lease(conn: &Connection, resource: &str) -> Result<Option<Held>> {
    conn.prepare_cached("SELECT holder, expires_at FROM leases WHERE resource = ?1")
        .and_then(|mut stmt| {
            stmt.query_row([resource], |row| {
                Ok(Held {
                    holder: row.get(0)?,
                    expires_at: row.get(1)?,
                })
            })
            .optional()
        })
        .ctx_with(|| format!("reading lease {resource}"))
}
