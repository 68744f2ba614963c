//! The gate of one step: every tool call the guest makes passes through
//! [`StepGate::attempt`], in this order.
//!
//! 1. A key used before (in this step, or recorded in the run's ledger) is
//!    answered with the recorded result; a key reused for another call is
//!    refused.
//! 2. A kill switch covering the call stops the step, unchanged.
//! 3. A call an earlier attempt sent without recording its result goes out
//!    again only to a tool that drops repeated keys; else the run is parked.
//! 4. Grants, the per-step call budget, the payload limit, the run's token
//!    and money budgets, and approvals are checked; a refusal is the
//!    guest's to handle.
//! 5. A `kv`, `lease` or `static` call is answered at once and held for the
//!    step's commit ([`Effects`]).
//! 6. Any other call first writes what is held, then, if it leaves the host,
//!    extends the claim and records its intent; it runs, and its result is
//!    durable before the guest sees it. A call that was sent but did not
//!    complete is an unknown outcome unless its tool drops repeats.
//!
//! What the step's calls leave for the worker is a [`GateOutcome`].

use std::sync::Arc;

use serde_json::json;

use crate::failpoint;
use crate::model::{Millis, ToolError, call_digest};
use crate::runtime::{HostFault, ToolGate};
use crate::store::{
    ApprovalUse, AuditEntry, Effects, Intent, LedgerWrite, Run, SqlStore, StoreError, Switch,
    Uncommitted, Usage,
};
use crate::tools::Tools;
use crate::tools::{approval, audit_row};

/// The longest idempotency key a guest may use.
pub const MAX_KEY_BYTES: usize = 512;
/// The note of a call whose ledger write made its audit row, durably
/// with its result.
const RECORDED: &str = "recorded";

/// Audit rows of unrecorded calls (refusals, replays, failures) one step
/// may add; recorded calls always have theirs.
const MAX_CALL_ROWS: u32 = 64;

/// The longest tool name a guest may call.
pub const MAX_TOOL_NAME_BYTES: usize = 128;

/// Bytes of held calls (arguments, values, results) past which a step
/// writes them out before going on, so that a guest cannot make the host
/// hold an unbounded amount for its commit.
const MAX_HELD_BYTES: usize = 1 << 20;

/// The store the gate writes calls to: the store itself rather than a
/// narrow `Ledger` trait, which would have this one implementation and only
/// forward to it. What the gate uses of it is the ledger's part: recorded
/// calls, intents, held effects, charges, approvals and tool switches.
pub type GateStore = SqlStore;

/// What the gate of one step is made from.
pub struct ForStep<'a> {
    /// The host's store, lent to the gate for the step: [`StepGate::finish`]
    /// gives it back.
    pub store: Box<GateStore>,
    pub tools: Arc<Tools>,
    /// The clock claims are judged by: each external call extends the
    /// claim from its time.
    pub clock: Arc<dyn crate::clock::Clock>,
    /// The claimed run, as the step starts.
    pub run: &'a Run,
    /// The claim's fencing epoch: writes of a superseded claim are refused.
    pub epoch: u64,
    /// How far each external call extends the claim.
    pub claim_ms: u64,
    /// The tools granted to the run's agent version.
    pub granted: Arc<[String]>,
    /// The step's logical time.
    pub now: Millis,
    /// Calls one step may make.
    pub calls_per_step: u32,
    /// What earlier steps of the run left whose commit has not been
    /// written (a chain after `continue`); `None` for a step taken alone.
    pub under: Option<Uncommitted>,
}

