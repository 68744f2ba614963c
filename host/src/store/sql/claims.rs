//! The step protocol: claiming a run with a wake to deliver (the writes
//! that end a claim are in `commits`).
//!
//! A claim is a lease (`lease_owner`, `lease_expires`) plus a fencing
//! `epoch` that every claim bumps. A worker whose lease expired may still be
//! running; its writes carry the old epoch and are refused with
//! [`StoreError::LostClaim`], so a run never takes two steps at once.
//!
//! Which runs have a wake is decided twice: by `active_due!` and
//! `woken_due!` in SQL, to find candidates with the indexes, and by
//! `pick_wake` in Rust, to choose the wake by the priority the trait
//! documents. The two must agree; a candidate for which `pick_wake` finds
//! nothing is parked with the reason, in the claim's transaction, so that it
//! can never again be picked ahead of runs that can be stepped.

use std::sync::LazyLock;

use super::db::{Connection, OptionalExtension, params};

use super::SqlStore;
use super::db::{Dialect, Isolation, write_deferred};
use super::runs::{self, event_from_row};
use super::{Context, clamp_time};
use crate::model::{ApprovalAnswer, Event, Millis, Wake};
use crate::store::{Claim, ClaimedRun, Result, StoreError};

/// Claiming runs with a wake to deliver, and what is due.
impl SqlStore {
    /// Leases the next run that has a wake to deliver now and returns it with
    /// that wake. A run is skipped when a kill switch covers it (`all`,
    /// `agent:<name>`, `run:<id>`), when it is done or parked, when another
    /// claim's lease is unexpired, or when its retry time is ahead. Wakes are
    /// chosen in this order: the start input or a pending resume/continue; an
    /// answered approval it waits for; the oldest unconsumed inbox event on a
    /// topic it waits for; an approval it waits for that expired unanswered
    /// (`Expired`); an `until`/`cron` wait that is due (`Timer`).
    pub fn claim(
        &mut self,
        now: Millis,
        owner: &str,
        lease_ms: u64,
    ) -> Result<Option<(Claim, Wake)>> {
        claim(&mut self.conn, now, owner, lease_ms)
    }

    /// Claims up to `max` runs with a wake, as [`claim`](SqlStore::claim)
    /// would one after another, in one transaction. A claim first looks
    /// for due runs without the write lock, so that idle pollers never hold
    /// it; `busy` (the caller's last claim found work) skips that look.
    pub fn claim_many(
        &mut self,
        now: Millis,
        owner: &str,
        lease_ms: u64,
        max: usize,
        busy: bool,
    ) -> Result<Vec<(Claim, Wake)>> {
        claim_many(&mut self.conn, now, owner, lease_ms, max, busy)
    }

    /// How many runs have a wake to deliver now but are leased by a live
    /// claim (another worker is stepping them, or a dead one's lease has not
    /// expired yet).
    pub fn due_but_claimed(&self, now: Millis) -> Result<u64> {
        due_but_claimed(&self.conn, now)
    }

    /// The earliest time after `now` at which a wait comes due (an `until`
    /// or cron time, an approval's expiry), so that an idle worker can
    /// sleep until then rather than look again on an interval.
    pub fn next_due_wait(&self, now: Millis) -> Result<Option<Millis>> {
        next_due_wait(&self.conn, now)
    }

    /// Of the due runs under a live claim, the one whose claim ends first.
    pub fn first_claimed_due(&self, now: Millis) -> Result<Option<ClaimedRun>> {
        first_claimed_due(&self.conn, now)
    }
}

