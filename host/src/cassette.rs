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
//!
//! Calls the host refused before they ran (not granted, a budget spent, an
//! approval needed) have no ledger entry: they come from their audit rows,
//! which keep the arguments and the refusal (`tools::audit_row`), marked
//! `refused`. A fingerprint is answered once: by the ledger if the call
//! ran, else by its last refusal.

use serde::Serialize;
use serde_json::Value;
use serde_json::value::RawValue;

use wakeful_types::fingerprint::fingerprint;

use crate::model::ToolError;
use crate::store::{AuditRow, LedgerEntry, Run};

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
    /// The host refused the call before it ran; `error` is the refusal.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub refused: bool,
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

/// The cassette of `run`, whose recorded calls are `ledger` and whose
/// audit rows are `audit`.
pub fn of_run(
    run: &Run,
    ledger: Vec<LedgerEntry>,
    audit: &[AuditRow],
) -> Result<Cassette, CassetteError> {
    let agent = format!("{}@{}", run.agent, run.version);
    let mut entries: Vec<Entry> = ledger
        .into_iter()
        .map(|call| entry(&agent, call))
        .collect::<Result<_, _>>()?;
    for refused in audit.iter().filter_map(|row| refusal(&agent, row)) {
        let known = entries
            .iter_mut()
            .find(|e| e.fingerprint == refused.fingerprint);
        match known {
            Some(earlier) if earlier.refused => *earlier = refused,
            Some(_) => {}
            None => entries.push(refused),
        }
    }
    if entries.is_empty() {
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
        refused: false,
    })
}

/// The entry of a refused call's audit row; `None` for any other row, or
/// one that kept no arguments.
fn refusal(agent: &str, row: &AuditRow) -> Option<Entry> {
    if row.kind != "tool" {
        return None;
    }
    let data = &row.data;
    let (tool, key) = (data["tool"].as_str()?, data["key"].as_str()?);
    let args = data.get("args")?.clone();
    let error: ToolError = serde_json::from_value(data.get("refusal")?.clone()).ok()?;
    Some(Entry {
        fingerprint: fingerprint(agent, tool, key, &args),
        tool: tool.to_owned(),
        key: key.to_owned(),
        args,
        result: None,
        error: Some(error),
        refused: true,
    })
}
