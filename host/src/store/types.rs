//! Rows and requests that cross the store boundary. Plain data, no SQL.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::model::{ApprovalAnswer, Millis, Next, WaitFor, Wake};

/// A deployed build of an agent, without its bytes.
#[derive(Clone, Debug, Serialize)]
pub struct AgentVersion {
    pub name: String,
    pub version: String,
    pub digest: String,
    pub description: String,
    /// The tools this version asked for in its `info` export.
    pub requested_tools: Vec<String>,
    /// The tools the operator granted at deploy; calls to others are denied.
    pub granted_tools: Vec<String>,
    pub size: u64,
    pub deployed_at: Millis,
    /// Who answers for this version (seed 001: every agent acting on real
    /// systems needs a named human owner).
    pub owner: Option<String>,
    /// The principal who deployed this version; separation of duties keeps
    /// them from answering its runs' approval requests. None for a version
    /// deployed before the deployer was recorded.
    #[serde(default)]
    pub deployed_by: Option<String>,
}

/// What `put_agent` did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PutAgent {
    Inserted,
    /// The same bytes were already deployed under the same name and
    /// version, and no other owner was given: nothing changed.
    AlreadyDeployed,
    /// Already deployed; the owner was changed from `was` (with an
    /// `owner changed` audit row, in the same transaction).
    OwnerChanged {
        was: Option<String>,
    },
}

/// Where a run is in its life. Pausing is separate (kill switches): a paused
/// run keeps its status and takes no step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RunStatus {
    /// Has a wake to deliver now (start, continue, resume).
    Active,
    /// Sleeps until one of its waits happens.
    Waiting,
    /// Finished with an outcome.
    Done,
    /// Stopped for an operator: a budget is spent or a step kept failing.
    Parked,
    /// Ended by an operator; it takes no further step.
    Cancelled,
}

impl RunStatus {
    /// Done or cancelled: the run takes no further step.
    pub fn is_ended(self) -> bool {
        matches!(self, RunStatus::Done | RunStatus::Cancelled)
    }

    pub fn as_str(self) -> &'static str {
        match self {
            RunStatus::Active => "active",
            RunStatus::Waiting => "waiting",
            RunStatus::Done => "done",
            RunStatus::Parked => "parked",
            RunStatus::Cancelled => "cancelled",
        }
    }

    pub fn parse(s: &str) -> Option<RunStatus> {
        Some(match s {
            "active" => RunStatus::Active,
            "waiting" => RunStatus::Waiting,
            "done" => RunStatus::Done,
            "parked" => RunStatus::Parked,
            "cancelled" => RunStatus::Cancelled,
            _ => return None,
        })
    }
}

/// A request to create a run.
#[derive(Clone, Debug)]
pub struct NewRun {
    pub run_id: String,
    pub agent: String,
    pub version: String,
    pub digest: String,
    /// The start input (JSON text), delivered as the first wake.
    pub input: String,
    pub step_budget: u64,
    pub fuel_budget: u64,
    pub token_budget: u64,
    /// `0.0`: no money limit.
    pub usd_budget: f64,
    pub created_at: Millis,
}

/// A run as stored.
#[derive(Clone, Debug, Serialize)]
pub struct Run {
    pub run_id: String,
    pub agent: String,
    pub version: String,
    pub digest: String,
    pub status: RunStatus,
    pub status_text: Option<String>,
    /// JSON text of the latest checkpoint's state (`null` before the first step).
    pub state: String,
    pub outcome: Option<String>,
    /// The operator's text form of the current waits, e.g. `event:mail:invoice`.
    pub wake_when: Option<String>,
    pub waits: Vec<WaitFor>,
    /// Checkpoints written so far.
    pub steps: u64,
    pub fuel_used: u64,
    pub step_budget: u64,
    pub fuel_budget: u64,
    /// Model tokens charged by `llm` calls, once per recorded call.
    pub tokens_used: u64,
    pub token_budget: u64,
    pub usd_used: f64,
    /// `0.0`: no money limit.
    pub usd_budget: f64,
    /// Failed attempts of the current step since the last checkpoint.
    pub attempts: u32,
    pub last_error: Option<String>,
    /// A failed step is retried no earlier than this.
    pub retry_at: Option<Millis>,
    pub input: String,
    pub created_at: Millis,
    pub updated_at: Millis,
    /// Random per run, so that a run id reused after pruning is told apart
    /// from the run that had it before (in the keys sent to other systems).
    pub incarnation: String,
    /// The scope of the kill switch that stopped this run's last step in
    /// flight: while that switch is on, the run takes no step.
    pub held_by: Option<String>,
}

