//! The trait an agent implements.

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::{Step, Wake};

/// An agent: a step function over a typed state.
///
/// The host keeps the state between steps as JSON; the SDK decodes it before
/// [`Agent::step`] and encodes it after. Register the type with
/// [`export_agent!`](crate::export_agent).
pub trait Agent {
    /// Everything the run remembers between steps. A new run starts from
    /// `State::default()`.
    type State: Serialize + DeserializeOwned + Default;

    /// The tools this version asks the operator to grant (`"kv"`, `"lease"`,
    /// `"llm"`, …). A call to any other tool is denied; none by default.
    const TOOLS: &'static [&'static str] = &[];

    /// One sentence for operators: what this agent does.
    const DESCRIPTION: &'static str;

    /// Takes one step of a run: reacts to `wake`, updates `state` in place and
    /// says what to wait for next.
    ///
    /// A step must not block on the outside world; it waits by returning a
    /// [`Step`]. An `Err` changes nothing of the run, including `state`: the
    /// host keeps the previous checkpoint, retries the step, and parks the run
    /// after a bounded number of attempts.
    fn step(state: &mut Self::State, wake: Wake) -> Result<Step, String>;

    /// Turns the state saved by version `from_version` of this agent into this
    /// version's `State` when an operator upgrades a run.
    ///
    /// `old` is `Value::Null` for a run that never finished a step. The default
    /// reads the old JSON as the new `State` (so added fields need
    /// `#[serde(default)]`); override it when the shape changed.
    fn migrate(from_version: &str, old: Value) -> Result<Self::State, String> {
        if old.is_null() {
            return Ok(Self::State::default());
        }
        serde_json::from_value(old).map_err(|e| {
            format!(
                "the state saved by version {from_version} does not fit this version's State: {e}"
            )
        })
    }
}
