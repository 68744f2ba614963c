//! The built-in `kv` tool: versioned JSON values with compare-and-set.
//!
//! Arguments: `{"op":"get","key":K}`, `{"op":"put","key":K,"value":V,
//! "expected_version":N?}`, `{"op":"delete","key":K,"expected_version":N?}`.
//! Results: `{"value":V|null,"version":N}` for reads (version 0 = never
//! written; a delete bumps the version and leaves no value) and
//! `{"ok":bool,"version":N}` for writes; a failed compare-and-set is
//! `ok:false`, a value the guest handles, not an error.
//!
//! A guest's key is its agent's own unless it is a shared namespace's
//! address (`shared/<ns>/<name>`, granted by `kv:shared/<ns>`): see
//! [`super::namespace`]. Results name the key as the guest gave it.

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::{Value, json};

use super::{Guest, namespace, parse_args};
use crate::model::ToolError;
use crate::store::{Effects, KvOp, KvOutcome, SqlStore, StoreError};

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
        KvOutcome::Read(entry) => serde_json::to_string(&Read {
            key: &entry.key,
            value: stored_value(entry),
            version: entry.version,
        })
        .expect("a kv read renders as JSON"),
        KvOutcome::Wrote(w) => json!({"ok": w.ok, "version": w.version}).to_string(),
    }
}

/// An operator's view of a kv result: a read also names the key's
/// namespace.
pub fn render_for_operator(outcome: &KvOutcome) -> String {
    let KvOutcome::Read(entry) = outcome else {
        return render(outcome);
    };
    serde_json::to_string(&OperatorRead {
        key: &entry.key,
        namespace: namespace::namespace_of(&entry.key),
        value: stored_value(entry),
        version: entry.version,
    })
    .expect("a kv read renders as JSON")
}

/// The stored text, spliced in as it is: a put stores its value as
/// serde_json writes it, so parsing it into a `Value` only to write it
/// again would give the same bytes.
fn stored_value(entry: &crate::store::KvEntry) -> Option<&RawValue> {
    entry
        .value
        .as_deref()
        .and_then(|v| serde_json::from_str::<&RawValue>(v).ok())
}

/// A read as operators see it, its fields in the order a `Value` map
/// writes them.
#[derive(Serialize)]
struct OperatorRead<'a> {
    key: &'a str,
    namespace: Option<&'a str>,
    value: Option<&'a RawValue>,
    version: u64,
}

/// A read's result, its fields in the order a `Value` map writes them.
#[derive(Serialize)]
struct Read<'a> {
    key: &'a str,
    value: Option<&'a RawValue>,
    version: u64,
}

/// Answers a step's kv call, holding its write for the step's commit.
pub(super) fn call(
    store: &SqlStore,
    effects: &mut Effects,
    args: &str,
    guest: &Guest<'_>,
) -> Result<Result<String, ToolError>, StoreError> {
    let mut op: KvOp = match parse_args::<Args>("kv", args) {
        Ok(args) => args.into(),
        Err(e) => return Ok(Err(e)),
    };
    let key = match &mut op {
        KvOp::Get { key } | KvOp::Put { key, .. } | KvOp::Delete { key, .. } => key,
    };
    let given = key.clone();
    *key = match namespace::resolve("kv", &given, guest.agent, guest.granted) {
        Ok(Ok(stored)) => stored,
        Ok(Err(why)) => return Ok(Err(ToolError::Invalid(why))),
        Err(why) => return Ok(Err(ToolError::Denied(why))),
    };
    let mut outcome = effects.kv(&op, |key| store.kv_peek(key))?;
    if let KvOutcome::Read(entry) = &mut outcome {
        entry.key = given;
    }
    Ok(Ok(render(&outcome)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::KvEntry;

    fn read(value: Option<&str>) -> String {
        render(&KvOutcome::Read(KvEntry {
            key: "k\"1".into(),
            value: value.map(str::to_string),
            version: 7,
        }))
    }

    #[test]
    fn a_read_renders_the_stored_value_as_a_parsed_one_would() {
        for value in [
            json!(null),
            json!(12.5),
            json!("tab\tquote\" slash\\ \u{1f} é"),
            json!({"z": [1, {"y": true}], "a": {"c": "d", "b": -0.0}}),
        ] {
            let stored = value.to_string();
            let parsed = json!({"key": "k\"1", "value": value, "version": 7}).to_string();
            assert_eq!(read(Some(&stored)), parsed);
        }
    }

    #[test]
    fn a_read_of_nothing_or_of_damaged_text_renders_null() {
        let null = json!({"key": "k\"1", "value": null, "version": 7}).to_string();
        assert_eq!(read(None), null);
        assert_eq!(read(Some("{\"cut")), null);
    }
}