/// The conditions every due run meets besides having a wake (alias `r`):
/// live, past its retry time, not paused by a kill switch. One lookup per
/// scope: an `IN` list of the scopes made SQLite fill a temporary table
/// for every candidate row, though no switch is on nearly always.
macro_rules! runnable {
    () => {
        "r.status IN ('active', 'waiting') \
         AND (r.retry_at IS NULL OR r.retry_at <= ?1) \
         AND NOT EXISTS (SELECT 1 FROM switches s WHERE s.scope = 'all') \
         AND NOT EXISTS (SELECT 1 FROM switches s WHERE s.scope = 'agent:' || r.agent) \
         AND NOT EXISTS (SELECT 1 FROM switches s WHERE s.scope = 'run:' || r.run_id) \
         AND NOT EXISTS (SELECT 1 FROM switches s WHERE s.scope = r.held_by)"
    };
}

/// Active runs with a pending start or resume, read in `updated_at` order
/// straight off `runs_by_status`: no sort, however many are queued.
macro_rules! active_due {
    () => {
        concat!(
            "SELECT r.run_id, r.updated_at, r.lease_owner, r.lease_expires FROM runs r \
             WHERE r.status = 'active' AND r.pending_wake IS NOT NULL AND ",
            runnable!()
        )
    };
}

/// Runs woken by something that happened, each set read off its own small
/// index so that a claim never scans the runs that sleep:
/// - a wait whose time has come: `until`, `cron`, or an approval's expiry
///   (`waits_by_due`);
/// - an unconsumed inbox event on a topic the run waits on
///   (`inbox_unconsumed`, then the run's waits);
/// - an answered (or expiry-delivered) request it waits on
///   (`approvals_ready`, then the run's waits).
macro_rules! woken_due {
    () => {
        concat!(
            "WITH woken (run_id) AS ( \
                 SELECT run_id FROM waits WHERE due_at IS NOT NULL AND due_at <= ?1 \
                 UNION SELECT i.run_id FROM inbox i CROSS JOIN waits w \
                     ON w.run_id = i.run_id AND w.kind = 'event' AND w.key = i.topic \
                     WHERE i.consumed_at_step IS NULL \
                 UNION SELECT a.run_id FROM approvals a CROSS JOIN waits w \
                     ON w.run_id = a.run_id AND w.kind = 'approval' AND w.key = a.id \
                     WHERE a.consumed = 0 AND (a.answered = 1 OR a.expiry_delivered = 1)) \
             SELECT r.run_id, r.updated_at, r.lease_owner, r.lease_expires \
             FROM woken CROSS JOIN runs r ON r.run_id = woken.run_id WHERE ",
            runnable!()
        )
    };
}

/// How many candidates one claim examines. With the filter and `pick_wake`
/// in agreement the first one always has a wake; the margin only keeps a
/// disagreement from stalling every run behind one bad row.
const CANDIDATES: usize = 16;

/// Not leased by a live claim (alias `r`).
macro_rules! unleased {
    () => {
        " AND (r.lease_owner IS NULL OR r.lease_expires <= ?1)"
    };
}

/// The claimable runs of each kind of wake, each read in the order its
/// wakes happened straight off an index, stopping at the `LIMIT`: a claim
/// costs the same with 20 woken runs as with 20,000, and never reads the
/// runs that sleep. The same sets as `active_due!` and `woken_due!`.
pub(super) const CLAIMABLE: [&str; 4] = [
    // Started or continuing: `runs_by_status`.
    concat!(
        "SELECT r.run_id, r.updated_at FROM runs r \
         WHERE r.status = 'active' AND r.pending_wake IS NOT NULL AND ",
        runnable!(),
        unleased!(),
        " ORDER BY r.status, r.updated_at LIMIT ?2"
    ),
    // A wait whose time has come (`until`, `cron`, an approval's expiry):
    // `waits_by_due`.
    concat!(
        "SELECT w.run_id, w.due_at FROM waits w CROSS JOIN runs r ON r.run_id = w.run_id \
         WHERE w.due_at IS NOT NULL AND w.due_at <= ?1 AND ",
        runnable!(),
        unleased!(),
        " ORDER BY w.due_at LIMIT ?2"
    ),
    // An event the run waits for: `inbox_pending`.
    concat!(
        "SELECT i.run_id, i.received_at FROM inbox i CROSS JOIN runs r ON r.run_id = i.run_id \
         WHERE i.consumed_at_step IS NULL \
         AND EXISTS (SELECT 1 FROM waits w \
                     WHERE w.run_id = i.run_id AND w.kind = 'event' AND w.key = i.topic) AND ",
        runnable!(),
        unleased!(),
        " ORDER BY i.received_at LIMIT ?2"
    ),
    // An answer (or a delivered expiry) to a request it waits on:
    // `approvals_answered`.
    concat!(
        "SELECT a.run_id, a.answered_at FROM approvals a \
         CROSS JOIN runs r ON r.run_id = a.run_id \
         WHERE a.consumed = 0 AND (a.answered = 1 OR a.expiry_delivered = 1) \
         AND EXISTS (SELECT 1 FROM waits w \
                     WHERE w.run_id = a.run_id AND w.kind = 'approval' AND w.key = a.id) AND ",
        runnable!(),
        unleased!(),
        " ORDER BY a.answered_at LIMIT ?2"
    ),
];