/// What is left of a pruned run: enough to say what its id was.
#[derive(Clone, Debug, Serialize)]
pub struct RetiredRun {
    pub run_id: String,
    pub agent: String,
    pub version: String,
    /// How it ended: `done` or `cancelled`.
    pub status: String,
    pub created_at: Millis,
    pub ended_at: Millis,
    pub pruned_at: Millis,
}

/// A step abandoned because a kill switch stopped it in flight.
#[derive(Clone, Debug)]
pub struct StepHeld {
    pub run_id: String,
    pub epoch: u64,
    /// The scope of the switch, e.g. `tool:pager`.
    pub scope: String,
    pub audit: Vec<AuditEntry>,
    pub at: Millis,
}

/// A due run that a live claim holds: another worker steps it, or a dead
/// worker's claim has not run out yet.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ClaimedRun {
    pub run_id: String,
    pub owner: String,
    pub expires: Millis,
}

/// What [`SqlStore::commit_steps_then_claim`](super::SqlStore::commit_steps_then_claim)
/// claims after its commit: as [`SqlStore::claim_many`](super::SqlStore::claim_many)'s
/// arguments.
#[derive(Clone, Copy, Debug)]
pub struct NextClaim<'a> {
    pub now: Millis,
    pub owner: &'a str,
    pub lease_ms: u64,
    pub max: usize,
}

/// Runs claimed together, each with the wake it is claimed for.
pub type ClaimedGroup = Vec<(Claim, Wake)>;

/// A run claimed by one worker: nobody else steps it until the lease expires
/// or is released. `epoch` fences every write of this claim.
#[derive(Clone, Debug)]
pub struct Claim {
    pub run: Run,
    pub epoch: u64,
    pub owner: String,
}

/// A wait as stored, with the time at which it is due (if it has one).
#[derive(Clone, Debug)]
pub struct StoredWait {
    pub wait: WaitFor,
    /// `until` time, next cron tick, or approval expiry.
    pub due_at: Option<Millis>,
}

/// An inbox item: an event delivered to a run, consumed by at most one step.
#[derive(Clone, Debug, Serialize)]
pub struct InboxItem {
    pub event: crate::model::Event,
    pub consumed_at_step: Option<u64>,
}

/// The result of offering an event to a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Delivery {
    Accepted,
    /// This run already has an event with that id; nothing changed.
    Duplicate,
    /// The run is done or cancelled; nothing was stored.
    Finished,
}

/// An approval request as stored.
#[derive(Clone, Debug, Serialize)]
pub struct Approval {
    pub run_id: String,
    pub id: String,
    pub question: String,
    /// JSON text.
    pub details: String,
    /// SHA-256 of `details`: an answer is bound to the details it was given for.
    pub details_digest: String,
    /// The answer link's token, which lets a link answer this request
    /// without an operator token: derived again from the request with the
    /// host's link key (`store::links`); None when this host cannot (no
    /// key, another key, or a link made before tokens were derived).
    #[serde(skip)]
    pub token: Option<String>,
    /// What the store keeps of the token: its SHA-256.
    #[serde(skip)]
    pub token_sha256: String,
    pub requested_at: Millis,
    pub expires_at: Millis,
    pub answer: Option<ApprovalAnswer>,
    pub consumed: bool,
    /// Answers counted towards a quorum (requests guarding a tool with
    /// `approvers` or `quorum` above 1), one per principal.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub votes: Vec<Vote>,
    /// The calls the request names that a tool call has used (by their
    /// index in `details.calls`), with the idempotency key of that call.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub used_calls: BTreeMap<u32, String>,
}

/// One principal's answer to a request that needs a quorum.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Vote {
    pub by: String,
    pub approved: bool,
    pub at: Millis,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
}

