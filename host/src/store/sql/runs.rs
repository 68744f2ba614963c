//! Creating runs and reading them back with their checkpoints, inbox and
//! approval requests. Everything that changes a run after its creation lives
//! in `claims` (the step protocol) or `triggers` (the outside world).

use super::db::{Connection, OptionalExtension, Row, params};

use super::SqlStore;
use super::{Context, budget_from_sql, budget_to_sql, from_json, write};
use crate::model::{ApprovalAnswer, Event, Millis};
use crate::store::{
    Approval, AuditEntry, Checkpoint, InboxItem, NewRun, Result, Run, RunStatus, StoreError,
};

/// Creating runs and reading them back: checkpoints, inbox, approval requests.
impl SqlStore {
    pub fn create_run(&mut self, run: &NewRun) -> Result<()> {
        create_run(&mut self.conn, run, None)
    }

    /// Creates a run and appends `audit` (an operator's start), in one
    /// transaction: a run never exists without the row that says who
    /// started it.
    pub fn create_run_audited(&mut self, run: &NewRun, audit: &AuditEntry) -> Result<()> {
        create_run(&mut self.conn, run, Some(audit))
    }

    /// Every run, newest first.
    pub fn runs(&self) -> Result<Vec<Run>> {
        runs(&self.conn)
    }

    /// The ids of an agent's live runs (active, waiting or parked), newest
    /// first, read off the agent's index: an upgrade of one agent reads
    /// neither the other runs nor any run's state.
    pub fn live_run_ids(&self, agent: &str) -> Result<Vec<String>> {
        live_run_ids(&self.conn, agent)
    }

    pub fn run(&self, run_id: &str) -> Result<Option<Run>> {
        run(&self.conn, run_id)
    }

    /// The run's checkpoints, oldest first.
    pub fn checkpoints(&self, run_id: &str) -> Result<Vec<Checkpoint>> {
        checkpoints(&self.conn, run_id)
    }

    /// The run's approval requests, oldest first.
    pub fn approvals(&self, run_id: &str) -> Result<Vec<Approval>> {
        let mut approvals = approvals(&self.conn, run_id)?;
        approvals.iter_mut().for_each(|a| self.reveal_link(a));
        Ok(approvals)
    }

    /// The approval request an answer link's token names, if any. Tokens
    /// are unique across runs.
    pub fn approval_by_token(&self, token: &str) -> Result<Option<Approval>> {
        let hash = crate::store::links::token_hash(token);
        let found = approval_by_token(&self.conn, &hash)?;
        Ok(found.map(|mut a| {
            a.token = Some(token.to_string());
            a
        }))
    }

    /// The run's inbox, oldest first.
    pub fn inbox(&self, run_id: &str) -> Result<Vec<InboxItem>> {
        inbox(&self.conn, run_id)
    }

    /// Sets `approval.token` to its link's token when this host's key
    /// derives the token whose hash is stored.
    pub(super) fn reveal_link(&self, approval: &mut Approval) {
        let Some(key) = &self.links else { return };
        let token = key.approval_token(
            &approval.run_id,
            &approval.id,
            &approval.details_digest,
            approval.requested_at,
        );
        if crate::store::links::token_hash(&token) == approval.token_sha256 {
            approval.token = Some(token);
        }
    }
}

/// The columns [`RunRow::from_row`] reads, in its order (it reads them by
/// position); select them from `runs` alone (no join), so that each
/// result column is named after its column.
macro_rules! run_columns {
    () => {
        "run_id, agent, version, digest, status, status_text, state, outcome, wake_when, waits, \
         steps, fuel_used, step_budget, fuel_budget, tokens_used, token_budget, usd_used, \
         usd_budget, attempts, last_error, retry_at, input, created_at, updated_at, incarnation, \
         held_by"
    };
}

pub(super) struct RunRow {
    run_id: String,
    agent: String,
    version: String,
    digest: String,
    status: String,
    status_text: Option<String>,
    state: String,
    outcome: Option<String>,
    wake_when: Option<String>,
    waits: String,
    steps: u64,
    fuel_used: u64,
    step_budget: i64,
    fuel_budget: i64,
    tokens_used: u64,
    token_budget: i64,
    usd_used: f64,
    usd_budget: f64,
    attempts: u32,
    last_error: Option<String>,
    retry_at: Option<Millis>,
    input: String,
    created_at: Millis,
    updated_at: Millis,
    incarnation: String,
    held_by: Option<String>,
}

