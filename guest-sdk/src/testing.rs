//! Test an agent natively with `cargo test`. Outside WebAssembly there is no
//! host, so tool calls, [`now`](crate::now), [`run_id`](crate::run_id) and
//! [`log`](crate::log) go to a fake host kept per thread (each test runs on
//! its own thread). Like the real host, it runs each idempotency key once and
//! returns the recorded result to repeats. [`replay`] answers the calls from
//! a cassette instead: the recorded calls of a real run, as `wakeful
//! cassette RUN` writes them.
//!
//! ```
//! use wakeful_sdk::serde_json::json;
//! use wakeful_sdk::{ToolError, kv, testing};
//!
//! testing::on_tool(|name, _args| match name {
//!     "kv" => Ok(json!({"value": "hello", "version": 1})),
//!     other => Err(ToolError::Unknown(other.to_owned())),
//! });
//! let read = kv::get::<String>("greeting", "read-greeting").unwrap();
//! assert_eq!(read.value.as_deref(), Some("hello"));
//! assert_eq!(testing::calls()[0].args, json!({"op": "get", "key": "greeting"}));
//! ```

mod cassette;

use std::cell::RefCell;
use std::collections::HashMap;

use serde_json::Value;

use crate::ToolError;

pub use cassette::fingerprint;

/// Handles a tool call: the tool's name, its JSON arguments and its
/// idempotency key.
type Handler = Box<dyn FnMut(&str, &Value, &str) -> Result<Value, ToolError>>;

/// A tool call the agent made.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolCall {
    /// The tool's name.
    pub name: String,
    /// The arguments as JSON.
    pub args: Value,
    /// The call's idempotency key.
    pub idempotency_key: String,
    /// `true` when the key was seen before: the recorded result was returned
    /// and the handler did not run.
    pub replayed: bool,
}

#[derive(Default)]
struct FakeHost {
    now: u64,
    run_id: Option<String>,
    logs: Vec<String>,
    calls: Vec<ToolCall>,
    ledger: HashMap<String, Result<String, ToolError>>,
    handler: Option<Handler>,
}

thread_local! {
    static HOST: RefCell<FakeHost> = RefCell::default();
}

/// Forgets everything: time 0, run id `test-run`, no tool handler (every
/// call is `ToolError::Unknown`), no calls, no logs.
pub fn reset() {
    HOST.with_borrow_mut(|host| *host = FakeHost::default());
    crate::waits::clear();
}

/// Steps `A` as the host would, with the SDK's remembered waits
/// ([`waits`](crate::waits)): the wake settles what it answers, and the
/// returned wait includes a re-wait on what is still outstanding. Between
/// calls the SDK keeps its memory on the test's thread, where the host keeps
/// it in the run's state.
pub fn step<A: crate::Agent>(
    state: &mut A::State,
    wake: crate::Wake,
) -> Result<crate::Step, String> {
    // A failed step changes nothing, the SDK's memory included.
    let before = crate::waits::snapshot();
    crate::waits::settle(&wake);
    let step = A::step(state, wake).and_then(crate::waits::finish);
    if step.is_err() {
        crate::waits::restore(before);
    }
    step
}

/// Sets what [`now`](crate::now) returns.
pub fn set_now(ms: u64) {
    HOST.with_borrow_mut(|host| host.now = ms);
}

/// Sets what [`run_id`](crate::run_id) returns.
pub fn set_run_id(id: impl Into<String>) {
    HOST.with_borrow_mut(|host| host.run_id = Some(id.into()));
}

/// Sets the function that answers tool calls.
pub fn on_tool(mut handler: impl FnMut(&str, &Value) -> Result<Value, ToolError> + 'static) {
    let handler: Handler =
        Box::new(move |name: &str, args: &Value, _key: &str| handler(name, args));
    HOST.with_borrow_mut(|host| host.handler = Some(handler));
}

