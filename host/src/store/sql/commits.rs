//! A step's commit, alone or grouped with others: its checkpoint, the run's
//! row, waits, approval requests, tool effects and audit rows, after the
//! claim's epoch is checked. The other writes that end a claim are in
//! `claim_ends`.

use super::db::{Connection, OptionalExtension, params};
use serde_json::json;

use super::SqlStore;
use super::claims::claim_holds;
use super::{Context, audit, clamp_time, to_json, write};
use super::{delta, runs};
use crate::model::{ApprovalAnswer, ApprovalRequest, Next, WaitFor, Wake, approval_digest};
use crate::store::links::{LinkKey, token_hash};
use crate::store::{ClaimedGroup, NextClaim};
use crate::store::{Result, StepCommit, StoreError, StoredWait};

/// Committing steps: a claim's checkpoint, waits, approvals and effects.
impl SqlStore {
    /// Writes the checkpoint, the run's new status and waits, consumes the
    /// delivered wake, records new approval requests (keeping the expiry of
    /// ones that already exist), appends the audit rows and releases the
    /// claim — all in one transaction.
    pub fn commit_step(&mut self, commit: &StepCommit) -> Result<()> {
        commit_step(&mut self.conn, commit, self.links.as_ref())?;
        self.checkpoint_when_due();
        if commit.ends_run() {
            self.pack_after_commit(&[commit.run_id.as_str()]);
        }
        Ok(())
    }

    /// Commits several steps in one transaction, with one flush to disk:
    /// each as [`commit_step`](SqlStore::commit_step) would, and each refused
    /// on its own (a lost claim, a cancelled run) without keeping the
    /// others from committing; the outer error is the database's, and then
    /// none committed.
    pub fn commit_steps(&mut self, commits: &[StepCommit]) -> Result<Vec<Result<()>>> {
        let prepared = prepare_steps(commits, self.links.as_ref())?;
        self.write_steps(commits, &prepared)
    }

    /// [`commit_steps`](SqlStore::commit_steps), then, while no other writer
    /// of the process can come between, [`claim_many`](SqlStore::claim_many)
    /// for the caller's next group (`busy`). The commit's outcome stands
    /// whatever the claim's: a claim that fails takes nothing.
    pub fn commit_steps_then_claim(
        &mut self,
        commits: &[StepCommit],
        next: NextClaim<'_>,
    ) -> Result<(Vec<Result<()>>, ClaimedGroup)> {
        // Encoded before the turn: the other workers wait for all that is
        // done under it.
        let prepared = prepare_steps(commits, self.links.as_ref())?;
        // Held across both: otherwise the other workers' commits, queued
        // for the turn meanwhile, all come before this worker's claim.
        let turn = self.conn.hold_writer_turn();
        let outcomes = self.write_steps(commits, &prepared)?;
        let claims = super::claims::claim_many(
            &mut self.conn,
            next.now,
            next.owner,
            next.lease_ms,
            next.max,
            true,
        )
        .unwrap_or_else(|e| {
            tracing::warn!(error = %e, "claiming the next group after a commit failed");
            Vec::new()
        });
        drop(turn);
        Ok((outcomes, claims))
    }