/// Runs that are due at `now` and not leased by a live claim, those woken
/// first first: the first `limit` of each kind of wake, merged.
fn claimable(conn: &Connection, now: Millis, limit: usize) -> Result<Vec<String>> {
    let mut found: Vec<(Option<Millis>, String)> = Vec::new();
    for sql in CLAIMABLE {
        let rows = conn
            .prepare_cached(sql)
            .and_then(|mut stmt| {
                stmt.query_map(params![now, limit as i64], |row| {
                    Ok((row.get(1)?, row.get(0)?))
                })?
                .collect::<super::db::Result<Vec<_>>>()
            })
            .ctx("finding runs to claim")?;
        found.extend(rows);
    }
    found.sort();
    let mut seen = std::collections::HashSet::with_capacity(found.len());
    let mut ids: Vec<String> = Vec::with_capacity(found.len());
    for (_, id) in found {
        if seen.insert(id.clone()) {
            ids.push(id);
        }
    }
    ids.truncate(limit);
    Ok(ids)
}

/// [`CLAIMABLE`]'s queries as one: a row when any of them finds a run. An
/// `OR` in a `WHERE` stops at the first that does (in a result column both
/// sides would be computed), and one statement takes and drops the WAL
/// read locks once instead of once per query.
pub(super) static ANY_CLAIMABLE: LazyLock<String> = LazyLock::new(|| {
    let each: Vec<String> = CLAIMABLE.iter().map(|q| format!("EXISTS ({q})")).collect();
    format!("SELECT 1 WHERE {}", each.join(" OR "))
});

/// Whether any run is due at `now` and not leased.
fn any_claimable(conn: &Connection, now: Millis) -> Result<bool> {
    conn.prepare_cached(&ANY_CLAIMABLE)
        .and_then(|mut stmt| stmt.exists(params![now, 1_i64]))
        .ctx("looking for runs to claim")
}

pub(super) fn claim(
    conn: &mut Connection,
    now: Millis,
    owner: &str,
    lease_ms: u64,
) -> Result<Option<(Claim, Wake)>> {
    Ok(claim_many(conn, now, owner, lease_ms, 1, false)?.pop())
}

