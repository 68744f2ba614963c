//! Durable state behind one trait: agent versions, runs, checkpoints, the
//! inbox, approvals, the tool-call ledger, kv, leases, kill switches and the
//! audit log. The runtime and the worker see only [`Store`]; SQL stays in
//! [`sql`], which keeps it on SQLite (the embedded default) or PostgreSQL
//! (several hosts sharing one database).
//!
//! Every method that writes does so in one transaction: it happens entirely
//! or not at all. Writes made on behalf of a claimed run carry the claim's
//! fencing `epoch`; a writer whose claim was taken over gets
//! [`StoreError::LostClaim`] and changes nothing.

mod callbacks;
mod effects;
mod error;
pub mod links;
mod pack_signal;
mod tool_rows;
mod types;

pub mod sql;

pub use callbacks::*;
pub use effects::*;
pub use error::{Result, StoreError};
pub use pack_signal::{PackQueue, PackSignal, PackState};
pub use tool_rows::*;
pub use types::*;

use crate::model::{ApprovalAnswer, Event, Millis, ToolError, Wake};

/// Whether a store URL names a PostgreSQL database.
pub fn is_postgres(url: &str) -> bool {
    url.starts_with("postgres://") || url.starts_with("postgresql://")
}

/// Opens the store `url` names: `postgres://…` (or `postgresql://…`), or
/// `sqlite:PATH`; without one, the SQLite file `wakeful.db` in `data_dir`.
pub fn open(url: Option<&str>, data_dir: &std::path::Path) -> Result<sql::SqlStore> {
    match url.map(StoreUrl::parse).transpose()? {
        None => sql::SqlStore::open(data_dir.join("wakeful.db")),
        Some(StoreUrl::Postgres(url)) => sql::SqlStore::connect(url),
        Some(StoreUrl::Sqlite(path)) => sql::SqlStore::open(path),
    }
}

