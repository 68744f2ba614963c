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
//! is for people and diffs, and the Rust SDK's equals it.

use serde::Serialize;
use serde_json::Value;
use serde_json::value::RawValue;

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

/// The lowercase hex SHA-256 of the canonical JSON of
/// `{"agent", "tool", "key", "args"}`.
pub fn fingerprint(agent: &str, tool: &str, key: &str, args: &Value) -> String {
    use sha2::{Digest, Sha256};
    let call = serde_json::json!({"agent": agent, "tool": tool, "key": key, "args": args});
    hex::encode(Sha256::digest(canonical_json(&call).as_bytes()))
}

/// `value` as JSON with every object's keys sorted (by UTF-8 bytes, which
/// is code point order) and no whitespace; strings and numbers as
/// serde_json writes them.
pub fn canonical_json(value: &Value) -> String {
    let mut out = String::new();
    write_canonical(value, &mut out);
    out
}

fn write_canonical(value: &Value, out: &mut String) {
    match value {
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_canonical(item, out);
            }
            out.push(']');
        }
        Value::Object(map) => {
            // Sorted here rather than trusted to the map: a build with
            // serde_json's `preserve_order` keeps insertion order.
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            out.push('{');
            for (i, key) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String(key.clone()).to_string());
                out.push(':');
                write_canonical(&map[key], out);
            }
            out.push('}');
        }
        scalar => out.push_str(&scalar.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_fingerprint_is_the_one_every_sdk_computes() {
        // The same vector is checked in the Rust, Python and TypeScript
        // SDKs' replay tests.
        let args = json!({"z": [1, "é\n"], "a": {"y": null, "b": true}, "n": -7});
        assert_eq!(
            canonical_json(
                &json!({"agent": "a@1.0.0", "tool": "llm", "key": "loop:1:model", "args": args})
            ),
            r#"{"agent":"a@1.0.0","args":{"a":{"b":true,"y":null},"n":-7,"z":[1,"é\n"]},"key":"loop:1:model","tool":"llm"}"#
        );
        assert_eq!(
            fingerprint("a@1.0.0", "llm", "loop:1:model", &args),
            "abc74eeca5cdc63c7025199fc72e5037dede1dda09106d37cbcb9245d9ef2a4b"
        );
    }

    #[test]
    fn another_version_or_other_args_change_the_fingerprint() {
        let args = json!({"q": 1});
        let base = fingerprint("a@1.0.0", "t", "k", &args);
        assert_ne!(base, fingerprint("a@1.0.1", "t", "k", &args));
        assert_ne!(base, fingerprint("a@1.0.0", "t", "k", &json!({"q": 2})));
        assert_ne!(base, fingerprint("a@1.0.0", "t", "k2", &args));
        assert_ne!(base, fingerprint("a@1.0.0", "u", "k", &args));
    }
}
