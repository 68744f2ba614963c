//! Version 1 of `counter`, for upgrade tests: counts `tick` events in `n`.
//! A start input `{"poison": true}` marks the state so that version 2's
//! `migrate` refuses it.

use wakeful_sdk::prelude::*;

#[derive(Default, Serialize, Deserialize)]
struct State {
    n: u64,
    #[serde(default)]
    poison: bool,
}

struct Counter;

impl Agent for Counter {
    type State = State;
    const DESCRIPTION: &'static str = "Counts tick events (state v1: `n`).";

    fn step(state: &mut State, wake: Wake) -> Result<Step, String> {
        match wake {
            Wake::Start(input) => state.poison = input.get("poison") == Some(&json!(true)),
            Wake::Event(_) => state.n += 1,
            _ => {}
        }
        Ok(Step::wait_event("tick").status(format!("v1 counted {}", state.n)))
    }
}

wakeful_sdk::export_agent!(Counter, name = "counter");
