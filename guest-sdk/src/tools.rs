//! Calling the host's tools: [`call`] with JSON in and out, and [`ToolError`].
//!
//! Typed wrappers for the built-in tools live in [`kv`](crate::kv),
//! [`lease`](crate::lease) and [`callback`](crate::callback).

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::bindings::wakeful::agent::tools as wit;

/// Why a tool call did not return a result: one definition for the SDK and
/// the host, in the `wakeful-types` crate.
pub use wakeful_types::ToolError;

impl From<wit::ToolError> for ToolError {
    fn from(e: wit::ToolError) -> ToolError {
        match e {
            wit::ToolError::Denied(m) => ToolError::Denied(m),
            wit::ToolError::Unknown(m) => ToolError::Unknown(m),
            wit::ToolError::Budget(m) => ToolError::Budget(m),
            wit::ToolError::Invalid(m) => ToolError::Invalid(m),
            wit::ToolError::Failed(m) => ToolError::Failed(m),
        }
    }
}

/// Calls the tool `name` with `args` as JSON and reads its JSON result as `R`
/// (use `serde_json::Value` to take it as it comes).
///
/// The host runs each `idempotency_key` at most once per run and returns the
/// recorded result to every repeat, including the repeats of a retried step.
/// So derive the key from what the call means (`"INC-7001:restart"`), never
/// from a counter or the time: the same call gets the same key.
pub fn call<A, R>(name: &str, args: &A, idempotency_key: &str) -> Result<R, ToolError>
where
    A: Serialize + ?Sized,
    R: DeserializeOwned,
{
    let args = serde_json::to_string(args).map_err(|e| {
        ToolError::Invalid(format!("the arguments for tool '{name}' are not JSON: {e}"))
    })?;
    let result = call_raw(name, &args, idempotency_key)?;
    read_result(name, &result)
}

/// Calls the tool `name` with JSON text and returns its JSON text as is.
pub fn call_raw(name: &str, args: &str, idempotency_key: &str) -> Result<String, ToolError> {
    #[cfg(target_arch = "wasm32")]
    return wit::call(name, args, idempotency_key).map_err(ToolError::from);
    #[cfg(not(target_arch = "wasm32"))]
    return crate::testing::call(name, args, idempotency_key);
}

/// A result of the wrong shape is the tool's failure as far as the agent can
/// tell; the message quotes the start of it for the operator.
pub(crate) fn read_result<R: DeserializeOwned>(name: &str, result: &str) -> Result<R, ToolError> {
    serde_json::from_str(result).map_err(|e| {
        ToolError::Failed(format!(
            "tool '{name}' returned a result this agent cannot read ({e}): {}",
            excerpt(result, 200)
        ))
    })
}

pub(crate) fn excerpt(text: &str, max_chars: usize) -> String {
    match text.char_indices().nth(max_chars) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    #[test]
    fn errors_display_kind_and_message() {
        let e = ToolError::from(wit::ToolError::Denied("kv is not granted".into()));
        assert_eq!(e, ToolError::Denied("kv is not granted".into()));
        assert_eq!(e.to_string(), "denied: kv is not granted");
        assert_eq!(e.message(), "kv is not granted");
    }

    #[test]
    fn unreadable_result_is_a_failure_naming_the_tool() {
        let err = read_result::<u64>("llm", r#"{"action":"x"}"#).unwrap_err();
        let ToolError::Failed(message) = err else {
            panic!("not Failed: {err:?}")
        };
        assert!(
            message.starts_with("tool 'llm' returned a result this agent cannot read"),
            "{message}"
        );
        assert!(message.ends_with(r#"{"action":"x"}"#), "{message}");
        assert_eq!(
            read_result::<Value>("t", "[1]").unwrap(),
            serde_json::json!([1])
        );
    }

    #[test]
    fn excerpt_cuts_on_char_boundaries() {
        assert_eq!(excerpt("ééé", 2), "éé…");
        assert_eq!(excerpt("ab", 2), "ab");
    }
}
