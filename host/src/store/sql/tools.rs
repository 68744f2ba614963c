//! The tool-call ledger and the built-in tools whose effect lives in this
//! database (kv, leases), as operators use them. A step's kv and lease
//! calls are written with its commit, under the claim's epoch, with their
//! ledger and audit rows (see `effects`).

use super::db::{Connection, Isolation, OptionalExtension, Row, params, write_deferred};
use serde_json::json;

use super::SqlStore;
use super::claims::check_claim;
use super::{Context, audit, clamp_time, from_json, to_json, write};
use crate::model::{Millis, ToolError};
use crate::store::{
    AuditEntry, KvEntry, KvOp, KvOutcome, KvWrite, LeaseOp, LeaseOutcome, LedgerEntry, LedgerWrite,
    Result, StoreError, Usage,
};

/// The tool-call ledger, kv and leases.
impl SqlStore {
    /// A live run's recorded call, looked up by a step for its replay. An
    /// ended run's calls are in its archive, read with [`SqlStore::ledger`]:
    /// no step runs after the end, and the lookup stays one index probe.
    pub fn ledger_get(&self, run_id: &str, key: &str) -> Result<Option<LedgerEntry>> {
        ledger_get(&self.conn, run_id, key)
    }

    /// The run's recorded tool calls, oldest first.
    pub fn ledger(&self, run_id: &str) -> Result<Vec<LedgerEntry>> {
        ledger(&self.conn, run_id)
    }

    /// Records a tool call's result (and its audit row) under the claim's
    /// epoch.
    pub fn ledger_put(
        &mut self,
        call: &LedgerWrite,
        result: &std::result::Result<String, ToolError>,
        at: Millis,
    ) -> Result<()> {
        ledger_put(&mut self.conn, call, result, None, at)
    }

    /// Records a metered call's result (and its audit row) and adds its
    /// usage to the run's `tokens_used`/`usd_used`, in one transaction under
    /// the claim's epoch. A key already recorded is neither recorded again
    /// nor charged again.
    pub fn ledger_put_metered(
        &mut self,
        call: &LedgerWrite,
        result: &std::result::Result<String, ToolError>,
        usage: &Usage,
        at: Millis,
    ) -> Result<()> {
        ledger_put(&mut self.conn, call, result, Some(usage), at)
    }

    /// Adds a metered call's usage to the run's `tokens_used`/`usd_used`
    /// without recording the call (it was sent and got no usable answer),
    /// synced, under the claim's epoch.
    pub fn charge(&mut self, run_id: &str, epoch: u64, key: &str, usage: &Usage) -> Result<()> {
        charge(&mut self.conn, run_id, epoch, key, usage)
    }

    /// Runs a kv operation for an operator (a read, or a write synced
    /// without an audit row; `kv_audited` writes one). A step's calls are
    /// held in [`Effects`] instead. Deleting a key keeps its version.
    pub fn kv(&mut self, op: &KvOp) -> Result<KvOutcome> {
        kv(&mut self.conn, op)
    }

    /// A kv key's value (`None` once deleted) and version, if it was ever
    /// written; read without a transaction.
    pub fn kv_peek(&self, key: &str) -> Result<Option<(Option<String>, u64)>> {
        kv_current(&self.conn, key)
    }

    /// Runs an operator's kv operation (no run, no ledger) and appends the
    /// audit row `audit` makes of its outcome, in one transaction.
    pub fn kv_audited(
        &mut self,
        op: &KvOp,
        audit: &dyn Fn(&KvOutcome) -> AuditEntry,
        at: Millis,
    ) -> Result<KvOutcome> {
        kv_audited(&mut self.conn, op, audit, at)
    }

    /// Runs an operator's lease operation (expiry judged at `now`) and
    /// appends the audit row `audit` makes of its outcome, in one
    /// transaction.
    pub fn lease_audited(
        &mut self,
        op: &LeaseOp,
        audit: &dyn Fn(&LeaseOutcome) -> AuditEntry,
        now: Millis,
    ) -> Result<LeaseOutcome> {
        lease_audited(&mut self.conn, op, audit, now)
    }
}

