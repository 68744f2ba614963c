//! {{name}}: a wakeful agent. The host calls `step` once per wakeup with
//! the run's state and why it woke; the step changes the state and says what
//! to wait for next. The host saves the state after every step.
//!
//! Rules of a step:
//! - never block: return what to wait for (an event, an approval, a time);
//! - act on the world only through tool calls, each with an idempotency key
//!   that names what it means: a step is retried after a crash, and the host
//!   runs each key once per run;
//! - use `now()`, the step's logical time, not the system clock.

use wakeful_sdk::prelude::*;

/// The topic this agent waits on.
const TOPIC: &str = "{{name}}:go";

#[derive(Default, Serialize, Deserialize)]
struct State {
    /// The start input, kept for the steps after the first.
    input: Value,
    /// The id of the event that was handled, once handled.
    handled: Option<String>,
}

struct MyAgent;

impl Agent for MyAgent {
    type State = State;
    const TOOLS: &'static [&'static str] = &["kv"];
    const DESCRIPTION: &'static str = "Waits for {{name}}:go and records its payload in kv.";

    fn step(state: &mut State, wake: Wake) -> Result<Step, String> {
        match wake {
            Wake::Start(input) => {
                state.input = input;
                Ok(Step::wait_event(TOPIC).status(format!("waiting for {TOPIC}")))
            }
            Wake::Event(event) if event.topic == TOPIC => {
                let key = format!("{{name}}/{}", run_id());
                // Keyed by the event: a retried step writes it once.
                kv::put(&key, &event.payload, None, &format!("record:{}", event.id))
                    .map_err(|e| format!("kv put {key}: {e}"))?;
                log::info(format!("recorded {key}"));
                state.handled = Some(event.id.clone());
                Ok(Step::done(format!("recorded {key}")).status("done"))
            }
            // Anything else while waiting: keep waiting.
            _ => Ok(Step::wait_event(TOPIC).status(format!("waiting for {TOPIC}"))),
        }
    }
}

wakeful_sdk::export_agent!(MyAgent);

// The SDK's fake host exists only in native builds: `cargo test`.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use wakeful_sdk::testing;

    use super::*;

    fn go() -> Wake {
        Wake::Event(Event {
            id: "e-1".into(),
            topic: TOPIC.into(),
            payload: json!({"hello": "world"}),
            received_at: 5,
        })
    }

    #[test]
    fn waits_for_the_event_then_records_it_once() {
        testing::reset();
        testing::set_run_id("r1");
        testing::on_tool(|_, _| Ok(json!({"ok": true, "version": 1})));
        let mut state = State::default();
        let first = MyAgent::step(&mut state, Wake::Start(json!({"ticket": 7}))).unwrap();
        assert_eq!(first, Step::wait_event(TOPIC).status(format!("waiting for {TOPIC}")));
        assert!(testing::calls().is_empty());

        let done = MyAgent::step(&mut state, go()).unwrap();
        assert_eq!(done, Step::done("recorded {{name}}/r1").status("done"));
        assert_eq!(state.input, json!({"ticket": 7}));
        // The same step again, as after a crash: the call is replayed, not
        // made twice.
        MyAgent::step(&mut state, go()).unwrap();
        let calls = testing::calls();
        assert_eq!(calls.len(), 2);
        assert_eq!(calls[0].idempotency_key, "record:e-1");
        assert!(calls[1].replayed);
        assert_eq!(
            calls[0].args,
            json!({"op": "put", "key": "{{name}}/r1", "value": {"hello": "world"}})
        );
    }
}