/// A gate for one step of one claimed run. It owns what it uses: for a
/// guest run in place, it lives in the guest's wasmtime store for the step.
pub struct StepGate {
    store: Box<GateStore>,
    tools: Arc<Tools>,
    clock: Arc<dyn crate::clock::Clock>,
    run_id: String,
    /// The run's incarnation, part of the keys sent to other systems.
    incarnation: String,
    epoch: u64,
    claim_ms: u64,
    /// The run's agent, which `agent:<name>` kill switches name.
    agent: String,
    /// The checkpoint this step would write, for the audit rows.
    seq: u64,
    granted: Arc<[String]>,
    now: Millis,
    /// Calls this step may still make.
    calls_left: u32,
    /// Tool calls that actually ran (not replays), for the step's audit row.
    executed: u32,
    replayed: u32,
    /// The run's token and money budgets, kept current as calls are charged.
    spend: Spend,
    /// Set when a call was refused because a run budget is spent.
    budget_spent: Option<String>,
    /// Why the step was stopped in a call, if it was.
    stop: Option<Stop>,
    /// Audit rows of the step's tool calls (one per call, with its outcome)
    /// and refusals, written with the step's outcome.
    audit: Vec<AuditEntry>,
    /// How the call being made ended, when its result alone does not say
    /// (a replay, a pause, a call that never left the host).
    note: Option<&'static str>,
    /// The call being made was refused by the host's policy (grants,
    /// budgets, approval) before it could run: its audit row keeps its
    /// arguments, for `wakeful cassette`.
    refused: bool,
    /// Argument bytes the audit rows of this step's refused calls may
    /// still keep: a guest looping over refused calls cannot grow the
    /// audit log by more.
    refused_bytes_left: usize,
    /// Call rows this step has added to `audit`, and calls past the limit.
    call_rows: u32,
    unaudited_calls: u32,
    /// The step's `kv`, `lease` and `static` calls not yet written.
    effects: Effects,
    /// The step follows earlier steps of its run whose commit has not been
    /// written: it may write nothing before that commit.
    chained: bool,
}

/// Why a call stopped the step (its guest traps with a host fault).
#[derive(Debug, Clone)]
pub enum Stop {
    /// A chained step needed to write before the steps before it are
    /// committed: it is abandoned unchanged and taken again on its own.
    Unchain,
    /// Writing the held calls found a key or lease changed since the step
    /// read it: the step is void and runs again.
    Conflict(String),
    /// A kill switch covering a call (its tool, the run, its agent, or
    /// everything) was on: the step is abandoned unchanged and the run
    /// waits for the switch to lift.
    Held(Switch),
    /// A call's outcome is unknown and its tool cannot drop a repeat: the
    /// run is parked with this reason until an operator settles it.
    UnknownOutcome(String),
}

/// What a step's calls left, once its guest returned.
#[derive(Debug, Default)]
pub struct GateOutcome {
    /// The held calls not yet written: written with the step's checkpoint,
    /// dropped with a step that ends otherwise (it runs and calls again).
    pub effects: Effects,
    /// Calls that ran, and calls answered from the ledger.
    pub executed: u32,
    pub replayed: u32,
    /// Set when a call was refused because a run budget is spent: whatever
    /// the step did with that refusal, the run waits for an operator after
    /// it.
    pub budget_spent: Option<String>,
    pub stop: Option<Stop>,
    /// The calls' audit rows, with a count of the calls past the limit.
    pub audit: Vec<AuditEntry>,
}

impl StepGate {
    /// The gate of the step `cx` describes.
    pub fn for_step(cx: ForStep<'_>) -> StepGate {
        let run = cx.run;
        StepGate {
            store: cx.store,
            tools: cx.tools,
            clock: cx.clock,
            run_id: run.run_id.clone(),
            incarnation: run.incarnation.clone(),
            epoch: cx.epoch,
            claim_ms: cx.claim_ms,
            agent: run.agent.clone(),
            seq: run.steps + 1,
            granted: cx.granted,
            now: cx.now,
            calls_left: cx.calls_per_step,
            executed: 0,
            replayed: 0,
            spend: Spend {
                tokens_used: run.tokens_used,
                token_budget: run.token_budget,
                usd_used: run.usd_used,
                usd_budget: run.usd_budget,
            },
            budget_spent: None,
            stop: None,
            audit: vec![],
            note: None,
            refused: false,
            refused_bytes_left: audit_row::REFUSED_ARGS_PER_STEP,
            call_rows: 0,
            unaudited_calls: 0,
            chained: cx.under.is_some(),
            effects: Effects::over(cx.under.unwrap_or_default()),
        }
    }

