//! Cassettes: a run's recorded tool calls written out as JSON, for an
//! agent's unit tests to replay (`wakeful cassette RUN`; each SDK's
//! `testing` module replays them).
//!
//! Each entry is found again by a fingerprint of what the call was, never
//! by its position: the SHA-256 of the canonical JSON of the agent's
//! `NAME@VERSION`, the tool, the idempotency key and the arguments. A test
//! whose agent sends other arguments (a changed prompt) or that runs
//! another version of the agent gets no old answer. The SDKs compute the
//! fingerprint themselves from each entry's fields; the one written here
//! is for people and diffs (`wakeful_types::fingerprint`, which the Rust
//! SDK shares).

use serde::Serialize;
use serde_json::Value;
use serde_json::value::RawValue;

use wakeful_types::fingerprint::fingerprint;

use crate::model::ToolError;
use crate::store::{LedgerEntry, Run};

/// The version of the cassette format.
pub const FORMAT: u32 = 1;

/// A run's recorded calls, as a test replays them.
#[derive(Debug, Serialize)]
pub struct Cassette {
    pub cassette: u32,
    /// `NAME@VERSION` of the agent version the run was on.
    pub agent: String,
    pub run: String,
    /// In ledger order (the time each call was recorded).
    pub entries: Vec<Entry>,
}

/// One recorded call: its result as the guest received it, or the error.
#[derive(Debug, Serialize)]
pub struct Entry {
    pub fingerprint: String,
    pub tool: String,
    pub key: String,
    pub args: Value,
    /// The result text verbatim (it is JSON); absent when the call failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<Box<RawValue>>,
    /// `{"kind": "failed", "message": "…"}`, as the ledger keeps it;
    /// absent when the call returned a result.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<ToolError>,
}

/// Why a run gives no cassette.
#[derive(Debug, thiserror::Error)]
pub enum CassetteError {
    #[error(
        "run {run} ({agent}) has no recorded tool calls{why}: a cassette of it would replay nothing"
    )]
    Empty {
        run: String,
        agent: String,
        why: &'static str,
    },
    #[error("call {key} of run {run}: its {what} not JSON ({error}); it cannot be replayed")]
    NotJson {
        run: String,
        key: String,
        what: &'static str,
        error: String,
    },
}

/// The cassette of `run`, whose recorded calls are `ledger`.
pub fn of_run(run: &Run, ledger: Vec<LedgerEntry>) -> Result<Cassette, CassetteError> {
    let agent = format!("{}@{}", run.agent, run.version);
    if ledger.is_empty() {
        let why = if run.steps == 0 {
            " (it has taken no step yet)"
        } else {
            ""
        };
        return Err(CassetteError::Empty {
            run: run.run_id.clone(),
            agent,
            why,
        });
    }
    let entries = ledger
        .into_iter()
        .map(|call| entry(&agent, call))
        .collect::<Result<_, _>>()?;
    Ok(Cassette {
        cassette: FORMAT,
        agent,
        run: run.run_id.clone(),
        entries,
    })
}

fn entry(agent: &str, call: LedgerEntry) -> Result<Entry, CassetteError> {
    let not_json = |what, error: serde_json::Error| CassetteError::NotJson {
        run: call.run_id.clone(),
        key: call.key.clone(),
        what,
        error: error.to_string(),
    };
    let args: Value = serde_json::from_str(&call.args).map_err(|e| not_json("arguments are", e))?;
    let (result, error) = match &call.result {
        Ok(text) => {
            let raw = RawValue::from_string(text.clone()).map_err(|e| not_json("result is", e))?;
            (Some(raw), None)
        }
        Err(e) => (None, Some(e.clone())),
    };
    Ok(Entry {
        fingerprint: fingerprint(agent, &call.tool, &call.key, &args),
        tool: call.tool,
        key: call.key,
        args,
        result,
        error,
    })
}