/// Arguments longer than this are cut in audit rows; the ledger keeps them
/// whole.
const AUDIT_ARGS_MAX: usize = 1024;

type ToolResult = std::result::Result<String, ToolError>;

pub(super) struct LedgerRow {
    pub(super) run_id: String,
    pub(super) key: String,
    pub(super) tool: String,
    pub(super) args: String,
    pub(super) result: String,
    pub(super) at: Millis,
}

impl LedgerRow {
    pub(super) fn from_row(row: &Row<'_>) -> super::db::Result<LedgerRow> {
        Ok(LedgerRow {
            run_id: row.get((0, "run_id"))?,
            key: row.get((1, "key"))?,
            tool: row.get((2, "tool"))?,
            args: row.get((3, "args"))?,
            result: row.get((4, "result"))?,
            at: row.get((5, "at"))?,
        })
    }

    fn into_entry(self) -> Result<LedgerEntry> {
        let (run_id, key) = (&self.run_id, &self.key);
        let result = from_json(&self.result, || {
            format!("ledger result {key} of run {run_id}")
        })?;
        Ok(LedgerEntry {
            run_id: self.run_id,
            key: self.key,
            tool: self.tool,
            args: self.args,
            result,
            at: self.at,
        })
    }
}

pub(super) fn ledger_get(
    conn: &Connection,
    run_id: &str,
    key: &str,
) -> Result<Option<LedgerEntry>> {
    let row = conn
        .prepare_cached(
            "SELECT run_id, key, tool, args, result, at FROM ledger \
         WHERE run_id = ?1 AND key = ?2",
        )
        .and_then(|mut stmt| {
            stmt.query_row([run_id, key], LedgerRow::from_row)
                .optional()
        })
        .ctx_with(|| format!("reading ledger entry {key} of run {run_id}"))?;
    row.map(LedgerRow::into_entry).transpose()
}

/// The run's calls in the live table, oldest first.
pub(super) fn live_ledger(conn: &Connection, run_id: &str) -> Result<Vec<LedgerRow>> {
    conn.prepare_cached(
        "SELECT run_id, key, tool, args, result, at FROM ledger \
         WHERE run_id = ?1 ORDER BY at, key",
    )
    .and_then(|mut stmt| {
        stmt.query_map([run_id], LedgerRow::from_row)?
            .collect::<super::db::Result<Vec<_>>>()
    })
    .ctx_with(|| format!("reading the ledger of run {run_id}"))
}

pub(super) fn ledger(conn: &Connection, run_id: &str) -> Result<Vec<LedgerEntry>> {
    let rows = live_ledger(conn, run_id)?;
    // An ended run's calls are in its archive; a call recorded after the
    // run ended (a late result) is live.
    let mut rows: Vec<LedgerRow> = super::archive::read(conn, run_id)?
        .ledger(run_id)
        .chain(rows)
        .collect();
    rows.sort_by(|a, b| (a.at, &a.key).cmp(&(b.at, &b.key)));
    // Read live first, then archived: a run packed between the two reads
    // shows its rows in both, kept once.
    rows.dedup_by(|a, b| a.key == b.key);
    rows.into_iter().map(LedgerRow::into_entry).collect()
}

fn ledger_has(conn: &Connection, run_id: &str, key: &str) -> Result<bool> {
    conn.prepare_cached("SELECT 1 FROM ledger WHERE run_id = ?1 AND key = ?2")
        .and_then(|mut stmt| stmt.exists([run_id, key]))
        .ctx_with(|| format!("looking up ledger entry {key} of run {run_id}"))
}

/// Cuts `text` to at most `max` bytes on a character boundary.
fn truncate(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_string();
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &text[..end])
}

