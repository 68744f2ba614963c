//! A test agent for approvals the host enforces. The start input
//! `{"mode": "...", "tool": "refund"?, "args": {...}?}` picks how it calls
//! `tool` (default `refund`) with `args` (default `{"order":"9482",
//! "amount_usd":120.0}`):
//!
//! | mode | what it does |
//! |---|---|
//! | `never_ask` | calls at once, under key `k1` |
//! | `honest` | asks approval `pay` for the call; calls (key `k1`) only when approved |
//! | `ignore_rejection` | asks, then calls whatever the answer |
//! | `twice` | asks, then calls twice (keys `k1` and `k2`) |
//! | `again` | asks, then calls twice under the same key `k1` |
//! | `other_args` | asks for the call, then calls with `{"amount_usd": 9999}` added |
//!
//! Each run ends done with what the calls returned: `ok: <result>` or
//! `err: <error>`, joined by ` | `.

use wakeful_sdk::gated::{self, Call};
use wakeful_sdk::prelude::*;

#[derive(Clone, Default, Serialize, Deserialize)]
struct Input {
    mode: String,
    #[serde(default = "default_tool")]
    tool: String,
    #[serde(default = "default_args")]
    args: Value,
}

fn default_tool() -> String {
    "refund".into()
}

fn default_args() -> Value {
    json!({"order": "9482", "amount_usd": 120.0})
}

#[derive(Default, Serialize, Deserialize)]
struct State {
    input: Input,
}

struct Gated;

impl Agent for Gated {
    type State = State;
    const TOOLS: &'static [&'static str] = &["refund", "kv"];
    const DESCRIPTION: &'static str = "Calls a tool that needs approval, honestly or not.";

    fn step(state: &mut State, wake: Wake) -> Result<Step, String> {
        match wake {
            Wake::Start(_) => start(state, &wake),
            Wake::Approval(answer) => answered(state, answer.approved),
            Wake::Expired(id) => Ok(Step::done(format!("{id} expired"))),
            other => Ok(Step::done(format!("woken by {}", other.kind()))),
        }
    }
}

wakeful_sdk::export_agent!(Gated);

fn call_of(input: &Input) -> Result<Call, String> {
    Call::new(&input.tool, &input.args).map_err(|e| e.to_string())
}

fn start(state: &mut State, wake: &Wake) -> Result<Step, String> {
    state.input = wake.input()?;
    let call = call_of(&state.input)?;
    if state.input.mode == "never_ask" {
        return Ok(Step::done(outcome(&call, "k1")));
    }
    let request = gated::request(
        "pay",
        format!("Call {} with {}?", call.tool, call.args),
        &[call],
        json!({"mode": state.input.mode}),
        3_600_000,
    );
    Ok(Step::wait([Wait::Approval(request)]))
}

fn answered(state: &mut State, approved: bool) -> Result<Step, String> {
    let call = call_of(&state.input)?;
    Ok(Step::done(match state.input.mode.as_str() {
        "honest" if !approved => "rejected; not called".to_string(),
        "twice" => format!("{} | {}", outcome(&call, "k1"), outcome(&call, "k2")),
        "again" => format!("{} | {}", outcome(&call, "k1"), outcome(&call, "k1")),
        "other_args" => {
            let mut args = state.input.args.clone();
            args["amount_usd"] = json!(9999);
            let other = Call::new(&call.tool, &args).map_err(|e| e.to_string())?;
            outcome(&other, "k1")
        }
        _ => outcome(&call, "k1"),
    }))
}

fn outcome(call: &Call, key: &str) -> String {
    match call.call::<Value>(key) {
        Ok(result) => format!("ok: {result}"),
        Err(e) => format!("err: {e}"),
    }
}
