//! Replaying a cassette: the tool calls of a real run, as `wakeful cassette
//! RUN` writes them, answering the same calls of a test.
//!
//! A call is answered by the entry with the same fingerprint (the SHA-256
//! of the canonical JSON of agent `NAME@VERSION`, tool, key and arguments),
//! computed here from each entry's own fields, never by position: a changed
//! prompt or another agent version finds no old answer, and the miss panics
//! naming the call.

use std::collections::HashMap;
use std::fmt::Write as _;

use serde_json::Value;

use crate::ToolError;
pub use wakeful_types::fingerprint::fingerprint;

/// The cassette format this SDK reads.
const FORMAT: u64 = 1;

/// Characters of arguments a miss shows.
const SHOWN: usize = 300;

/// Characters of the start two differing texts share that a miss shows.
const KEPT: usize = 20;

/// One recorded call.
struct Recorded {
    tool: String,
    key: String,
    args: Value,
    answer: Result<Value, ToolError>,
}

/// A parsed cassette, its entries by fingerprint.
pub(super) struct Cassette {
    /// The agent the run was on.
    recorded_for: String,
    /// The agent the test replays as.
    agent: String,
    entries: Vec<Recorded>,
    by_fingerprint: HashMap<String, usize>,
}

impl Cassette {
    /// Parses `text`; panics naming what is wrong, as a test helper does.
    pub(super) fn parse(text: &str, agent: &str) -> Cassette {
        let doc: Value =
            serde_json::from_str(text).unwrap_or_else(|e| panic!("the cassette is not JSON: {e}"));
        if doc["cassette"].as_u64() != Some(FORMAT) {
            panic!(
                "not a cassette of format {FORMAT} (`\"cassette\": {}`); write it with `wakeful cassette RUN`",
                doc["cassette"]
            );
        }
        let recorded_for = doc["agent"].as_str().unwrap_or_else(|| {
            panic!("the cassette names no agent (`\"agent\": \"NAME@VERSION\"`)")
        });
        let list = doc["entries"]
            .as_array()
            .unwrap_or_else(|| panic!("the cassette has no `entries` list"));
        let entries: Vec<Recorded> = list.iter().enumerate().map(recorded).collect();
        let by_fingerprint = entries
            .iter()
            .enumerate()
            .map(|(i, e)| (fingerprint(recorded_for, &e.tool, &e.key, &e.args), i))
            .collect();
        Cassette {
            recorded_for: recorded_for.to_owned(),
            agent: agent.to_owned(),
            entries,
            by_fingerprint,
        }
    }

    /// The recorded answer to this call; panics when there is none.
    pub(super) fn answer(&self, tool: &str, args: &Value, key: &str) -> Result<Value, ToolError> {
        let print = fingerprint(&self.agent, tool, key, args);
        match self.by_fingerprint.get(&print) {
            Some(&i) => self.entries[i].answer.clone(),
            None => panic!("{}", self.miss(tool, args, key, &print)),
        }
    }

    /// What a test author reads when a call has no recorded answer.
    fn miss(&self, tool: &str, args: &Value, key: &str, print: &str) -> String {
        let mut text = format!(
            "cassette miss: no recorded call matches tool `{tool}`, key `{key}` of agent {} \
             (fingerprint {print})\n  args: {}",
            self.agent,
            shown(args)
        );
        let same = self.entries.iter().find(|e| e.tool == tool && e.key == key);
        match same {
            Some(e) if e.args == *args => {
                let _ = write!(
                    text,
                    "\n  the cassette has this call recorded for agent {}, not {}: record the \
                     run again on this version",
                    self.recorded_for, self.agent
                );
            }
            Some(e) => {
                let _ = write!(
                    text,
                    "\n  the cassette has `{tool}` `{key}` recorded for other arguments{}:\n  \
                     recorded: {}",
                    difference(&e.args, args, String::new())
                        .map(|d| format!(" (first difference at {d})"))
                        .unwrap_or_default(),
                    shown(&e.args)
                );
                if self.recorded_for != self.agent {
                    let _ = write!(text, "\n  and for agent {}", self.recorded_for);
                }
            }
            None => text.push_str(
                "\n  the cassette has no call of this tool with this key: the agent makes a new \
                 call, or the host refused it with more arguments than its audit keeps",
            ),
        }
        text
    }
}

/// Entry `i` of the cassette's list; panics naming it when malformed.
fn recorded((i, entry): (usize, &Value)) -> Recorded {
    let text = |field: &str| {
        entry[field]
            .as_str()
            .unwrap_or_else(|| panic!("cassette entry {i} has no `{field}` text"))
            .to_owned()
    };
    let answer = match (entry.get("result"), entry.get("error")) {
        (Some(result), None) => Ok(result.clone()),
        (None, Some(error)) => Err(serde_json::from_value(error.clone()).unwrap_or_else(|e| {
            panic!("cassette entry {i} has an `error` that is no tool error: {e}")
        })),
        _ => panic!("cassette entry {i} needs a `result` or an `error`, not both"),
    };
    Recorded {
        tool: text("tool"),
        key: text("key"),
        args: entry
            .get("args")
            .cloned()
            .unwrap_or_else(|| panic!("cassette entry {i} has no `args`")),
        answer,
    }
}

/// The JSON path where `recorded` and `now` first differ, with both values
/// there.
fn difference(recorded: &Value, now: &Value, path: String) -> Option<String> {
    match (recorded, now) {
        (Value::Object(a), Value::Object(b)) => {
            let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
            keys.sort();
            keys.dedup();
            keys.into_iter().find_map(|k| match (a.get(k), b.get(k)) {
                (Some(x), Some(y)) => difference(x, y, format!("{path}/{k}")),
                (x, y) => Some(both(&format!("{path}/{k}"), x, y)),
            })
        }
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => a
            .iter()
            .zip(b)
            .enumerate()
            .find_map(|(i, (x, y))| difference(x, y, format!("{path}/{i}"))),
        (a, b) if a == b => None,
        (a, b) => Some(both(&path, Some(a), Some(b))),
    }
}

