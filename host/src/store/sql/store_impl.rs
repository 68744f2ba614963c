//! The [`Store`] trait on SQLite: each method opens (or reads within) a
//! transaction through the module that does that part of the work.

use std::path::Path;

use crate::model::{ApprovalAnswer, Event, Millis, ToolError, Wake};
use crate::store::{
    AgentVersion, AnswerRefused, Approval, AuditEntry, AuditRow, Checkpoint, Claim, Delivery,
    InboxItem, KvEntry, KvOp, KvOutcome, LeaseOp, LeaseOutcome, LedgerEntry, LedgerWrite, NewRun,
    PutAgent, RenderResult, Result, Run, Schedule, StepCommit, StepFailed, Store, Switch,
    UpgradeCommit,
};
use crate::store::{
    Budgets, Callback, CallbackRefused, ClaimedRun, Effects, Held, HostRecord, NewCallback, Usage,
};
use crate::store::{
    ClaimedGroup, Intent, NextClaim, Page, PutSchedule, Resolution, ResolveRefused, RetiredRun,
    RunFilter, RunStatus, StepHeld,
};

use super::{
    SqlStore, agents, archive, audit, callbacks, claim_ends, claims, commits, effects, health,
    hosts, intents, pages, prune, runs, schedules, switches, tools, triggers, upgrades, write,
};

impl Store for SqlStore {
    fn put_agent(&mut self, version: &AgentVersion, bytes: &[u8]) -> Result<PutAgent> {
        agents::put_agent(&mut self.conn, version, bytes)
    }

    fn agents(&self) -> Result<Vec<AgentVersion>> {
        agents::agents(&self.conn)
    }

    fn agent(&self, name: &str, version: Option<&str>) -> Result<Option<AgentVersion>> {
        agents::agent(&self.conn, name, version)
    }

    fn agent_bytes(&self, digest: &str, max_bytes: usize) -> Result<Vec<u8>> {
        agents::agent_bytes(&self.conn, digest, max_bytes)
    }

    fn create_run(&mut self, run: &NewRun) -> Result<()> {
        runs::create_run(&mut self.conn, run, None)
    }

    fn runs(&self) -> Result<Vec<Run>> {
        runs::runs(&self.conn)
    }

    fn live_run_ids(&self, agent: &str) -> Result<Vec<String>> {
        runs::live_run_ids(&self.conn, agent)
    }

    fn run(&self, run_id: &str) -> Result<Option<Run>> {
        runs::run(&self.conn, run_id)
    }

    fn checkpoints(&self, run_id: &str) -> Result<Vec<Checkpoint>> {
        runs::checkpoints(&self.conn, run_id)
    }

    fn approvals(&self, run_id: &str) -> Result<Vec<Approval>> {
        let mut approvals = runs::approvals(&self.conn, run_id)?;
        approvals.iter_mut().for_each(|a| self.reveal_link(a));
        Ok(approvals)
    }

    fn approval_by_token(&self, token: &str) -> Result<Option<Approval>> {
        let hash = crate::store::links::token_hash(token);
        let found = runs::approval_by_token(&self.conn, &hash)?;
        Ok(found.map(|mut a| {
            a.token = Some(token.to_string());
            a
        }))
    }

    fn inbox(&self, run_id: &str) -> Result<Vec<InboxItem>> {
        runs::inbox(&self.conn, run_id)
    }

    fn claim(&mut self, now: Millis, owner: &str, lease_ms: u64) -> Result<Option<(Claim, Wake)>> {
        claims::claim(&mut self.conn, now, owner, lease_ms)
    }

    fn claim_many(
        &mut self,
        now: Millis,
        owner: &str,
        lease_ms: u64,
        max: usize,
        busy: bool,
    ) -> Result<Vec<(Claim, Wake)>> {
        claims::claim_many(&mut self.conn, now, owner, lease_ms, max, busy)
    }

    fn next_due_wait(&self, now: Millis) -> Result<Option<Millis>> {
        claims::next_due_wait(&self.conn, now)
    }

    fn due_but_claimed(&self, now: Millis) -> Result<u64> {
        claims::due_but_claimed(&self.conn, now)
    }

    fn first_claimed_due(&self, now: Millis) -> Result<Option<ClaimedRun>> {
        claims::first_claimed_due(&self.conn, now)
    }

