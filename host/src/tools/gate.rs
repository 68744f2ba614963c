//! The one path of every tool call a guest makes during a step.
//!
//! In order: a key already in the run's ledger returns the recorded result
//! without running anything (a step retried after a crash sees what the first
//! attempt saw); otherwise the call is checked against the version's grants,
//! the tool kill switches, the per-step call budget, the payload limit and
//! (for metered tools) the run's token and money budgets, then executed, and
//! its result — with what it spent, in the same transaction — is made
//! durable before the guest sees it. A call that did not complete (a
//! timeout, a refused connection, a 5xx) is not recorded: the retried step
//! calls again with the same key, which the system it reaches deduplicates
//! by.

use crate::failpoint;
use crate::model::{Millis, ToolError};
use crate::runtime::{HostFault, ToolGate};
use crate::store::{LedgerWrite, Store, Usage};
use crate::tools::Tools;

/// A gate for one step of one claimed run.
pub struct StepGate<'a> {
    pub store: &'a mut dyn Store,
    pub tools: &'a Tools,
    pub run_id: &'a str,
    /// The run's incarnation, part of the keys sent to other systems.
    pub incarnation: &'a str,
    /// The claim's fencing epoch: writes of a superseded claim are refused.
    pub epoch: u64,
    /// The tools granted to the run's agent version.
    pub granted: &'a [String],
    /// Tools switched off by an operator (`tool:<name>` kill switches).
    pub paused_tools: &'a [String],
    pub now: Millis,
    /// Calls this step may still make.
    pub calls_left: u32,
    /// Tool calls that actually ran (not replays), for the step's audit row.
    pub executed: u32,
    pub replayed: u32,
    /// The run's token and money budgets, kept current as calls are charged.
    pub spend: Spend,
    /// Set when a call was refused because a run budget is spent: the worker
    /// parks the run after the step, with this reason.
    pub budget_spent: Option<String>,
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

impl StepGate<'_> {
    fn check(&mut self, name: &str, args: &str) -> Result<(), ToolError> {
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
        if self.paused_tools.iter().any(|t| t == name) {
            return Err(ToolError::Denied(format!(
                "tool `{name}` is paused by a kill switch"
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

impl ToolGate for StepGate<'_> {
    fn call(
        &mut self,
        name: &str,
        args: &str,
        idempotency_key: &str,
    ) -> Result<Result<String, ToolError>, HostFault> {
        let fault = |e: crate::store::StoreError| HostFault(e.to_string());
        if idempotency_key.is_empty() {
            return Ok(Err(ToolError::Invalid(
                "the idempotency key is empty; give every call a key that names the action".into(),
            )));
        }
        if let Some(entry) = self
            .store
            .ledger_get(self.run_id, idempotency_key)
            .map_err(fault)?
        {
            if entry.tool != name {
                return Ok(Err(ToolError::Invalid(format!(
                    "idempotency key `{idempotency_key}` was already used for tool `{}`",
                    entry.tool
                ))));
            }
            self.replayed += 1;
            return Ok(entry.result);
        }
        // Policy refusals are not recorded: a kill switch lifted later must
        // let the retried call through.
        if let Err(e) = self.check(name, args) {
            return Ok(Err(e));
        }
        if let Some(most) = self.tools.estimate(name, args)
            && let Err(reason) = self.spend.allows(&most)
        {
            self.budget_spent = Some(reason.clone());
            return Ok(Err(ToolError::Budget(reason)));
        }
        self.calls_left -= 1;
        let call = LedgerWrite {
            run_id: self.run_id.to_string(),
            incarnation: self.incarnation.to_string(),
            epoch: self.epoch,
            key: idempotency_key.to_string(),
            tool: name.to_string(),
            args: args.to_string(),
        };
        let executed = self
            .tools
            .execute(self.store, &call, self.now)
            .map_err(fault)?;
        let mut result = executed.result;
        if let Ok(out) = &result
            && out.len() > self.tools.max_payload()
        {
            result = Err(ToolError::Failed(format!(
                "the result is {} bytes; the limit is {}",
                out.len(),
                self.tools.max_payload()
            )));
        }
        match (&executed.usage, executed.recorded) {
            (_, true) => {}
            (None, false) if executed.transient => {}
            (Some(usage), false) => {
                self.store
                    .ledger_put_metered(&call, &result, usage, self.now)
                    .map_err(fault)?;
                self.spend.tokens_used = self.spend.tokens_used.saturating_add(usage.tokens);
                self.spend.usd_used += usage.usd;
            }
            (None, false) => {
                self.store
                    .ledger_put(&call, &result, self.now)
                    .map_err(fault)?;
            }
        }
        self.executed += 1;
        failpoint::after_call(idempotency_key);
        Ok(result)
    }
}
