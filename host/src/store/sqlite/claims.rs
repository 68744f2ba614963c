//! The step protocol: claiming a run with a wake to deliver, and the writes
//! that end a claim (commit, fail, park, release).
//!
//! A claim is a lease (`lease_owner`, `lease_expires`) plus a fencing
//! `epoch` that every claim bumps. A worker whose lease expired may still be
//! running; its writes carry the old epoch and are refused with
//! [`StoreError::LostClaim`], so a run never takes two steps at once.
//!
//! Which runs have a wake is decided twice: by `active_due!`/`woken_due!` in SQL, to find
//! candidates with the indexes, and by `pick_wake` in Rust, to choose the
//! wake by the priority the trait documents. The two must agree; a candidate
//! for which `pick_wake` finds nothing is skipped, never retried in a loop.

use rusqlite::{Connection, OptionalExtension, params};
use serde_json::json;
use sha2::{Digest, Sha256};

use super::runs::{self, event_from_row};
use super::{Context, audit, clamp_time, to_json, write};
use crate::model::{ApprovalAnswer, Millis, Next, WaitFor, Wake};
use crate::store::{Claim, Result, StepCommit, StepFailed, StoreError};

/// The conditions every due run meets besides having a wake (alias `r`):
/// live, past its retry time, not paused by a kill switch.
macro_rules! runnable {
    () => {
        "r.status IN ('active', 'waiting') \
         AND (r.retry_at IS NULL OR r.retry_at <= ?1) \
         AND NOT EXISTS (SELECT 1 FROM switches s \
                         WHERE s.scope IN ('all', 'agent:' || r.agent, 'run:' || r.run_id))"
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

/// Runs that are due at `now` and not leased by a live claim, oldest first:
/// the oldest of each set, merged. Mirrors `pick_wake`.
fn claimable(conn: &Connection, now: Millis, limit: usize) -> Result<Vec<String>> {
    let mut found: Vec<(Millis, String)> = Vec::new();
    for sql in [
        concat!(
            active_due!(),
            " AND (r.lease_owner IS NULL OR r.lease_expires <= ?1) \
             ORDER BY r.status, r.updated_at LIMIT ?2"
        ),
        concat!(
            "SELECT run_id, updated_at FROM (",
            woken_due!(),
            ") WHERE lease_owner IS NULL OR lease_expires <= ?1 \
             ORDER BY updated_at, run_id LIMIT ?2"
        ),
    ] {
        let rows = conn
            .prepare_cached(sql)
            .and_then(|mut stmt| {
                stmt.query_map(params![now, limit as i64], |row| {
                    Ok((row.get(1)?, row.get(0)?))
                })?
                .collect::<rusqlite::Result<Vec<_>>>()
            })
            .ctx("finding runs to claim")?;
        found.extend(rows);
    }
    found.sort();
    let mut ids: Vec<String> = Vec::with_capacity(found.len());
    for (_, id) in found {
        if !ids.contains(&id) {
            ids.push(id);
        }
    }
    ids.truncate(limit);
    Ok(ids)
}

pub(super) fn claim(
    conn: &mut Connection,
    now: Millis,
    owner: &str,
    lease_ms: u64,
) -> Result<Option<(Claim, Wake)>> {
    // Idle workers poll: look without the write lock first, so that polling
    // never queues behind (or blocks) the writers doing real work.
    if claimable(conn, now, 1)?.is_empty() {
        return Ok(None);
    }
    write(conn, "claiming a run", |tx| {
        let candidates = claimable(tx, now, CANDIDATES)?;
        for run_id in candidates {
            let Some(wake) = pick_wake(tx, &run_id, now)? else {
                continue;
            };
            let expires = clamp_time(now.saturating_add(lease_ms));
            let epoch: u64 = tx
                .prepare_cached(
                    "UPDATE runs SET lease_owner = ?2, lease_expires = ?3, epoch = epoch + 1 \
                     WHERE run_id = ?1 RETURNING epoch",
                )
                .and_then(|mut stmt| {
                    stmt.query_row(params![run_id, owner, expires], |row| row.get(0))
                })
                .ctx_with(|| format!("leasing run {run_id}"))?;
            let run =
                runs::run(tx, &run_id)?.ok_or_else(|| StoreError::UnknownRun(run_id.clone()))?;
            let claim = Claim {
                run,
                epoch,
                owner: owner.to_string(),
            };
            return Ok(Some((claim, wake)));
        }
        Ok(None)
    })
}

pub(super) fn due_but_claimed(conn: &Connection, now: Millis) -> Result<u64> {
    let mut count = 0;
    for sql in [
        concat!(
            "SELECT COUNT(*) FROM (",
            active_due!(),
            ") WHERE lease_owner IS NOT NULL AND lease_expires > ?1"
        ),
        concat!(
            "SELECT COUNT(*) FROM (",
            woken_due!(),
            ") WHERE lease_owner IS NOT NULL AND lease_expires > ?1"
        ),
    ] {
        let n: u64 = conn
            .prepare_cached(sql)
            .and_then(|mut stmt| stmt.query_row([now], |row| row.get(0)))
            .ctx("counting due runs under a live claim")?;
        count += n;
    }
    // A run both active and woken is counted twice: callers only ask
    // whether any is claimed.
    Ok(count)
}

/// The wake to deliver to `run_id` at `now`, in the trait's order; `None`
/// when it has none (the run must then not be claimed). Runs inside the
/// claim's transaction: choosing `Expired` records that choice.
fn pick_wake(conn: &Connection, run_id: &str, now: Millis) -> Result<Option<Wake>> {
    let (status, pending, input): (String, Option<String>, String) = conn
        .prepare_cached("SELECT status, pending_wake, input FROM runs WHERE run_id = ?1")
        .and_then(|mut stmt| {
            stmt.query_row([run_id], |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)))
        })
        .ctx_with(|| format!("reading the pending wake of run {run_id}"))?;
    if status == "active" {
        match pending.as_deref() {
            Some("start") => return Ok(Some(Wake::Start { input })),
            Some("resume") => return Ok(Some(Wake::Resume)),
            Some(other) => {
                return Err(StoreError::Corrupt(format!(
                    "run {run_id} has unknown pending wake `{other}`"
                )));
            }
            None => {}
        }
    }

    let answered = conn
        .prepare_cached(
            "SELECT a.id, a.approved, a.answered_by, a.answered_at, a.comment \
             FROM approvals a \
             WHERE a.run_id = ?1 AND a.answered = 1 AND a.consumed = 0 \
               AND EXISTS (SELECT 1 FROM waits w \
                           WHERE w.run_id = a.run_id AND w.kind = 'approval' AND w.key = a.id) \
             ORDER BY a.answered_at, a.id LIMIT 1",
        )
        .and_then(|mut stmt| {
            stmt.query_row([run_id], |row| {
                Ok(ApprovalAnswer {
                    request_id: row.get(0)?,
                    approved: row.get(1)?,
                    by: row.get(2)?,
                    at: row.get(3)?,
                    comment: row.get(4)?,
                })
            })
            .optional()
        })
        .ctx_with(|| format!("looking for an answered approval of run {run_id}"))?;
    if let Some(answer) = answered {
        return Ok(Some(Wake::Approval(answer)));
    }

    let event = conn
        .prepare_cached(
            "SELECT i.event_id, i.topic, i.payload, i.received_at FROM inbox i \
             WHERE i.run_id = ?1 AND i.consumed_at_step IS NULL \
               AND EXISTS (SELECT 1 FROM waits w \
                           WHERE w.run_id = i.run_id AND w.kind = 'event' AND w.key = i.topic) \
             ORDER BY i.received_at, i.rowid LIMIT 1",
        )
        .and_then(|mut stmt| stmt.query_row([run_id], event_from_row).optional())
        .ctx_with(|| format!("looking for an inbox event of run {run_id}"))?;
    if let Some(event) = event {
        return Ok(Some(Wake::Event(event)));
    }

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
    if let Some(request_id) = expired {
        // Recorded in the claim's transaction, so that an answer racing this
        // claim (its time read just before the expiry) is refused rather than
        // accepted for a run that is being told the request expired.
        conn.prepare_cached(
            "UPDATE approvals SET expiry_delivered = 1 WHERE run_id = ?1 AND id = ?2",
        )
        .and_then(|mut stmt| stmt.execute([run_id, &request_id]))
        .ctx_with(|| format!("marking approval {request_id} of run {run_id} expired"))?;
        return Ok(Some(Wake::Expired { request_id }));
    }

    let due: Option<Millis> = conn
        .prepare_cached(
            "SELECT due_at FROM waits \
             WHERE run_id = ?1 AND kind IN ('until', 'cron') AND due_at <= ?2 \
             ORDER BY due_at LIMIT 1",
        )
        .and_then(|mut stmt| {
            stmt.query_row(params![run_id, now], |row| row.get(0))
                .optional()
        })
        .ctx_with(|| format!("looking for a due timer of run {run_id}"))?;
    Ok(due.map(|due| Wake::Timer { due }))
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
    match current {
        None => Err(StoreError::UnknownRun(run_id.to_string())),
        Some((current, Some(_))) if current == epoch => Ok(()),
        Some(_) => Err(StoreError::LostClaim {
            run_id: run_id.to_string(),
            epoch,
        }),
    }
}