    fn commit_steps_then_claim(
        &mut self,
        commits: &[StepCommit],
        next: NextClaim<'_>,
    ) -> Result<(Vec<Result<()>>, ClaimedGroup)> {
        // Encoded before the turn: the other workers wait for all that is
        // done under it.
        let prepared = commits::prepare_steps(commits, self.links.as_ref())?;
        // Held across both: otherwise the other workers' commits, queued
        // for the turn meanwhile, all come before this worker's claim.
        let turn = self.conn.hold_writer_turn();
        let outcomes = self.write_steps(commits, &prepared)?;
        let claims = claims::claim_many(
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

    fn commit_steps(&mut self, commits: &[StepCommit]) -> Result<Vec<Result<()>>> {
        let prepared = commits::prepare_steps(commits, self.links.as_ref())?;
        self.write_steps(commits, &prepared)
    }

    fn commit_step(&mut self, commit: &StepCommit) -> Result<()> {
        commits::commit_step(&mut self.conn, commit, self.links.as_ref())?;
        self.checkpoint_when_due();
        if commit.ends_run() {
            self.pack_after_commit(&[commit.run_id.as_str()]);
        }
        Ok(())
    }

    fn fail_step(&mut self, failed: &StepFailed) -> Result<()> {
        claim_ends::fail_step(&mut self.conn, failed)?;
        // A worker whose steps only fail still writes the WAL.
        self.checkpoint_when_due();
        Ok(())
    }

    fn park(
        &mut self,
        run_id: &str,
        epoch: u64,
        reason: &str,
        audit: &[AuditEntry],
        at: Millis,
    ) -> Result<()> {
        claim_ends::park(&mut self.conn, run_id, epoch, reason, audit, at)
    }

    fn hold_step(&mut self, held: &StepHeld) -> Result<()> {
        claim_ends::hold_step(&mut self.conn, held)
    }

    fn release(&mut self, run_id: &str, epoch: u64) -> Result<()> {
        claim_ends::release(&mut self.conn, run_id, epoch, &[], 0)
    }

    fn void_step(
        &mut self,
        run_id: &str,
        epoch: u64,
        audit: &[AuditEntry],
        at: Millis,
    ) -> Result<()> {
        claim_ends::release(&mut self.conn, run_id, epoch, audit, at)
    }

    fn deliver_event(&mut self, run_id: &str, event: &Event) -> Result<Delivery> {
        triggers::deliver_event(&mut self.conn, run_id, event, None)
    }

    fn broadcast_event(
        &mut self,
        event: &Event,
        keep_until: Millis,
        audit: &AuditEntry,
    ) -> Result<Vec<(String, Delivery)>> {
        triggers::broadcast_event(&mut self.conn, event, keep_until, audit)
    }

    fn answer_approval(
        &mut self,
        run_id: &str,
        answer: &ApprovalAnswer,
        details_digest: Option<&str>,
    ) -> Result<Result<Approval, AnswerRefused>> {
        let answered = triggers::answer_approval(&mut self.conn, run_id, answer, details_digest)?;
        Ok(answered.map(|mut a| {
            self.reveal_link(&mut a);
            a
        }))
    }

    fn vote_approval(
        &mut self,
        run_id: &str,
        answer: &ApprovalAnswer,
        details_digest: Option<&str>,
        decide: &dyn Fn(&Approval, &[crate::store::Vote]) -> Option<bool>,
    ) -> Result<Result<Approval, AnswerRefused>> {
        super::gated::vote(&mut self.conn, run_id, answer, details_digest, decide)
    }

    fn check_integrity(&self) -> Result<()> {
        health::check(&self.conn, &self.location)
    }

    fn backup(&self, to: &Path) -> Result<()> {
        health::backup(&self.conn, to)
    }

    fn size_bytes(&self) -> Result<u64> {
        health::size_bytes(&self.conn)
    }

    fn free_bytes(&self) -> Result<u64> {
        health::free_bytes(&self.conn)
    }

    fn synced_commits(&self) -> u64 {
        self.conn.synced_commits()
    }

    fn statements_run(&self) -> u64 {
        self.conn.statements()
    }

    fn maintain(&mut self) -> Result<Vec<String>> {
        use super::db::Context;
        self.conn
            .refresh_statistics()
            .ctx("refreshing the planner's statistics")
    }

    fn pack_queued(&mut self, max: usize) -> Result<usize> {
        let packed = archive::pack_queued(&mut self.conn, max);
        self.checkpoint_when_due();
        packed
    }

    fn pack_ended(&mut self, run_ids: &[&str]) -> Result<usize> {
        let packed = archive::pack_ended(&mut self.conn, run_ids);
        self.checkpoint_when_due();
        packed
    }

    fn pack_by(&mut self, packer: crate::store::PackSignal) {
        self.packer = Some(packer);
        self.conn.leave_checkpoints_to_packer();
    }

    fn checkpoint(&mut self) -> Result<()> {
        use super::db::Context;
        let Some(conn) = self.conn.as_sqlite() else {
            return Ok(());
        };
        conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()))
            .ctx("copying the WAL into the data file")
    }