/// A call that used one named call of an approval request: written with
/// the step's commit (or before the call leaves the host), refused if
/// another call used it first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApprovalUse {
    pub run_id: String,
    pub request_id: String,
    pub call_index: u32,
    pub key: String,
}

/// Why an answer to an approval request was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AnswerRefused {
    #[error("run {0} does not exist")]
    UnknownRun(String),
    #[error("run {run} has no approval request {request}")]
    UnknownRequest { run: String, request: String },
    #[error(
        "approval request {request} of run {run} expired at {expires_at_text}; the run is woken with `expired` and needs a fresh request"
    )]
    Expired {
        run: String,
        request: String,
        expires_at: Millis,
        expires_at_text: String,
    },
    #[error("approval request {request} of run {run} was already answered by {by}")]
    AlreadyAnswered {
        run: String,
        request: String,
        by: String,
    },
    #[error(
        "the answer was given for other details than approval request {request} of run {run} now shows; read the request again"
    )]
    DetailsChanged { run: String, request: String },
    #[error("run {run} no longer waits for approval request {request}")]
    NotWaiting { run: String, request: String },
}

/// A checkpoint: what one step (or one upgrade) produced.
#[derive(Clone, Debug, Serialize)]
pub struct Checkpoint {
    pub run_id: String,
    pub seq: u64,
    /// The agent version the run is on from this checkpoint on.
    pub version: String,
    /// The wake the step consumed; `None` for an upgrade.
    pub wake: Option<Wake>,
    /// For an upgrade: the version the run moved from.
    pub upgraded_from: Option<String>,
    /// JSON text.
    pub state: String,
    pub next: Next,
    pub status_text: Option<String>,
    pub fuel_used: u64,
    pub at: Millis,
}

/// Everything a successful step writes, in one transaction.
#[derive(Clone, Debug)]
pub struct StepCommit {
    pub run_id: String,
    pub epoch: u64,
    pub wake: Wake,
    pub state: String,
    pub next: Next,
    pub status_text: Option<String>,
    pub fuel_used: u64,
    pub waits: Vec<StoredWait>,
    pub wake_when: Option<String>,
    pub audit: Vec<AuditEntry>,
    pub at: Millis,
    /// Park the run after this step, with this reason (a tool call found a
    /// run budget spent); a run the step finished is not parked.
    pub park: Option<String>,
    /// Checkpoints of the run to keep, this one included
    /// (`[retention] checkpoints_per_run`); `None` keeps all.
    pub keep_checkpoints: Option<u64>,
    /// The step's built-in tool calls, written with its checkpoint.
    pub effects: super::Effects,
    /// Another step of the run, taken under the same claim, follows in the
    /// same commit: the claim stays with the worker.
    pub keep_claim: bool,
    /// The run's state the step started from (its claim's), when the
    /// caller has it: the store may then encode the checkpoint against it
    /// before taking its write lock, and uses that only if the stored state
    /// is this one.
    pub state_before: Option<String>,
}

impl StepCommit {
    /// Whether the run ends with this step.
    pub fn ends_run(&self) -> bool {
        matches!(self.next, Next::Done { .. })
    }
}

/// How a run claimed for an upgrade leaves it: moved to another version of
/// its agent with its migrated state, or, its migration failed, left as it
/// was with its claim given back. The audit rows say which.
#[derive(Clone, Debug)]
pub struct UpgradeCommit {
    pub run_id: String,
    pub epoch: u64,
    /// `None` when the migration failed.
    pub to: Option<Migrated>,
    pub audit: Vec<AuditEntry>,
    pub at: Millis,
}

/// The version a run moves to and the state its `migrate` returned.
#[derive(Clone, Debug)]
pub struct Migrated {
    pub version: String,
    pub digest: String,
    /// JSON text.
    pub state: String,
}

/// A step that failed: nothing of the run's state changes.
#[derive(Clone, Debug)]
pub struct StepFailed {
    pub run_id: String,
    pub epoch: u64,
    pub error: String,
    /// Fuel burnt by the failed attempt; it counts against the run's budget.
    pub fuel_used: u64,
    /// `Some` retries no earlier than this; `None` parks the run.
    pub retry_at: Option<Millis>,
    pub audit: Vec<AuditEntry>,
    pub at: Millis,
}

