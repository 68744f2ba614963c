//! A test agent for the `mcp` tool kind: it asks for tools of the MCP
//! servers the tests configure (`local` over stdio, `remote` over HTTP,
//! `everything` the reference server). The start input `{"calls": [{"tool",
//! "args", "key"?}, ..]}` lists the calls; each step makes the next one (key
//! `k<n>` unless given) and records `ok: <result>` or `err: <error>` in the
//! state's `results`. The run is done once every call is made. The start
//! input `{"ask": "..."}` instead hands the question to a model (`llm`) in
//! the SDK's agent loop, offering it the stdio server's `local/echo` as
//! `echo`; the run is done with the model's answer.

use wakeful_sdk::agent_loop::{Config, Loop, LoopTool, Turn};
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
    #[serde(default)]
    calls: Vec<Call>,
    #[serde(default)]
    ask: Option<String>,
}

#[derive(Default, Serialize, Deserialize)]
struct State {
    calls: Vec<Call>,
    results: Vec<String>,
    #[serde(default)]
    chat: Option<Loop>,
}

struct McpCaller;

impl Agent for McpCaller {
    type State = State;
    const TOOLS: &'static [&'static str] = &[
        "local/echo",
        "local/env",
        "local/fail",
        "local/hang",
        "remote/echo",
        "remote/hang",
        "remote/big",
        "everything/echo",
        "llm",
    ];
    const DESCRIPTION: &'static str =
        "Calls the MCP tools its start input lists, one call per step.";

    fn step(state: &mut State, wake: Wake) -> Result<Step, String> {
        if let Wake::Start(_) = wake {
            let input: Input = wake.input()?;
            state.calls = input.calls;
            state.chat = input
                .ask
                .map(|ask| Loop::new(vec![llm::Message::user(ask)]));
        }
        if let Some(chat) = &mut state.chat {
            return Ok(match chat.advance(&config()?, &wake)? {
                Turn::Step(step) => step,
                Turn::Finished(reply) => Step::done(reply.text().unwrap_or("no answer")),
            });
        }
        let n = state.results.len();
        let Some(call) = state.calls.get(n).cloned() else {
            return Ok(Step::done("nothing to call"));
        };
        let key = call.key.unwrap_or_else(|| format!("k{}", n + 1));
        let result = match tools::call_raw(&call.tool, &call.args.to_string(), &key) {
            Ok(result) => format!("ok: {result}"),
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

wakeful_sdk::export_agent!(McpCaller);

/// The loop's one tool: an MCP server's, under a name the model can use
/// (no `/`).
fn config() -> Result<Config, String> {
    let echo = LoopTool::new(
        "local/echo",
        "Echo a message back.",
        json!({"type": "object", "properties": {"message": {"type": "string"}},
            "required": ["message"]}),
    )
    .named("echo");
    Config::new("llm", vec![echo], McpCaller::TOOLS)
}