    fn seed_sleeping_copies(&mut self, run_id: &str, n: usize) -> Result<()> {
        super::seed::seed_sleeping_copies(&mut self.conn, run_id, n)
    }

    fn prune_runs(&mut self, ended_before: Millis, now: Millis) -> Result<u64> {
        prune::prune(&mut self.conn, ended_before, now)
    }

    fn retired_run(&self, run_id: &str) -> Result<Option<RetiredRun>> {
        prune::retired_run(&self.conn, run_id)
    }

    fn put_schedule(&mut self, schedule: &Schedule, replace: bool) -> Result<PutSchedule> {
        schedules::put(&mut self.conn, schedule, replace)
    }

    fn schedules(&self) -> Result<Vec<Schedule>> {
        schedules::list(&self.conn, None)
    }

    fn remove_schedule(&mut self, id: &str) -> Result<bool> {
        schedules::remove(&mut self.conn, id)
    }

    fn due_schedules(&self, now: Millis) -> Result<Vec<Schedule>> {
        schedules::list(&self.conn, Some(now))
    }

    fn advance_schedule(
        &mut self,
        id: &str,
        due_at: Millis,
        next_at: Millis,
        last_run_id: Option<&str>,
    ) -> Result<bool> {
        schedules::advance(&mut self.conn, id, due_at, next_at, last_run_id)
    }

    fn claim_run(
        &mut self,
        run_id: &str,
        now: Millis,
        owner: &str,
        lease_ms: u64,
    ) -> Result<Option<Claim>> {
        upgrades::claim_run(&mut self.conn, run_id, now, owner, lease_ms)
    }

    fn commit_upgrades(&mut self, upgrades: &[UpgradeCommit]) -> Result<Vec<Result<()>>> {
        upgrades::commit_upgrades(&mut self.conn, upgrades)
    }

    fn cancel_run(&mut self, run_id: &str, reason: &str, by: &str, at: Millis) -> Result<bool> {
        let cancelled = claim_ends::cancel(&mut self.conn, run_id, reason, by, at)?;
        if cancelled {
            self.pack_after_commit(&[run_id]);
        }
        Ok(cancelled)
    }

    fn resume_parked(
        &mut self,
        run_id: &str,
        budgets: &Budgets,
        by: &str,
        at: Millis,
    ) -> Result<bool> {
        triggers::resume_parked(&mut self.conn, run_id, budgets, by, at)
    }

    fn create_run_audited(&mut self, run: &NewRun, audit: &AuditEntry) -> Result<()> {
        runs::create_run(&mut self.conn, run, Some(audit))
    }

    fn deliver_event_audited(
        &mut self,
        run_id: &str,
        event: &Event,
        audit: &AuditEntry,
    ) -> Result<Delivery> {
        triggers::deliver_event(&mut self.conn, run_id, event, Some(audit))
    }

    fn ledger(&self, run_id: &str) -> Result<Vec<LedgerEntry>> {
        tools::ledger(&self.conn, run_id)
    }

    fn ledger_get(&self, run_id: &str, key: &str) -> Result<Option<LedgerEntry>> {
        tools::ledger_get(&self.conn, run_id, key)
    }

    fn extend_claim(&mut self, run_id: &str, epoch: u64, now: Millis, lease_ms: u64) -> Result<()> {
        intents::extend_claim(&mut self.conn, run_id, epoch, now, lease_ms)
    }

    fn begin_external(&mut self, intent: &Intent, now: Millis, lease_ms: u64) -> Result<()> {
        intents::begin_external(&mut self.conn, intent, now, lease_ms)
    }

    fn forget_intent(&mut self, run_id: &str, key: &str, epoch: u64) -> Result<()> {
        intents::forget(&mut self.conn, run_id, key, epoch)
    }

    fn intent(&self, run_id: &str, key: &str) -> Result<Option<Intent>> {
        intents::intent(&self.conn, run_id, key)
    }