    /// What the step's calls left, once its guest returned, and the store
    /// the gate was lent.
    pub fn finish(mut self) -> (GateOutcome, Box<GateStore>) {
        if self.unaudited_calls > 0 {
            self.audit.push(AuditEntry {
                run_id: Some(self.run_id.to_string()),
                kind: "tool".into(),
                data: json!({"seq": self.seq, "outcome": "not audited",
                    "calls": self.unaudited_calls,
                    "why": format!("a step's first {MAX_CALL_ROWS} unrecorded calls are audited")}),
            });
        }
        let outcome = GateOutcome {
            effects: self.effects,
            executed: self.executed,
            replayed: self.replayed,
            budget_spent: self.budget_spent,
            stop: self.stop,
            audit: self.audit,
        };
        (outcome, self.store)
    }

    /// Stops the step at this call: the first reason given is the one the
    /// worker acts on.
    fn stop(&mut self, stop: Stop) {
        self.stop.get_or_insert(stop);
    }
}

/// What a run has spent on metered tools, and may spend.
#[derive(Clone, Copy, Debug)]
pub struct Spend {
    pub tokens_used: u64,
    pub token_budget: u64,
    pub usd_used: f64,
    /// `0.0`: no money limit.
    pub usd_budget: f64,
}

impl Spend {
    /// Refuses a call that could take the run past a budget.
    fn allows(&self, most: &Usage) -> Result<(), String> {
        if self.tokens_used.saturating_add(most.tokens) > self.token_budget {
            return Err(format!(
                "token budget of {} is spent ({} used; this call may use {}); resume the run \
                 to grant it more, or cancel it",
                self.token_budget, self.tokens_used, most.tokens
            ));
        }
        if self.usd_budget > 0.0 && self.usd_used + most.usd > self.usd_budget {
            return Err(format!(
                "money budget of {} USD is spent ({:.4} used; this call may cost {:.4}); resume \
                 the run to grant it more, or cancel it",
                self.usd_budget, self.usd_used, most.usd
            ));
        }
        Ok(())
    }
}

impl StepGate {
    fn check(&mut self, name: &str, args: &str) -> Result<(), ToolError> {
        if let Some(why) = self.tools.mcp_refusal(name) {
            return Err(ToolError::Denied(why));
        }
        if !self.tools.knows(name) {
            return Err(ToolError::Unknown(format!(
                "no tool named `{name}` on this host"
            )));
        }
        if !self.granted.iter().any(|g| g == name) {
            return Err(ToolError::Denied(format!(
                "tool `{name}` is not granted to this agent version; redeploy with --grant {name}"
            )));
        }
        if self.calls_left == 0 {
            return Err(ToolError::Budget(
                "this step made all the tool calls it may make; continue in a new step".into(),
            ));
        }
        if args.len() > self.tools.max_payload() {
            return Err(ToolError::Invalid(format!(
                "arguments are {} bytes; the limit is {}",
                args.len(),
                self.tools.max_payload()
            )));
        }
        if serde_json::from_str::<serde_json::Value>(args).is_err() {
            return Err(ToolError::Invalid("arguments are not valid JSON".into()));
        }
        Ok(())
    }
}

impl StepGate {
    /// Refuses a key that was recorded (or sent) for another call: a key
    /// names one action, and replaying the result of another one would be
    /// a lie to the guest.
    fn refuse_reuse(&mut self, key: &str, name: &str, other_tool: &str) -> ToolError {
        self.audit.push(AuditEntry {
            run_id: Some(self.run_id.to_string()),
            kind: "tool key reused".into(),
            data: json!({"key": key, "tool": name, "recorded_tool": other_tool}),
        });
        ToolError::Invalid(format!(
            "idempotency key `{key}` was already used for another call (tool `{other_tool}` \
             with other arguments); a key names one action: give a new call a new key"
        ))
    }

    /// A result too large for the guest, refused the same way whether it
    /// was just produced or replayed from the ledger.
    fn bounded(&self, result: Result<String, ToolError>) -> Result<String, ToolError> {
        match result {
            Ok(out) if out.len() > self.tools.max_payload() => Err(ToolError::Failed(format!(
                "the result is {} bytes; the limit is {}",
                out.len(),
                self.tools.max_payload()
            ))),
            other => other,
        }
    }

