//! The incident agent as a model-driven loop: the model reads and writes
//! the incident's notes in `kv`, pages the on-call engineer through the
//! `pager` tool, and scales the service out with the `scale` tool, which a
//! host configures `requires_approval`: such a call waits for a human, and
//! is made only once approved. The loop ([`agent_loop`]) keeps the
//! conversation in the run's state and keys every call by its turn, so a
//! crash repeats nothing and charges nothing twice.
//!
//! Start input: `{"incident": "INC-7", "service": "payments-api",
//! "summary": "p99 latency 4s, memory 97%"}`. The run ends with the
//! model's last answer.

use wakeful_sdk::agent_loop::{Config, Loop, LoopTool, Turn};
use wakeful_sdk::prelude::*;

#[derive(Deserialize)]
struct Input {
    incident: String,
    service: String,
    summary: String,
}

#[derive(Default, Serialize, Deserialize)]
struct State {
    chat: Loop,
}

struct IncidentLoop;

const SYSTEM: &str = "You are the on-call assistant for a production incident. \
    Use the tools: keep notes in kv under incidents/<id>/, page the on-call engineer \
    when a human must know, and scale the service out when it lacks capacity (a human \
    approves each scale action). Finish with a one-line summary of what you did.";

impl Agent for IncidentLoop {
    type State = State;
    const TOOLS: &'static [&'static str] = &["llm", "kv", "pager", "scale"];
    const DESCRIPTION: &'static str =
        "Handles a service incident as a model-driven loop over kv, the pager and scaling.";

    fn step(state: &mut State, wake: Wake) -> Result<Step, String> {
        if let Wake::Start(_) = wake {
            let input: Input = wake.input()?;
            state.chat = Loop::new(vec![
                llm::Message::system(SYSTEM),
                llm::Message::user(format!(
                    "Incident {} on {}: {}",
                    input.incident, input.service, input.summary
                )),
            ]);
        }
        Ok(match state.chat.advance(&config()?, &wake)? {
            Turn::Step(step) => step,
            Turn::Finished(reply) => {
                let outcome = match reply.text() {
                    Some(text) => text.to_owned(),
                    None => format!("the model stopped ({:?})", reply.stop_reason),
                };
                Step::done(outcome).status("incident handled")
            }
        })
    }
}

wakeful_sdk::export_agent!(IncidentLoop);

/// The tools the model may call, each one of [`IncidentLoop::TOOLS`].
fn config() -> Result<Config, String> {
    let kv = LoopTool::new(
        "kv",
        "Read (op get) or write (op put, with a JSON value) a note of the incident.",
        json!({"type": "object", "properties": {
            "op": {"type": "string", "enum": ["get", "put"]},
            "key": {"type": "string"}, "value": {}},
            "required": ["op", "key"]}),
    );
    let pager = LoopTool::new(
        "pager",
        "Page the on-call engineer with a short message.",
        json!({"type": "object", "properties": {"message": {"type": "string"}},
            "required": ["message"]}),
    )
    .named("page_oncall")
    .under("body");
    let scale = LoopTool::new(
        "scale",
        "Scale a service out to more replicas; a human approves each call.",
        json!({"type": "object", "properties": {
            "service": {"type": "string"}, "replicas": {"type": "integer"}},
            "required": ["service", "replicas"]}),
    )
    .named("scale_out")
    .under("body");
    Config::new("llm", vec![kv, pager, scale], IncidentLoop::TOOLS)
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use wakeful_sdk::testing;

    #[test]
    fn the_config_offers_the_declared_tools() {
        let config = config().unwrap();
        let names: Vec<&str> = config.tools.iter().map(|t| t.spec.name.as_str()).collect();
        assert_eq!(names, ["kv", "page_oncall", "scale_out"]);
    }

    #[test]
    fn a_start_asks_the_model_with_the_incident() {
        testing::reset();
        testing::on_tool(|_, _| {
            Ok(
                json!({"message": {"role": "assistant", "content": "nothing to do"},
                "stop_reason": "end_turn", "provider_stop_reason": "stop",
                "usage": {"total_tokens": 5, "cost_usd": 0.0}}),
            )
        });
        let mut state = State::default();
        let input = json!({"incident": "INC-7", "service": "api", "summary": "slow"});
        let step = IncidentLoop::step(&mut state, Wake::Start(input)).unwrap();
        assert_eq!(step.next, Next::Done("nothing to do".into()));
        let asked = &testing::calls()[0];
        assert_eq!(
            asked.args["messages"][1]["content"],
            "Incident INC-7 on api: slow"
        );
    }
}