fn both(path: &str, recorded: Option<&Value>, now: Option<&Value>) -> String {
    let show = |v: Option<&Value>| v.map_or("(absent)".to_owned(), shown);
    let path = if path.is_empty() { "/" } else { path };
    if let (Some(Value::String(a)), Some(Value::String(b))) = (recorded, now) {
        let (a, b) = past_common_start(a, b);
        return format!("{path}: recorded {}, now {}", shown(&a), shown(&b));
    }
    format!("{path}: recorded {}, now {}", show(recorded), show(now))
}

/// Two texts without most of the start they share, so that a long prompt
/// shows where it changed.
fn past_common_start(a: &str, b: &str) -> (Value, Value) {
    let common = a.chars().zip(b.chars()).take_while(|(x, y)| x == y).count();
    let skip = common.saturating_sub(KEPT);
    let cut = |s: &str| match skip {
        0 => Value::from(s),
        n => Value::from(format!("…{}", s.chars().skip(n).collect::<String>())),
    };
    (cut(a), cut(b))
}

/// `value` as JSON, cut to [`SHOWN`] characters.
fn shown(value: &Value) -> String {
    let text = value.to_string();
    match text.char_indices().nth(SHOWN) {
        Some((at, _)) => format!("{}… ({} bytes)", &text[..at], text.len()),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::fingerprint;
    use crate::testing::{replay, reset};
    use crate::{ToolError, tools};

    fn cassette() -> String {
        json!({"cassette": 1, "agent": "a@1.0.0", "run": "r1", "entries": [
            {"fingerprint": "for people", "tool": "llm", "key": "loop:1:model",
             "args": {"messages": [{"role": "user", "content": "hi"}], "n": 1},
             "result": {"text": "hello"}},
            {"tool": "pager", "key": "page", "args": {"body": "x"},
             "error": {"kind": "failed", "message": "pager down"}}]})
        .to_string()
    }

    /// What a call that panics says.
    fn miss(call: impl FnOnce()) -> String {
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(call));
        let payload = caught.expect_err("the call did not miss");
        payload
            .downcast_ref::<String>()
            .cloned()
            .unwrap_or_default()
    }

    #[test]
    fn the_fingerprint_is_the_hosts() {
        // The same vector is checked by the host (`cassette.rs`) and the
        // Python and TypeScript SDKs.
        let args = json!({"z": [1, "é\n"], "a": {"y": null, "b": true}, "n": -7});
        assert_eq!(
            fingerprint("a@1.0.0", "llm", "loop:1:model", &args),
            "abc74eeca5cdc63c7025199fc72e5037dede1dda09106d37cbcb9245d9ef2a4b"
        );
    }

    #[test]
    fn a_recorded_call_gets_its_result_and_a_recorded_error_its_error() {
        reset();
        replay(&cassette(), "a@1.0.0");
        // Key order in the live call does not matter; the values do.
        let args = json!({"n": 1, "messages": [{"content": "hi", "role": "user"}]});
        let out: serde_json::Value = tools::call("llm", &args, "loop:1:model").unwrap();
        assert_eq!(out, json!({"text": "hello"}));
        let err = tools::call::<_, serde_json::Value>("pager", &json!({"body": "x"}), "page");
        assert_eq!(err.unwrap_err(), ToolError::Failed("pager down".into()));
    }

    #[test]
    fn changed_arguments_miss_and_the_panic_names_the_call_and_the_difference() {
        reset();
        replay(&cassette(), "a@1.0.0");
        let args = json!({"n": 1, "messages": [{"role": "user", "content": "bye"}]});
        let said = miss(|| {
            let _ = tools::call::<_, serde_json::Value>("llm", &args, "loop:1:model");
        });
        for part in [
            "cassette miss",
            "tool `llm`",
            "key `loop:1:model`",
            &fingerprint("a@1.0.0", "llm", "loop:1:model", &args),
            r#""content":"bye""#,
            "recorded for other arguments",
            r#"first difference at /messages/0/content: recorded "hi", now "bye""#,
        ] {
            assert!(said.contains(part), "{part:?} not in: {said}");
        }
    }

    #[test]
    fn a_long_text_shows_where_it_changed() {
        let (a, b) = ("x".repeat(50) + "a", "x".repeat(50) + "b");
        let said = super::difference(&json!({"p": a}), &json!({"p": b}), String::new());
        let kept = "x".repeat(20);
        assert_eq!(
            said.as_deref(),
            Some(format!(r#"/p: recorded "…{kept}a", now "…{kept}b""#).as_str())
        );
    }

    #[test]
    fn another_agent_version_misses() {
        reset();
        replay(&cassette(), "a@1.1.0");
        let args = json!({"n": 1, "messages": [{"role": "user", "content": "hi"}]});
        let said = miss(|| {
            let _ = tools::call::<_, serde_json::Value>("llm", &args, "loop:1:model");
        });
        assert!(
            said.contains("recorded for agent a@1.0.0, not a@1.1.0"),
            "{said}"
        );
    }

    #[test]
    fn a_call_of_no_recorded_key_misses() {
        reset();
        replay(&cassette(), "a@1.0.0");
        let said = miss(|| {
            let _ = tools::call::<_, serde_json::Value>("kv", &json!({}), "new");
        });
        assert!(
            said.contains("no call of this tool with this key"),
            "{said}"
        );
    }
}