    /// Commits steps prepared by [`prepare_steps`], then hands
    /// on the runs they ended and the WAL's growth.
    fn write_steps(
        &mut self,
        commits: &[StepCommit],
        prepared: &[Prepared<'_>],
    ) -> Result<Vec<Result<()>>> {
        let outcomes = write_steps(&mut self.conn, commits, prepared)?;
        self.checkpoint_when_due();
        let ended: Vec<&str> = commits
            .iter()
            .zip(&outcomes)
            .filter(|(c, outcome)| outcome.is_ok() && c.ends_run())
            .map(|(c, _)| c.run_id.as_str())
            .collect();
        self.pack_after_commit(&ended);
        Ok(outcomes)
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

/// An unguessable token for an approval or callback link: 32 bytes from
/// the OS.
pub(super) fn new_token() -> Result<String> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes)
        .map_err(|e| StoreError::Db(format!("reading OS randomness for a link token: {e}")))?;
    Ok(hex::encode(bytes))
}

pub(super) fn commit_step(
    conn: &mut Connection,
    c: &StepCommit,
    links: Option<&LinkKey>,
) -> Result<()> {
    let run_id = c.run_id.as_str();
    let prepared = Prepared::of(c, c.state_before.as_deref(), links)?;
    write(conn, &format!("committing a step of run {run_id}"), |tx| {
        let mut rows = Vec::new();
        write_step(tx, c, None, false, &prepared, &mut rows)?;
        audit::insert_rows(tx, &rows)
    })
}

/// What a step's commit writes that can be worked out before the write
/// lock is taken: the other writers of the file wait for all that is done
/// under it. Encoding the state and the audit rows is a sixth of a step's
/// commit.
pub(super) struct Prepared<'a> {
    edit: Option<Edit<'a>>,
    /// The checkpoint's wake and next step, the run row's waits, and each
    /// wait as JSON text (with its approval request's digest and the
    /// SHA-256 of its answer link's token).
    wake_json: String,
    next_json: String,
    waits_json: String,
    each_wait: Vec<(String, Option<(String, String)>)>,
    /// The JSON of each of the step's own audit rows (`StepCommit::audit`).
    audit: Vec<String>,
    /// The held calls' rows (`Effects::calls`).
    calls: Vec<super::effects::CallText>,
}

/// A checkpoint's state encoded as an edit of the state its step started
/// from.
struct Edit<'a> {
    base: &'a str,
    /// `None` when an edit is not shorter than the state.
    text: Option<String>,
}

impl<'a> Prepared<'a> {
    fn of(c: &StepCommit, base: Option<&'a str>, links: Option<&LinkKey>) -> Result<Prepared<'a>> {
        let edit = base
            .filter(|_| c.keep_checkpoints.is_none())
            .map(|base| Edit {
                base,
                text: delta::encode(base, &c.state),
            });
        let audit = audit::data_of(&c.audit)?;
        let calls = super::effects::texts(&c.effects)?;
        let wait_list: Vec<&WaitFor> = match c.next {
            // A finished run waits for nothing, whatever the caller passed.
            Next::Done { .. } => vec![],
            _ => c.waits.iter().map(|w| &w.wait).collect(),
        };
        let each_wait = c
            .waits
            .iter()
            .map(|stored| {
                let digest = match &stored.wait {
                    WaitFor::Approval(r) => {
                        let digest = approval_digest(&r.question, &r.details);
                        let token = match links {
                            Some(key) => key.approval_token(&c.run_id, &r.id, &digest, c.at),
                            None => new_token()?,
                        };
                        Some((digest, token_hash(&token)))
                    }
                    _ => None,
                };
                Ok((to_json(&stored.wait, "a wait")?, digest))
            })
            .collect::<Result<_>>()?;
        Ok(Prepared {
            edit,
            wake_json: to_json(&c.wake, "the wake")?,
            next_json: to_json(&c.next, "the next step")?,
            waits_json: to_json(&wait_list, "the waits")?,
            each_wait,
            audit,
            calls,
        })
    }
}

/// What the group commit of `commits` ([`write_steps`]) writes that needs
/// no lock: a caller that holds the process's write turn across several
/// transactions works it out before it takes the turn.
pub(super) fn prepare_steps<'a>(
    commits: &'a [StepCommit],
    links: Option<&LinkKey>,
) -> Result<Vec<Prepared<'a>>> {
    // A step chained to the one before it starts from that step's state.
    commits
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let base = match i.checked_sub(1).map(|p| &commits[p]) {
                Some(prev) if prev.run_id == c.run_id && prev.keep_claim => Some(&prev.state[..]),
                _ => c.state_before.as_deref(),
            };
            Prepared::of(c, base, links)
        })
        .collect()
}

