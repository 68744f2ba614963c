//! The built-in `kv` tool: versioned JSON values with compare-and-set.
//!
//! Arguments: `{"op":"get","key":K}`, `{"op":"put","key":K,"value":V,
//! "expected_version":N?}`, `{"op":"delete","key":K,"expected_version":N?}`.
//! Results: `{"value":V|null,"version":N}` for reads (version 0 = never
//! written; a delete bumps the version and leaves no value) and
//! `{"ok":bool,"version":N}` for writes; a failed compare-and-set is
//! `ok:false`, a value the guest handles, not an error.

use serde::Deserialize;
use serde_json::{Value, json};

use super::parse_args;
use crate::model::ToolError;
use crate::store::{Effects, KvOp, KvOutcome, Store, StoreError};

#[derive(Deserialize)]
#[serde(tag = "op", rename_all = "snake_case", deny_unknown_fields)]
enum Args {
    Get {
        key: String,
    },
    Put {
        key: String,
        value: Value,
        expected_version: Option<u64>,
    },
    Delete {
        key: String,
        expected_version: Option<u64>,
    },
}

impl From<Args> for KvOp {
    fn from(args: Args) -> KvOp {
        match args {
            Args::Get { key } => KvOp::Get { key },
            Args::Put {
                key,
                value,
                expected_version,
            } => KvOp::Put {
                key,
                value: value.to_string(),
                expected_version,
            },
            Args::Delete {
                key,
                expected_version,
            } => KvOp::Delete {
                key,
                expected_version,
            },
        }
    }
}

/// The JSON result of a kv operation, as guests and `--json` readers see it.
pub fn render(outcome: &KvOutcome) -> String {
    match outcome {
        KvOutcome::Read(entry) => {
            let value = entry
                .value
                .as_deref()
                .and_then(|v| serde_json::from_str::<Value>(v).ok())
                .unwrap_or(Value::Null);
            json!({"key": entry.key, "value": value, "version": entry.version}).to_string()
        }
        KvOutcome::Wrote(w) => json!({"ok": w.ok, "version": w.version}).to_string(),
    }
}

/// Answers a step's kv call, holding its write for the step's commit.
pub(super) fn call(
    store: &dyn Store,
    effects: &mut Effects,
    args: &str,
) -> Result<Result<String, ToolError>, StoreError> {
    let op: KvOp = match parse_args::<Args>("kv", args) {
        Ok(args) => args.into(),
        Err(e) => return Ok(Err(e)),
    };
    let outcome = effects.kv(&op, |key| store.kv_peek(key))?;
    Ok(Ok(render(&outcome)))
}
