//! Answers to requests that guard calls of tools requiring approval with
//! `approvers` or a quorum: only principals the rules allow answer, each
//! counted once, and only through an authenticated route.

use std::collections::BTreeMap;

use super::{App, AppError, Result};
use crate::config::ApprovalRule;
use crate::model::ApprovalAnswer;
use crate::store::Approval;
use crate::tools::approval;

impl App {
    /// Records `principal`'s answer when the request guards a tool whose
    /// rule names approvers or a quorum above 1; `None` for any other
    /// request, which [`App::approve`] answers as usual.
    pub(super) fn gated_answer(
        &mut self,
        who: super::triggers::Acting<'_>,
        run_id: &str,
        request_id: &str,
        approved: bool,
        comment: Option<&str>,
        details_digest: &str,
    ) -> Result<Option<Approval>> {
        let principal = who.by;
        let Some(request) = self.request(run_id, request_id)? else {
            return Ok(None);
        };
        let rules = approval::rules_of(self.tools.approval_rules(), &request.details);
        if !rules.values().any(|r| r.needs_principal()) {
            return Ok(None);
        }
        if !rules.values().any(|r| r.allows(principal)) {
            return Err(AppError::Forbidden(format!(
                "{principal} may not answer approval request {request_id} of run {run_id}: it \
                 guards {}, which only {} may approve",
                names(&rules),
                approvers(&rules)
            )));
        }
        let answer = ApprovalAnswer {
            request_id: request_id.to_string(),
            approved,
            by: principal.to_string(),
            said: who.said.map(str::to_string),
            at: self.now(),
            comment: comment.map(str::to_string),
            digest: String::new(),
        };
        let all = self.tools.approval_rules().clone();
        let decide = move |a: &Approval, votes: &[crate::store::Vote]| {
            approval::decided(&approval::rules_of(&all, &a.details), votes)
        };
        crate::failpoint::hit("approval-answer", run_id);
        let voted = self
            .store
            .vote_approval(run_id, &answer, Some(details_digest), &decide)?;
        Ok(Some(voted?))
    }

    /// Refuses an answer through an answer link (which proves no principal)
    /// to a request guarding a tool whose rule names approvers or a quorum.
    pub fn check_link_may_answer(&self, request: &Approval) -> Result<()> {
        let rules = approval::rules_of(self.tools.approval_rules(), &request.details);
        if rules.values().any(|r| r.needs_principal()) {
            return Err(AppError::Forbidden(format!(
                "approval request {} of run {} guards {}, which needs answers from named \
                 approvers ({}): an answer link cannot say who answers; answer through the \
                 console or the API (POST /v1/runs/{}/approvals/{}) with your own token",
                request.id,
                request.run_id,
                names(&rules),
                approvers(&rules),
                request.run_id,
                request.id
            )));
        }
        Ok(())
    }

    fn request(&self, run_id: &str, request_id: &str) -> Result<Option<Approval>> {
        Ok(self
            .store
            .approvals(run_id)?
            .into_iter()
            .find(|a| a.id == request_id))
    }
}

fn names(rules: &BTreeMap<String, &ApprovalRule>) -> String {
    let tools: Vec<String> = rules.keys().map(|t| format!("`{t}`")).collect();
    format!("calls of {}", tools.join(", "))
}

fn approvers(rules: &BTreeMap<String, &ApprovalRule>) -> String {
    let each: Vec<String> = rules
        .iter()
        .map(|(tool, r)| {
            let who = r.approvers.as_ref().map_or_else(
                || "anyone who may approve".to_string(),
                |a| a.iter().cloned().collect::<Vec<_>>().join(", "),
            );
            format!("{tool}: {} of {who}", r.quorum)
        })
        .collect();
    each.join("; ")
}
