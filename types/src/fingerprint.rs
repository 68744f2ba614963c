//! The fingerprint of a tool call, as a cassette records it and each SDK's
//! replay looks it up: the lowercase hex SHA-256 of the canonical JSON of
//! `{"agent": NAME@VERSION, "tool", "key", "args"}`. Defined here once, so
//! that `wakeful cassette` and the Rust SDK cannot disagree; the Python and
//! TypeScript SDKs check the same vector in their tests.

use serde_json::Value;
use sha2::{Digest, Sha256};

/// The fingerprint of `tool` called with `key` and `args` by the agent
/// version `agent` (`NAME@VERSION`).
pub fn fingerprint(agent: &str, tool: &str, key: &str, args: &Value) -> String {
    let call = serde_json::json!({"agent": agent, "tool": tool, "key": key, "args": args});
    Sha256::digest(canonical_json(&call).as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
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
        // The same vector is checked in the Python and TypeScript SDKs'
        // replay tests.
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