/// Records a call's result and its audit row, and clears its intent: the
/// outcome is known now. The row's `args_digest` column (schema 2) is left
/// NULL: the row holds the args whole, and a repeated key is checked against
/// a digest computed from them (64 bytes a call fewer on disk). The first result recorded for a key is the truth:
/// a later one for the same key is dropped, audit too. Returns whether this
/// call was recorded now.
pub(super) fn record(
    conn: &Connection,
    call: &LedgerWrite,
    result: &ToolResult,
    at: Millis,
) -> Result<bool> {
    let Some(row) = record_ledger(conn, call, result, at)? else {
        return Ok(false);
    };
    audit::insert(conn, &row, at)?;
    Ok(true)
}

/// [`record`] without its audit row, which it returns (when the call was
/// recorded now) for the caller to append with others.
pub(super) fn record_ledger(
    conn: &Connection,
    call: &LedgerWrite,
    result: &ToolResult,
    at: Millis,
) -> Result<Option<AuditEntry>> {
    let result_json = to_json(result, "a tool result")?;
    Ok(insert_ledger(conn, call, &result_json, at)?.then(|| ledger_audit(call, result)))
}

/// Writes a call's ledger row unless its key has one, and clears its
/// intent; returns whether the row was written now. `result_json` is the
/// call's result as JSON.
pub(super) fn insert_ledger(
    conn: &Connection,
    call: &LedgerWrite,
    result_json: &str,
    at: Millis,
) -> Result<bool> {
    let inserted = insert_ledger_row(conn, call, result_json, at)?;
    conn.prepare_cached("DELETE FROM intents WHERE run_id = ?1 AND key = ?2")
        .and_then(|mut stmt| stmt.execute([&call.run_id, &call.key]))
        .ctx_with(|| format!("clearing the intent {} of run {}", call.key, call.run_id))?;
    Ok(inserted)
}

/// [`insert_ledger`] for a held call, which never has an intent: an
/// intent under its key belongs to an external call of an earlier attempt
/// whose outcome is still unknown, and stays for an operator to settle.
pub(super) fn insert_ledger_row(
    conn: &Connection,
    call: &LedgerWrite,
    result_json: &str,
    at: Millis,
) -> Result<bool> {
    let inserted = conn
        .prepare_cached(
            "INSERT INTO ledger (run_id, key, tool, args, result, at) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT (run_id, key) DO NOTHING",
        )
        .and_then(|mut stmt| {
            stmt.execute(params![
                call.run_id,
                call.key,
                call.tool,
                call.args,
                result_json,
                at,
            ])
        })
        .ctx_with(|| format!("recording tool call {} of run {}", call.key, call.run_id))?;
    Ok(inserted > 0)
}

/// The audit row of a call recorded in the ledger.
pub(super) fn ledger_audit(call: &LedgerWrite, result: &ToolResult) -> AuditEntry {
    let mut data = json!({
        "tool": call.tool,
        "key": call.key,
        "args": truncate(&call.args, AUDIT_ARGS_MAX),
        "ok": result.is_ok(),
        "outcome": crate::tools::audit_row::outcome_of(result),
        // The call ran and its result is the one every repeat replays.
        "recorded": true,
    });
    if let Err(error) = result {
        data["error"] = json!(error);
    }
    AuditEntry {
        run_id: Some(call.run_id.clone()),
        kind: "tool".into(),
        data,
    }
}

/// Records a call; with `usage`, charges it to the run in the same
/// transaction, and only when the call was recorded now (a replayed key is
/// never charged twice).
pub(super) fn ledger_put(
    conn: &mut Connection,
    call: &LedgerWrite,
    result: &ToolResult,
    usage: Option<&Usage>,
    at: Millis,
) -> Result<()> {
    // Deferred: the intent was synced before the call left the host, so a
    // result lost to a power cut leaves the call in doubt (sent again only
    // to a tool that drops repeats, else settled by an operator), never
    // sent twice; and the step that saw it has not committed yet.
    write_deferred(
        conn,
        &format!("recording tool call {} of run {}", call.key, call.run_id),
        Isolation::Serializable,
        |tx| {
            check_claim(tx, &call.run_id, call.epoch)?;
            let recorded = record(tx, call, result, at)?;
            if let (true, Some(usage)) = (recorded, usage) {
                tx.prepare_cached(
                    "UPDATE runs SET tokens_used = tokens_used + ?2, usd_used = usd_used + ?3 \
                     WHERE run_id = ?1",
                )
                .and_then(|mut stmt| stmt.execute(params![call.run_id, usage.tokens, usage.usd]))
                .ctx_with(|| format!("charging tool call {} to run {}", call.key, call.run_id))?;
            }
            Ok(())
        },
    )
}