impl RunRow {
    pub(super) fn from_row(row: &Row<'_>) -> super::db::Result<RunRow> {
        Ok(RunRow {
            run_id: row.get((0, "run_id"))?,
            agent: row.get((1, "agent"))?,
            version: row.get((2, "version"))?,
            digest: row.get((3, "digest"))?,
            status: row.get((4, "status"))?,
            status_text: row.get((5, "status_text"))?,
            state: row.get((6, "state"))?,
            outcome: row.get((7, "outcome"))?,
            wake_when: row.get((8, "wake_when"))?,
            waits: row.get((9, "waits"))?,
            steps: row.get((10, "steps"))?,
            fuel_used: row.get((11, "fuel_used"))?,
            step_budget: row.get((12, "step_budget"))?,
            fuel_budget: row.get((13, "fuel_budget"))?,
            tokens_used: row.get((14, "tokens_used"))?,
            token_budget: row.get((15, "token_budget"))?,
            usd_used: row.get((16, "usd_used"))?,
            usd_budget: row.get((17, "usd_budget"))?,
            attempts: row.get((18, "attempts"))?,
            last_error: row.get((19, "last_error"))?,
            retry_at: row.get((20, "retry_at"))?,
            input: row.get((21, "input"))?,
            created_at: row.get((22, "created_at"))?,
            updated_at: row.get((23, "updated_at"))?,
            incarnation: row.get((24, "incarnation"))?,
            held_by: row.get((25, "held_by"))?,
        })
    }

    pub(super) fn into_run(self) -> Result<Run> {
        let status = RunStatus::parse(&self.status).ok_or_else(|| {
            StoreError::Corrupt(format!(
                "run {} has unknown status `{}`",
                self.run_id, self.status
            ))
        })?;
        let run_id = &self.run_id;
        let waits = from_json(&self.waits, || format!("waits of run {run_id}"))?;
        Ok(Run {
            run_id: self.run_id,
            agent: self.agent,
            version: self.version,
            digest: self.digest,
            status,
            status_text: self.status_text,
            state: self.state,
            outcome: self.outcome,
            wake_when: self.wake_when,
            waits,
            steps: self.steps,
            fuel_used: self.fuel_used,
            step_budget: budget_from_sql(self.step_budget),
            fuel_budget: budget_from_sql(self.fuel_budget),
            tokens_used: self.tokens_used,
            token_budget: budget_from_sql(self.token_budget),
            usd_used: self.usd_used,
            usd_budget: self.usd_budget,
            attempts: self.attempts,
            last_error: self.last_error,
            retry_at: self.retry_at,
            input: self.input,
            created_at: self.created_at,
            updated_at: self.updated_at,
            incarnation: self.incarnation,
            held_by: self.held_by,
        })
    }
}

pub(super) fn create_run(
    conn: &mut Connection,
    run: &NewRun,
    audit: Option<&AuditEntry>,
) -> Result<()> {
    write(conn, &format!("creating run {}", run.run_id), |tx| {
        fence_broadcasts(tx)?;
        super::wake_workers(tx)?;
        insert_run(tx, run)?;
        if let Some(entry) = audit {
            super::audit::insert(tx, entry, run.created_at)?;
        }
        Ok(())
    })
}

/// A run receives the broadcasts numbered above its `broadcast_floor`, the
/// highest number when it was created. PostgreSQL numbers rows when they
/// are inserted, not when they commit: a broadcast in flight could hold a
/// number below a later one already committed, and a run created between
/// the two commits would take the higher one as its floor and never
/// receive the first. Holding the table in SHARE mode waits for the
/// broadcasts in flight and keeps new ones out until the run is created
/// (runs created at once share it). First in the transaction: the snapshot
/// its reads see is taken after the lock. SQLite has one writer at a time.
fn fence_broadcasts(tx: &Connection) -> Result<()> {
    if tx.dialect() == super::db::Dialect::Postgres {
        tx.execute_batch("LOCK TABLE broadcasts IN SHARE MODE")
            .ctx("waiting for broadcasts in flight")?;
    }
    Ok(())
}

