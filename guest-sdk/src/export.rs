//! The glue between the WIT exports and [`Agent`]: JSON state in and out,
//! typed wakes and steps. [`export_agent!`](crate::export_agent) expands to a
//! call of these functions.

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::bindings::wit;
use crate::waits::Memory;
use crate::{Agent, Wake};

/// The `info` export: the agent's manifest.
pub fn info<A: Agent>(name: &str, version: &str) -> wit::AgentInfo {
    wit::AgentInfo {
        name: name.to_owned(),
        version: version.to_owned(),
        tools: A::TOOLS.iter().map(|t| (*t).to_owned()).collect(),
        description: A::DESCRIPTION.to_owned(),
    }
}

/// The `step` export.
pub fn step<A: Agent>(state: String, wake: wit::Wake) -> Result<wit::StepResult, String> {
    let wake = Wake::from_wit(wake)?;
    let mut state: A::State = if may_hold_waits(&state) {
        let mut saved = parse_state(&state)?;
        crate::waits::begin(&mut saved, &wake)?;
        decode_state(saved)?
    } else {
        // Read straight into the agent's type: no JSON tree built and taken
        // apart again on a step of a run with no remembered waits.
        crate::waits::begin(&mut Value::Null, &wake)?;
        decode_text(&state)?
    };
    let step = crate::waits::finish(A::step(&mut state, wake)?)?;
    // The memory leaves with this step's state: an instance may be reused
    // for another run.
    let memory = crate::waits::take();
    Ok(step.into_wit(encode_state(&state, memory)?))
}

/// The `migrate` export. The SDK's own waits (`waits::STATE_KEY`) are taken
/// out before the agent's `migrate` and put back after it, unchanged.
pub fn migrate<A: Agent>(from_version: String, state: String) -> Result<String, String> {
    let mut old = match state.trim() {
        "" => Value::Null,
        text => serde_json::from_str(text)
            .map_err(|e| format!("the state saved by version {from_version} is not JSON: {e}"))?,
    };
    let kept = old
        .as_object_mut()
        .and_then(|o| o.remove(crate::waits::STATE_KEY));
    let new = A::migrate(&from_version, old)?;
    let Some(kept) = kept else {
        return encode_state(&new, Memory::default());
    };
    let mut new = serde_json::to_value(&new)
        .map_err(|e| format!("the new state cannot be written as JSON: {e}"))?;
    match new.as_object_mut() {
        Some(object) => object.insert(crate::waits::STATE_KEY.to_owned(), kept),
        None => {
            return Err(format!(
                "the run waits on approval requests or callback links the SDK keeps in the \
                 state, but version {}'s State is not a JSON object",
                env!("CARGO_PKG_VERSION")
            ));
        }
    };
    Ok(new.to_string())
}

/// The host hands a new run `""` or `"null"`; anything else must be a state
/// this agent wrote.
fn parse_state(text: &str) -> Result<Value, String> {
    match text.trim() {
        "" | "null" => Ok(Value::Null),
        text => serde_json::from_str(text)
            .map_err(|e| format!("the saved state does not fit this agent's State: {e}")),
    }
}

/// Whether `text` may hold the SDK's waits (`waits::STATE_KEY`): false only
/// when the key cannot be in it, even written with `\u` escapes.
fn may_hold_waits(text: &str) -> bool {
    text.contains(crate::waits::STATE_KEY) || text.contains("\\u")
}

/// [`parse_state`] and [`decode_state`] in one pass, for a state without
/// the SDK's waits.
fn decode_text<S: DeserializeOwned + Default>(text: &str) -> Result<S, String> {
    match text.trim() {
        "" | "null" => Ok(S::default()),
        text => serde_json::from_str(text)
            .map_err(|e| format!("the saved state does not fit this agent's State: {e}")),
    }
}

fn decode_state<S: DeserializeOwned + Default>(value: Value) -> Result<S, String> {
    if value.is_null() {
        return Ok(S::default());
    }
    serde_json::from_value(value)
        .map_err(|e| format!("the saved state does not fit this agent's State: {e}"))
}

/// The state as JSON text, with the SDK's waits when there are any.
fn encode_state<S: Serialize>(state: &S, memory: Memory) -> Result<String, String> {
    let failed = |e: serde_json::Error| format!("the new state cannot be written as JSON: {e}");
    if memory.is_empty() {
        // The agent's own field order, as before the SDK kept waits.
        return serde_json::to_string(state).map_err(failed);
    }
    let mut value = serde_json::to_value(state).map_err(failed)?;
    crate::waits::store(&mut value, &memory)?;
    Ok(value.to_string())
}