/// Charges an unrecorded call to its run; synced, since a charge lost at a
/// power cut would let a run spend more than its budget.
pub(super) fn charge(
    conn: &mut Connection,
    run_id: &str,
    epoch: u64,
    key: &str,
    usage: &Usage,
) -> Result<()> {
    let what = format!("charging tool call {key} to run {run_id}");
    write(conn, &what, |tx| {
        check_claim(tx, run_id, epoch)?;
        tx.prepare_cached(
            "UPDATE runs SET tokens_used = tokens_used + ?2, usd_used = usd_used + ?3 \
             WHERE run_id = ?1",
        )
        .and_then(|mut stmt| stmt.execute(params![run_id, usage.tokens, usage.usd]))
        .ctx_with(|| what.clone())?;
        Ok(())
    })
}

/// Checks the claim of a built-in tool call and that its key is new. A key
/// already recorded means the caller skipped the ledger lookup; running the
/// effect again would break "at most once", so it is refused.
pub(super) fn begin_call(conn: &Connection, call: &LedgerWrite) -> Result<()> {
    check_claim(conn, &call.run_id, call.epoch)?;
    if ledger_has(conn, &call.run_id, &call.key)? {
        return Err(StoreError::Db(format!(
            "tool call {} of run {} is already recorded in the ledger; replay the recorded \
             result instead of running it again",
            call.key, call.run_id
        )));
    }
    Ok(())
}

/// The key's value (`None` once deleted) and version, if it was ever written.
pub(super) fn kv_current(conn: &Connection, key: &str) -> Result<Option<(Option<String>, u64)>> {
    conn.prepare_cached("SELECT value, version FROM kv WHERE key = ?1")
        .and_then(|mut stmt| {
            stmt.query_row([key], |row| Ok((row.get(0)?, row.get(1)?)))
                .optional()
        })
        .ctx_with(|| format!("reading kv key {key}"))
}

/// Runs one kv operation inside the caller's transaction.
///
/// Versions count every write of a key, deletes included: a delete keeps the
/// row with no value, so a compare-and-set across a delete and a re-create
/// never sees the same version twice.
fn kv_op(conn: &Connection, op: &KvOp) -> Result<KvOutcome> {
    match op {
        KvOp::Get { key } => {
            let current = kv_current(conn, key)?;
            Ok(KvOutcome::Read(KvEntry {
                key: key.clone(),
                version: current.as_ref().map_or(0, |(_, v)| *v),
                value: current.and_then(|(value, _)| value),
            }))
        }
        KvOp::Put {
            key,
            value,
            expected_version,
        } => {
            let version = kv_current(conn, key)?.map_or(0, |(_, v)| v);
            if expected_version.is_some_and(|expected| expected != version) {
                return Ok(KvOutcome::Wrote(KvWrite { ok: false, version }));
            }
            conn.prepare_cached(
                "INSERT INTO kv (key, value, version) VALUES (?1, ?2, ?3) \
                 ON CONFLICT (key) DO UPDATE SET value = excluded.value, version = excluded.version",
            )
            .and_then(|mut stmt| stmt.execute(params![key, value, version + 1]))
            .ctx_with(|| format!("writing kv key {key}"))?;
            Ok(KvOutcome::Wrote(KvWrite {
                ok: true,
                version: version + 1,
            }))
        }
        KvOp::Delete {
            key,
            expected_version,
        } => {
            let version = kv_current(conn, key)?.map_or(0, |(_, v)| v);
            if expected_version.is_some_and(|expected| expected != version) {
                return Ok(KvOutcome::Wrote(KvWrite { ok: false, version }));
            }
            if version == 0 {
                // Never written: nothing to delete, nothing to version.
                return Ok(KvOutcome::Wrote(KvWrite { ok: true, version }));
            }
            conn.prepare_cached("UPDATE kv SET value = NULL, version = ?2 WHERE key = ?1")
                .and_then(|mut stmt| stmt.execute(params![key, version + 1]))
                .ctx_with(|| format!("deleting kv key {key}"))?;
            Ok(KvOutcome::Wrote(KvWrite {
                ok: true,
                version: version + 1,
            }))
        }
    }
}

