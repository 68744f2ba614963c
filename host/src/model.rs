//! The values the runtime, the store and the worker share: what wakes a run,
//! what it waits for, and what a step returns.
//!
//! They mirror the WIT contract (`wit/agent.wit`) but are plain host types
//! that serialize to the JSON kept in checkpoints, so that no storage format
//! depends on generated bindings. [`ToolError`] is the one type defined
//! outside, in `wakeful-types`, shared with the Rust guest SDK.

use serde::{Deserialize, Serialize};

/// Milliseconds since the Unix epoch, UTC.
pub type Millis = u64;

/// Why a step is called.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Wake {
    /// First step; `input` is the start input (JSON text).
    Start { input: String },
    /// An event the run waited for.
    Event(Event),
    /// A human answered one of the run's approval requests.
    Approval(ApprovalAnswer),
    /// An `until` or `cron` wait fired at `due`.
    Timer { due: Millis },
    /// The approval request `request_id` expired unanswered.
    Expired { request_id: String },
    /// A `continue` slice, or an operator resumed the run.
    Resume,
}

/// An event delivered to a run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    pub id: String,
    pub topic: String,
    /// JSON text.
    pub payload: String,
    pub received_at: Millis,
}

/// A human's answer to an approval request, stamped by the host.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ApprovalAnswer {
    pub request_id: String,
    pub approved: bool,
    /// The authenticated principal who answered: a token's name, a
    /// console user, `os:<user>` for the CLI, or `link:<request>` for the
    /// request's own answer link.
    pub by: String,
    /// The name the answerer typed (a body's `by`, the page's name field,
    /// the CLI's `--by`): kept beside `by`, never instead of it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub said: Option<String>,
    pub at: Millis,
    pub comment: Option<String>,
    /// The digest ([`approval_digest`]) of the question and details that
    /// were answered, set by the store: the guest checks it against its plan.
    #[serde(default)]
    pub digest: String,
}

/// What an idempotency key is bound to: lowercase hex SHA-256 of the tool
/// name's length (8 bytes, big-endian), the tool name, then the arguments. A
/// key repeated with another digest names another call and is refused.
pub fn call_digest(tool: &str, args: &str) -> String {
    use sha2::{Digest, Sha256};
    let mut hash = Sha256::new();
    hash.update((tool.len() as u64).to_be_bytes());
    hash.update(tool.as_bytes());
    hash.update(args.as_bytes());
    hex::encode(hash.finalize())
}

/// The `Idempotency-Key` an external call (`http`, `llm`) sends for key
/// `key` of run `run_id` in its incarnation `incarnation`: `wakeful-` and
/// the lowercase hex SHA-256 of the three, each length-prefixed (8 bytes,
/// big-endian), so that no two (run, key) pairs hash the same input (run
/// `a:b` with key `c`, run `a` with key `b:c`); the incarnation keeps a
/// reused run id from repeating the keys of the run that had it before.
/// Every send of the call, resends included, carries the same one, which is
/// what lets the system reached drop repeats.
pub fn sent_key(run_id: &str, incarnation: &str, key: &str) -> String {
    use sha2::{Digest, Sha256};
    let mut hash = Sha256::new();
    for part in [run_id, incarnation, key] {
        hash.update((part.len() as u64).to_be_bytes());
        hash.update(part.as_bytes());
    }
    format!("wakeful-{}", hex::encode(hash.finalize()))
}

/// What an answer to an approval request is bound to: lowercase hex SHA-256
/// of the question's length (8 bytes, big-endian), the question, then the
/// details. The SDKs compute the same, so an agent can check that the answer
/// it got approved exactly the plan it holds.
pub fn approval_digest(question: &str, details: &str) -> String {
    use sha2::{Digest, Sha256};
    let mut hash = Sha256::new();
    hash.update((question.len() as u64).to_be_bytes());
    hash.update(question.as_bytes());
    hash.update(details.as_bytes());
    hex::encode(hash.finalize())
}

/// An approval request as the guest asked for it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ApprovalRequest {
    /// Unique within the run: an id that was answered or expired is never
    /// asked again.
    pub id: String,
    pub question: String,
    /// JSON text shown to the approver.
    pub details: String,
    pub valid_for_ms: u64,
}

/// One thing a sleeping run waits for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum WaitFor {
    Event { topic: String },
    Approval(ApprovalRequest),
    Until { at: Millis },
    Cron { expr: String },
}

/// What the run does after a step.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Next {
    Continue,
    Wait { waits: Vec<WaitFor> },
    Done { outcome: String },
}

/// A successful step's result, as returned by the guest.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StepResult {
    /// The complete new state (JSON text).
    pub state: String,
    pub next: Next,
    pub status: Option<String>,
}

/// What the guest asks for in its `info` export.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AgentInfo {
    pub name: String,
    pub version: String,
    pub tools: Vec<String>,
    pub description: String,
}

/// A policy failure of a tool call, defined once for the host and the Rust
/// guest SDK (the `wakeful-types` crate); its JSON shape is kept in the
/// ledger.
pub use wakeful_types::ToolError;

/// The level of a guest log line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LogLevel {
    Debug,
    Info,
    Warn,
    Error,
}

/// One line the guest logged (through `host.log`, or stdout/stderr).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LogLine {
    pub level: LogLevel,
    /// `log`, `stdout` or `stderr`.
    pub source: String,
    pub message: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_approval_digest_is_the_one_the_sdk_computes() {
        // The same vector is checked in the SDK (`ApprovalRequest::digest`).
        assert_eq!(
            approval_digest("Approve 'scale_out' on payments-api?", r#"{"replicas":3}"#),
            "1a25d7c5b9f90529fd572f728f15bd0bf01c1a3997dfe3b9532368a3b5c1a160"
        );
        // The question's length keeps question and details apart.
        assert_ne!(approval_digest("ab", "c"), approval_digest("a", "bc"));
        assert_ne!(call_digest("ab", "c"), call_digest("a", "bc"));
    }
}
