//! What the outside world does to runs: events into inboxes, human answers
//! to approval requests, an operator resuming a parked run. None of these
//! steps a run; they make a wake that the next claim delivers.

use super::db::{Connection, OptionalExtension, params};
use chrono::{DateTime, SecondsFormat};
use serde_json::json;

use super::SqlStore;
use super::runs::{self, run_exists};
use super::{Context, audit, budget_to_sql, clamp_time, write};
use crate::model::{ApprovalAnswer, Event, Millis};
use crate::store::{AnswerRefused, Approval, AuditEntry, Budgets, Delivery, Result, StoreError};

/// What the outside world does to runs: events, approval answers, resuming parked runs.
impl SqlStore {
    /// Puts an event in one run's inbox. Stored even if the run does not wait
    /// on that topic yet: it is delivered when the run does.
    pub fn deliver_event(&mut self, run_id: &str, event: &Event) -> Result<Delivery> {
        deliver_event(&mut self.conn, run_id, event, None)
    }

    /// Delivers as `deliver_event`, appending `audit` (who sent it) in the
    /// same transaction when the event is accepted.
    pub fn deliver_event_audited(
        &mut self,
        run_id: &str,
        event: &Event,
        audit: &AuditEntry,
    ) -> Result<Delivery> {
        deliver_event(&mut self.conn, run_id, event, Some(audit))
    }

    /// Puts an event in the inbox of every live run that waits on its topic,
    /// and keeps it until `keep_until` for the runs that were live when it
    /// was sent: a commit that makes such a run wait on the topic puts the
    /// event in its inbox (once per run, however often it waits again).
    /// Costs one row plus the runs waiting now, whatever the number of
    /// live runs. Appends, in the same transaction, one copy of `audit`
    /// (who sent it) for each run that accepted the event, with that run's
    /// id: one commit however many runs took it, and no delivery without
    /// its row.
    pub fn broadcast_event(
        &mut self,
        event: &Event,
        keep_until: Millis,
        audit: &AuditEntry,
    ) -> Result<Vec<(String, Delivery)>> {
        broadcast_event(&mut self.conn, event, keep_until, audit)
    }

    /// Records a human's answer, stamped `answer.at` by the host. Refused
    /// (and nothing changes) when the request is unknown, already answered,
    /// no longer waited on, expired at `answer.at`, or when
    /// `details_digest` is given and differs from the request's. Appends an
    /// `approval` audit row; a refusal for expiry appends an `approval
    /// refused` row and changes nothing else.
    pub fn answer_approval(
        &mut self,
        run_id: &str,
        answer: &ApprovalAnswer,
        details_digest: Option<&str>,
    ) -> Result<Result<Approval, AnswerRefused>> {
        let answered = answer_approval(&mut self.conn, run_id, answer, details_digest)?;
        Ok(answered.map(|mut a| {
            self.reveal_link(&mut a);
            a
        }))
    }

    /// An operator resumes a parked run: the wake it was parked on is
    /// delivered again (nothing was consumed), its failed attempts are
    /// forgotten and its budgets (steps, fuel, tokens, money) are set to the
    /// ones given. Appends a
    /// `resume` audit row. Returns false when it was not parked.
    pub fn resume_parked(
        &mut self,
        run_id: &str,
        budgets: &Budgets,
        by: &str,
        at: Millis,
    ) -> Result<bool> {
        resume_parked(&mut self.conn, run_id, budgets, by, at)
    }
}