fn insert_run(tx: &Connection, run: &NewRun) -> Result<()> {
    {
        let exists = tx
            .prepare_cached("SELECT 1 FROM runs WHERE run_id = ?1")
            .and_then(|mut stmt| stmt.exists([&run.run_id]))
            .ctx_with(|| format!("looking up run {}", run.run_id))?;
        if exists {
            return Err(StoreError::RunExists(run.run_id.clone()));
        }
        let retired = tx
            .prepare_cached("SELECT 1 FROM retired_runs WHERE run_id = ?1")
            .and_then(|mut stmt| stmt.exists([&run.run_id]))
            .ctx_with(|| format!("looking up retired run {}", run.run_id))?;
        if retired {
            return Err(StoreError::RunIdRetired(run.run_id.clone()));
        }
        let known = tx
            .prepare_cached("SELECT 1 FROM agents WHERE digest = ?1")
            .and_then(|mut stmt| stmt.exists([&run.digest]))
            .ctx_with(|| format!("looking up agent digest {}", run.digest))?;
        if !known {
            return Err(StoreError::UnknownDigest(run.digest.clone()));
        }
        // A new run is active with its start input as the pending wake; its
        // state is JSON `null` until the first step writes one.
        let incarnation = &super::commits::new_token()?[..32];
        tx.prepare_cached(
            "INSERT INTO runs (run_id, agent, version, digest, status, state, waits, steps, \
             fuel_used, step_budget, fuel_budget, token_budget, usd_budget, attempts, input, \
             created_at, updated_at, pending_wake, epoch, incarnation, broadcast_floor) \
             VALUES (?1, ?2, ?3, ?4, 'active', 'null', '[]', 0, 0, ?5, ?6, ?9, ?10, 0, ?7, ?8, \
             ?8, 'start', 0, ?11, \
             (SELECT COALESCE(MAX(id), 0) FROM broadcasts))",
        )
        .and_then(|mut stmt| {
            stmt.execute(params![
                run.run_id,
                run.agent,
                run.version,
                run.digest,
                budget_to_sql(run.step_budget),
                budget_to_sql(run.fuel_budget),
                run.input,
                run.created_at,
                budget_to_sql(run.token_budget),
                run.usd_budget,
                incarnation,
            ])
        })
        .ctx_with(|| format!("inserting run {}", run.run_id))?;
        Ok(())
    }
}

pub(super) fn live_run_ids(conn: &Connection, agent: &str) -> Result<Vec<String>> {
    conn.prepare_cached(
        "SELECT run_id FROM runs WHERE agent = ?1 \
         AND (status = 'active' OR status = 'waiting' OR status = 'parked') \
         ORDER BY created_at DESC, run_id DESC",
    )
    .and_then(|mut stmt| {
        stmt.query_map([agent], |row| row.get(0))?
            .collect::<super::db::Result<Vec<_>>>()
    })
    .ctx_with(|| format!("listing the live runs of agent {agent}"))
}

pub(super) fn runs(conn: &Connection) -> Result<Vec<Run>> {
    let rows = conn
        .prepare_cached(concat!(
            "SELECT ",
            run_columns!(),
            " FROM runs ORDER BY created_at DESC, rowid DESC"
        ))
        .and_then(|mut stmt| {
            stmt.query_map(params![], RunRow::from_row)?
                .collect::<super::db::Result<Vec<_>>>()
        })
        .ctx("listing runs")?;
    rows.into_iter().map(RunRow::into_run).collect()
}

pub(super) fn run(conn: &Connection, run_id: &str) -> Result<Option<Run>> {
    conn.prepare_cached(concat!(
        "SELECT ",
        run_columns!(),
        " FROM runs WHERE run_id = ?1"
    ))
    .and_then(|mut stmt| stmt.query_row([run_id], RunRow::from_row).optional())
    .ctx_with(|| format!("reading run {run_id}"))?
    .map(RunRow::into_run)
    .transpose()
}