/// How a wait is indexed: its kind and the key that triggers match on.
fn wait_key(wait: &WaitFor) -> (&'static str, String) {
    match wait {
        WaitFor::Event { topic } => ("event", topic.clone()),
        WaitFor::Approval(request) => ("approval", request.id.clone()),
        WaitFor::Until { at } => ("until", at.to_string()),
        WaitFor::Cron { expr } => ("cron", expr.clone()),
    }
}

pub(super) fn sha256_hex(text: &str) -> String {
    hex::encode(Sha256::digest(text.as_bytes()))
}

/// An unguessable approval token: 32 bytes from the OS.
fn new_token() -> Result<String> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes)
        .map_err(|e| StoreError::Db(format!("reading OS randomness for an approval token: {e}")))?;
    Ok(hex::encode(bytes))
}

pub(super) fn commit_step(conn: &mut Connection, c: &StepCommit) -> Result<()> {
    let run_id = c.run_id.as_str();
    write(conn, &format!("committing a step of run {run_id}"), |tx| {
        check_claim(tx, run_id, c.epoch)?;
        let (steps, version): (u64, String) = tx
            .prepare_cached("SELECT steps, version FROM runs WHERE run_id = ?1")
            .and_then(|mut stmt| stmt.query_row([run_id], |row| Ok((row.get(0)?, row.get(1)?))))
            .ctx_with(|| format!("reading run {run_id}"))?;
        let seq = steps + 1;

        let wake_json = to_json(&c.wake, "the wake")?;
        let next_json = to_json(&c.next, "the next step")?;
        tx.prepare_cached(
            "INSERT INTO checkpoints (run_id, seq, version, wake, state, next, status_text, \
             fuel_used, at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
        )
        .and_then(|mut stmt| {
            stmt.execute(params![
                run_id,
                seq,
                version,
                wake_json,
                c.state,
                next_json,
                c.status_text,
                c.fuel_used,
                c.at,
            ])
        })
        .ctx_with(|| format!("writing checkpoint {seq} of run {run_id}"))?;

        // A finished run waits for nothing, whatever the caller passed.
        let (status, outcome, pending, waits, wake_when) = match &c.next {
            Next::Continue => ("active", None, Some("resume"), &c.waits[..], &c.wake_when),
            Next::Wait { .. } => ("waiting", None, None, &c.waits[..], &c.wake_when),
            Next::Done { outcome } => ("done", Some(outcome), None, &[][..], &None),
        };
        let wait_list: Vec<&WaitFor> = waits.iter().map(|w| &w.wait).collect();
        let waits_json = to_json(&wait_list, "the waits")?;
        tx.prepare_cached(
            "UPDATE runs SET status = ?2, status_text = ?3, state = ?4, outcome = ?5, \
             wake_when = ?6, waits = ?7, steps = ?8, fuel_used = fuel_used + ?9, attempts = 0, \
             last_error = NULL, retry_at = NULL, pending_wake = ?10, updated_at = ?11, \
             lease_owner = NULL, lease_expires = NULL WHERE run_id = ?1",
        )
        .and_then(|mut stmt| {
            stmt.execute(params![
                run_id,
                status,
                c.status_text,
                c.state,
                outcome,
                wake_when,
                waits_json,
                seq,
                c.fuel_used,
                pending,
                c.at,
            ])
        })
        .ctx_with(|| format!("updating run {run_id}"))?;

        consume_wake(tx, run_id, &c.wake, seq)?;

        tx.prepare_cached("DELETE FROM waits WHERE run_id = ?1")
            .and_then(|mut stmt| stmt.execute([run_id]))
            .ctx_with(|| format!("clearing the waits of run {run_id}"))?;
        for (pos, stored) in waits.iter().enumerate() {
            let (kind, key) = wait_key(&stored.wait);
            let wait_json = to_json(&stored.wait, "a wait")?;
            tx.prepare_cached(
                "INSERT INTO waits (run_id, pos, kind, key, due_at, wait) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            )
            .and_then(|mut stmt| {
                stmt.execute(params![
                    run_id,
                    pos as i64,
                    kind,
                    key,
                    stored.due_at.map(clamp_time),
                    wait_json
                ])
            })
            .ctx_with(|| format!("recording a {kind} wait of run {run_id}"))?;

            // A request asked again keeps its first expiry and token: waiting
            // again must not extend the time an approver has.
            if let WaitFor::Approval(request) = &stored.wait {
                let expires = clamp_time(c.at.saturating_add(request.valid_for_ms));
                let token = new_token()?;
                tx.prepare_cached(
                    "INSERT INTO approvals (run_id, id, question, details, details_digest, token, \
                     requested_at, expires_at, answered, consumed) \
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, 0, 0) \
                     ON CONFLICT (run_id, id) DO NOTHING",
                )
                .and_then(|mut stmt| {
                    stmt.execute(params![
                        run_id,
                        request.id,
                        request.question,
                        request.details,
                        sha256_hex(&request.details),
                        token,
                        c.at,
                        expires,
                    ])
                })
                .ctx_with(|| {
                    format!("recording approval request {} of run {run_id}", request.id)
                })?;
                // The request's own expiry is the truth, whatever the
                // caller computed: the claim filter finds it by `due_at`.
                tx.prepare_cached(
                    "UPDATE waits SET due_at = (SELECT expires_at FROM approvals \
                     WHERE run_id = ?1 AND id = ?2) WHERE run_id = ?1 AND pos = ?3",
                )
                .and_then(|mut stmt| stmt.execute(params![run_id, request.id, pos as i64]))
                .ctx_with(|| format!("timing approval request {} of run {run_id}", request.id))?;
            }
        }

        for entry in &c.audit {
            audit::insert(tx, entry, c.at)?;
        }

        // The step is kept; only the next one waits for an operator. Its
        // waits stay, so a resume puts the run back where this step left it.
        if let (Some(reason), false) = (&c.park, status == "done") {
            tx.prepare_cached(
                "UPDATE runs SET status = 'parked', status_text = ?2, last_error = ?3 \
                 WHERE run_id = ?1",
            )
            .and_then(|mut stmt| stmt.execute(params![run_id, format!("parked: {reason}"), reason]))
            .ctx_with(|| format!("parking run {run_id}"))?;
            audit::insert_kind(
                tx,
                Some(run_id),
                "parked",
                json!({ "reason": reason }),
                c.at,
            )?;
        }
        Ok(())
    })
}

/// Marks the delivered wake as used so that no later claim delivers it again.
/// Start, resume and timer wakes live in the run row and its waits, which
/// the commit rewrites.
fn consume_wake(conn: &Connection, run_id: &str, wake: &Wake, seq: u64) -> Result<()> {
    match wake {
        Wake::Event(event) => {
            conn.prepare_cached(
                "UPDATE inbox SET consumed_at_step = ?3 \
                 WHERE run_id = ?1 AND event_id = ?2 AND consumed_at_step IS NULL",
            )
            .and_then(|mut stmt| stmt.execute(params![run_id, event.id, seq]))
            .ctx_with(|| format!("consuming event {} of run {run_id}", event.id))?;
        }
        Wake::Approval(ApprovalAnswer { request_id, .. }) | Wake::Expired { request_id } => {
            conn.prepare_cached("UPDATE approvals SET consumed = 1 WHERE run_id = ?1 AND id = ?2")
                .and_then(|mut stmt| stmt.execute([run_id, request_id]))
                .ctx_with(|| format!("consuming approval {request_id} of run {run_id}"))?;
        }
        Wake::Start { .. } | Wake::Timer { .. } | Wake::Resume => {}
    }
    Ok(())
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
    at: Millis,
) -> Result<()> {
    write(conn, &format!("parking run {run_id}"), |tx| {
        check_claim(tx, run_id, epoch)?;
        tx.prepare_cached(
            "UPDATE runs SET status = 'parked', status_text = ?2, last_error = ?3, \
             updated_at = ?4, lease_owner = NULL, lease_expires = NULL WHERE run_id = ?1",
        )
        .and_then(|mut stmt| stmt.execute(params![run_id, format!("parked: {reason}"), reason, at]))
        .ctx_with(|| format!("updating run {run_id}"))?;
        audit::insert_kind(tx, Some(run_id), "parked", json!({ "reason": reason }), at)
    })
}

pub(super) fn cancel(
    conn: &mut Connection,
    run_id: &str,
    reason: &str,
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
            json!({ "reason": reason }),
            at,
        )?;
        Ok(true)
    })
}

pub(super) fn release(conn: &mut Connection, run_id: &str, epoch: u64) -> Result<()> {
    write(conn, &format!("releasing run {run_id}"), |tx| {
        check_claim(tx, run_id, epoch)?;
        tx.prepare_cached(
            "UPDATE runs SET lease_owner = NULL, lease_expires = NULL WHERE run_id = ?1",
        )
        .and_then(|mut stmt| stmt.execute([run_id]))
        .ctx_with(|| format!("releasing the lease on run {run_id}"))?;
        Ok(())
    })
}