/// Offers `event` to one run inside the caller's transaction.
pub(super) fn offer(conn: &Connection, run_id: &str, event: &Event) -> Result<Delivery> {
    let status: Option<String> = conn
        .prepare_cached("SELECT status FROM runs WHERE run_id = ?1")
        .and_then(|mut stmt| stmt.query_row([run_id], |row| row.get(0)).optional())
        .ctx_with(|| format!("looking up run {run_id}"))?;
    match status.as_deref() {
        None => return Err(StoreError::UnknownRun(run_id.to_string())),
        Some("done" | "cancelled") => return Ok(Delivery::Finished),
        Some(_) => {}
    }
    let inserted = conn
        .prepare_cached(
            "INSERT INTO inbox (run_id, event_id, topic, payload, received_at) \
             VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (run_id, event_id) DO NOTHING",
        )
        .and_then(|mut stmt| {
            stmt.execute(params![
                run_id,
                event.id,
                event.topic,
                event.payload,
                event.received_at
            ])
        })
        .ctx_with(|| format!("storing event {} for run {run_id}", event.id))?;
    if inserted == 0 {
        return Ok(Delivery::Duplicate);
    }
    super::wake_workers(conn)?;
    Ok(Delivery::Accepted)
}

pub(super) fn deliver_event(
    conn: &mut Connection,
    run_id: &str,
    event: &Event,
    audit: Option<&AuditEntry>,
) -> Result<Delivery> {
    write(
        conn,
        &format!("delivering event {} to run {run_id}", event.id),
        |tx| {
            let delivery = offer(tx, run_id, event)?;
            if let (Delivery::Accepted, Some(entry)) = (delivery, audit) {
                audit::insert(tx, entry, event.received_at)?;
            }
            Ok(delivery)
        },
    )
}

/// Offers `event` to every live run waiting on its topic and keeps it for
/// the others until `keep_until`, and appends a copy of `audit` for each
/// run that accepted the event, under that run's id, in the same
/// transaction.
pub(super) fn broadcast_event(
    conn: &mut Connection,
    event: &Event,
    keep_until: Millis,
    audit: &AuditEntry,
) -> Result<Vec<(String, Delivery)>> {
    write(
        conn,
        &format!("broadcasting event {} on topic {}", event.id, event.topic),
        |tx| {
            tx.prepare_cached("DELETE FROM broadcasts WHERE expires_at <= ?1")
                .and_then(|mut stmt| stmt.execute([event.received_at]))
                .ctx("forgetting expired broadcasts")?;
            tx.prepare_cached(
                "INSERT INTO broadcasts (topic, event_id, payload, received_at, expires_at) \
                 VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (topic, event_id) DO NOTHING",
            )
            .and_then(|mut stmt| {
                stmt.execute(params![
                    event.topic,
                    event.id,
                    event.payload,
                    event.received_at,
                    clamp_time(keep_until)
                ])
            })
            .ctx_with(|| format!("keeping event {} on topic {}", event.id, event.topic))?;
            let run_ids: Vec<String> = tx
                .prepare_cached(
                    "SELECT DISTINCT r.run_id FROM runs r JOIN waits w ON w.run_id = r.run_id \
                     WHERE w.kind = 'event' AND w.key = ?1 \
                       AND r.status IN ('active', 'waiting', 'parked') \
                     ORDER BY r.run_id",
                )
                .and_then(|mut stmt| {
                    stmt.query_map([&event.topic], |row| row.get(0))?
                        .collect::<super::db::Result<Vec<_>>>()
                })
                .ctx_with(|| format!("finding runs waiting on topic {}", event.topic))?;
            let sent = run_ids
                .into_iter()
                .map(|run_id| {
                    let delivery = offer(tx, &run_id, event)?;
                    Ok((run_id, delivery))
                })
                .collect::<Result<Vec<_>>>()?;
            let rows: Vec<AuditEntry> = sent
                .iter()
                .filter(|(_, delivery)| *delivery == Delivery::Accepted)
                .map(|(run_id, _)| AuditEntry {
                    run_id: Some(run_id.clone()),
                    ..audit.clone()
                })
                .collect();
            audit::insert_all(tx, &rows, event.received_at)?;
            crate::failpoint::hit("broadcast", &event.id);
            Ok(sent)
        },
    )
}

