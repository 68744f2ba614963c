//! What the store keeps of tool calls: the ledger that makes a call happen
//! once, the built-in `kv` and `lease` tools' rows and writes, metered
//! usage and budgets, and the intents of external calls with how an
//! operator settles one whose outcome is unknown. Plain data, no SQL.

use serde::Serialize;

use crate::model::{Millis, ToolError};

/// A recorded tool call: repeats of the key get this result back.
#[derive(Clone, Debug, Serialize)]
pub struct LedgerEntry {
    pub run_id: String,
    pub key: String,
    pub tool: String,
    pub args: String,
    pub result: Result<String, ToolError>,
    pub at: Millis,
}

/// A kv value with its version (bumped by every write; 0 = absent).
#[derive(Clone, Debug, Serialize)]
pub struct KvEntry {
    pub key: String,
    /// JSON text, `None` when absent.
    pub value: Option<String>,
    pub version: u64,
}

/// What a kv write did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct KvWrite {
    /// False when `expected_version` did not match: nothing was written.
    pub ok: bool,
    /// The version after the write (or the current one when refused).
    pub version: u64,
}

/// A kv operation, run by the `kv` tool or the operator's CLI.
#[derive(Clone, Debug)]
pub enum KvOp {
    Get {
        key: String,
    },
    Put {
        key: String,
        value: String,
        expected_version: Option<u64>,
    },
    Delete {
        key: String,
        expected_version: Option<u64>,
    },
}

/// The result of a `KvOp`.
#[derive(Clone, Debug)]
pub enum KvOutcome {
    Read(KvEntry),
    Wrote(KvWrite),
}

/// A lease operation on a named resource.
#[derive(Clone, Debug)]
pub enum LeaseOp {
    Acquire {
        resource: String,
        holder: String,
        ttl_ms: u64,
    },
    Release {
        resource: String,
        holder: String,
    },
}

/// The result of a `LeaseOp`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum LeaseOutcome {
    /// `granted` is false when another holder has an unexpired lease; `holder`
    /// then names it.
    Acquire {
        granted: bool,
        holder: String,
        expires_at: Millis,
    },
    Release {
        released: bool,
    },
}

/// What one metered tool call (an `llm` call) spent; charged to the run in
/// the transaction that records the call, so that a replay is never charged.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Usage {
    pub tokens: u64,
    pub usd: f64,
}

/// The budgets an operator's resume sets on a parked run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Budgets {
    pub steps: u64,
    pub fuel: u64,
    pub tokens: u64,
    /// `0.0`: no money limit.
    pub usd: f64,
}

/// Where a tool call's ledger row goes, written in the same transaction as a
/// built-in tool's effect so that the effect happens at most once.
#[derive(Clone, Debug)]
pub struct LedgerWrite {
    pub run_id: String,
    /// The run's incarnation (see [`Run::incarnation`]).
    pub incarnation: String,
    pub epoch: u64,
    pub key: String,
    pub tool: String,
    pub args: String,
}

/// An external call about to leave the host, recorded durably before it is
/// sent. It stays until the call's result is recorded: an intent without a
/// result is a call whose outcome is unknown.
#[derive(Clone, Debug, Serialize)]
pub struct Intent {
    pub run_id: String,
    pub key: String,
    pub tool: String,
    pub args: String,
    pub args_digest: String,
    /// The claim that sent it.
    pub epoch: u64,
    pub at: Millis,
}

/// How an operator settles a call whose outcome is unknown.
#[derive(Clone, Debug, PartialEq)]
pub enum Resolution {
    /// The call took effect with this result (JSON text): it is recorded and
    /// the retried step sees it.
    Result(String),
    /// The call did not take effect: the retried step sends it again.
    Retry,
    /// The call failed: the retried step sees `failed` with this reason.
    Fail(String),
}

/// Why `resolve` was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ResolveRefused {
    #[error("run {0} does not exist")]
    UnknownRun(String),
    #[error("run {run} has no call of unknown outcome with key `{key}`{known}")]
    UnknownKey {
        run: String,
        key: String,
        /// ` (it has: a, b)` or empty.
        known: String,
    },
    #[error(
        "run {run} is {status}, not parked: its call `{key}` may still be in flight; pause the run and wait for it to be parked"
    )]
    NotParked {
        run: String,
        key: String,
        status: String,
    },
}
