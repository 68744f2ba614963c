//! Approvals the gate enforces: `[approvals.tools.<name>]` marks a tool
//! (configured or built in) whose every call needs an approved request
//! naming that exact call, and `[groups]` names sets of principals that
//! `approvers` may list as `group:NAME`.

use std::collections::{BTreeMap, BTreeSet};

use serde::Deserialize;

/// `[approvals]`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ApprovalConfig {
    /// Separation of duties: false (the default) refuses an answer from the
    /// principal who deployed the run's agent version. A version deployed
    /// before deployers were recorded has none, and is not refused.
    #[serde(default)]
    pub deployer_may_answer: bool,
    /// By tool name.
    #[serde(default)]
    pub tools: BTreeMap<String, ToolApprovalConfig>,
}

/// `[approvals.tools.<name>]`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ToolApprovalConfig {
    /// Every call of the tool is refused (`denied: needs approval`) unless
    /// the run holds an approved, unexpired request that names the call
    /// (its tool and the SHA-256 of its arguments) and no call used yet.
    pub requires_approval: bool,
    /// Who may answer: principals (API token names, console users, `os:USER`
    /// for the command line) and `group:NAME` of `[groups]`. Empty: anyone
    /// who may answer approvals. With approvers (or a quorum above 1), the
    /// unauthenticated answer link cannot answer: the API or console must.
    #[serde(default)]
    pub approvers: Vec<String>,
    /// Distinct approvers who must say yes. Default 1.
    #[serde(default)]
    pub quorum: Option<u32>,
}

/// Who must approve a call of one tool, resolved from the config.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApprovalRule {
    pub quorum: u32,
    /// The principals allowed to answer; `None`: anyone who may answer.
    pub approvers: Option<BTreeSet<String>>,
}

impl ApprovalRule {
    /// Whether `principal` may answer for this tool.
    pub fn allows(&self, principal: &str) -> bool {
        self.approvers
            .as_ref()
            .is_none_or(|a| a.contains(principal))
    }

    /// Whether only an authenticated principal can answer (an answer link
    /// proves nobody in particular).
    pub fn needs_principal(&self) -> bool {
        self.approvers.is_some() || self.quorum > 1
    }

    /// Whether the distinct principals in `yes` satisfy this rule.
    pub fn met_by<'a>(&self, yes: impl IntoIterator<Item = &'a str>) -> bool {
        let allowed: BTreeSet<&str> = yes.into_iter().filter(|p| self.allows(p)).collect();
        allowed.len() >= self.quorum as usize
    }
}

const GROUP_PREFIX: &str = "group:";

/// Checks `[groups]` and `[approvals.tools]` against the tools `known`, and
/// resolves each tool's rule.
pub fn resolve(
    groups: &BTreeMap<String, Vec<String>>,
    approval: &ApprovalConfig,
    known: &[String],
) -> Result<BTreeMap<String, ApprovalRule>, String> {
    for (name, members) in groups {
        if name.trim().is_empty() || name.contains(char::is_whitespace) {
            return Err(format!("groups: `{name}` is not a group name (no spaces)"));
        }
        if let Some(bad) = members
            .iter()
            .find(|m| m.trim().is_empty() || m.starts_with(GROUP_PREFIX))
        {
            return Err(format!(
                "groups.{name}: `{bad}` is not a principal (a token name, console user or \
                 os:USER; groups do not nest)"
            ));
        }
    }
    let mut rules = BTreeMap::new();
    for (tool, c) in &approval.tools {
        let at = format!("approvals.tools.{tool}");
        if !known.iter().any(|k| k == tool) {
            return Err(format!(
                "{at}: no tool named `{tool}` on this host (built in: kv, lease, callback; \
                 others are configured under [tools])"
            ));
        }
        if !c.requires_approval {
            if !c.approvers.is_empty() || c.quorum.is_some() {
                return Err(format!(
                    "{at}: approvers and quorum need requires_approval = true"
                ));
            }
            continue;
        }
        rules.insert(tool.clone(), rule(&at, c, groups)?);
    }
    Ok(rules)
}

fn rule(
    at: &str,
    c: &ToolApprovalConfig,
    groups: &BTreeMap<String, Vec<String>>,
) -> Result<ApprovalRule, String> {
    let quorum = c.quorum.unwrap_or(1);
    if quorum == 0 {
        return Err(format!(
            "{at}.quorum must be at least 1 (distinct approvers who must say yes)"
        ));
    }
    if c.approvers.is_empty() {
        return Ok(ApprovalRule {
            quorum,
            approvers: None,
        });
    }
    let mut approvers = BTreeSet::new();
    for entry in &c.approvers {
        match entry.strip_prefix(GROUP_PREFIX) {
            Some(group) => {
                let members = groups.get(group).ok_or_else(|| {
                    format!("{at}.approvers names `{entry}`, but [groups] has no `{group}`")
                })?;
                if members.is_empty() {
                    return Err(format!(
                        "{at}.approvers names `{entry}`, which has no members"
                    ));
                }
                approvers.extend(members.iter().cloned());
            }
            None if entry.trim().is_empty() => {
                return Err(format!("{at}.approvers has an empty name"));
            }
            None => {
                approvers.insert(entry.clone());
            }
        }
    }
    if quorum as usize > approvers.len() {
        return Err(format!(
            "{at}.quorum is {quorum}, but its approvers are only {} principals ({}): it could \
             never be met",
            approvers.len(),
            approvers.iter().cloned().collect::<Vec<_>>().join(", ")
        ));
    }
    Ok(ApprovalRule {
        quorum,
        approvers: Some(approvers),
    })
}