/// Answers every tool call from `cassette`, the JSON `wakeful cassette RUN`
/// writes of a real run, replaying as agent `agent` (`NAME@VERSION`, the
/// version under test): a call gets the result (or the error) recorded for
/// the same agent version, tool, idempotency key and arguments. A call with
/// no such entry panics naming it: its tool, key, fingerprint and arguments,
/// and the recorded call of that tool and key, if any, with where its
/// arguments differ. Panics at once when `cassette` is not one.
///
/// ```
/// use wakeful_sdk::serde_json::{Value, json};
/// use wakeful_sdk::{testing, tools};
///
/// let cassette = json!({"cassette": 1, "agent": "greeter@1.0.0", "run": "r1", "entries": [
///     {"tool": "kv", "key": "read", "args": {"op": "get", "key": "name"},
///      "result": {"value": "Ada", "version": 1}}]});
/// testing::reset();
/// testing::replay(&cassette.to_string(), "greeter@1.0.0");
/// let read: Value = tools::call("kv", &json!({"op": "get", "key": "name"}), "read").unwrap();
/// assert_eq!(read["value"], "Ada");
/// ```
pub fn replay(cassette: &str, agent: &str) {
    let cassette = cassette::Cassette::parse(cassette, agent);
    let handler: Handler =
        Box::new(move |name: &str, args: &Value, key: &str| cassette.answer(name, args, key));
    HOST.with_borrow_mut(|host| host.handler = Some(handler));
}

/// Every tool call so far, repeats included, oldest first.
pub fn calls() -> Vec<ToolCall> {
    HOST.with_borrow(|host| host.calls.clone())
}

/// Every log line so far as `level: message`, oldest first.
pub fn logs() -> Vec<String> {
    HOST.with_borrow(|host| host.logs.clone())
}

pub(crate) fn now() -> u64 {
    HOST.with_borrow(|host| host.now)
}

pub(crate) fn run_id() -> String {
    HOST.with_borrow(|host| host.run_id.clone().unwrap_or_else(|| "test-run".to_owned()))
}

pub(crate) fn log(level: &str, message: &str) {
    HOST.with_borrow_mut(|host| host.logs.push(format!("{level}: {message}")));
}

pub(crate) fn call(name: &str, args: &str, idempotency_key: &str) -> Result<String, ToolError> {
    let args: Value = serde_json::from_str(args)
        .map_err(|e| ToolError::Invalid(format!("arguments are not JSON: {e}")))?;
    // The handler may itself inspect the fake host, so it runs unborrowed.
    let (recorded, mut handler) = HOST.with_borrow_mut(|host| {
        let recorded = host.ledger.get(idempotency_key).cloned();
        host.calls.push(ToolCall {
            name: name.to_owned(),
            args: args.clone(),
            idempotency_key: idempotency_key.to_owned(),
            replayed: recorded.is_some(),
        });
        let handler = if recorded.is_none() {
            host.handler.take()
        } else {
            None
        };
        (recorded, handler)
    });
    if let Some(recorded) = recorded {
        return recorded;
    }
    let result = match handler.as_mut() {
        Some(handler) => handler(name, &args, idempotency_key).map(|v| v.to_string()),
        None => Err(ToolError::Unknown(format!(
            "no tool handler set for '{name}'"
        ))),
    };
    HOST.with_borrow_mut(|host| {
        host.handler = host.handler.take().or(handler);
        host.ledger
            .insert(idempotency_key.to_owned(), result.clone());
    });
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools;
    use serde_json::json;

    #[test]
    fn a_repeated_key_returns_the_recorded_result() {
        reset();
        let mut runs = 0;
        on_tool(move |_, args| {
            runs += 1;
            Ok(json!({"runs": runs, "echo": args}))
        });
        let first: Value = tools::call("t", &json!({"a": 1}), "k").unwrap();
        let again: Value = tools::call("t", &json!({"a": 2}), "k").unwrap();
        assert_eq!(first, json!({"runs": 1, "echo": {"a": 1}}));
        assert_eq!(again, first);
        let replayed: Vec<bool> = calls().iter().map(|c| c.replayed).collect();
        assert_eq!(replayed, [false, true]);
    }

    #[test]
    fn host_functions_answer_from_the_fake() {
        reset();
        set_now(42);
        set_run_id("run-7");
        crate::log::warn("careful");
        assert_eq!((crate::now(), crate::run_id().as_str()), (42, "run-7"));
        assert_eq!(logs(), ["warn: careful"]);
        let err = tools::call_raw("kv", "{}", "k").unwrap_err();
        assert_eq!(
            err,
            ToolError::Unknown("no tool handler set for 'kv'".into())
        );
    }
}