/// One line of the append-only audit log, before it is stored.
#[derive(Clone, Debug, Serialize)]
pub struct AuditEntry {
    pub run_id: Option<String>,
    /// e.g. `step`, `tool`, `approval`, `pause`, `deploy`.
    pub kind: String,
    pub data: serde_json::Value,
}

/// A stored audit line.
#[derive(Clone, Debug, Serialize)]
pub struct AuditRow {
    pub id: u64,
    pub at: Millis,
    pub run_id: Option<String>,
    pub kind: String,
    pub data: serde_json::Value,
}

/// A kill switch. Scopes: `all`, `agent:<name>`, `run:<id>`, `tool:<name>`.
#[derive(Clone, Debug, Serialize)]
pub struct Switch {
    pub scope: String,
    pub reason: Option<String>,
    pub at: Millis,
}

impl Switch {
    /// Whether this switch stops every step of run `run_id` of `agent`:
    /// it covers everything, the agent or the run (a `tool:` switch stops
    /// only the calls of its tool).
    pub fn covers_run(&self, agent: &str, run_id: &str) -> bool {
        match self.scope.split_once(':') {
            None => self.scope == "all",
            Some(("agent", name)) => name == agent,
            Some(("run", id)) => id == run_id,
            Some(_) => false,
        }
    }
}

/// What a schedule does at a tick when the run it started last is still
/// live.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Overlap {
    /// Start no run at this tick.
    Skip,
    /// Start a run anyway.
    Allow,
}

impl Overlap {
    pub fn as_str(self) -> &'static str {
        match self {
            Overlap::Skip => "skip",
            Overlap::Allow => "allow",
        }
    }

    pub fn parse(s: &str) -> Option<Overlap> {
        match s {
            "skip" => Some(Overlap::Skip),
            "allow" => Some(Overlap::Allow),
            _ => None,
        }
    }
}

/// A schedule: starts a run of an agent at each tick of a cron expression.
#[derive(Clone, Debug, Serialize)]
pub struct Schedule {
    pub id: String,
    /// `name` (the highest version at each tick) or `name@version`.
    pub agent: String,
    pub cron: String,
    /// The start input of every run (JSON text).
    pub input: String,
    pub overlap: Overlap,
    /// The tick that fires next.
    pub next_at: Millis,
    pub last_run_id: Option<String>,
    pub created_at: Millis,
}

/// What `put_schedule` did.
#[derive(Clone, Debug)]
pub enum PutSchedule {
    Added,
    /// This schedule, which had the same id, was replaced.
    Replaced(Schedule),
    /// A schedule with this id exists and replacing was not asked for:
    /// nothing changed.
    Exists(Schedule),
}

/// A process that uses the store, as it last reported itself.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HostRecord {
    /// `<hostname>:h<n>` (`identity.rs`): the start of the owner of every
    /// claim it takes.
    pub id: String,
    /// `serve` or `work`.
    pub kind: String,
    /// The API's address, for `serve`.
    pub listen: Option<String>,
    pub started_at: Millis,
    pub heartbeat_at: Millis,
    /// Set when it stopped cleanly.
    pub stopped_at: Option<Millis>,
    /// The runs it holds a live claim on.
    pub stepping: Vec<String>,
}

#[cfg(test)]
mod tests {
    use super::Switch;

    #[test]
    fn a_switch_covers_a_run_by_everything_its_agent_or_itself_and_by_nothing_else() {
        let switch = |scope: &str| Switch {
            scope: scope.into(),
            reason: None,
            at: 0,
        };
        for covering in ["all", "agent:incident", "run:inc-1"] {
            assert!(
                switch(covering).covers_run("incident", "inc-1"),
                "{covering}"
            );
        }
        for other in [
            "agent:incidents",
            "agent:inc",
            "run:inc-10",
            "tool:kv",
            "alls",
            "run:",
        ] {
            assert!(!switch(other).covers_run("incident", "inc-1"), "{other}");
        }
    }
}