/// An operator's kv operation without an audit row: a read needs no
/// write lock; a write is synced.
pub(super) fn kv(conn: &mut Connection, op: &KvOp) -> Result<KvOutcome> {
    if let KvOp::Get { .. } = op {
        return kv_op(conn, op);
    }
    write(conn, "a kv operation", |tx| kv_op(tx, op))
}

/// An operator's kv operation and its audit row, in one transaction: the
/// log never misses a write that happened, nor shows one that did not.
pub(super) fn kv_audited(
    conn: &mut Connection,
    op: &KvOp,
    entry: &dyn Fn(&KvOutcome) -> AuditEntry,
    at: Millis,
) -> Result<KvOutcome> {
    write(conn, "a kv operation", |tx| {
        let outcome = kv_op(tx, op)?;
        audit::insert(tx, &entry(&outcome), at)?;
        Ok(outcome)
    })
}

/// An operator's lease operation and its audit row, in one transaction.
pub(super) fn lease_audited(
    conn: &mut Connection,
    op: &LeaseOp,
    entry: &dyn Fn(&LeaseOutcome) -> AuditEntry,
    now: Millis,
) -> Result<LeaseOutcome> {
    write(conn, "a lease operation", |tx| {
        let outcome = lease_op(tx, op, now)?;
        audit::insert(tx, &entry(&outcome), now)?;
        Ok(outcome)
    })
}

fn lease_op(conn: &Connection, op: &LeaseOp, now: Millis) -> Result<LeaseOutcome> {
    match op {
        LeaseOp::Acquire {
            resource,
            holder,
            ttl_ms,
        } => {
            let current: Option<(String, Millis)> = conn
                .prepare_cached("SELECT holder, expires_at FROM leases WHERE resource = ?1")
                .and_then(|mut stmt| {
                    stmt.query_row([resource], |row| Ok((row.get(0)?, row.get(1)?)))
                        .optional()
                })
                .ctx_with(|| format!("reading lease {resource}"))?;
            if let Some((current_holder, expires_at)) = current
                && expires_at > now
                && current_holder != *holder
            {
                return Ok(LeaseOutcome::Acquire {
                    granted: false,
                    holder: current_holder,
                    expires_at,
                });
            }
            // Free, expired, or renewed by the same holder.
            let expires_at = clamp_time(now.saturating_add(*ttl_ms));
            conn.prepare_cached(
                "INSERT INTO leases (resource, holder, expires_at) VALUES (?1, ?2, ?3) \
                 ON CONFLICT (resource) DO UPDATE SET holder = excluded.holder, \
                 expires_at = excluded.expires_at",
            )
            .and_then(|mut stmt| stmt.execute(params![resource, holder, expires_at]))
            .ctx_with(|| format!("granting lease {resource} to {holder}"))?;
            Ok(LeaseOutcome::Acquire {
                granted: true,
                holder: holder.clone(),
                expires_at,
            })
        }
        LeaseOp::Release { resource, holder } => {
            let deleted = conn
                .prepare_cached("DELETE FROM leases WHERE resource = ?1 AND holder = ?2")
                .and_then(|mut stmt| stmt.execute([resource, holder]))
                .ctx_with(|| format!("releasing lease {resource} held by {holder}"))?;
            Ok(LeaseOutcome::Release {
                released: deleted > 0,
            })
        }
    }
}
