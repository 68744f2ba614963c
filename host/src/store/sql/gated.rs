//! Approvals the gate enforces: answers counted towards a quorum, and the
//! named calls of approved requests that tool calls used.

use serde_json::json;

use super::SqlStore;
use super::db::{Connection, params};
use super::runs;
use super::triggers::{answerable, answered};
use super::{Context, audit, to_json, write};
use crate::model::ApprovalAnswer;
use crate::store::{AnswerRefused, Approval, ApprovalUse, Result, StoreError, Vote};

/// Answers counted towards a quorum.
impl SqlStore {
    /// Records one principal's answer to a request that needs a quorum
    /// (replacing an earlier answer of theirs), refused as
    /// [`SqlStore::answer_approval`] refuses one; `decide` reads the request
    /// and its votes, and when it says they settle it, the request is
    /// answered (and its run woken). Appends an `approval vote` audit row,
    /// and an `approval` row when settled.
    pub fn vote_approval(
        &mut self,
        run_id: &str,
        answer: &ApprovalAnswer,
        details_digest: Option<&str>,
        decide: &dyn Fn(&Approval, &[Vote]) -> Option<bool>,
    ) -> Result<Result<Approval, AnswerRefused>> {
        vote(&mut self.conn, run_id, answer, details_digest, decide)
    }
}

/// Decides a request from its votes: `Some(approved)` once settled.
pub type Decide<'a> = &'a dyn Fn(&Approval, &[Vote]) -> Option<bool>;

/// Records one principal's answer (replacing an earlier one of theirs) to
/// a request that needs a quorum; answers the request when `decide` says
/// the votes settle it. Refused as [`super::triggers::answer_approval`]
/// refuses an answer.
pub(super) fn vote(
    conn: &mut Connection,
    run_id: &str,
    answer: &ApprovalAnswer,
    details_digest: Option<&str>,
    decide: Decide<'_>,
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
                    json!({"request_id": request, "by": answer.by, "approved": answer.approved,
                        "reason": "expired", "expires_at": expires_at}),
                    answer.at,
                )?;
            }
            let approval = match checked {
                Ok(approval) => approval,
                Err(refused) => return Ok(Err(refused)),
            };
            let mut votes = approval.votes.clone();
            votes.retain(|v| v.by != answer.by);
            votes.push(Vote {
                by: answer.by.clone(),
                approved: answer.approved,
                at: answer.at,
                comment: answer.comment.clone(),
            });
            let decided = decide(&approval, &votes);
            let text = to_json(&votes, "votes")?;
            tx.prepare_cached("UPDATE approvals SET votes = ?3 WHERE run_id = ?1 AND id = ?2")
                .and_then(|mut stmt| stmt.execute(params![run_id, request, text]))
                .ctx_with(|| format!("recording a vote on {request} of run {run_id}"))?;
            let yes: Vec<&str> = (votes.iter())
                .filter(|v| v.approved)
                .map(|v| v.by.as_str())
                .collect();
            audit::insert_kind(
                tx,
                Some(run_id),
                "approval vote",
                json!({"request_id": request, "by": answer.by, "approved": answer.approved,
                    "comment": answer.comment, "yes": yes, "settled": decided.is_some()}),
                answer.at,
            )?;
            if let Some(approved) = decided {
                let by = if approved {
                    yes.join(", ")
                } else {
                    answer.by.clone()
                };
                settle(tx, run_id, answer, approved, &by)?;
            }
            answered(tx, run_id, request).map(Ok)
        },
    )
}

/// Answers the request: the run is woken by it.
fn settle(
    tx: &Connection,
    run_id: &str,
    answer: &ApprovalAnswer,
    approved: bool,
    by: &str,
) -> Result<()> {
    let request = answer.request_id.as_str();
    tx.prepare_cached(
        "UPDATE approvals SET answered = 1, approved = ?3, answered_by = ?4, \
         answered_at = ?5, comment = ?6 WHERE run_id = ?1 AND id = ?2 AND answered = 0",
    )
    .and_then(|mut stmt| {
        stmt.execute(params![
            run_id,
            request,
            approved,
            by,
            answer.at,
            answer.comment
        ])
    })
    .ctx_with(|| format!("recording the answer to {request} of run {run_id}"))?;
    audit::insert_kind(
        tx,
        Some(run_id),
        "approval",
        json!({"request_id": request, "by": by, "approved": approved,
            "comment": answer.comment, "quorum": true}),
        answer.at,
    )
}

/// Refuses the step ([`StoreError::Conflict`]) when a named call it used
/// was used by another call meanwhile, or its request is gone; reads only,
/// so that a refused step leaves nothing behind.
pub(super) fn check_uses(tx: &Connection, uses: &[ApprovalUse]) -> Result<()> {
    for u in uses {
        let (run, request) = (&u.run_id, &u.request_id);
        let Some((approval, _)) = runs::approval(tx, run, request)? else {
            return Err(StoreError::Conflict(format!(
                "approval request {request} of run {run} is gone"
            )));
        };
        match approval.used_calls.get(&u.call_index) {
            Some(key) if *key != u.key => {
                return Err(StoreError::Conflict(format!(
                    "call {} of approval request {request} of run {run} was used by call {key}",
                    u.call_index
                )));
            }
            _ => {}
        }
    }
    Ok(())
}

/// Marks the named calls used, after [`check_uses`] in the same
/// transaction.
pub(super) fn write_uses(tx: &Connection, uses: &[ApprovalUse]) -> Result<()> {
    for u in uses {
        let (run, request) = (&u.run_id, &u.request_id);
        let Some((approval, _)) = runs::approval(tx, run, request)? else {
            continue;
        };
        let mut used = approval.used_calls;
        used.insert(u.call_index, u.key.clone());
        let text = to_json(&used, "used calls")?;
        tx.prepare_cached("UPDATE approvals SET used_calls = ?3 WHERE run_id = ?1 AND id = ?2")
            .and_then(|mut stmt| stmt.execute(params![run, request, text]))
            .ctx_with(|| format!("marking a call of {request} of run {run} used"))?;
    }
    Ok(())
}