    /// The kill switch that stops a call of `name` in this run now, if any.
    fn switch_covering(&self, name: &str) -> Result<Option<Switch>, crate::store::StoreError> {
        self.store
            .switch_covering(&self.agent, &self.run_id, Some(name))
    }

    /// Stops the step: the run is parked until an operator says what became
    /// of the call `key`.
    fn unknown_outcome(&mut self, name: &str, key: &str, why: &str) -> HostFault {
        let reason = format!(
            "unknown outcome of {name} call {key} ({why}); `{name}` cannot drop a repeated \
             call, so it is not sent again: settle it with `wakeful resolve {} {key} \
             --result JSON | --retry | --fail REASON`",
            self.run_id
        );
        self.stop(Stop::UnknownOutcome(reason.clone()));
        HostFault(reason)
    }
}

impl StepGate {
    /// Charges a metered call that was sent and is not recorded (it got no
    /// usable answer): the run pays the estimate, so a failing model
    /// server cannot be called for free.
    fn charge_unrecorded(
        &mut self,
        key: &str,
        spent: &Usage,
    ) -> Result<(), crate::store::StoreError> {
        self.store.charge(&self.run_id, self.epoch, key, spent)?;
        self.spend.tokens_used = self.spend.tokens_used.saturating_add(spent.tokens);
        self.spend.usd_used += spent.usd;
        Ok(())
    }

    /// The named call of an approved request that a call of `name` with
    /// `args` uses (`None`: the tool needs no approval, or this call used
    /// it already under the same key, in an attempt that did not commit);
    /// a call of a tool that needs approval is refused without one.
    fn approval_for(
        &mut self,
        name: &str,
        args: &str,
        key: &str,
    ) -> Result<Result<Option<ApprovalUse>, ToolError>, StoreError> {
        let Some(rule) = self.tools.approval_rule(name).cloned() else {
            return Ok(Ok(None));
        };
        for a in self.store.approvals(&self.run_id)? {
            if !a.answer.as_ref().is_some_and(|answer| answer.approved) {
                continue;
            }
            // The votes are checked again here, so that an answer given
            // before the rule was tightened does not count.
            let yes = a.votes.iter().filter(|v| v.approved).map(|v| v.by.as_str());
            if rule.needs_principal() && !rule.met_by(yes) {
                continue;
            }
            for (i, call) in approval::calls_in(&a.details).into_iter().enumerate() {
                if !call.is_some_and(|c| c.is(name, args)) {
                    continue;
                }
                let index = u32::try_from(i).unwrap_or(u32::MAX);
                let used = (self.effects.approval_used(&a.id, index))
                    .or(a.used_calls.get(&index).map(String::as_str));
                match used {
                    Some(by) if by == key => return Ok(Ok(None)),
                    Some(_) => continue,
                    None if self.now >= a.expires_at => continue,
                    None => {
                        return Ok(Ok(Some(ApprovalUse {
                            run_id: self.run_id.to_string(),
                            request_id: a.id.clone(),
                            call_index: index,
                            key: key.to_string(),
                        })));
                    }
                }
            }
        }
        self.note = Some("needs approval");
        Ok(Err(ToolError::Denied(format!(
            "needs approval: tool `{name}` runs only with an approved, unexpired approval \
             request of this run naming this call that no other call used; ask with details \
             {{\"calls\": [{{\"tool\": \"{name}\", \"args\": <the arguments>, \
             \"args_sha256\": \"{}\"}}]}}, then make the call with the same arguments",
            approval::args_sha256(args)
        ))))
    }
}