/// Registers an [`Agent`] as the component's exports. Use it once, at the
/// top level of the agent crate:
///
/// ```ignore
/// wakeful_sdk::export_agent!(InvoiceMail);
/// ```
///
/// The manifest (`info`) takes the agent's name and version from its
/// `Cargo.toml`, and its tools and description from the [`Agent`] impl.
/// `export_agent!(Type, name = "refund")` names the agent explicitly, for a
/// crate whose package name is not the agent's (two builds of one agent
/// side by side in a workspace, say).
#[macro_export]
macro_rules! export_agent {
    ($agent:ty) => {
        $crate::export_agent!($agent, name = ::core::env!("CARGO_PKG_NAME"));
    };
    ($agent:ty, name = $name:expr) => {
        const _: () = {
            struct __WakefulExports;

            impl $crate::__private::Guest for __WakefulExports {
                fn info() -> $crate::__private::wit::AgentInfo {
                    $crate::__private::info::<$agent>($name, ::core::env!("CARGO_PKG_VERSION"))
                }

                fn step(
                    state: ::std::string::String,
                    wake: $crate::__private::wit::Wake,
                ) -> ::core::result::Result<$crate::__private::wit::StepResult, ::std::string::String>
                {
                    $crate::__private::step::<$agent>(state, wake)
                }

                fn migrate(
                    from_version: ::std::string::String,
                    state: ::std::string::String,
                ) -> ::core::result::Result<::std::string::String, ::std::string::String> {
                    $crate::__private::migrate::<$agent>(from_version, state)
                }
            }

            $crate::__private::bindings::__export_agent_world!(
                __WakefulExports with_types_in $crate::__private::bindings
            );
        };
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Step;
    use serde::Deserialize;

    #[derive(Debug, Default, PartialEq, Serialize, Deserialize)]
    struct Count {
        n: u32,
    }

    struct Counter;

    impl Agent for Counter {
        type State = Count;
        const TOOLS: &'static [&'static str] = &["kv"];
        const DESCRIPTION: &'static str = "Counts its steps.";

        fn step(state: &mut Count, wake: Wake) -> Result<Step, String> {
            state.n += 1;
            match wake {
                Wake::Expired(_) => Err("refused".into()),
                _ => Ok(Step::continue_().status(format!("step {}", state.n))),
            }
        }
    }

    #[test]
    fn info_lists_tools_and_description() {
        let info = info::<Counter>("counter", "1.2.3");
        assert_eq!(
            (info.name.as_str(), info.version.as_str()),
            ("counter", "1.2.3")
        );
        assert_eq!(info.tools, ["kv"]);
        assert_eq!(info.description, "Counts its steps.");
    }

    #[test]
    fn first_step_starts_from_default_state() {
        for first in ["", "null", " null\n"] {
            let result = step::<Counter>(first.into(), wit::Wake::Start("{}".into())).unwrap();
            assert_eq!(result.state, r#"{"n":1}"#);
            assert_eq!(result.status.as_deref(), Some("step 1"));
        }
        let result = step::<Counter>(r#"{"n":4}"#.into(), wit::Wake::Resume).unwrap();
        assert_eq!(result.state, r#"{"n":5}"#);
    }

    #[test]
    fn the_sdks_waits_are_found_in_a_state_that_escapes_their_key() {
        // Unreadable waits fail the step, whichever way the key is written.
        for state in [
            r#"{"n":4,"wakeful:waits":7}"#,
            r#"{"n":4,"wakeful\u003awaits":7}"#,
        ] {
            let err = step::<Counter>(state.into(), wit::Wake::Resume).unwrap_err();
            assert!(err.contains("is unreadable"), "{state}: {err}");
        }
        let result = step::<Counter>(r#"{"n":4,"note":"\u00e9"}"#.into(), wit::Wake::Resume);
        assert_eq!(result.unwrap().state, r#"{"n":5}"#);
    }

    #[test]
    fn bad_state_and_agent_errors_fail_the_step() {
        let err = step::<Counter>(r#"{"m":1}"#.into(), wit::Wake::Resume).unwrap_err();
        assert!(err.contains("missing field `n`"), "{err}");
        let err = step::<Counter>(r#"{"n":1}"#.into(), wit::Wake::Expired("x".into())).unwrap_err();
        assert_eq!(err, "refused");
    }

    #[test]
    fn default_migrate_reads_the_old_state() {
        assert_eq!(
            migrate::<Counter>("0.1.0".into(), r#"{"n":3}"#.into()).unwrap(),
            r#"{"n":3}"#
        );
        assert_eq!(
            migrate::<Counter>("0.1.0".into(), "".into()).unwrap(),
            r#"{"n":0}"#
        );
        let err = migrate::<Counter>("0.1.0".into(), r#"{"n":"x"}"#.into()).unwrap_err();
        assert!(
            err.starts_with("the state saved by version 0.1.0 does not fit"),
            "{err}"
        );
    }
}