/// Leases run `run_id` to `owner` until `expires`, bumping its epoch, and
/// reads it as leased in the same statement: its epoch and the run.
pub(super) fn lease(
    tx: &Connection,
    run_id: &str,
    owner: &str,
    expires: Millis,
) -> Result<Option<(u64, Run)>> {
    // Written, then read, in the caller's transaction: `RETURNING` makes
    // SQLite collect the returned rows in a temporary table, built and
    // dropped for every claim.
    let leased = tx
        .prepare_cached(
            "UPDATE runs SET lease_owner = ?2, lease_expires = ?3, epoch = epoch + 1, \
             held_by = NULL WHERE run_id = ?1",
        )
        .and_then(|mut stmt| stmt.execute(params![run_id, owner, expires]))
        .ctx_with(|| format!("leasing run {run_id}"))?;
    if leased == 0 {
        return Ok(None);
    }
    tx.prepare_cached(concat!(
        "SELECT ",
        run_columns!(),
        ", epoch FROM runs WHERE run_id = ?1"
    ))
    .and_then(|mut stmt| {
        stmt.query_row(params![run_id], |row| {
            Ok((row.get((26, "epoch"))?, RunRow::from_row(row)?))
        })
        .optional()
    })
    .ctx_with(|| format!("reading run {run_id} as leased"))?
    .map(|(epoch, row)| Ok((epoch, row.into_run()?)))
    .transpose()
}

pub(super) fn run_exists(conn: &Connection, run_id: &str) -> Result<bool> {
    conn.prepare_cached("SELECT 1 FROM runs WHERE run_id = ?1")
        .and_then(|mut stmt| stmt.exists([run_id]))
        .ctx_with(|| format!("looking up run {run_id}"))
}

pub(super) struct CheckpointRow {
    pub(super) run_id: String,
    pub(super) seq: u64,
    pub(super) version: String,
    pub(super) wake: Option<String>,
    pub(super) upgraded_from: Option<String>,
    pub(super) state: String,
    /// `state` is an edit of the previous checkpoint's (`delta.rs`).
    pub(super) state_is_edit: bool,
    pub(super) next: String,
    pub(super) status_text: Option<String>,
    pub(super) fuel_used: u64,
    pub(super) at: Millis,
}

impl CheckpointRow {
    pub(super) fn from_row(row: &Row<'_>) -> super::db::Result<CheckpointRow> {
        Ok(CheckpointRow {
            run_id: row.get((0, "run_id"))?,
            seq: row.get((1, "seq"))?,
            version: row.get((2, "version"))?,
            wake: row.get((3, "wake"))?,
            upgraded_from: row.get((4, "upgraded_from"))?,
            state: row.get((5, "state"))?,
            state_is_edit: row.get::<_, i64>((10, "state_is_edit"))? == 1,
            next: row.get((6, "next"))?,
            status_text: row.get((7, "status_text"))?,
            fuel_used: row.get((8, "fuel_used"))?,
            at: row.get((9, "at"))?,
        })
    }

    fn into_checkpoint(self) -> Result<Checkpoint> {
        let what =
            |field: &str| format!("{field} of checkpoint {} of run {}", self.seq, self.run_id);
        let wake = match &self.wake {
            Some(wake) => Some(from_json(wake, || what("wake"))?),
            None => None,
        };
        let next = from_json(&self.next, || what("next"))?;
        Ok(Checkpoint {
            run_id: self.run_id,
            seq: self.seq,
            version: self.version,
            wake,
            upgraded_from: self.upgraded_from,
            state: self.state,
            next,
            status_text: self.status_text,
            fuel_used: self.fuel_used,
            at: self.at,
        })
    }
}

/// The run's checkpoints in the live table, as stored, oldest first.
pub(super) fn live_checkpoints(conn: &Connection, run_id: &str) -> Result<Vec<CheckpointRow>> {
    conn.prepare_cached(
        "SELECT run_id, seq, version, wake, upgraded_from, state, next, status_text, \
         fuel_used, at, state_is_edit \
         FROM checkpoints WHERE run_id = ?1 ORDER BY seq",
    )
    .and_then(|mut stmt| {
        stmt.query_map([run_id], CheckpointRow::from_row)?
            .collect::<super::db::Result<Vec<_>>>()
    })
    .ctx_with(|| format!("reading the checkpoints of run {run_id}"))
}