/// Group commit: the steps in one transaction, one flush to disk for all.
/// A step refused for what it is (its claim lost, its run gone, a kv key
/// or lease it wrote changed meanwhile) is refused before any of its writes
/// is made, so that it leaves nothing behind and the others commit: its
/// claim is read first, and its kv and lease writes are all checked before
/// the first of them (`effects::apply`). Later steps of a run whose step
/// was refused (chained after it) are not written: each was taken from the
/// state that step would have left.
/// A database error fails the whole transaction, which is run again when
/// PostgreSQL aborted it for a conflict.
/// `prepared` is what [`prepare_steps`] made of `commits`.
pub(super) fn write_steps(
    conn: &mut Connection,
    commits: &[StepCommit],
    prepared: &[Prepared<'_>],
) -> Result<Vec<Result<()>>> {
    write(conn, &format!("committing {} steps", commits.len()), |tx| {
        let mut outcomes = Vec::with_capacity(commits.len());
        // The written steps' audit rows, appended together at the end.
        let mut rows = Vec::new();
        let mut refused: Vec<&str> = vec![];
        // The last step written, while the next may be chained to it.
        let mut written: Option<(&StepCommit, Written)> = None;
        for (i, c) in commits.iter().enumerate() {
            let before = written
                .take()
                .filter(|(prev, _)| prev.run_id == c.run_id && prev.keep_claim)
                .map(|(prev, w)| Before {
                    seq: w.seq,
                    version: w.version,
                    state: &prev.state,
                    waits_cleared: prev.waits.is_empty(),
                    fuel_unwritten: w.fuel_unwritten,
                });
            let row_left = commits
                .get(i + 1)
                .is_some_and(|next| overwrites_run_row(c, next));
            if refused.contains(&c.run_id.as_str()) {
                outcomes.push(Err(StoreError::Conflict(format!(
                    "a step of run {} before this one in the same commit was refused",
                    c.run_id
                ))));
                continue;
            }
            match write_step(tx, c, before, row_left, &prepared[i], &mut rows) {
                Ok(w) => {
                    outcomes.push(Ok(()));
                    written = Some((c, w));
                }
                Err(
                    e @ (StoreError::LostClaim { .. }
                    | StoreError::UnknownRun(_)
                    | StoreError::Conflict(_)),
                ) => {
                    refused.push(&c.run_id);
                    outcomes.push(Err(e));
                }
                Err(e) => return Err(e),
            }
        }
        audit::insert_rows(tx, &rows)?;
        Ok(outcomes)
    })
}

/// Whether `next`, chained after `c` in the same commit, is sure to be
/// written over `c`'s run row: it cannot be refused alone (its claim is
/// `c`'s, and it has no kv or lease writes and no waits), so that writing
/// `c`'s row would only be overwritten. Its `UPDATE` is the costliest
/// statement of a step. A step that ends or parks the run writes its row
/// itself.
fn overwrites_run_row(c: &StepCommit, next: &StepCommit) -> bool {
    next.run_id == c.run_id
        && c.keep_claim
        && c.park.is_none()
        && !matches!(c.next, Next::Done { .. })
        && next.effects.kv.is_empty()
        && next.effects.leases.is_empty()
        && next.effects.approvals_used.is_empty()
        && next.waits.is_empty()
}

/// What a step wrote that the step chained after it needs.
struct Written {
    seq: u64,
    version: String,
    /// Fuel of this step and of the steps before it whose run row was
    /// left to a later step, not yet added to the row.
    fuel_unwritten: u64,
}

/// The step of the same run written just before in this transaction,
/// which kept its claim for this one (a chain): the claim was checked
/// there and the run's row holds what that step left, so neither is read
/// again.
struct Before<'a> {
    seq: u64,
    version: String,
    state: &'a str,
    /// Whether that step left the run with no waits (it continued).
    waits_cleared: bool,
    /// Fuel that step and the ones before it did not add to the run row.
    fuel_unwritten: u64,
}