/// Claims up to `max` runs with a wake, oldest first, in one transaction:
/// a worker that steps them all commits their checkpoints together.
pub(super) fn claim_many(
    conn: &mut Connection,
    now: Millis,
    owner: &str,
    lease_ms: u64,
    max: usize,
    busy: bool,
) -> Result<Vec<(Claim, Wake)>> {
    let max = max.max(1);
    // Idle workers poll: look without the write lock first, so that polling
    // never queues behind (or blocks) the writers doing real work.
    if !busy && !any_claimable(conn, now)? {
        return Ok(Vec::new());
    }
    // Deferred: a claim lost to a power cut only means the run is claimed
    // again; the step's own commit is what must be on disk.
    write_deferred(conn, "claiming runs", Isolation::RowLocks, |tx| {
        let mut claimed = Vec::new();
        // Each pass claims or parks a candidate, or finds every candidate
        // taken by another claimer, so this ends, and parked runs never
        // hide a due one.
        loop {
            let limit = max - claimed.len() + CANDIDATES;
            let candidates = claimable(tx, now, limit)?;
            let mut progressed = false;
            for run_id in &candidates {
                if claimed.len() == max {
                    return Ok(claimed);
                }
                if !lock_claimable(tx, run_id, now)? || !still_due(tx, run_id, now)? {
                    continue;
                }
                progressed = true;
                let Some(wake) = pick_wake(tx, run_id, now)? else {
                    park_undeliverable(tx, run_id, now)?;
                    continue;
                };
                claimed.push((lease(tx, run_id, owner, now, lease_ms)?, wake));
            }
            if claimed.len() == max || !progressed || candidates.len() < limit {
                return Ok(claimed);
            }
        }
    })
}

/// Leases a run to `owner`, bumping its epoch, and reads it as claimed.
fn lease(tx: &Connection, run_id: &str, owner: &str, now: Millis, lease_ms: u64) -> Result<Claim> {
    let expires = clamp_time(now.saturating_add(lease_ms));
    let (epoch, run) = runs::lease(tx, run_id, owner, expires)?
        .ok_or_else(|| StoreError::UnknownRun(run_id.to_string()))?;
    Ok(Claim {
        run,
        epoch,
        owner: owner.to_string(),
    })
}