pub(super) fn rfc3339(ms: Millis) -> String {
    i64::try_from(ms)
        .ok()
        .and_then(DateTime::from_timestamp_millis)
        .map(|t| t.to_rfc3339_opts(SecondsFormat::AutoSi, true))
        .unwrap_or_else(|| format!("{ms} ms after the Unix epoch"))
}

pub(super) fn answer_approval(
    conn: &mut Connection,
    run_id: &str,
    answer: &ApprovalAnswer,
    details_digest: Option<&str>,
) -> Result<Result<Approval, AnswerRefused>> {
    let request = answer.request_id.as_str();
    write(
        conn,
        &format!("answering approval request {request} of run {run_id}"),
        |tx| {
            super::wake_workers(tx)?;
            let checked = answerable(tx, run_id, answer, details_digest)?;
            if let Err(AnswerRefused::Expired { expires_at, .. }) = &checked {
                audit::insert_kind(
                    tx,
                    Some(run_id),
                    "approval refused",
                    json!({
                        "request_id": request,
                        "by": answer.by,
                        "said": answer.said,
                        "approved": answer.approved,
                        "reason": "expired",
                        "expires_at": expires_at,
                    }),
                    answer.at,
                )?;
            }
            if let Err(refused) = checked {
                return Ok(Err(refused));
            }
            tx.prepare_cached(
                "UPDATE approvals SET answered = 1, approved = ?3, answered_by = ?4, \
                 answered_at = ?5, comment = ?6, answered_said = ?7 \
                 WHERE run_id = ?1 AND id = ?2 AND answered = 0",
            )
            .and_then(|mut stmt| {
                stmt.execute(params![
                    run_id,
                    request,
                    answer.approved,
                    answer.by,
                    answer.at,
                    answer.comment,
                    answer.said
                ])
            })
            .ctx_with(|| format!("recording the answer to {request} of run {run_id}"))?;
            audit::insert_kind(
                tx,
                Some(run_id),
                "approval",
                json!({
                    "request_id": request,
                    "by": answer.by,
                    "said": answer.said,
                    "approved": answer.approved,
                    "comment": answer.comment,
                }),
                answer.at,
            )?;
            answered(tx, run_id, request).map(Ok)
        },
    )
}

/// The request `answer` answers, if an answer to it may be taken now
/// (reads only): its run and request exist, it is not answered yet, it
/// has not expired at `answer.at`, its details are those the answerer saw
/// (`details_digest`, when given), and the run waits for it. A single
/// answer and a vote towards a quorum are checked alike.
pub(super) fn answerable(
    tx: &Connection,
    run_id: &str,
    answer: &ApprovalAnswer,
    details_digest: Option<&str>,
) -> Result<Result<Approval, AnswerRefused>> {
    let request = answer.request_id.as_str();
    let (run, req) = (run_id.to_string(), request.to_string());
    if !run_exists(tx, run_id)? {
        return Ok(Err(AnswerRefused::UnknownRun(run)));
    }
    let Some((approval, expiry_delivered)) = runs::approval(tx, run_id, request)? else {
        return Ok(Err(AnswerRefused::UnknownRequest { run, request: req }));
    };
    if let Some(previous) = &approval.answer {
        let by = match &previous.said {
            Some(said) => format!("{} (said: {said})", previous.by),
            None => previous.by.clone(),
        };
        return Ok(Err(AnswerRefused::AlreadyAnswered {
            run,
            request: req,
            by,
        }));
    }
    // The request is valid in [requested_at, expires_at): a claim at
    // `expires_at` already delivers `Expired`, so an answer stamped then
    // must lose. Once a claim delivered `Expired`, the run is told the
    // request lapsed, even if the time this answer was stamped with (read
    // before that claim) says otherwise.
    if answer.at >= approval.expires_at || expiry_delivered || approval.consumed {
        return Ok(Err(AnswerRefused::Expired {
            run,
            request: req,
            expires_at: approval.expires_at,
            expires_at_text: rfc3339(approval.expires_at),
        }));
    }
    if let Some(digest) = details_digest
        && !digest.eq_ignore_ascii_case(&approval.details_digest)
    {
        return Ok(Err(AnswerRefused::DetailsChanged { run, request: req }));
    }
    let waited = tx
        .prepare_cached("SELECT 1 FROM waits WHERE run_id = ?1 AND kind = 'approval' AND key = ?2")
        .and_then(|mut stmt| stmt.exists([run_id, request]))
        .ctx_with(|| format!("checking that run {run_id} waits for {request}"))?;
    if !waited {
        return Ok(Err(AnswerRefused::NotWaiting { run, request: req }));
    }
    Ok(Ok(approval))
}