/// Writes one step's commit inside the caller's transaction, but for its
/// audit rows, which it adds to `rows` for the caller to append (a group's
/// together: a statement's fixed cost, and `AUTOINCREMENT`'s read and
/// write of `sqlite_sequence`, paid once for many rows). A step refused
/// adds none: it is refused before it writes anything. With `row_left`,
/// the run's row is left to the step chained after it in the same
/// transaction (see [`overwrites_run_row`]).
fn write_step<'a>(
    tx: &Connection,
    c: &'a StepCommit,
    before: Option<Before<'_>>,
    row_left: bool,
    prepared: &'a Prepared<'_>,
    rows: &mut Vec<audit::Timed<'a>>,
) -> Result<Written> {
    let run_id = c.run_id.as_str();
    let waits_cleared = before.as_ref().is_some_and(|b| b.waits_cleared);
    let fuel_unwritten = before.as_ref().map_or(0, |b| b.fuel_unwritten) + c.fuel_used;
    let (steps, version, previous) = starting_point(tx, c, before)?;
    let recorded = super::effects::apply(tx, &c.effects, &prepared.calls, c.at)?;
    let seq = steps + 1;
    write_checkpoint(tx, c, prepared, seq, &version, &previous)?;
    let row = RowChange::of(c);
    if !row_left {
        write_run_row(tx, c, prepared, &row, seq, fuel_unwritten)?;
    }
    consume_wake(tx, run_id, &c.wake, seq)?;
    write_waits(tx, c, prepared, row.waits, waits_cleared)?;

    // The calls' rows first, in the order they were written before.
    rows.extend(
        recorded
            .iter()
            .map(|t| (&t.audit, &t.audit_json, c.at))
            .chain(
                c.audit
                    .iter()
                    .zip(&prepared.audit)
                    .map(|(e, d)| (e, d, c.at)),
            ),
    );
    // The step is kept; only the next one waits for an operator. Its
    // waits stay, so a resume puts the run back where this step left it.
    if let (Some(reason), false) = (&c.park, row.status == "done") {
        park_after(tx, c, reason, rows)?;
    }
    if row.status == "done" {
        super::archive::queue(tx, run_id)?;
    }
    Ok(Written {
        seq,
        version,
        fuel_unwritten: if row_left { fuel_unwritten } else { 0 },
    })
}

/// The run's step count, version and state the step starts from: those
/// the chained step before it left, or else read with the claim, which is
/// checked.
fn starting_point<'b>(
    tx: &Connection,
    c: &StepCommit,
    before: Option<Before<'b>>,
) -> Result<(u64, String, std::borrow::Cow<'b, str>)> {
    let run_id = c.run_id.as_str();
    if let Some(b) = before {
        return Ok((b.seq, b.version, b.state.into()));
    }
    // The claim and what the step starts from, in one read.
    let row: Option<(u64, bool, u64, String, String)> = tx
        .prepare_cached(
            "SELECT epoch, lease_owner IS NOT NULL, steps, version, state FROM runs \
             WHERE run_id = ?1",
        )
        .and_then(|mut stmt| {
            stmt.query_row([run_id], |row| {
                Ok((
                    row.get(0)?,
                    row.get(1)?,
                    row.get(2)?,
                    row.get(3)?,
                    row.get(4)?,
                ))
            })
            .optional()
        })
        .ctx_with(|| format!("reading run {run_id}"))?;
    claim_holds(run_id, c.epoch, row.as_ref().map(|r| (r.0, r.1)))?;
    let (_, _, steps, version, state) = row.expect("checked by claim_holds");
    Ok((steps, version, state.into()))
}

/// Writes checkpoint `seq`, and trims the run's history to the
/// checkpoints it keeps.
fn write_checkpoint(
    tx: &Connection,
    c: &StepCommit,
    prepared: &Prepared<'_>,
    seq: u64,
    version: &str,
    previous: &str,
) -> Result<()> {
    let run_id = c.run_id.as_str();
    // The run's state is that of its last checkpoint (every write of one
    // writes the other), so the new state is stored as an edit of it when
    // that is shorter; a run whose history is trimmed keeps whole states,
    // so that its oldest kept checkpoint never needs a deleted one.
    let edit = (seq > 1 && c.keep_checkpoints.is_none())
        .then(|| match &prepared.edit {
            Some(p) if p.base == previous => p.text.clone(),
            _ => delta::encode(previous, &c.state),
        })
        .flatten();
    tx.prepare_cached(
        "INSERT INTO checkpoints (run_id, seq, version, wake, state, next, status_text, \
         fuel_used, at, state_is_edit) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
    )
    .and_then(|mut stmt| {
        stmt.execute(params![
            run_id,
            seq,
            version,
            prepared.wake_json,
            edit.as_deref().unwrap_or(&c.state),
            prepared.next_json,
            c.status_text,
            c.fuel_used,
            c.at,
            i64::from(edit.is_some()),
        ])
    })
    .ctx_with(|| format!("writing checkpoint {seq} of run {run_id}"))?;
    if let Some(keep) = c.keep_checkpoints
        && seq > keep
    {
        trim_history(tx, run_id, seq - keep)?;
    }
    Ok(())
}

