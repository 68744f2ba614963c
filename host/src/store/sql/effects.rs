//! Writing a step's held built-in calls (see [`crate::store::Effects`]):
//! each kv key and lease only over what the step found, then the calls'
//! ledger and audit rows.

use super::db::{Connection, Isolation, OptionalExtension, params, write_deferred};

use super::SqlStore;
use super::claims::check_claim;
use super::{Context, audit, to_json, tools};
use crate::model::Millis;
use crate::store::{AuditEntry, Effects, Held, Result, StoreError};

/// A step's held built-in calls, and the leases they read.
impl SqlStore {
    /// The lease on `resource`, expired or not, if one is recorded.
    pub fn lease_peek(&self, resource: &str) -> Result<Option<Held>> {
        lease(&self.conn, resource)
    }

    /// Writes a step's built-in calls held so far (their effects, ledger
    /// and audit rows) under the claim, without waiting for the disk: a
    /// step does so before a call that leaves the host. A key or lease
    /// changed since the step found it is a [`StoreError::Conflict`], and
    /// nothing is written.
    pub fn apply_effects(
        &mut self,
        run_id: &str,
        epoch: u64,
        effects: &Effects,
        at: Millis,
    ) -> Result<()> {
        flush(&mut self.conn, run_id, epoch, effects, at)
    }
}

/// A held call's rows as text, worked out before the write lock is taken:
/// the other writers of the file wait for what is done under it.
pub(super) struct CallText {
    /// The result, as the ledger row holds it.
    result: String,
    /// The audit row written when the call is recorded now.
    pub(super) audit: AuditEntry,
    pub(super) audit_json: String,
}

/// The texts of `effects`' calls, in their order, for [`apply`].
pub(super) fn texts(effects: &Effects) -> Result<Vec<CallText>> {
    effects
        .calls
        .iter()
        .map(|(call, result)| {
            let audit = tools::ledger_audit(call, result);
            Ok(CallText {
                result: to_json(result, "a tool result")?,
                audit_json: to_json(&audit.data, "an audit row")?,
                audit,
            })
        })
        .collect()
}

/// Writes `effects` inside the caller's transaction, or fails with
/// [`StoreError::Conflict`] when a key or lease is no longer what the step
/// found (the caller's transaction is then undone). `texts` are the
/// calls' ([`texts`]). Returns those of the calls recorded now, whose
/// audit rows the caller appends.
pub(super) fn apply<'t>(
    tx: &Connection,
    effects: &Effects,
    texts: &'t [CallText],
    at: Millis,
) -> Result<Vec<&'t CallText>> {
    // Each write below refuses the step when what it found has changed.
    // The first to refuse leaves nothing written only if it is the first
    // write: with more than one, all are checked before any is made.
    // Reads only: a used approval refuses the step before any write.
    super::gated::check_uses(tx, &effects.approvals_used)?;
    if writes(effects) > 1 {
        check_found(tx, effects)?;
    }
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
            return Err(kv_changed(key, kv.found));
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
            return Err(lease_changed(resource, lease));
        }
    }
    super::gated::write_uses(tx, &effects.approvals_used)?;
    let mut recorded = Vec::with_capacity(texts.len());
    for ((call, _), text) in effects.calls.iter().zip(texts) {
        if tools::insert_ledger_row(tx, call, &text.result, at)? {
            recorded.push(text);
        }
    }
    Ok(recorded)
}

/// The kv and lease writes `effects` makes, each of which may refuse the
/// step.
fn writes(effects: &Effects) -> usize {
    let leases = effects.leases.values();
    effects.kv.len()
        + leases
            .filter(|l| l.found.is_some() || l.leaves.is_some())
            .count()
}

/// Fails with [`StoreError::Conflict`], as the write itself would, when a
/// key or lease `effects` writes is no longer what the step found: read
/// before any write, so that a refused step leaves nothing behind without
/// a savepoint (the commit's transaction keeps others from changing them
/// between this read and the writes).
fn check_found(tx: &Connection, effects: &Effects) -> Result<()> {
    for (key, kv) in &effects.kv {
        let version = tools::kv_current(tx, key)?.map_or(0, |(_, version)| version);
        if version != kv.found {
            return Err(kv_changed(key, kv.found));
        }
    }
    for (resource, lease) in &effects.leases {
        if lease.found.is_none() && lease.leaves.is_none() {
            continue;
        }
        if self::lease(tx, resource)? != lease.found {
            return Err(lease_changed(resource, lease));
        }
    }
    Ok(())
}

fn kv_changed(key: &str, found: u64) -> StoreError {
    StoreError::Conflict(format!(
        "kv key `{key}` was written by someone else (the step found version {found})"
    ))
}

fn lease_changed(resource: &str, lease: &crate::store::LeaseEffect) -> StoreError {
    let found = match &lease.found {
        Some(found) => format!("held by {} until {}", found.holder, found.expires_at),
        None => "free".into(),
    };
    StoreError::Conflict(format!(
        "lease `{resource}` was changed by someone else (the step found it {found})"
    ))
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
    let texts = texts(effects)?;
    write_deferred(
        conn,
        &format!("writing the kv and lease calls of run {run_id}"),
        Isolation::Serializable,
        |tx| {
            check_claim(tx, run_id, epoch)?;
            let recorded = apply(tx, effects, &texts, at)?;
            let rows: Vec<audit::Timed<'_>> = recorded
                .iter()
                .map(|t| (&t.audit, &t.audit_json, at))
                .collect();
            audit::insert_rows(tx, &rows)
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