impl ToolGate for StepGate {
    /// Makes the call, and records it in the step's audit rows with how it
    /// ended.
    fn call(
        &mut self,
        name: &str,
        args: &str,
        idempotency_key: &str,
    ) -> Result<Result<String, ToolError>, HostFault> {
        self.note = None;
        self.refused = false;
        let answer = self.attempt(name, args, idempotency_key);
        if self.note == Some(RECORDED) {
            return answer;
        }
        if self.call_rows >= MAX_CALL_ROWS {
            // A guest looping over refused calls must not flood the log.
            self.unaudited_calls += 1;
            return answer;
        }
        self.call_rows += 1;
        let mut row = audit_row::tool_call(self.seq, name, idempotency_key, self.note, &answer);
        if let (true, Ok(Err(refusal))) = (self.refused, &answer) {
            let kept = audit_row::refused_call(&mut row, args, refusal, self.refused_bytes_left);
            self.refused_bytes_left -= kept;
        }
        self.audit.push(AuditEntry {
            run_id: Some(self.run_id.to_string()),
            kind: "tool".into(),
            data: row,
        });
        answer
    }
}

impl StepGate {
    /// Stops a chained step that is about to write: what it would write
    /// could depend on steps not yet committed.
    fn before_write(&mut self) -> Result<(), HostFault> {
        if !self.chained {
            return Ok(());
        }
        self.stop(Stop::Unchain);
        Err(HostFault(
            "the step needs a write before the steps before it are committed; \
             it is taken again on its own"
                .into(),
        ))
    }

    /// Writes the held calls now, under the claim.
    fn write_effects(&mut self) -> Result<(), crate::store::StoreError> {
        if self.effects.is_empty() {
            return Ok(());
        }
        let written = self
            .store
            .apply_effects(&self.run_id, self.epoch, &self.effects, self.now);
        if let Err(e @ crate::store::StoreError::Conflict(_)) = &written {
            self.stop(Stop::Conflict(e.to_string()));
        }
        written?;
        self.effects = Effects::default();
        Ok(())
    }

    /// Makes one call in the gate's order (see the module's opening).
    fn attempt(
        &mut self,
        name: &str,
        args: &str,
        key: &str,
    ) -> Result<Result<String, ToolError>, HostFault> {
        let fault = |e: StoreError| HostFault(e.to_string());
        if let Err(refused) = check_key(name, key) {
            return Ok(Err(refused));
        }
        if let Some(replayed) = self.replay(name, args, key).map_err(fault)? {
            return Ok(replayed);
        }
        self.stop_if_switched(name)?;
        // An intent keeps only the digest of the call's tool and args.
        let digest = self
            .tools
            .is_external(name)
            .then(|| call_digest(name, args));
        let mut resending = false;
        if let Some(digest) = &digest {
            match self.resend(name, key, digest)? {
                Ok(earlier) => resending = earlier,
                Err(refused) => return Ok(Err(refused)),
            }
        }
        let used = match self.admit(name, args, key).map_err(fault)? {
            Ok(used) => used,
            Err(refused) => {
                self.refused = true;
                return Ok(Err(refused));
            }
        };
        self.calls_left -= 1;
        // Marked used with the call's effects: with the step's commit, or
        // before the call leaves the host.
        self.effects.approvals_used.extend(used);
        let call = LedgerWrite {
            run_id: self.run_id.to_string(),
            incarnation: self.incarnation.to_string(),
            epoch: self.epoch,
            key: key.to_string(),
            tool: name.to_string(),
            args: args.to_string(),
        };
        if self.tools.is_held(name) {
            return self.hold(call);
        }
        self.send(call, digest.map(|digest| Sending { digest, resending }))
    }

    /// Whether a call of an external tool may go out under `key`: after an
    /// earlier attempt sent it and never recorded what came back, only a
    /// system that drops repeated keys may get it again. `Ok(true)`: it
    /// goes out again, as a resend.
    fn resend(
        &mut self,
        name: &str,
        key: &str,
        digest: &str,
    ) -> Result<Result<bool, ToolError>, HostFault> {
        let intent = self
            .store
            .intent(&self.run_id, key)
            .map_err(|e| HostFault(e.to_string()))?;
        let Some(intent) = intent else {
            return Ok(Ok(false));
        };
        if intent.args_digest != digest {
            return Ok(Err(self.refuse_reuse(key, name, &intent.tool)));
        }
        if !self.tools.is_idempotent(name) {
            self.note = Some("unknown outcome");
            return Err(self.unknown_outcome(name, key, "an earlier attempt sent it and died"));
        }
        Ok(Ok(true))
    }

