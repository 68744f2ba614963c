//! The calls an approval request names, and who must approve them.
//!
//! A request guards calls when its details hold
//! `{"calls": [{"tool": "refund", "args": {…}, "args_sha256": "<hex>"}, …]}`:
//! `args_sha256` is the SHA-256 of the exact argument text the call will
//! send, `args` the same arguments as JSON for the approver to read. The
//! gate lets a call of a tool that requires approval through only when an
//! approved request names it by both, and each named call once.

use std::collections::BTreeMap;

use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::config::ApprovalRule;
use crate::store::Vote;

/// Lowercase hex SHA-256 of a call's argument text.
pub fn args_sha256(args: &str) -> String {
    Sha256::digest(args.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// One call a request names.
#[derive(Clone, Debug, PartialEq)]
pub struct NamedCall {
    pub tool: String,
    pub args_sha256: String,
    pub args: Value,
}

impl NamedCall {
    /// Whether a call of `tool` with the argument text `args` is this one:
    /// the digest binds the exact text, and the arguments the approver read
    /// must be what the call sends.
    pub fn is(&self, tool: &str, args: &str) -> bool {
        self.tool == tool
            && self.args_sha256.eq_ignore_ascii_case(&args_sha256(args))
            && serde_json::from_str::<Value>(args).is_ok_and(|sent| sent == self.args)
    }
}

/// The calls a request's details name, in order; entries missing a field
/// name no call (their index still counts, so that indexes are stable).
pub fn calls_in(details: &str) -> Vec<Option<NamedCall>> {
    let Ok(value) = serde_json::from_str::<Value>(details) else {
        return Vec::new();
    };
    let Some(calls) = value.get("calls").and_then(Value::as_array) else {
        return Vec::new();
    };
    calls
        .iter()
        .map(|c| {
            Some(NamedCall {
                tool: c.get("tool")?.as_str()?.to_string(),
                args_sha256: c.get("args_sha256")?.as_str()?.to_string(),
                args: c.get("args")?.clone(),
            })
        })
        .collect()
}

/// The rules of the tools requiring approval that a request's details
/// name, by tool.
pub fn rules_of<'r>(
    rules: &'r BTreeMap<String, ApprovalRule>,
    details: &str,
) -> BTreeMap<String, &'r ApprovalRule> {
    calls_in(details)
        .into_iter()
        .flatten()
        .filter_map(|c| rules.get(&c.tool).map(|r| (c.tool, r)))
        .collect()
}

/// What the votes decide for a request guarded by `rules`: approved once
/// every rule has its quorum of yes, rejected at the first no of a
/// principal some rule allows, else still open.
pub fn decided(rules: &BTreeMap<String, &ApprovalRule>, votes: &[Vote]) -> Option<bool> {
    let allowed_no = votes
        .iter()
        .any(|v| !v.approved && rules.values().any(|r| r.allows(&v.by)));
    if allowed_no {
        return Some(false);
    }
    let yes = || votes.iter().filter(|v| v.approved).map(|v| v.by.as_str());
    rules.values().all(|r| r.met_by(yes())).then_some(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vote(by: &str, approved: bool) -> Vote {
        Vote {
            by: by.into(),
            approved,
            at: 0,
            comment: None,
        }
    }

    #[test]
    fn a_named_call_is_bound_to_its_exact_text_and_shown_arguments() {
        let args = r#"{"amount":10}"#;
        let details = serde_json::json!({"calls": [
            {"tool": "refund", "args": {"amount": 10}, "args_sha256": args_sha256(args)},
            {"tool": "refund", "args": {"amount": 10}},
        ]})
        .to_string();
        let calls = calls_in(&details);
        assert_eq!(calls.len(), 2);
        let named = calls[0].as_ref().unwrap();
        assert!(named.is("refund", args));
        assert!(!named.is("refund", r#"{"amount": 10}"#), "other text");
        assert!(!named.is("refunds", args));
        assert!(calls[1].is_none());
        // A digest of other arguments than the ones shown names no call.
        let lying = serde_json::json!({"calls": [
            {"tool": "refund", "args": {"amount": 10}, "args_sha256": args_sha256(r#"{"amount":9999}"#)},
        ]})
        .to_string();
        assert!(
            !calls_in(&lying)[0]
                .as_ref()
                .unwrap()
                .is("refund", r#"{"amount":9999}"#)
        );
        assert!(calls_in("not json").is_empty());
    }

    #[test]
    fn a_quorum_counts_distinct_allowed_principals_and_an_allowed_no_rejects() {
        let rule = ApprovalRule {
            quorum: 2,
            approvers: Some(["alice".to_string(), "bob".to_string()].into()),
        };
        let rules: BTreeMap<String, &ApprovalRule> = [("refund".to_string(), &rule)].into();
        assert_eq!(
            decided(&rules, &[vote("alice", true), vote("alice", true)]),
            None
        );
        assert_eq!(
            decided(&rules, &[vote("alice", true), vote("eve", true)]),
            None
        );
        assert_eq!(decided(&rules, &[vote("eve", false)]), None);
        assert_eq!(decided(&rules, &[vote("bob", false)]), Some(false));
        assert_eq!(
            decided(&rules, &[vote("alice", true), vote("bob", true)]),
            Some(true)
        );
    }
}