    fn intents(&self, run_id: &str) -> Result<Vec<Intent>> {
        intents::intents(&self.conn, run_id)
    }

    fn resolve(
        &mut self,
        run_id: &str,
        key: &str,
        resolution: &Resolution,
        by: &str,
        said: Option<&str>,
        at: Millis,
    ) -> Result<std::result::Result<(), ResolveRefused>> {
        intents::resolve(&mut self.conn, run_id, key, resolution, by, said, at)
    }

    fn ledger_put(
        &mut self,
        call: &LedgerWrite,
        result: &std::result::Result<String, ToolError>,
        at: Millis,
    ) -> Result<()> {
        tools::ledger_put(&mut self.conn, call, result, None, at)
    }

    fn ledger_put_metered(
        &mut self,
        call: &LedgerWrite,
        result: &std::result::Result<String, ToolError>,
        usage: &Usage,
        at: Millis,
    ) -> Result<()> {
        tools::ledger_put(&mut self.conn, call, result, Some(usage), at)
    }

    fn charge(&mut self, run_id: &str, epoch: u64, key: &str, usage: &Usage) -> Result<()> {
        tools::charge(&mut self.conn, run_id, epoch, key, usage)
    }

    fn kv(&mut self, op: &KvOp) -> Result<KvOutcome> {
        tools::kv(&mut self.conn, op)
    }

    fn kv_peek(&self, key: &str) -> Result<Option<(Option<String>, u64)>> {
        tools::kv_current(&self.conn, key)
    }

    fn lease_peek(&self, resource: &str) -> Result<Option<Held>> {
        effects::lease(&self.conn, resource)
    }

    fn apply_effects(
        &mut self,
        run_id: &str,
        epoch: u64,
        effects: &Effects,
        at: Millis,
    ) -> Result<()> {
        effects::flush(&mut self.conn, run_id, epoch, effects, at)
    }

    fn create_callback(
        &mut self,
        call: &LedgerWrite,
        link: &NewCallback,
        render: RenderResult<'_, Callback>,
    ) -> Result<std::result::Result<Callback, String>> {
        callbacks::create(&mut self.conn, call, link, render)
    }

    fn callbacks(&self, run_id: &str) -> Result<Vec<Callback>> {
        callbacks::list(&self.conn, run_id)
    }

    fn use_callback(
        &mut self,
        token: &str,
        payload: &str,
        from: Option<&str>,
        at: Millis,
    ) -> Result<std::result::Result<Callback, CallbackRefused>> {
        callbacks::use_link(&mut self.conn, token, payload, from, at)
    }

    fn set_switch(&mut self, switch: &Switch) -> Result<()> {
        switches::set_switch(&mut self.conn, switch)
    }

    fn clear_switch(&mut self, scope: &str) -> Result<bool> {
        switches::clear_switch(&mut self.conn, scope)
    }

    fn switches(&self) -> Result<Vec<Switch>> {
        switches::switches(&self.conn)
    }

    fn switch_covering(
        &self,
        agent: &str,
        run_id: &str,
        tool: Option<&str>,
    ) -> Result<Option<Switch>> {
        switches::covering(&self.conn, agent, run_id, tool)
    }

    fn append_audit(&mut self, entry: &AuditEntry, at: Millis) -> Result<()> {
        write(&mut self.conn, "appending an audit row", |tx| {
            audit::insert(tx, entry, at)
        })
    }

    fn audit(&self, run_id: Option<&str>) -> Result<Vec<AuditRow>> {
        audit::audit(&self.conn, run_id)
    }

    fn runs_page(
        &self,
        filter: &RunFilter,
        after: Option<&str>,
        limit: usize,
    ) -> Result<Page<Run, String>> {
        pages::runs_page(&self.conn, filter, after, limit)
    }

    fn audit_page(
        &self,
        run_id: Option<&str>,
        after: Option<u64>,
        limit: usize,
    ) -> Result<Page<AuditRow, u64>> {
        pages::audit_page(&self.conn, run_id, after, limit)
    }

    fn run_counts(&self) -> Result<Vec<(RunStatus, u64)>> {
        pages::run_counts(&self.conn)
    }

    fn kv_page(
        &self,
        prefix: &str,
        after: Option<&str>,
        limit: usize,
    ) -> Result<Page<KvEntry, String>> {
        pages::kv_page(&self.conn, prefix, after, limit)
    }

