//! Reads that gather a run's whole record for the CLI and the API alike.

use super::{App, Result};
use crate::model::Millis;
use crate::store::{
    Approval, Callback, ClaimedRun, HostRecord, InboxItem, Intent, LedgerEntry, Run, Switch,
};
use crate::view::RunDoc;

/// One run with everything its page shows.
pub struct RunRecord {
    pub run: Run,
    pub approvals: Vec<Approval>,
    pub switches: Vec<Switch>,
    pub intents: Vec<Intent>,
    pub inbox: Vec<InboxItem>,
    /// Callback links the run made, oldest first.
    pub callbacks: Vec<Callback>,
    pub max_attempts: u32,
    /// The claim live on the run when it was read, if any.
    pub claim: Option<ClaimedRun>,
    /// Of the tools of `intents`, those configured `idempotent = true`:
    /// the host sends their calls of unknown outcome again itself.
    pub resent_tools: Vec<String>,
    /// The recorded calls that left the host (`http`, `llm`), oldest first.
    pub sent_calls: Vec<LedgerEntry>,
}

impl RunRecord {
    pub fn doc(&self) -> RunDoc<'_> {
        RunDoc {
            run: &self.run,
            approvals: &self.approvals,
            switches: &self.switches,
            intents: &self.intents,
            inbox: &self.inbox,
            callbacks: &self.callbacks,
            max_attempts: self.max_attempts,
            claim: self.claim.as_ref(),
            resent_tools: &self.resent_tools,
            sent_calls: &self.sent_calls,
        }
    }
}

impl App {
    /// A run and everything its page shows; a clear error for an id that
    /// names no run (or a pruned one).
    pub fn run_record(&self, run_id: &str) -> Result<RunRecord> {
        let run = self.run(run_id)?;
        let intents = self.store.intents(run_id)?;
        let mut resent_tools: Vec<String> = intents
            .iter()
            .filter(|i| self.tools.is_idempotent(&i.tool))
            .map(|i| i.tool.clone())
            .collect();
        resent_tools.dedup();
        let sent_calls = self
            .store
            .ledger(run_id)?
            .into_iter()
            .filter(|call| self.tools.is_external(&call.tool))
            .collect();
        Ok(RunRecord {
            sent_calls,
            approvals: self.store.approvals(run_id)?,
            switches: self.store.switches()?,
            intents,
            inbox: self.store.inbox(run_id)?,
            callbacks: self.store.callbacks(run_id)?,
            max_attempts: self.config.limits.max_attempts,
            claim: self.store.live_claim(run_id, self.now())?,
            resent_tools,
            run,
        })
    }
}

/// A host sharing the store, and whether it is alive.
#[derive(Clone, Debug, serde::Serialize)]
pub struct HostView {
    #[serde(flatten)]
    pub host: HostRecord,
    /// `live`; `stopped` (it said so at a clean exit); `silent` (no
    /// heartbeat for three beats: it died or lost the store).
    pub state: &'static str,
    /// Milliseconds since its last heartbeat.
    pub silent_for_ms: Millis,
}

impl App {
    /// Where the links this host's API answers (approval and callback
    /// links) are reached, for an operator command: `[api] public_url`,
    /// else the address of a live `serve` sharing the store, else `http://`
    /// and `[api] listen` (or its default).
    pub fn links_base(&self) -> Result<String> {
        if self.config.api.public_url.is_none() {
            let serving = self.hosts()?.into_iter().find_map(|h| {
                (h.state == "live" && h.host.kind == "serve")
                    .then_some(h.host.listen)
                    .flatten()
            });
            if let Some(listen) = serving {
                return Ok(format!("http://{listen}"));
            }
        }
        Ok(crate::tools::public_url(&self.config, None))
    }

    /// The hosts that use this store, live ones first.
    pub fn hosts(&self) -> Result<Vec<HostView>> {
        let now = self.now();
        let silent_after = 3 * crate::config::HEARTBEAT.as_millis() as Millis;
        let mut hosts: Vec<HostView> = self
            .store
            .hosts(now)?
            .into_iter()
            .map(|host| {
                let silent_for_ms = now.saturating_sub(host.heartbeat_at);
                let state = if host.stopped_at.is_some() {
                    "stopped"
                } else if silent_for_ms > silent_after {
                    "silent"
                } else {
                    "live"
                };
                HostView {
                    host,
                    state,
                    silent_for_ms,
                }
            })
            .collect();
        hosts.sort_by_key(|h| h.state != "live");
        Ok(hosts)
    }
}
