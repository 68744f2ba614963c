//! A component that imports `acme:missing/thing@1.0.0`, which no wakeful host
//! provides. The host must refuse it at deploy (or at the latest at
//! instantiation) with an error naming the import; its step never runs.
// The bindings are generated into this crate, so its lints see them.
#![allow(
    unsafe_code,
    clippy::too_many_arguments,
    reason = "wit-bindgen's generated exports are unsafe and take one argument per flattened value"
)]

wit_bindgen::generate!({
    // The real contract first, so this world includes the real agent world.
    path: ["../../../wit", "wit"],
    world: "acme:bad-import/agent",
    generate_all,
});

use wakeful::agent::types::Next;

struct BadImport;

impl Guest for BadImport {
    fn info() -> AgentInfo {
        AgentInfo {
            name: env!("CARGO_PKG_NAME").to_owned(),
            version: env!("CARGO_PKG_VERSION").to_owned(),
            tools: Vec::new(),
            description: env!("CARGO_PKG_DESCRIPTION").to_owned(),
        }
    }

    fn step(state: String, _wake: Wake) -> Result<StepResult, String> {
        // Calling the import keeps it in the component.
        let answer = acme::missing::thing::poke();
        Ok(StepResult {
            state,
            next: Next::Done(answer),
            status: None,
        })
    }

    fn migrate(_from_version: String, state: String) -> Result<String, String> {
        Ok(state)
    }
}

export!(BadImport);
