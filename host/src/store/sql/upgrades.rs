//! Moving runs to another version of their agent: a claim of each that
//! delivers no wake, then one transaction for a group of them that writes
//! each moved run's upgrade checkpoint, new version and state, releases the
//! claims of the runs whose migration failed, and appends the audit rows.

use super::db::{Connection, Isolation, OptionalExtension, params, write_deferred};

use super::SqlStore;
use super::claims::check_claim;
use super::runs::{self, run_exists};
use super::{Context, audit, budget_to_sql, clamp_time, write};
use crate::model::Millis;
use crate::store::{Claim, Migrated, Result, StoreError, UpgradeCommit};

/// Moving runs to another version of their agent.
impl SqlStore {
    /// Leases one live run (active, waiting or parked) for an operation
    /// that is not a step, such as an upgrade: no wake is chosen or
    /// consumed. `None` when a live claim holds it (it is being stepped).
    pub fn claim_run(
        &mut self,
        run_id: &str,
        now: Millis,
        owner: &str,
        lease_ms: u64,
    ) -> Result<Option<Claim>> {
        claim_run(&mut self.conn, run_id, now, owner, lease_ms)
    }

    /// Ends the upgrades of claimed runs in one transaction, one flush to
    /// disk for all. A run moved to another version gets an upgrade
    /// checkpoint (which does not count against the step budget), its new
    /// version and state; a run whose migration failed stays as it was.
    /// Each gets its audit rows and its claim released; status, waits and
    /// wakes are untouched. A move whose claim was lost (or whose run is
    /// gone) is refused before any of its writes, alone: the others
    /// commit. A failed migration whose claim was lost is still audited.
    pub fn commit_upgrades(&mut self, upgrades: &[UpgradeCommit]) -> Result<Vec<Result<()>>> {
        commit_upgrades(&mut self.conn, upgrades)
    }
}

pub(super) fn claim_run(
    conn: &mut Connection,
    run_id: &str,
    now: Millis,
    owner: &str,
    lease_ms: u64,
) -> Result<Option<Claim>> {
    // Deferred, as a worker's claim: lost to a power cut, it only means the
    // run is claimed again; the upgrade's own commit is what must be on
    // disk, and it carries this claim with it.
    let what = format!("claiming run {run_id}");
    write_deferred(conn, &what, Isolation::Serializable, |tx| {
        let expires = clamp_time(now.saturating_add(lease_ms));
        let epoch: Option<u64> = tx
            .prepare_cached(
                "UPDATE runs SET lease_owner = ?2, lease_expires = ?3, epoch = epoch + 1 \
                 WHERE run_id = ?1 AND status IN ('active', 'waiting', 'parked') \
                 AND (lease_owner IS NULL OR lease_expires <= ?4) RETURNING epoch",
            )
            .and_then(|mut stmt| {
                stmt.query_row(params![run_id, owner, expires, now], |row| row.get(0))
                    .optional()
            })
            .ctx_with(|| format!("leasing run {run_id}"))?;
        let Some(epoch) = epoch else {
            return if run_exists(tx, run_id)? {
                Ok(None)
            } else {
                Err(StoreError::UnknownRun(run_id.to_string()))
            };
        };
        let run = runs::run(tx, run_id)?.ok_or_else(|| StoreError::UnknownRun(run_id.into()))?;
        Ok(Some(Claim {
            run,
            epoch,
            owner: owner.to_string(),
        }))
    })
}

/// One transaction for the group; see `SqlStore::commit_upgrades`.
pub(super) fn commit_upgrades(
    conn: &mut Connection,
    upgrades: &[UpgradeCommit],
) -> Result<Vec<Result<()>>> {
    let what = format!("ending the upgrades of {} runs", upgrades.len());
    write(conn, &what, |tx| {
        upgrades
            .iter()
            .map(|u| match end_upgrade(tx, u) {
                Ok(()) => Ok(Ok(())),
                Err(e @ (StoreError::LostClaim { .. } | StoreError::UnknownRun(_))) => Ok(Err(e)),
                Err(e) => Err(e),
            })
            .collect()
    })
}

/// One run's part of [`commit_upgrades`]: its claim is checked before it
/// writes anything. A failed migration is audited even when its claim was
/// lost meanwhile (it ran out and a worker took the run): only the claim
/// is not the upgrade's to give back.
fn end_upgrade(tx: &Connection, u: &UpgradeCommit) -> Result<()> {
    let run_id = u.run_id.as_str();
    match (&u.to, check_claim(tx, run_id, u.epoch)) {
        (None, Err(StoreError::LostClaim { .. })) => {}
        (_, Err(e)) => return Err(e),
        (Some(to), Ok(())) => move_run(tx, u, to)?,
        (None, Ok(())) => super::claim_ends::drop_lease(tx, run_id)?,
    }
    audit::insert_all(tx, &u.audit, u.at)
}

fn move_run(tx: &Connection, u: &UpgradeCommit, to: &Migrated) -> Result<()> {
    let run_id = u.run_id.as_str();
    let run = runs::run(tx, run_id)?.ok_or_else(|| StoreError::UnknownRun(run_id.into()))?;
    let seq = run.steps + 1;
    // The run goes on as planned: the checkpoint repeats the last
    // step's `next` (a run that never stepped still has its start).
    let next: Option<String> = tx
        .prepare_cached("SELECT next FROM checkpoints WHERE run_id = ?1 ORDER BY seq DESC LIMIT 1")
        .and_then(|mut stmt| stmt.query_row([run_id], |row| row.get(0)).optional())
        .ctx_with(|| format!("reading the last checkpoint of run {run_id}"))?;
    let next = next.unwrap_or_else(|| r#"{"kind":"continue"}"#.to_string());
    let status_text = format!("upgraded from {} to {}", run.version, to.version);
    tx.prepare_cached(
        "INSERT INTO checkpoints (run_id, seq, version, wake, upgraded_from, state, next, \
         status_text, fuel_used, at) VALUES (?1, ?2, ?3, NULL, ?4, ?5, ?6, ?7, 0, ?8)",
    )
    .and_then(|mut stmt| {
        stmt.execute(params![
            run_id,
            seq,
            to.version,
            run.version,
            to.state,
            next,
            status_text,
            u.at
        ])
    })
    .ctx_with(|| format!("writing checkpoint {seq} of run {run_id}"))?;
    // An upgrade is not the agent's doing: it does not spend a step.
    let step_budget = run.step_budget.saturating_add(1);
    tx.prepare_cached(
        "UPDATE runs SET version = ?2, digest = ?3, state = ?4, steps = ?5, step_budget = ?6, \
         updated_at = ?7, lease_owner = NULL, lease_expires = NULL WHERE run_id = ?1",
    )
    .and_then(|mut stmt| {
        stmt.execute(params![
            run_id,
            to.version,
            to.digest,
            to.state,
            seq,
            budget_to_sql(step_budget),
            u.at
        ])
    })
    .ctx_with(|| format!("updating run {run_id}"))?;
    Ok(())
}
