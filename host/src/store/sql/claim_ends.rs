//! The writes that end a claim without committing a step: a failed step,
//! parking the run, holding it for a kill switch, giving the claim back,
//! and cancelling the run. Each checks the claim's epoch first (a cancel
//! fences any claim instead).

use super::db::{Connection, params};
use serde_json::json;

use super::SqlStore;
use super::claims::check_claim;
use super::{Context, audit, clamp_time, runs, write};
use crate::model::Millis;
use crate::store::{AuditEntry, Result, StepFailed, StepHeld, StoreError};

/// The writes that end a claim without committing a step.
impl SqlStore {
    /// Records a failed attempt (retry later, or park when `retry_at` is
    /// `None`) and releases the claim. State, waits and wakes are untouched.
    pub fn fail_step(&mut self, failed: &StepFailed) -> Result<()> {
        fail_step(&mut self.conn, failed)?;
        // A worker whose steps only fail still writes the WAL.
        self.checkpoint_when_due();
        Ok(())
    }

    /// Parks a claimed run for an operator without stepping it (a budget is
    /// spent) and releases the claim. Appends a `parked` audit row after
    /// `audit` (what the abandoned step did, such as its tool calls).
    pub fn park(
        &mut self,
        run_id: &str,
        epoch: u64,
        reason: &str,
        audit: &[AuditEntry],
        at: Millis,
    ) -> Result<()> {
        park(&mut self.conn, run_id, epoch, reason, audit, at)
    }

    /// Abandons a claimed step that a kill switch stopped in flight: the
    /// run's state, waits, wakes and attempts stay as they were (the step is
    /// retried as if the host had crashed), the run records the switch's
    /// scope so that no claim takes it while that switch is on, the audit
    /// rows are appended and the claim is released — in one transaction.
    pub fn hold_step(&mut self, held: &StepHeld) -> Result<()> {
        hold_step(&mut self.conn, held)
    }

    /// Gives a claim back untouched.
    pub fn release(&mut self, run_id: &str, epoch: u64) -> Result<()> {
        release(&mut self.conn, run_id, epoch, &[], 0)
    }

    /// Gives back the claim of a step that is void (a kv key or lease it
    /// wrote changed before it committed), with audit rows saying so: the
    /// run is due again at once, and no attempt is counted.
    pub fn void_step(
        &mut self,
        run_id: &str,
        epoch: u64,
        audit: &[AuditEntry],
        at: Millis,
    ) -> Result<()> {
        release(&mut self.conn, run_id, epoch, audit, at)
    }

    /// An operator ends a live run (active, waiting or parked): it takes no
    /// further step, its waits are dropped, and a worker stepping it right
    /// now loses its claim, so that step's writes are discarded. Appends a
    /// `cancelled` audit row naming `by`. Returns false when the run had
    /// already ended.
    pub fn cancel_run(&mut self, run_id: &str, reason: &str, by: &str, at: Millis) -> Result<bool> {
        let cancelled = cancel(&mut self.conn, run_id, reason, by, at)?;
        if cancelled {
            self.pack_after_commit(&[run_id]);
        }
        Ok(cancelled)
    }
}

pub(super) fn fail_step(conn: &mut Connection, f: &StepFailed) -> Result<()> {
    let run_id = f.run_id.as_str();
    write(
        conn,
        &format!("recording a failed step of run {run_id}"),
        |tx| {
            check_claim(tx, run_id, f.epoch)?;
            match f.retry_at {
            Some(retry_at) => tx
                .prepare_cached(
                    "UPDATE runs SET attempts = attempts + 1, last_error = ?2, \
                     fuel_used = fuel_used + ?3, retry_at = ?4, updated_at = ?5, \
                     lease_owner = NULL, lease_expires = NULL WHERE run_id = ?1",
                )
                .and_then(|mut stmt| {
                    stmt.execute(params![
                        run_id,
                        f.error,
                        f.fuel_used,
                        clamp_time(retry_at),
                        f.at
                    ])
                }),
            None => tx
                .prepare_cached(
                    "UPDATE runs SET status = 'parked', status_text = ?3, attempts = attempts + 1, \
                     last_error = ?2, fuel_used = fuel_used + ?4, retry_at = NULL, \
                     updated_at = ?5, lease_owner = NULL, lease_expires = NULL WHERE run_id = ?1",
                )
                .and_then(|mut stmt| {
                    stmt.execute(params![
                        run_id,
                        f.error,
                        format!("parked: {}", f.error),
                        f.fuel_used,
                        f.at
                    ])
                }),
        }
        .ctx_with(|| format!("updating run {run_id}"))?;
            for entry in &f.audit {
                audit::insert(tx, entry, f.at)?;
            }
            Ok(())
        },
    )
}