pub(super) fn checkpoints(conn: &Connection, run_id: &str) -> Result<Vec<Checkpoint>> {
    let rows = live_checkpoints(conn, run_id)?;
    // An ended run's checkpoints are in its archive, read second: a run
    // packed between the two reads shows its rows in both, kept once.
    let mut archived = super::archive::read(conn, run_id)?.checkpoints(run_id);
    let rows = if archived.is_empty() {
        rows
    } else {
        archived.extend(rows);
        archived.sort_by_key(|c| c.seq);
        archived.dedup_by_key(|c| c.seq);
        archived
    };
    let mut previous: Option<String> = None;
    let mut checkpoints = Vec::with_capacity(rows.len());
    for mut row in rows {
        if row.state_is_edit {
            row.state = previous
                .as_deref()
                .ok_or(super::delta::Unfit::Damaged)
                .and_then(|base| super::delta::decode(base, &row.state))
                .map_err(|unfit| unfit_edit(run_id, row.seq, unfit))?;
        }
        previous = Some(row.state.clone());
        checkpoints.push(row.into_checkpoint()?);
    }
    Ok(checkpoints)
}

/// The damage of a checkpoint stored as an edit that gives back no state.
fn unfit_edit(run_id: &str, seq: u64, unfit: super::delta::Unfit) -> StoreError {
    let why = match unfit {
        super::delta::Unfit::Damaged => "which it does not fit".to_string(),
        super::delta::Unfit::TooLarge => format!(
            "and would give back more than {} KiB, which no edit the host stores does",
            super::delta::MAX_TEXT >> 10
        ),
    };
    StoreError::Corrupt(format!(
        "checkpoint {seq} of run {run_id} is stored as an edit of the one before, {why}; \
         restore the store from a backup (`wakeful backup`)"
    ))
}

/// The columns [`ApprovalRow::from_row`] reads (unqualified, as above).
macro_rules! approval_columns {
    () => {
        "run_id, id, question, details, details_digest, token, requested_at, expires_at, \
         answered, approved, answered_by, answered_at, comment, consumed, expiry_delivered, \
         votes, used_calls, answered_said"
    };
}

pub(super) struct ApprovalRow {
    run_id: String,
    id: String,
    question: String,
    details: String,
    details_digest: String,
    token: String,
    requested_at: Millis,
    expires_at: Millis,
    answered: bool,
    approved: Option<bool>,
    answered_by: Option<String>,
    answered_said: Option<String>,
    answered_at: Option<Millis>,
    comment: Option<String>,
    consumed: bool,
    expiry_delivered: bool,
    votes: String,
    used_calls: String,
}

impl ApprovalRow {
    pub(super) fn from_row(row: &Row<'_>) -> super::db::Result<ApprovalRow> {
        Ok(ApprovalRow {
            run_id: row.get("run_id")?,
            id: row.get("id")?,
            question: row.get("question")?,
            details: row.get("details")?,
            details_digest: row.get("details_digest")?,
            token: row.get("token")?,
            requested_at: row.get("requested_at")?,
            expires_at: row.get("expires_at")?,
            answered: row.get("answered")?,
            approved: row.get("approved")?,
            answered_by: row.get("answered_by")?,
            answered_said: row.get("answered_said")?,
            answered_at: row.get("answered_at")?,
            comment: row.get("comment")?,
            consumed: row.get("consumed")?,
            expiry_delivered: row.get("expiry_delivered")?,
            votes: row.get("votes")?,
            used_calls: row.get("used_calls")?,
        })
    }