    /// The policy checks of a call (grants, call budget, payload, run
    /// budgets, approval), and the approval it uses. Refusals are not
    /// recorded: a kill switch lifted later must let the retried call
    /// through.
    fn admit(
        &mut self,
        name: &str,
        args: &str,
        key: &str,
    ) -> Result<Result<Option<ApprovalUse>, ToolError>, StoreError> {
        if let Err(e) = self.check(name, args) {
            return Ok(Err(e));
        }
        if let Some(most) = self.tools.estimate(name, args)
            && let Err(reason) = self.spend.allows(&most)
        {
            self.budget_spent = Some(reason.clone());
            return Ok(Err(ToolError::Budget(reason)));
        }
        self.approval_for(name, args, key)
    }

    /// Runs a call that is not held. What the step's held calls did is
    /// written first, before anything that another system (or a
    /// callback's caller) may act on; an external call's intent is durable
    /// before anything leaves the host.
    fn send(
        &mut self,
        call: LedgerWrite,
        sending: Option<Sending>,
    ) -> Result<Result<String, ToolError>, HostFault> {
        let fault = |e: StoreError| HostFault(e.to_string());
        self.before_write()?;
        self.write_effects().map_err(fault)?;
        let external = sending.is_some();
        if let Some(sending) = sending {
            // Fenced: a step whose claim was taken over, or whose run was
            // cancelled, sends nothing more.
            failpoint::hit("before-intent", &call.key);
            let intent = Intent {
                run_id: call.run_id.clone(),
                key: call.key.clone(),
                tool: call.tool.clone(),
                args: call.args.clone(),
                args_digest: sending.digest,
                epoch: self.epoch,
                at: self.now,
            };
            // Every send is audited, with the key the system reached sees.
            let sent = AuditEntry {
                run_id: Some(self.run_id.to_string()),
                kind: audit_row::SENT.into(),
                data: audit_row::sent(self.seq, &call, sending.resending),
            };
            self.store
                .begin_external(&intent, &[sent], self.clock.now(), self.claim_ms)
                .map_err(fault)?;
            failpoint::hit("after-intent", &call.key);
        }
        let executed = self
            .tools
            .execute(&mut self.store, &call, self.now)
            .map_err(fault)?;
        failpoint::hit("before-result", &call.key);
        if let Some(spent) = executed.charge.filter(|_| executed.usage.is_none()) {
            self.charge_unrecorded(&call.key, &spent).map_err(fault)?;
        }
        self.settle(&call, executed, external)
    }
}

/// An external call about to go out: the digest its intent keeps, and
/// whether an earlier attempt sent it already.
struct Sending {
    digest: String,
    resending: bool,
}

/// Refuses an empty or oversized key, or an oversized tool name.
fn check_key(name: &str, key: &str) -> Result<(), ToolError> {
    if key.is_empty() {
        return Err(ToolError::Invalid(
            "the idempotency key is empty; give every call a key that names the action".into(),
        ));
    }
    if key.len() > MAX_KEY_BYTES || name.len() > MAX_TOOL_NAME_BYTES {
        return Err(ToolError::Invalid(format!(
            "idempotency keys may be {MAX_KEY_BYTES} bytes and tool names \
             {MAX_TOOL_NAME_BYTES}; this call has a {}-byte key and a {}-byte name",
            key.len(),
            name.len()
        )));
    }
    Ok(())
}

impl StepGate {
    /// The recorded result of a call made before under `key` (in this
    /// step, or in the ledger); a key reused for another call is refused.
    /// A recorded call keeps its args whole: a repeat is the same call
    /// when its tool and args are, which needs no digest of either.
    fn replay(
        &mut self,
        name: &str,
        args: &str,
        key: &str,
    ) -> Result<Option<Result<String, ToolError>>, StoreError> {
        if let Some((call, result)) = self.effects.recorded(key) {
            if call.tool != name || call.args != args {
                let tool = call.tool.clone();
                return Ok(Some(Err(self.refuse_reuse(key, name, &tool))));
            }
            let result = result.clone();
            self.replayed += 1;
            self.note = Some("replayed");
            return Ok(Some(self.bounded(result)));
        }
        if let Some(entry) = self.store.ledger_get(&self.run_id, key)? {
            if entry.tool != name || entry.args != args {
                return Ok(Some(Err(self.refuse_reuse(key, name, &entry.tool))));
            }
            self.replayed += 1;
            self.note = Some("replayed");
            return Ok(Some(self.bounded(entry.result)));
        }
        Ok(None)
    }