/// What a step's commit makes of its run's row.
struct RowChange<'a> {
    status: &'static str,
    outcome: Option<&'a String>,
    pending: Option<&'static str>,
    waits: &'a [StoredWait],
    wake_when: &'a Option<String>,
}

impl<'a> RowChange<'a> {
    fn of(c: &'a StepCommit) -> RowChange<'a> {
        // A finished run waits for nothing, whatever the caller passed.
        let (status, outcome, pending, waits, wake_when) = match &c.next {
            Next::Continue => ("active", None, Some("resume"), &c.waits[..], &c.wake_when),
            Next::Wait { .. } => ("waiting", None, None, &c.waits[..], &c.wake_when),
            Next::Done { outcome } => ("done", Some(outcome), None, &[][..], &None),
        };
        RowChange {
            status,
            outcome,
            pending,
            waits,
            wake_when,
        }
    }
}

/// Writes the run's row: its status, state and waits, the step counted,
/// the fuel not yet added, and its claim released or kept.
fn write_run_row(
    tx: &Connection,
    c: &StepCommit,
    prepared: &Prepared<'_>,
    row: &RowChange<'_>,
    seq: u64,
    fuel_unwritten: u64,
) -> Result<()> {
    let run_id = c.run_id.as_str();
    tx.prepare_cached(
        "UPDATE runs SET status = ?2, status_text = ?3, state = ?4, outcome = ?5, \
         wake_when = ?6, waits = ?7, steps = ?8, fuel_used = fuel_used + ?9, attempts = 0, \
         last_error = NULL, retry_at = NULL, pending_wake = ?10, updated_at = ?11, \
         lease_owner = CASE WHEN ?12 = 1 THEN lease_owner END, \
         lease_expires = CASE WHEN ?12 = 1 THEN lease_expires END WHERE run_id = ?1",
    )
    .and_then(|mut stmt| {
        stmt.execute(params![
            run_id,
            row.status,
            c.status_text,
            c.state,
            row.outcome,
            row.wake_when,
            prepared.waits_json,
            seq,
            fuel_unwritten,
            row.pending,
            c.at,
            i64::from(c.keep_claim),
        ])
    })
    .ctx_with(|| format!("updating run {run_id}"))?;
    Ok(())
}

/// Replaces the run's waits with `waits` (those the chained step before
/// cleared are not deleted again), delivering the events kept for a
/// topic it now waits on and recording its approval requests.
fn write_waits(
    tx: &Connection,
    c: &StepCommit,
    prepared: &Prepared<'_>,
    waits: &[StoredWait],
    waits_cleared: bool,
) -> Result<()> {
    let run_id = c.run_id.as_str();
    if !waits_cleared {
        tx.prepare_cached("DELETE FROM waits WHERE run_id = ?1")
            .and_then(|mut stmt| stmt.execute([run_id]))
            .ctx_with(|| format!("clearing the waits of run {run_id}"))?;
    }
    for (pos, stored) in waits.iter().enumerate() {
        let (kind, key) = wait_key(&stored.wait);
        let (wait_json, digest) = &prepared.each_wait[pos];
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

        if let WaitFor::Event { topic } = &stored.wait {
            super::triggers::deliver_kept(tx, run_id, topic, c.at)?;
        }
        if let WaitFor::Approval(request) = &stored.wait {
            write_approval_request(tx, c, request, pos, digest.as_ref())?;
        }
    }
    Ok(())
}

/// Records the approval request the wait at `pos` asks, with its digest
/// and its link token's SHA-256 (`digest`), timed by its own expiry.
///
/// A request asked again with the same question and details keeps its
/// first expiry, token and answer: waiting again must not extend the time
/// an approver has. Changed question or details make a new request in its
/// place: a new token (the old link is dead), a new expiry, and no answer,
/// since any answer was given to what the approver saw then. A request
/// already consumed is never re-opened (the worker refuses such a step).
fn write_approval_request(
    tx: &Connection,
    c: &StepCommit,
    request: &ApprovalRequest,
    pos: usize,
    digest: Option<&(String, String)>,
) -> Result<()> {
    let run_id = c.run_id.as_str();
    let expires = clamp_time(c.at.saturating_add(request.valid_for_ms));
    // Only the SHA-256 of the link's token is kept (`store::links`).
    let (digest, token): (Option<String>, Option<String>) = digest.cloned().unzip();
    tx.prepare_cached(
        "INSERT INTO approvals (run_id, id, question, details, details_digest, token, \
         requested_at, expires_at, answered, consumed) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, 0, 0) \
         ON CONFLICT (run_id, id) DO UPDATE SET question = excluded.question, \
         details = excluded.details, details_digest = excluded.details_digest, \
         token = excluded.token, requested_at = excluded.requested_at, \
         expires_at = excluded.expires_at, answered = 0, approved = NULL, \
         answered_by = NULL, answered_said = NULL, answered_at = NULL, comment = NULL, \
         expiry_delivered = 0, votes = '[]', used_calls = '{}' \
         WHERE approvals.consumed = 0 \
           AND approvals.details_digest <> excluded.details_digest",
    )
    .and_then(|mut stmt| {
        stmt.execute(params![
            run_id,
            request.id,
            request.question,
            request.details,
            digest,
            token,
            c.at,
            expires,
        ])
    })
    .ctx_with(|| format!("recording approval request {} of run {run_id}", request.id))?;
    // The request's own expiry is the truth, whatever the caller computed:
    // the claim filter finds it by `due_at`.
    tx.prepare_cached(
        "UPDATE waits SET due_at = (SELECT expires_at FROM approvals \
         WHERE run_id = ?1 AND id = ?2) WHERE run_id = ?1 AND pos = ?3",
    )
    .and_then(|mut stmt| stmt.execute(params![run_id, request.id, pos as i64]))
    .ctx_with(|| format!("timing approval request {} of run {run_id}", request.id))?;
    Ok(())
}

/// Parks the run after its step was written: the audit rows so far first
/// (the park's row follows the rows of the steps before it), then the
/// run's status and a `parked` row.
fn park_after(
    tx: &Connection,
    c: &StepCommit,
    reason: &str,
    rows: &mut Vec<audit::Timed<'_>>,
) -> Result<()> {
    let run_id = c.run_id.as_str();
    audit::insert_rows(tx, rows)?;
    rows.clear();
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
    )
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

/// Deletes a run's checkpoints up to `last`. The primary key (run_id, seq)
/// finds them: the cost of a step does not grow with the run's age. Should
/// the oldest one kept be stored as an edit (written before the run's
/// history was bounded), it is first written whole.
fn trim_history(tx: &Connection, run_id: &str, last: u64) -> Result<()> {
    let oldest_kept = last + 1;
    let is_edit: Option<i64> = tx
        .prepare_cached("SELECT state_is_edit FROM checkpoints WHERE run_id = ?1 AND seq = ?2")
        .and_then(|mut stmt| stmt.query_row(params![run_id, oldest_kept], |row| row.get(0)))
        .optional()
        .ctx_with(|| format!("reading checkpoint {oldest_kept} of run {run_id}"))?;
    if is_edit == Some(1) {
        let whole = runs::checkpoints(tx, run_id)?
            .into_iter()
            .find(|c| c.seq == oldest_kept)
            .map(|c| c.state)
            .ok_or_else(|| StoreError::UnknownRun(run_id.into()))?;
        tx.prepare_cached(
            "UPDATE checkpoints SET state = ?3, state_is_edit = 0 WHERE run_id = ?1 AND seq = ?2",
        )
        .and_then(|mut stmt| stmt.execute(params![run_id, oldest_kept, whole]))
        .ctx_with(|| format!("writing checkpoint {oldest_kept} of run {run_id} whole"))?;
    }
    tx.prepare_cached("DELETE FROM checkpoints WHERE run_id = ?1 AND seq <= ?2")
        .and_then(|mut stmt| stmt.execute(params![run_id, last]))
        .ctx_with(|| format!("deleting the oldest checkpoints of run {run_id}"))?;
    Ok(())
}