pub(super) fn park(
    conn: &mut Connection,
    run_id: &str,
    epoch: u64,
    reason: &str,
    rows: &[AuditEntry],
    at: Millis,
) -> Result<()> {
    write(conn, &format!("parking run {run_id}"), |tx| {
        check_claim(tx, run_id, epoch)?;
        for entry in rows {
            audit::insert(tx, entry, at)?;
        }
        tx.prepare_cached(
            "UPDATE runs SET status = 'parked', status_text = ?2, last_error = ?3, \
             updated_at = ?4, lease_owner = NULL, lease_expires = NULL WHERE run_id = ?1",
        )
        .and_then(|mut stmt| stmt.execute(params![run_id, format!("parked: {reason}"), reason, at]))
        .ctx_with(|| format!("updating run {run_id}"))?;
        audit::insert_kind(tx, Some(run_id), "parked", json!({ "reason": reason }), at)
    })
}

pub(super) fn hold_step(conn: &mut Connection, h: &StepHeld) -> Result<()> {
    let run_id = h.run_id.as_str();
    write(conn, &format!("holding a step of run {run_id}"), |tx| {
        check_claim(tx, run_id, h.epoch)?;
        tx.prepare_cached(
            "UPDATE runs SET held_by = ?2, lease_owner = NULL, lease_expires = NULL \
             WHERE run_id = ?1",
        )
        .and_then(|mut stmt| stmt.execute(params![run_id, h.scope]))
        .ctx_with(|| format!("updating run {run_id}"))?;
        for entry in &h.audit {
            audit::insert(tx, entry, h.at)?;
        }
        Ok(())
    })
}

pub(super) fn cancel(
    conn: &mut Connection,
    run_id: &str,
    reason: &str,
    by: &str,
    at: Millis,
) -> Result<bool> {
    write(conn, &format!("cancelling run {run_id}"), |tx| {
        // Bumping the epoch fences a worker that is stepping the run now:
        // its commit finds a stale epoch and writes nothing.
        let changed = tx
            .prepare_cached(
                "UPDATE runs SET status = 'cancelled', outcome = ?2, status_text = ?2, \
                 wake_when = NULL, waits = '[]', pending_wake = NULL, retry_at = NULL, \
                 lease_owner = NULL, lease_expires = NULL, epoch = epoch + 1, updated_at = ?3 \
                 WHERE run_id = ?1 AND status IN ('active', 'waiting', 'parked')",
            )
            .and_then(|mut stmt| stmt.execute(params![run_id, format!("cancelled: {reason}"), at]))
            .ctx_with(|| format!("cancelling run {run_id}"))?;
        if changed == 0 {
            return if runs::run_exists(tx, run_id)? {
                Ok(false)
            } else {
                Err(StoreError::UnknownRun(run_id.to_string()))
            };
        }
        tx.prepare_cached("DELETE FROM waits WHERE run_id = ?1")
            .and_then(|mut stmt| stmt.execute([run_id]))
            .ctx_with(|| format!("dropping the waits of run {run_id}"))?;
        audit::insert_kind(
            tx,
            Some(run_id),
            "cancelled",
            json!({ "reason": reason, "by": by }),
            at,
        )?;
        super::archive::queue(tx, run_id)?;
        Ok(true)
    })
}

/// Gives a claim back, with audit rows saying why.
pub(super) fn release(
    conn: &mut Connection,
    run_id: &str,
    epoch: u64,
    rows: &[AuditEntry],
    at: Millis,
) -> Result<()> {
    write(conn, &format!("releasing run {run_id}"), |tx| {
        check_claim(tx, run_id, epoch)?;
        drop_lease(tx, run_id)?;
        for entry in rows {
            audit::insert(tx, entry, at)?;
        }
        Ok(())
    })
}

/// Clears a run's lease inside the caller's transaction, which has checked
/// the claim.
pub(super) fn drop_lease(tx: &Connection, run_id: &str) -> Result<()> {
    tx.prepare_cached("UPDATE runs SET lease_owner = NULL, lease_expires = NULL WHERE run_id = ?1")
        .and_then(|mut stmt| stmt.execute([run_id]))
        .ctx_with(|| format!("releasing the lease on run {run_id}"))?;
    Ok(())
}