    /// A switch turned on while the step ran stops it here, before
    /// anything more happens: the step is retried once the switch lifts.
    fn stop_if_switched(&mut self, name: &str) -> Result<(), HostFault> {
        let switch = self
            .switch_covering(name)
            .map_err(|e| HostFault(e.to_string()))?;
        let Some(switch) = switch else {
            return Ok(());
        };
        self.note = Some("paused");
        let why = format!(
            "kill switch `{}` is on{}: the step is abandoned unchanged and retried when it \
             lifts",
            switch.scope,
            switch
                .reason
                .as_deref()
                .map(|r| format!(" ({r})"))
                .unwrap_or_default()
        );
        self.stop(Stop::Held(switch));
        Err(HostFault(why))
    }

    /// A call answered in the step (`kv`, `lease`, `static`): recorded
    /// with the step's effects, written early only past `MAX_HELD_BYTES`.
    fn hold(&mut self, call: LedgerWrite) -> Result<Result<String, ToolError>, HostFault> {
        let fault = |e: StoreError| HostFault(e.to_string());
        let guest = crate::tools::Guest {
            agent: &self.agent,
            granted: &self.granted,
        };
        let result = self
            .tools
            .hold(&self.store, &mut self.effects, &call, self.now, &guest)
            .map_err(fault)?;
        let result = self.bounded(result);
        let key = call.key.clone();
        self.effects.record(call, result.clone());
        if self.effects.bytes() > MAX_HELD_BYTES {
            self.before_write()?;
            self.write_effects().map_err(fault)?;
        }
        self.note = Some(RECORDED);
        self.executed += 1;
        failpoint::hit("after-call", &key);
        Ok(result)
    }

    /// Records what an executed call came back with, or parks the run
    /// when it was sent and its outcome is unknown.
    fn settle(
        &mut self,
        call: &LedgerWrite,
        executed: crate::tools::Executed,
        external: bool,
    ) -> Result<Result<String, ToolError>, HostFault> {
        let fault = |e: StoreError| HostFault(e.to_string());
        let result = self.bounded(executed.result);
        match (&executed.usage, executed.recorded) {
            // Recorded calls have their audit row from the ledger write.
            (_, true) => self.note = Some(RECORDED),
            (None, false) if executed.unsent => {
                // Nothing left the host: no outcome to wonder about; the
                // retried step sends it again.
                self.note = Some("not sent");
                self.store
                    .forget_intent(&self.run_id, &call.key, self.epoch)
                    .map_err(fault)?;
            }
            (None, false) if executed.transient => {
                // Sent, but what became of it is not known.
                if external && !self.tools.is_idempotent(&call.tool) {
                    let why = match &result {
                        Err(e) => e.to_string(),
                        Ok(out) => out[..out.floor_char_boundary(200)].to_string(),
                    };
                    self.note = Some(audit_row::outcome_of(&result));
                    return Err(self.unknown_outcome(&call.tool, &call.key, &why));
                }
            }
            (Some(usage), false) => {
                self.store
                    .ledger_put_metered(call, &result, usage, self.now)
                    .map_err(fault)?;
                self.note = Some(RECORDED);
                self.spend.tokens_used = self.spend.tokens_used.saturating_add(usage.tokens);
                self.spend.usd_used += usage.usd;
            }
            (None, false) => {
                self.store
                    .ledger_put(call, &result, self.now)
                    .map_err(fault)?;
                self.note = Some(RECORDED);
            }
        }
        self.executed += 1;
        failpoint::hit("after-call", &call.key);
        Ok(result)
    }
}