    fn kv_audited(
        &mut self,
        op: &KvOp,
        audit: &dyn Fn(&KvOutcome) -> AuditEntry,
        at: Millis,
    ) -> Result<KvOutcome> {
        tools::kv_audited(&mut self.conn, op, audit, at)
    }

    fn lease_audited(
        &mut self,
        op: &LeaseOp,
        audit: &dyn Fn(&LeaseOutcome) -> AuditEntry,
        now: Millis,
    ) -> Result<LeaseOutcome> {
        tools::lease_audited(&mut self.conn, op, audit, now)
    }

    fn set_switch_audited(&mut self, switch: &Switch, audit: &AuditEntry) -> Result<()> {
        switches::set_switch_audited(&mut self.conn, switch, audit)
    }

    fn clear_switch_audited(
        &mut self,
        scope: &str,
        audit: &AuditEntry,
        at: Millis,
    ) -> Result<bool> {
        switches::clear_switch_audited(&mut self.conn, scope, audit, at)
    }

    fn heartbeat(&mut self, id: &str, kind: &str, listen: Option<&str>, at: Millis) -> Result<()> {
        hosts::heartbeat(&mut self.conn, id, kind, listen, at)
    }

    fn host_started(
        &mut self,
        id: &str,
        kind: &str,
        listen: Option<&str>,
        at: Millis,
    ) -> Result<()> {
        hosts::started(&mut self.conn, id, kind, listen, at)
    }

    fn claim_owners(&self, now: Millis) -> Result<Vec<String>> {
        hosts::claim_owners(&self.conn, now)
    }

    fn release_claims_of(
        &mut self,
        id: &str,
        by: &str,
        why: &str,
        at: Millis,
    ) -> Result<Vec<String>> {
        hosts::release_claims_of(&mut self.conn, id, by, why, at)
    }

    fn live_claim(&self, run_id: &str, now: Millis) -> Result<Option<ClaimedRun>> {
        hosts::live_claim(&self.conn, run_id, now)
    }

    fn host_stopped(&mut self, id: &str, at: Millis) -> Result<()> {
        hosts::stopped(&mut self.conn, id, at)
    }

    fn forget_silent_hosts(&mut self, before: Millis) -> Result<u64> {
        hosts::forget_silent(&mut self.conn, before)
    }

    fn hosts(&self, now: Millis) -> Result<Vec<HostRecord>> {
        hosts::hosts(&self.conn, now)
    }

    fn session_key(&mut self, name: &str) -> Result<(i64, String)> {
        super::sessions::session_key(&mut self.conn, name)
    }

    fn revoke_sessions(&mut self, name: &str) -> Result<i64> {
        super::sessions::revoke(&mut self.conn, name)
    }
}

impl SqlStore {
    /// Sets `approval.token` to its link's token when this host's key
    /// derives the token whose hash is stored.
    fn reveal_link(&self, approval: &mut Approval) {
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

    /// Commits steps prepared by [`commits::prepare_steps`], then hands
    /// on the runs they ended and the WAL's growth.
    fn write_steps(
        &mut self,
        commits: &[StepCommit],
        prepared: &[commits::Prepared<'_>],
    ) -> Result<Vec<Result<()>>> {
        let outcomes = commits::write_steps(&mut self.conn, commits, prepared)?;
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

    /// After a step's commit: each time the WAL has grown by as many pages
    /// as SQLite would checkpoint it at, asks the packer to (passively, on
    /// its own thread). Not at every commit while it is long: the WAL
    /// starts again from its beginning only once a writer finds it all
    /// copied, and a checkpoint of the few pages written since the last
    /// one would cost two fsyncs for nothing.
    fn checkpoint_when_due(&mut self) {
        let Some(packer) = &self.packer else {
            return;
        };
        let pages = super::db::take_wal_pages();
        if pages == 0 {
            return;
        }
        if pages < self.wal_pages_asked {
            // The WAL started again.
            self.wal_pages_asked = 0;
        }
        if pages >= self.wal_pages_asked + super::db::CHECKPOINT_PAGES {
            packer.checkpoint();
            self.wal_pages_asked = pages;
        }
    }

    /// Packs the runs whose ending this handle just committed, or hands
    /// them to its packer thread. The commit stands either way: a run not
    /// packed stays queued with its history live.
    fn pack_after_commit(&mut self, run_ids: &[&str]) {
        match &self.packer {
            Some(packer) => packer.ended(run_ids),
            None => archive::pack_after_commit(&mut self.conn, run_ids),
        }
    }
}
