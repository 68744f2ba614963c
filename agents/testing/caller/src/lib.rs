//! A test agent for the configured tools (`pager`, an `http` tool, and
//! `llm`) and `kv`. The start input `{"calls": [{"tool", "args", "key"?}, ..]}` lists
//! the calls; each step makes the next one (key `k<n>` unless given) and
//! records `ok: <result>` or `err: <error>` in the state's `results`. A call
//! refused for a spent budget is not recorded: the host parks the run, and
//! the step after an operator's resume makes the same call again. The run is
//! done with the last result once every call is made. With `"batch": true`
//! one step makes every call (for tests of what a step may still send once
//! its run is taken from it).

use wakeful_sdk::prelude::*;

#[derive(Clone, Serialize, Deserialize)]
struct Call {
    tool: String,
    #[serde(default)]
    args: Value,
    #[serde(default)]
    key: Option<String>,
}

#[derive(Deserialize)]
struct Input {
    calls: Vec<Call>,
    #[serde(default)]
    batch: bool,
}

#[derive(Default, Serialize, Deserialize)]
struct State {
    calls: Vec<Call>,
    results: Vec<String>,
    #[serde(default)]
    batch: bool,
}

struct Caller;

impl Agent for Caller {
    type State = State;
    const TOOLS: &'static [&'static str] = &["pager", "llm", "kv"];
    const DESCRIPTION: &'static str =
        "Calls the configured tools its start input lists, one call per step.";

    fn step(state: &mut State, wake: Wake) -> Result<Step, String> {
        if let Wake::Start(_) = wake {
            let input: Input = wake.input()?;
            state.calls = input.calls;
            state.batch = input.batch;
        }
        if state.batch {
            for (n, call) in state.calls.clone().into_iter().enumerate() {
                let key = call.key.unwrap_or_else(|| format!("k{}", n + 1));
                let result = tools::call_raw(&call.tool, &call.args.to_string(), &key)
                    .map_err(|e| format!("call {key}: {e}"))?;
                state.results.push(format!("ok: {result}"));
            }
            return Ok(Step::done(format!("made {} calls", state.results.len())));
        }
        let n = state.results.len();
        let Some(call) = state.calls.get(n).cloned() else {
            return Ok(Step::done("nothing to call"));
        };
        let key = call.key.unwrap_or_else(|| format!("k{}", n + 1));
        let result = match tools::call_raw(&call.tool, &call.args.to_string(), &key) {
            Ok(result) => format!("ok: {result}"),
            Err(ToolError::Budget(why)) => {
                return Ok(Step::continue_().status(format!("budget: {why}")));
            }
            Err(e) => format!("err: {e}"),
        };
        state.results.push(result.clone());
        if state.results.len() == state.calls.len() {
            Ok(Step::done(result))
        } else {
            Ok(Step::continue_().status(format!("made call {}", n + 1)))
        }
    }
}

wakeful_sdk::export_agent!(Caller);
