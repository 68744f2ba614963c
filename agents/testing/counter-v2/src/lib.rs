//! Version 2 of `counter`, for upgrade tests: the count is now `count`, and
//! `migrate` moves version 1's `n` into it. It asks for `kv`, which version
//! 1 did not, so an upgrade must accept the new grant.

use wakeful_sdk::prelude::*;

#[derive(Default, Serialize, Deserialize)]
struct State {
    count: u64,
}

struct Counter;

impl Agent for Counter {
    type State = State;
    const TOOLS: &'static [&'static str] = &["kv"];
    const DESCRIPTION: &'static str = "Counts tick events (state v2: `count`).";

    fn step(state: &mut State, wake: Wake) -> Result<Step, String> {
        if let Wake::Event(_) = wake {
            state.count += 1;
        }
        Ok(Step::wait_event("tick").status(format!("v2 counted {}", state.count)))
    }

    fn migrate(from_version: &str, old: Value) -> Result<State, String> {
        if !from_version.starts_with("1.") {
            return Err(format!("cannot migrate from version {from_version}"));
        }
        if old.get("poison") == Some(&json!(true)) {
            return Err("this state is marked poison; refusing to migrate it".into());
        }
        let n = old.get("n").and_then(Value::as_u64).unwrap_or(0);
        Ok(State { count: n })
    }
}

wakeful_sdk::export_agent!(Counter, name = "counter");
