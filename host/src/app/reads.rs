//! Reads that gather a run's whole record for the CLI and the API alike.

use super::{App, Result};
use crate::store::{Approval, Callback, InboxItem, Intent, Run, Switch};
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
        }
    }
}

impl App {
    /// A run and everything its page shows; a clear error for an id that
    /// names no run (or a pruned one).
    pub fn run_record(&self, run_id: &str) -> Result<RunRecord> {
        let run = self.run(run_id)?;
        Ok(RunRecord {
            approvals: self.store.approvals(run_id)?,
            switches: self.store.switches()?,
            intents: self.store.intents(run_id)?,
            inbox: self.store.inbox(run_id)?,
            callbacks: self.store.callbacks(run_id)?,
            max_attempts: self.config.limits.max_attempts,
            run,
        })
    }
}