/// A store URL, told apart by its scheme.
#[derive(Clone, Copy, Debug)]
pub enum StoreUrl<'a> {
    /// `postgres://…` or `postgresql://…`, whole.
    Postgres(&'a str),
    /// The file of `sqlite:PATH`.
    Sqlite(&'a std::path::Path),
}

impl<'a> StoreUrl<'a> {
    pub fn parse(url: &'a str) -> Result<StoreUrl<'a>> {
        if is_postgres(url) {
            return Ok(StoreUrl::Postgres(url));
        }
        match url.strip_prefix("sqlite:") {
            Some(path) if !path.is_empty() => Ok(StoreUrl::Sqlite(std::path::Path::new(path))),
            _ => Err(StoreError::Db(format!(
                "unknown store `{}`: give postgres://USER@HOST:PORT/DATABASE or sqlite:PATH",
                sql::postgres_shown_url(url)
            ))),
        }
    }
}

/// Renders the JSON result a built-in tool records in the ledger, inside the
/// same transaction as the tool's effect.
pub type RenderResult<'a, T> = &'a dyn Fn(&T) -> String;

/// The store the host runs on.
pub trait Store: Send {
    // ---- agents
    /// Records a deployed agent version and its bytes.
    fn put_agent(&mut self, version: &AgentVersion, bytes: &[u8]) -> Result<PutAgent>;
    /// Every deployed version, by name then semver.
    fn agents(&self) -> Result<Vec<AgentVersion>>;
    /// One version of an agent; `None` picks the highest semver.
    fn agent(&self, name: &str, version: Option<&str>) -> Result<Option<AgentVersion>>;
    /// The component bytes of a deployed version, refused unread when
    /// they are more than `max_bytes` (`[limits] max_component_mib`).
    fn agent_bytes(&self, digest: &str, max_bytes: usize) -> Result<Vec<u8>>;

    // ---- runs (reads)
    fn create_run(&mut self, run: &NewRun) -> Result<()>;
    /// Creates a run and appends `audit` (an operator's start), in one
    /// transaction: a run never exists without the row that says who
    /// started it.
    fn create_run_audited(&mut self, run: &NewRun, audit: &AuditEntry) -> Result<()>;
    /// Every run, newest first.
    fn runs(&self) -> Result<Vec<Run>>;
    /// The ids of an agent's live runs (active, waiting or parked), newest
    /// first, read off the agent's index: an upgrade of one agent reads
    /// neither the other runs nor any run's state.
    fn live_run_ids(&self, agent: &str) -> Result<Vec<String>>;
    fn run(&self, run_id: &str) -> Result<Option<Run>>;
    /// The run's checkpoints, oldest first.
    fn checkpoints(&self, run_id: &str) -> Result<Vec<Checkpoint>>;
    /// The run's approval requests, oldest first.
    fn approvals(&self, run_id: &str) -> Result<Vec<Approval>>;
    /// The approval request an answer link's token names, if any. Tokens
    /// are unique across runs.
    fn approval_by_token(&self, token: &str) -> Result<Option<Approval>>;
    /// The run's inbox, oldest first.
    fn inbox(&self, run_id: &str) -> Result<Vec<InboxItem>>;

    // ---- the step protocol
    /// Leases the next run that has a wake to deliver now and returns it with
    /// that wake. A run is skipped when a kill switch covers it (`all`,
    /// `agent:<name>`, `run:<id>`), when it is done or parked, when another
    /// claim's lease is unexpired, or when its retry time is ahead. Wakes are
    /// chosen in this order: the start input or a pending resume/continue; an
    /// answered approval it waits for; the oldest unconsumed inbox event on a
    /// topic it waits for; an approval it waits for that expired unanswered
    /// (`Expired`); an `until`/`cron` wait that is due (`Timer`).
    fn claim(&mut self, now: Millis, owner: &str, lease_ms: u64) -> Result<Option<(Claim, Wake)>>;
    /// Claims up to `max` runs with a wake, as [`claim`](Store::claim)
    /// would one after another, in one transaction. A claim first looks
    /// for due runs without the write lock, so that idle pollers never hold
    /// it; `busy` (the caller's last claim found work) skips that look.
    fn claim_many(
        &mut self,
        now: Millis,
        owner: &str,
        lease_ms: u64,
        max: usize,
        busy: bool,
    ) -> Result<Vec<(Claim, Wake)>>;
    /// How many runs have a wake to deliver now but are leased by a live
    /// claim (another worker is stepping them, or a dead one's lease has not
    /// expired yet).
    fn due_but_claimed(&self, now: Millis) -> Result<u64>;
    /// The earliest time after `now` at which a wait comes due (an `until`
    /// or cron time, an approval's expiry), so that an idle worker can
    /// sleep until then rather than look again on an interval.
    fn next_due_wait(&self, now: Millis) -> Result<Option<Millis>>;
    /// Of the due runs under a live claim, the one whose claim ends first.
    fn first_claimed_due(&self, now: Millis) -> Result<Option<ClaimedRun>>;
    /// Writes the checkpoint, the run's new status and waits, consumes the
    /// delivered wake, records new approval requests (keeping the expiry of
    /// ones that already exist), appends the audit rows and releases the
    /// claim — all in one transaction.
    fn commit_step(&mut self, commit: &StepCommit) -> Result<()>;
    /// Commits several steps in one transaction, with one flush to disk:
    /// each as [`commit_step`](Store::commit_step) would, and each refused
    /// on its own (a lost claim, a cancelled run) without keeping the
    /// others from committing; the outer error is the database's, and then
    /// none committed.
    fn commit_steps(&mut self, commits: &[StepCommit]) -> Result<Vec<Result<()>>>;
    /// [`commit_steps`](Store::commit_steps), then, while no other writer
    /// of the process can come between, [`claim_many`](Store::claim_many)
    /// for the caller's next group (`busy`). The commit's outcome stands
    /// whatever the claim's: a claim that fails takes nothing.
    fn commit_steps_then_claim(
        &mut self,
        commits: &[StepCommit],
        next: NextClaim<'_>,
    ) -> Result<(Vec<Result<()>>, ClaimedGroup)>;
    /// Records a failed attempt (retry later, or park when `retry_at` is
    /// `None`) and releases the claim. State, waits and wakes are untouched.
    fn fail_step(&mut self, failed: &StepFailed) -> Result<()>;
    /// Parks a claimed run for an operator without stepping it (a budget is
    /// spent) and releases the claim. Appends a `parked` audit row after
    /// `audit` (what the abandoned step did, such as its tool calls).
    fn park(
        &mut self,
        run_id: &str,
        epoch: u64,
        reason: &str,
        audit: &[AuditEntry],
        at: Millis,
    ) -> Result<()>;
    /// Abandons a claimed step that a kill switch stopped in flight: the
    /// run's state, waits, wakes and attempts stay as they were (the step is
    /// retried as if the host had crashed), the run records the switch's
    /// scope so that no claim takes it while that switch is on, the audit
    /// rows are appended and the claim is released — in one transaction.
    fn hold_step(&mut self, held: &StepHeld) -> Result<()>;
    /// Leases one live run (active, waiting or parked) for an operation
    /// that is not a step, such as an upgrade: no wake is chosen or
    /// consumed. `None` when a live claim holds it (it is being stepped).
    fn claim_run(
        &mut self,
        run_id: &str,
        now: Millis,
        owner: &str,
        lease_ms: u64,
    ) -> Result<Option<Claim>>;
    /// Ends the upgrades of claimed runs in one transaction, one flush to
    /// disk for all. A run moved to another version gets an upgrade
    /// checkpoint (which does not count against the step budget), its new
    /// version and state; a run whose migration failed stays as it was.
    /// Each gets its audit rows and its claim released; status, waits and
    /// wakes are untouched. A move whose claim was lost (or whose run is
    /// gone) is refused before any of its writes, alone: the others
    /// commit. A failed migration whose claim was lost is still audited.
    fn commit_upgrades(&mut self, upgrades: &[UpgradeCommit]) -> Result<Vec<Result<()>>>;
    /// Gives a claim back untouched.
    fn release(&mut self, run_id: &str, epoch: u64) -> Result<()>;
    /// Gives back the claim of a step that is void (a kv key or lease it
    /// wrote changed before it committed), with audit rows saying so: the
    /// run is due again at once, and no attempt is counted.
    fn void_step(
        &mut self,
        run_id: &str,
        epoch: u64,
        audit: &[AuditEntry],
        at: Millis,
    ) -> Result<()>;

    // ---- triggers
    /// Puts an event in one run's inbox. Stored even if the run does not wait
    /// on that topic yet: it is delivered when the run does.
    fn deliver_event(&mut self, run_id: &str, event: &Event) -> Result<Delivery>;
    /// Delivers as `deliver_event`, appending `audit` (who sent it) in the
    /// same transaction when the event is accepted.
    fn deliver_event_audited(
        &mut self,
        run_id: &str,
        event: &Event,
        audit: &AuditEntry,
    ) -> Result<Delivery>;
    /// Puts an event in the inbox of every live run that waits on its topic,
    /// and keeps it until `keep_until` for the runs that were live when it
    /// was sent: a commit that makes such a run wait on the topic puts the
    /// event in its inbox (once per run, however often it waits again).
    /// Costs one row plus the runs waiting now, whatever the number of
    /// live runs. Appends, in the same transaction, one copy of `audit`
    /// (who sent it) for each run that accepted the event, with that run's
    /// id: one commit however many runs took it, and no delivery without
    /// its row.
    fn broadcast_event(
        &mut self,
        event: &Event,
        keep_until: Millis,
        audit: &AuditEntry,
    ) -> Result<Vec<(String, Delivery)>>;
    /// Records a human's answer, stamped `answer.at` by the host. Refused
    /// (and nothing changes) when the request is unknown, already answered,
    /// no longer waited on, expired at `answer.at`, or when
    /// `details_digest` is given and differs from the request's. Appends an
    /// `approval` audit row; a refusal for expiry appends an `approval
    /// refused` row and changes nothing else.
    fn answer_approval(
        &mut self,
        run_id: &str,
        answer: &ApprovalAnswer,
        details_digest: Option<&str>,
    ) -> Result<Result<Approval, AnswerRefused>>;
    /// Records one principal's answer to a request that needs a quorum
    /// (replacing an earlier answer of theirs), refused as
    /// [`Store::answer_approval`] refuses one; `decide` reads the request
    /// and its votes, and when it says they settle it, the request is
    /// answered (and its run woken). Appends an `approval vote` audit row,
    /// and an `approval` row when settled.
    fn vote_approval(
        &mut self,
        run_id: &str,
        answer: &ApprovalAnswer,
        details_digest: Option<&str>,
        decide: &dyn Fn(&Approval, &[Vote]) -> Option<bool>,
    ) -> Result<Result<Approval, AnswerRefused>>;
    /// An operator resumes a parked run: the wake it was parked on is
    /// delivered again (nothing was consumed), its failed attempts are
    /// forgotten and its budgets (steps, fuel, tokens, money) are set to the
    /// ones given. Appends a
    /// `resume` audit row. Returns false when it was not parked.
    fn resume_parked(
        &mut self,
        run_id: &str,
        budgets: &Budgets,
        by: &str,
        at: Millis,
    ) -> Result<bool>;

    /// An operator ends a live run (active, waiting or parked): it takes no
    /// further step, its waits are dropped, and a worker stepping it right
    /// now loses its claim, so that step's writes are discarded. Appends a
    /// `cancelled` audit row naming `by`. Returns false when the run had
    /// already ended.
    fn cancel_run(&mut self, run_id: &str, reason: &str, by: &str, at: Millis) -> Result<bool>;

    // ---- tools
    /// A live run's recorded call, looked up by a step for its replay. An
    /// ended run's calls are in its archive, read with [`Store::ledger`]:
    /// no step runs after the end, and the lookup stays one index probe.
    fn ledger_get(&self, run_id: &str, key: &str) -> Result<Option<LedgerEntry>>;
    /// The run's recorded tool calls, oldest first.
    fn ledger(&self, run_id: &str) -> Result<Vec<LedgerEntry>>;
    /// Checks that the claim is still the run's current one (not taken over,
    /// the run not cancelled) and extends its lease to `now + lease_ms`.
    fn extend_claim(&mut self, run_id: &str, epoch: u64, now: Millis, lease_ms: u64) -> Result<()>;
    /// Fences a call about to leave the host: checks and extends the claim
    /// (`intent.epoch`) as `extend_claim` does, and records the intent
    /// durably, in one transaction. Recording the call's result (any
    /// `ledger_put`) deletes the intent.
    fn begin_external(&mut self, intent: &Intent, now: Millis, lease_ms: u64) -> Result<()>;
    /// Deletes the intent of a call whose request never left the host (no
    /// connection, an untrusted server), under the claim's epoch.
    fn forget_intent(&mut self, run_id: &str, key: &str, epoch: u64) -> Result<()>;
    /// The intent of a call whose result was never recorded, if any.
    fn intent(&self, run_id: &str, key: &str) -> Result<Option<Intent>>;
    /// The run's calls of unknown outcome, oldest first.
    fn intents(&self, run_id: &str) -> Result<Vec<Intent>>;
    /// An operator settles a parked run's call of unknown outcome: records
    /// the given result or failure in the ledger (or, for a retry, nothing),
    /// clears the intent, puts the run back to retry its step, and appends a
    /// `resolved` audit row — in one transaction.
    fn resolve(
        &mut self,
        run_id: &str,
        key: &str,
        resolution: &Resolution,
        by: &str,
        said: Option<&str>,
        at: Millis,
    ) -> Result<std::result::Result<(), ResolveRefused>>;
    /// Records a tool call's result (and its audit row) under the claim's
    /// epoch.
    fn ledger_put(
        &mut self,
        call: &LedgerWrite,
        result: &std::result::Result<String, ToolError>,
        at: Millis,
    ) -> Result<()>;
    /// Records a metered call's result (and its audit row) and adds its
    /// usage to the run's `tokens_used`/`usd_used`, in one transaction under
    /// the claim's epoch. A key already recorded is neither recorded again
    /// nor charged again.
    fn ledger_put_metered(
        &mut self,
        call: &LedgerWrite,
        result: &std::result::Result<String, ToolError>,
        usage: &Usage,
        at: Millis,
    ) -> Result<()>;
    /// Adds a metered call's usage to the run's `tokens_used`/`usd_used`
    /// without recording the call (it was sent and got no usable answer),
    /// synced, under the claim's epoch.
    fn charge(&mut self, run_id: &str, epoch: u64, key: &str, usage: &Usage) -> Result<()>;
    /// Runs a kv operation for an operator (a read, or a write synced
    /// without an audit row; `kv_audited` writes one). A step's calls are
    /// held in [`Effects`] instead. Deleting a key keeps its version.
    fn kv(&mut self, op: &KvOp) -> Result<KvOutcome>;
    /// A kv key's value (`None` once deleted) and version, if it was ever
    /// written; read without a transaction.
    fn kv_peek(&self, key: &str) -> Result<Option<(Option<String>, u64)>>;
    /// The lease on `resource`, expired or not, if one is recorded.
    fn lease_peek(&self, resource: &str) -> Result<Option<Held>>;
    /// Writes a step's built-in calls held so far (their effects, ledger
    /// and audit rows) under the claim, without waiting for the disk: a
    /// step does so before a call that leaves the host. A key or lease
    /// changed since the step found it is a [`StoreError::Conflict`], and
    /// nothing is written.
    fn apply_effects(
        &mut self,
        run_id: &str,
        epoch: u64,
        effects: &Effects,
        at: Millis,
    ) -> Result<()>;

    // ---- callback links
    /// Makes a callback link for the claimed run of `call` (a new random
    /// token, valid from `link.now` for `link.valid_for_ms`) and records its
    /// rendered result in the ledger with a `tool` audit row, in one
    /// transaction under the claim: a retried step replays that result and
    /// no second link exists. `Ok(Err(why))` when the run already has a
    /// link of that id (nothing is written).
    fn create_callback(
        &mut self,
        call: &LedgerWrite,
        link: &NewCallback,
        render: RenderResult<'_, Callback>,
    ) -> Result<std::result::Result<Callback, String>>;
    /// The run's callback links, oldest first.
    fn callbacks(&self, run_id: &str) -> Result<Vec<Callback>>;
    /// A POST to the link `token` arrived at `at` from `from`: puts
    /// `payload` (JSON) in the run's inbox as an event on the link's topic,
    /// marks the link used and appends a `callback` audit row, in one
    /// transaction. Refused (and nothing changes) when the token is unknown,
    /// the link was used, it expired at `at` (a `callback refused` audit row
    /// is appended), or the run ended.
    fn use_callback(
        &mut self,
        token: &str,
        payload: &str,
        from: Option<&str>,
        at: Millis,
    ) -> Result<std::result::Result<Callback, CallbackRefused>>;

    /// Deletes the runs that ended (done or cancelled) before `ended_before`
    /// with their checkpoints, waits, inbox, approvals, ledger and callback
    /// links. The audit log keeps its rows: it is append-only. Each pruned
    /// run's id is
    /// retired (see [`Store::retired_run`]) so that no run takes it again.
    /// Returns how many runs went.
    fn prune_runs(&mut self, ended_before: Millis, now: Millis) -> Result<u64>;
    /// The record of a run that `prune_runs` deleted, if `run_id` named one.
    fn retired_run(&self, run_id: &str) -> Result<Option<RetiredRun>>;

    // ---- the data itself
    /// Checks the whole store for damage; a long-running process does it
    /// once at start and refuses to run on a damaged store.
    fn check_integrity(&self) -> Result<()>;
    /// Writes a consistent copy of the whole store to the new file `to`
    /// while other processes keep writing, and checks the copy.
    fn backup(&self, to: &std::path::Path) -> Result<()>;
    /// Bytes the store's tables and indexes take.
    fn size_bytes(&self) -> Result<u64>;
    /// Bytes of free space the store keeps for later rows (SQLite's free
    /// pages; 0 where the database reuses space within each table).
    fn free_bytes(&self) -> Result<u64>;
    /// How many write transactions this store handle committed with a
    /// flush to disk (an fsync of SQLite's WAL, a synchronous PostgreSQL
    /// commit); claims and built-in tool calls commit without one.
    fn synced_commits(&self) -> u64;
    /// How many SQL statements this store handle ran (transaction control
    /// included).
    fn statements_run(&self) -> u64;
    /// Keeps the database's query planning up to date with the tables'
    /// sizes (PostgreSQL statistics; nothing on SQLite); long-lived hosts
    /// call it on their heartbeat. Returns the tables refreshed.
    fn maintain(&mut self) -> Result<Vec<String>>;
    /// Packs into their archives up to `max` ended runs whose history is
    /// still live: those whose ending committed in a process that stopped
    /// before it packed them (a step that ends a run is packed just after
    /// its commit, by the handle or by the packer thread it was given).
    /// Returns how many it packed.
    fn pack_queued(&mut self, max: usize) -> Result<usize>;
    /// Packs those of the ended runs `run_ids` still queued for packing,
    /// and returns how many it packed. One whose history cannot be packed
    /// is left queued, and the others are packed all the same: the error
    /// names the runs left.
    fn pack_ended(&mut self, run_ids: &[&str]) -> Result<usize>;
    /// Hands the runs this handle's commits end to `packer` instead of
    /// packing them after each commit, and leaves it to copy SQLite's WAL
    /// into the database file ([`Store::checkpoint`]): a commit of this
    /// handle no longer does it in the middle of a worker's steps.
    fn pack_by(&mut self, packer: PackSignal);
    /// Copies what SQLite's WAL holds into the database file, as far as
    /// readers allow, without waiting for any of them (a passive
    /// checkpoint); nothing on PostgreSQL.
    fn checkpoint(&mut self) -> Result<()>;
    /// For benchmarks: `n` copies of the waiting run `run_id`, with its
    /// waits, as runs `<run_id>-copy-<i>`, in one transaction.
    fn seed_sleeping_copies(&mut self, run_id: &str, n: usize) -> Result<()>;

    // ---- schedules
    /// Records a schedule. One with the same id is replaced whole (its
    /// last run kept, for the overlap policy) when `replace` is set, and
    /// otherwise left as it is.
    fn put_schedule(&mut self, schedule: &Schedule, replace: bool) -> Result<PutSchedule>;
    fn schedules(&self) -> Result<Vec<Schedule>>;
    /// Returns false when there was no such schedule.
    fn remove_schedule(&mut self, id: &str) -> Result<bool>;
    /// Schedules whose next tick is at or before `now`.
    fn due_schedules(&self, now: Millis) -> Result<Vec<Schedule>>;
    /// Moves a schedule past the tick `due_at` to `next_at`, recording the
    /// run it started. Returns false (and changes nothing) when the
    /// schedule is gone or another process already moved it past `due_at`.
    fn advance_schedule(
        &mut self,
        id: &str,
        due_at: Millis,
        next_at: Millis,
        last_run_id: Option<&str>,
    ) -> Result<bool>;

    // ---- kill switches
    fn set_switch(&mut self, switch: &Switch) -> Result<()>;
    /// Returns false when no such switch was set.
    fn clear_switch(&mut self, scope: &str) -> Result<bool>;
    fn switches(&self) -> Result<Vec<Switch>>;
    /// The oldest switch that stops run `run_id` of `agent` (`all`,
    /// `agent:` or `run:` scope), or with `tool` a call of that tool in it
    /// (`tool:` scope too), if any.
    fn switch_covering(
        &self,
        agent: &str,
        run_id: &str,
        tool: Option<&str>,
    ) -> Result<Option<Switch>>;

    // ---- audit
    fn append_audit(&mut self, entry: &AuditEntry, at: Millis) -> Result<()>;
    /// The audit log, oldest first; only one run's rows with `run_id`.
    fn audit(&self, run_id: Option<&str>) -> Result<Vec<AuditRow>>;

    // ---- pages
    /// Up to `limit` runs matching `filter`, newest first (by creation
    /// time, then id), after the run `after` names (the previous page's
    /// `next`). A list shows summaries: each run's `state` and `input` are
    /// left empty, `run` reads one whole. [`StoreError::UnknownRun`] when
    /// `after` names no run (it was pruned meanwhile).
    fn runs_page(
        &self,
        filter: &RunFilter,
        after: Option<&str>,
        limit: usize,
    ) -> Result<Page<Run, String>>;
    /// Up to `limit` audit rows with an id above `after`, oldest first;
    /// only one run's rows with `run_id`.
    fn audit_page(
        &self,
        run_id: Option<&str>,
        after: Option<u64>,
        limit: usize,
    ) -> Result<Page<AuditRow, u64>>;
    /// How many runs have each status (every status, zeros included),
    /// counted by the database without reading a run.
    fn run_counts(&self) -> Result<Vec<(RunStatus, u64)>>;
    /// Up to `limit` kv keys that start with `prefix` and have a value, in
    /// key order, after the key `after` (the previous page's `next`).
    fn kv_page(
        &self,
        prefix: &str,
        after: Option<&str>,
        limit: usize,
    ) -> Result<Page<KvEntry, String>>;

    // ---- operator writes with their audit row
    /// Runs an operator's kv operation (no run, no ledger) and appends the
    /// audit row `audit` makes of its outcome, in one transaction.
    fn kv_audited(
        &mut self,
        op: &KvOp,
        audit: &dyn Fn(&KvOutcome) -> AuditEntry,
        at: Millis,
    ) -> Result<KvOutcome>;
    /// Runs an operator's lease operation (expiry judged at `now`) and
    /// appends the audit row `audit` makes of its outcome, in one
    /// transaction.
    fn lease_audited(
        &mut self,
        op: &LeaseOp,
        audit: &dyn Fn(&LeaseOutcome) -> AuditEntry,
        now: Millis,
    ) -> Result<LeaseOutcome>;
    /// Sets a kill switch and appends `audit`, in one transaction.
    fn set_switch_audited(&mut self, switch: &Switch, audit: &AuditEntry) -> Result<()>;
    /// Clears a kill switch and, when one was set, appends `audit`, in one
    /// transaction. Returns false (and appends nothing) when none was set.
    fn clear_switch_audited(&mut self, scope: &str, audit: &AuditEntry, at: Millis)
    -> Result<bool>;

    // ---- hosts sharing the store
    /// Records that the host `id` (the start of its claims' owner, see
    /// `identity.rs`) of `kind` (`serve`, `work`) is alive at `at`.
    fn heartbeat(&mut self, id: &str, kind: &str, listen: Option<&str>, at: Millis) -> Result<()>;
    /// Records that host `id` started at `at` (replacing the row of an
    /// earlier process that had the id), alive as [`heartbeat`](Store::heartbeat) says.
    fn host_started(
        &mut self,
        id: &str,
        kind: &str,
        listen: Option<&str>,
        at: Millis,
    ) -> Result<()>;
    /// The owners of the claims live at `now`, each once.
    fn claim_owners(&self, now: Millis) -> Result<Vec<String>>;
    /// Ends every claim of host `id`, whose process is known to be gone,
    /// with a `takeover` audit row on each run naming `by` and `why`;
    /// returns those runs.
    fn release_claims_of(
        &mut self,
        id: &str,
        by: &str,
        why: &str,
        at: Millis,
    ) -> Result<Vec<String>>;
    /// The claim on `run_id` that is live at `now`, if any.
    fn live_claim(&self, run_id: &str, now: Millis) -> Result<Option<ClaimedRun>>;
    /// Records that host `id` stopped cleanly at `at`.
    fn host_stopped(&mut self, id: &str, at: Millis) -> Result<()>;
    /// Deletes the rows of hosts silent since before `before`; returns how
    /// many.
    fn forget_silent_hosts(&mut self, before: Millis) -> Result<u64>;
    /// Every recorded host, latest heartbeat first, each with the runs it
    /// holds a live claim on at `now`.
    fn hosts(&self, now: Millis) -> Result<Vec<HostRecord>>;

    /// The generation and secret of principal `name`'s console sessions,
    /// made on first use.
    fn session_key(&mut self, name: &str) -> Result<(i64, String)>;
    /// Ends every console session of `name` (a new generation and secret);
    /// returns the new generation.
    fn revoke_sessions(&mut self, name: &str) -> Result<i64>;
}

/// One page of a list, and the cursor that asks for the next (`None` on
/// the last page).
#[derive(Clone, Debug, serde::Serialize)]
pub struct Page<T, C> {
    pub items: Vec<T>,
    pub next: Option<C>,
}

/// Which runs a list shows.
#[derive(Clone, Debug, Default)]
pub struct RunFilter {
    pub status: Option<RunStatus>,
    pub agent: Option<String>,
    /// Only runs on this version of their agent.
    pub version: Option<String>,
    /// Only runs whose current waits include this one.
    pub waiting_on: Option<WaitingOn>,
}

/// What a run may be waiting on, as a list filters it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WaitingOn {
    /// An event on this topic.
    Topic(String),
    /// The answer to an approval request.
    Approval,
    /// A time: a timer or a cron tick.
    Timer,
}

impl WaitingOn {
    /// `approval`, `timer`, or else a topic name. The two words are taken
    /// as words: a topic named so cannot be filtered on.
    pub fn parse(text: &str) -> Option<WaitingOn> {
        match text {
            "" => None,
            "approval" => Some(WaitingOn::Approval),
            "timer" => Some(WaitingOn::Timer),
            topic => Some(WaitingOn::Topic(topic.to_string())),
        }
    }
}