/// The request as it stands once answered in the caller's transaction.
pub(super) fn answered(tx: &Connection, run_id: &str, request: &str) -> Result<Approval> {
    let (stored, _) = runs::approval(tx, run_id, request)?.ok_or_else(|| {
        StoreError::Db(format!(
            "approval request {request} of run {run_id} vanished while being answered"
        ))
    })?;
    Ok(stored)
}

pub(super) fn resume_parked(
    conn: &mut Connection,
    run_id: &str,
    budgets: &Budgets,
    by: &str,
    at: Millis,
) -> Result<bool> {
    write(conn, &format!("resuming run {run_id}"), |tx| {
        super::wake_workers(tx)?;
        // Parking consumed nothing: the wake the run was parked on (its
        // start, a continue, an event, an answer) is still there and is
        // delivered again. A run with no pending start or continue goes
        // back to waiting for whatever it waited on.
        let changed = tx
            .prepare_cached(
                "UPDATE runs SET \
                 status = CASE WHEN pending_wake IS NOT NULL THEN 'active' ELSE 'waiting' END, \
                 attempts = 0, retry_at = NULL, status_text = 'resumed by an operator', \
                 step_budget = ?3, fuel_budget = ?4, token_budget = ?5, usd_budget = ?6, \
                 updated_at = ?2 WHERE run_id = ?1 AND status = 'parked'",
            )
            .and_then(|mut stmt| {
                stmt.execute(params![
                    run_id,
                    at,
                    budget_to_sql(budgets.steps),
                    budget_to_sql(budgets.fuel),
                    budget_to_sql(budgets.tokens),
                    budgets.usd,
                ])
            })
            .ctx_with(|| format!("resuming run {run_id}"))?;
        if changed == 0 {
            return if run_exists(tx, run_id)? {
                Ok(false)
            } else {
                Err(StoreError::UnknownRun(run_id.to_string()))
            };
        }
        audit::insert_kind(
            tx,
            Some(run_id),
            "resume",
            json!({ "from": "parked", "by": by }),
            at,
        )?;
        Ok(true)
    })
}

/// Puts into a run's inbox the kept broadcasts on `topic` that were sent
/// after the run was created and are still kept, inside the caller's
/// transaction (a commit that makes the run wait on `topic`). An event the
/// inbox already has, consumed or not, is not added again.
pub(super) fn deliver_kept(
    conn: &Connection,
    run_id: &str,
    topic: &str,
    now: Millis,
) -> Result<()> {
    conn.prepare_cached(
        "INSERT INTO inbox (run_id, event_id, topic, payload, received_at) \
         SELECT ?1, b.event_id, b.topic, b.payload, b.received_at FROM broadcasts b \
         WHERE b.topic = ?2 AND b.expires_at > ?3 \
           AND b.id > (SELECT broadcast_floor FROM runs WHERE run_id = ?1) \
         ORDER BY b.id \
         ON CONFLICT (run_id, event_id) DO NOTHING",
    )
    .and_then(|mut stmt| stmt.execute(params![run_id, topic, now]))
    .ctx_with(|| format!("delivering kept events on {topic} to run {run_id}"))?;
    Ok(())
}