/// Whether a candidate is still due once its row is locked. Only
/// PostgreSQL needs to ask: its claims read each statement's own snapshot,
/// and between the candidate list and the lock another worker may have
/// stepped the run to a wait that nothing answers yet. Parked as
/// undeliverable then, it would wait forever. With the row locked, nothing
/// that could make the run less due (a step's commit, a cancel, another
/// claim) can come in between this check and the wake it picks.
fn still_due(tx: &Connection, run_id: &str, now: Millis) -> Result<bool> {
    if tx.dialect() == Dialect::Sqlite {
        return Ok(true);
    }
    for sql in [
        concat!(
            "SELECT 1 FROM (",
            active_due!(),
            ") AS due WHERE run_id = ?2"
        ),
        concat!(
            "SELECT 1 FROM (",
            woken_due!(),
            ") AS due WHERE run_id = ?2"
        ),
    ] {
        let due = tx
            .prepare_cached(sql)
            .and_then(|mut stmt| stmt.exists(params![now, run_id]))
            .ctx_with(|| format!("checking that run {run_id} is still due"))?;
        if due {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Takes the row of a candidate for this claim, if it is still live and
/// unleased and no other claimer holds it. On PostgreSQL, concurrent
/// claimers skip each other's rows (`FOR UPDATE SKIP LOCKED`) instead of
/// queueing for them, and the row is checked again as it is once locked.
/// SQLite's single writer needs no row lock.
fn lock_claimable(tx: &Connection, run_id: &str, now: Millis) -> Result<bool> {
    if tx.dialect() == Dialect::Sqlite {
        return Ok(true);
    }
    tx.prepare_cached(
        "SELECT 1 FROM runs WHERE run_id = ?1 AND status IN ('active', 'waiting') \
         AND (lease_owner IS NULL OR lease_expires <= ?2) FOR UPDATE SKIP LOCKED",
    )
    .and_then(|mut stmt| stmt.exists(params![run_id, now]))
    .ctx_with(|| format!("locking run {run_id} to claim it"))
}

/// Parks a run that looked due but has no wake to deliver: a run waiting on
/// something that can never wake it must neither wait forever unseen nor
/// crowd out the runs that can be stepped.
fn park_undeliverable(conn: &Connection, run_id: &str, now: Millis) -> Result<()> {
    let reason = "the run looked due, but none of its waits can be delivered (an approval \
                  request already answered or expired?), so nothing could ever wake it; cancel \
                  it";
    conn.prepare_cached(
        "UPDATE runs SET status = 'parked', status_text = ?2, last_error = ?3, updated_at = ?4 \
         WHERE run_id = ?1",
    )
    .and_then(|mut stmt| stmt.execute(params![run_id, format!("parked: {reason}"), reason, now]))
    .ctx_with(|| format!("parking run {run_id}"))?;
    super::audit::insert_kind(
        conn,
        Some(run_id),
        "parked",
        serde_json::json!({ "reason": reason }),
        now,
    )
}

/// Read off `waits_by_due`: the first entry past `now`.
pub(super) fn next_due_wait(conn: &Connection, now: Millis) -> Result<Option<Millis>> {
    conn.prepare_cached("SELECT MIN(due_at) FROM waits WHERE due_at > ?1")
        .and_then(|mut stmt| stmt.query_row([now], |row| row.get(0)))
        .ctx("finding the next wait to come due")
}

/// Runs due at `now` under a live claim, read from the leased runs
/// (`runs_by_lease_owner`: a few per worker) and not from every due run:
/// as cheap with 20,000 runs woken as with 20, and nothing to read at all
/// when no claim is out. The same sets as `active_due!` and `woken_due!`.
pub(super) const DUE_BUT_CLAIMED: &str = concat!(
    "SELECT COUNT(*) FROM runs l CROSS JOIN runs r ON r.run_id = l.run_id \
     WHERE l.lease_owner IS NOT NULL AND l.lease_expires > ?1 AND ",
    runnable!(),
    " AND ((r.status = 'active' AND r.pending_wake IS NOT NULL) \
       OR EXISTS (SELECT 1 FROM waits w WHERE w.run_id = r.run_id \
                  AND w.due_at IS NOT NULL AND w.due_at <= ?1) \
       OR EXISTS (SELECT 1 FROM inbox i CROSS JOIN waits w \
                  ON w.run_id = i.run_id AND w.kind = 'event' AND w.key = i.topic \
                  WHERE i.run_id = r.run_id AND i.consumed_at_step IS NULL) \
       OR EXISTS (SELECT 1 FROM approvals a CROSS JOIN waits w \
                  ON w.run_id = a.run_id AND w.kind = 'approval' AND w.key = a.id \
                  WHERE a.run_id = r.run_id AND a.consumed = 0 \
                  AND (a.answered = 1 OR a.expiry_delivered = 1)))"
);

pub(super) fn due_but_claimed(conn: &Connection, now: Millis) -> Result<u64> {
    conn.prepare_cached(DUE_BUT_CLAIMED)
        .and_then(|mut stmt| stmt.query_row([now], |row| row.get(0)))
        .ctx("counting due runs under a live claim")
}

pub(super) fn first_claimed_due(conn: &Connection, now: Millis) -> Result<Option<ClaimedRun>> {
    let mut first: Option<ClaimedRun> = None;
    for sql in [
        concat!(
            "SELECT run_id, lease_owner, lease_expires FROM (",
            active_due!(),
            ") AS due WHERE lease_owner IS NOT NULL AND lease_expires > ?1 \
             ORDER BY lease_expires LIMIT 1"
        ),
        concat!(
            "SELECT run_id, lease_owner, lease_expires FROM (",
            woken_due!(),
            ") AS due WHERE lease_owner IS NOT NULL AND lease_expires > ?1 \
             ORDER BY lease_expires LIMIT 1"
        ),
    ] {
        let found = conn
            .prepare_cached(sql)
            .and_then(|mut stmt| {
                stmt.query_row([now], |row| {
                    Ok(ClaimedRun {
                        run_id: row.get(0)?,
                        owner: row.get(1)?,
                        expires: row.get(2)?,
                    })
                })
                .optional()
            })
            .ctx("finding a due run under a live claim")?;
        if let Some(f) = found
            && first.as_ref().is_none_or(|c| f.expires < c.expires)
        {
            first = Some(f);
        }
    }
    Ok(first)
}

/// The wake to deliver to `run_id` at `now`, in the order
/// [`SqlStore::claim`] gives; `None` when it has none (the run must then
/// not be claimed). Runs inside the claim's transaction: choosing
/// `Expired` records that choice.
fn pick_wake(conn: &Connection, run_id: &str, now: Millis) -> Result<Option<Wake>> {
    if let Some(wake) = pending_wake(conn, run_id)? {
        return Ok(Some(wake));
    }
    if let Some(answer) = first_answer(conn, run_id)? {
        return Ok(Some(Wake::Approval(answer)));
    }
    if let Some(event) = first_event(conn, run_id)? {
        return Ok(Some(Wake::Event(event)));
    }
    if let Some(request_id) = deliver_expiry(conn, run_id, now)? {
        return Ok(Some(Wake::Expired { request_id }));
    }
    Ok(due_timer(conn, run_id, now)?.map(|due| Wake::Timer { due }))
}

/// The start input, or a resume, of an active run that has one pending.
fn pending_wake(conn: &Connection, run_id: &str) -> Result<Option<Wake>> {
    let (status, pending, input): (String, Option<String>, String) = conn
        .prepare_cached("SELECT status, pending_wake, input FROM runs WHERE run_id = ?1")
        .and_then(|mut stmt| {
            stmt.query_row([run_id], |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)))
        })
        .ctx_with(|| format!("reading the pending wake of run {run_id}"))?;
    if status != "active" {
        return Ok(None);
    }
    match pending.as_deref() {
        Some("start") => Ok(Some(Wake::Start { input })),
        Some("resume") => Ok(Some(Wake::Resume)),
        Some(other) => Err(StoreError::Corrupt(format!(
            "run {run_id} has unknown pending wake `{other}`"
        ))),
        None => Ok(None),
    }
}

/// The earliest answer to a request the run still waits on.
fn first_answer(conn: &Connection, run_id: &str) -> Result<Option<ApprovalAnswer>> {
    // The earliest answer, chosen here rather than by an `ORDER BY ...
    // LIMIT 1`, which SQLite runs through a temporary table on every
    // claim: the rows are the run's answered requests it still waits on,
    // a handful at most.
    conn.prepare_cached(
        "SELECT a.id, a.approved, a.answered_by, a.answered_at, a.comment, a.details_digest \
             FROM approvals a \
             WHERE a.run_id = ?1 AND a.answered = 1 AND a.consumed = 0 \
               AND EXISTS (SELECT 1 FROM waits w \
                           WHERE w.run_id = a.run_id AND w.kind = 'approval' AND w.key = a.id)",
    )
    .and_then(|mut stmt| {
        let mut first: Option<ApprovalAnswer> = None;
        for answer in stmt.query_map([run_id], |row| {
            Ok(ApprovalAnswer {
                request_id: row.get(0)?,
                approved: row.get(1)?,
                by: row.get(2)?,
                said: None,
                at: row.get(3)?,
                comment: row.get(4)?,
                digest: row.get(5)?,
            })
        })? {
            let answer = answer?;
            if first
                .as_ref()
                .is_none_or(|f| (answer.at, &answer.request_id) < (f.at, &f.request_id))
            {
                first = Some(answer);
            }
        }
        Ok(first)
    })
    .ctx_with(|| format!("looking for an answered approval of run {run_id}"))
}

/// The oldest unconsumed inbox event on a topic the run waits on.
fn first_event(conn: &Connection, run_id: &str) -> Result<Option<Event>> {
    conn.prepare_cached(
        "SELECT i.event_id, i.topic, i.payload, i.received_at FROM inbox i \
         WHERE i.run_id = ?1 AND i.consumed_at_step IS NULL \
           AND EXISTS (SELECT 1 FROM waits w \
                       WHERE w.run_id = i.run_id AND w.kind = 'event' AND w.key = i.topic) \
         ORDER BY i.received_at, i.rowid LIMIT 1",
    )
    .and_then(|mut stmt| stmt.query_row([run_id], event_from_row).optional())
    .ctx_with(|| format!("looking for an inbox event of run {run_id}"))
}

/// The earliest request the run waits on that expired unanswered (at
/// `now`, or as a claim already told it), marked as delivered.
fn deliver_expiry(conn: &Connection, run_id: &str, now: Millis) -> Result<Option<String>> {
    let expired: Option<String> = conn
        .prepare_cached(
            "SELECT a.id FROM approvals a \
             WHERE a.run_id = ?1 AND a.answered = 0 AND a.consumed = 0 \
               AND (a.expires_at <= ?2 OR a.expiry_delivered = 1) \
               AND EXISTS (SELECT 1 FROM waits w \
                           WHERE w.run_id = a.run_id AND w.kind = 'approval' AND w.key = a.id) \
             ORDER BY a.expires_at, a.id LIMIT 1",
        )
        .and_then(|mut stmt| {
            stmt.query_row(params![run_id, now], |row| row.get(0))
                .optional()
        })
        .ctx_with(|| format!("looking for an expired approval of run {run_id}"))?;
    let Some(request_id) = expired else {
        return Ok(None);
    };
    // Recorded in the claim's transaction, so that an answer racing this
    // claim (its time read just before the expiry) is refused rather than
    // accepted for a run that is being told the request expired.
    conn.prepare_cached("UPDATE approvals SET expiry_delivered = 1 WHERE run_id = ?1 AND id = ?2")
        .and_then(|mut stmt| stmt.execute([run_id, &request_id]))
        .ctx_with(|| format!("marking approval {request_id} of run {run_id} expired"))?;
    Ok(Some(request_id))
}

/// The earliest `until` or cron time of the run that is due at `now`.
fn due_timer(conn: &Connection, run_id: &str, now: Millis) -> Result<Option<Millis>> {
    conn.prepare_cached(
        "SELECT due_at FROM waits \
         WHERE run_id = ?1 AND kind IN ('until', 'cron') AND due_at <= ?2 \
         ORDER BY due_at LIMIT 1",
    )
    .and_then(|mut stmt| {
        stmt.query_row(params![run_id, now], |row| row.get(0))
            .optional()
    })
    .ctx_with(|| format!("looking for a due timer of run {run_id}"))
}

/// Refuses a write of a claim that is no longer the run's current one: the
/// epoch moved on (another worker claimed the run) or the lease was given
/// back (committed, failed, parked or released).
pub(super) fn check_claim(conn: &Connection, run_id: &str, epoch: u64) -> Result<()> {
    let current: Option<(u64, Option<String>)> = conn
        .prepare_cached("SELECT epoch, lease_owner FROM runs WHERE run_id = ?1")
        .and_then(|mut stmt| {
            stmt.query_row([run_id], |row| Ok((row.get(0)?, row.get(1)?)))
                .optional()
        })
        .ctx_with(|| format!("checking the claim on run {run_id}"))?;
    claim_holds(
        run_id,
        epoch,
        current.as_ref().map(|(e, o)| (*e, o.is_some())),
    )
}

/// The verdict of [`check_claim`] on a run's `epoch` and whether it has a
/// `lease_owner`, as read (`None`: no such run), for callers that read
/// them with other columns of the row.
pub(super) fn claim_holds(run_id: &str, epoch: u64, current: Option<(u64, bool)>) -> Result<()> {
    match current {
        None => Err(StoreError::UnknownRun(run_id.to_string())),
        Some((current, true)) if current == epoch => Ok(()),
        Some(_) => Err(StoreError::LostClaim {
            run_id: run_id.to_string(),
            epoch,
        }),
    }
}