    pub(super) fn into_approval(self) -> Result<Approval> {
        let answer = if self.answered {
            match (self.approved, self.answered_by, self.answered_at) {
                (Some(approved), Some(by), Some(at)) => Some(ApprovalAnswer {
                    request_id: self.id.clone(),
                    approved,
                    by,
                    said: self.answered_said,
                    at,
                    comment: self.comment,
                    digest: self.details_digest.clone(),
                }),
                _ => {
                    return Err(StoreError::Corrupt(format!(
                        "approval {} of run {} is marked answered without an answer",
                        self.id, self.run_id
                    )));
                }
            }
        } else {
            None
        };
        let corrupt = |what: &str, e: serde_json::Error| {
            StoreError::Corrupt(format!(
                "the {what} of approval {} of run {} are not readable: {e}",
                self.id, self.run_id
            ))
        };
        let votes = serde_json::from_str(&self.votes).map_err(|e| corrupt("votes", e))?;
        let used_calls =
            serde_json::from_str(&self.used_calls).map_err(|e| corrupt("used calls", e))?;
        Ok(Approval {
            votes,
            used_calls,
            run_id: self.run_id,
            id: self.id,
            question: self.question,
            details: self.details,
            details_digest: self.details_digest,
            token: None,
            token_sha256: self.token,
            requested_at: self.requested_at,
            expires_at: self.expires_at,
            answer,
            consumed: self.consumed,
        })
    }
}

pub(super) fn approvals(conn: &Connection, run_id: &str) -> Result<Vec<Approval>> {
    let rows = conn
        .prepare_cached(concat!(
            "SELECT ",
            approval_columns!(),
            " FROM approvals WHERE run_id = ?1 ORDER BY requested_at, rowid"
        ))
        .and_then(|mut stmt| {
            stmt.query_map([run_id], ApprovalRow::from_row)?
                .collect::<super::db::Result<Vec<_>>>()
        })
        .ctx_with(|| format!("reading the approval requests of run {run_id}"))?;
    rows.into_iter().map(ApprovalRow::into_approval).collect()
}

/// The approval request whose answer token has this SHA-256 (the column
/// is UNIQUE).
pub(super) fn approval_by_token(conn: &Connection, token: &str) -> Result<Option<Approval>> {
    conn.prepare_cached(concat!(
        "SELECT ",
        approval_columns!(),
        " FROM approvals WHERE token = ?1"
    ))
    .and_then(|mut stmt| stmt.query_row([token], ApprovalRow::from_row).optional())
    .ctx("looking up an approval by its token")?
    .map(ApprovalRow::into_approval)
    .transpose()
}

/// One approval request, and whether a claim already delivered it as
/// expired (a fact the store keeps to itself).
pub(super) fn approval(
    conn: &Connection,
    run_id: &str,
    id: &str,
) -> Result<Option<(Approval, bool)>> {
    conn.prepare_cached(concat!(
        "SELECT ",
        approval_columns!(),
        " FROM approvals WHERE run_id = ?1 AND id = ?2"
    ))
    .and_then(|mut stmt| {
        stmt.query_row([run_id, id], ApprovalRow::from_row)
            .optional()
    })
    .ctx_with(|| format!("reading approval request {id} of run {run_id}"))?
    .map(|row| {
        let expiry_delivered = row.expiry_delivered;
        Ok((row.into_approval()?, expiry_delivered))
    })
    .transpose()
}

/// Reads an inbox row (`event_id, topic, payload, received_at`) as an event.
pub(super) fn event_from_row(row: &Row<'_>) -> super::db::Result<Event> {
    Ok(Event {
        id: row.get("event_id")?,
        topic: row.get("topic")?,
        payload: row.get("payload")?,
        received_at: row.get("received_at")?,
    })
}

pub(super) fn inbox(conn: &Connection, run_id: &str) -> Result<Vec<InboxItem>> {
    conn.prepare_cached(
        "SELECT event_id, topic, payload, received_at, consumed_at_step FROM inbox \
         WHERE run_id = ?1 ORDER BY received_at, rowid",
    )
    .and_then(|mut stmt| {
        stmt.query_map([run_id], |row| {
            Ok(InboxItem {
                event: event_from_row(row)?,
                consumed_at_step: row.get("consumed_at_step")?,
            })
        })?
        .collect::<super::db::Result<Vec<_>>>()
    })
    .ctx_with(|| format!("reading the inbox of run {run_id}"))
}
