//! A test agent for the host's triggers. The start input lists what to wait
//! for; the first wake after that ends the run with an outcome naming it.
//!
//! Start input: `{"after_ms": N?, "cron": "expr"?, "topic": "t"?,
//! "approval_ms": N?, "slices": N?}` — wait until `now + after_ms`, for the
//! next tick of `cron`, for an event on `topic` and/or an answer to approval
//! request `ok?` valid `approval_ms`, all at once. With `slices`, first take
//! that many `continue` steps.
//!
//! Hostile to the approval protocol on demand: `details` sets the details of
//! `ok?` (default `{"why":"testing"}`), an event on `topic` whose payload
//! has `"details"` asks `ok?` again with those details instead of ending the
//! run, and `reask: true` asks `ok?` again after it was answered or expired.

use wakeful_sdk::prelude::*;

#[derive(Clone, Default, Serialize, Deserialize)]
struct Input {
    after_ms: Option<u64>,
    cron: Option<String>,
    topic: Option<String>,
    approval_ms: Option<u64>,
    #[serde(default)]
    slices: u32,
    details: Option<Value>,
    #[serde(default)]
    reask: bool,
}

#[derive(Default, Serialize, Deserialize)]
struct State {
    input: Input,
    slices_done: u32,
}

struct Waiter;

impl Agent for Waiter {
    type State = State;
    const DESCRIPTION: &'static str = "Waits on whatever its start input says.";

    fn step(state: &mut State, wake: Wake) -> Result<Step, String> {
        match wake {
            Wake::Start(_) => state.input = wake.input()?,
            Wake::Resume if state.slices_done < state.input.slices => {}
            Wake::Timer(due) => return Ok(Step::done(format!("timer due at {due}"))),
            Wake::Event(e) => match e.payload.get("details") {
                Some(details) => state.input.details = Some(details.clone()),
                None => return Ok(Step::done(format!("event {} on {}", e.id, e.topic))),
            },
            Wake::Approval(_) | Wake::Expired(_) if state.input.reask => {}
            Wake::Approval(a) => {
                return Ok(Step::done(format!(
                    "approved={} by {} digest {}",
                    a.approved, a.by, a.digest
                )));
            }
            Wake::Expired(id) => return Ok(Step::done(format!("{id} expired"))),
            Wake::Resume => {}
        }
        if state.slices_done < state.input.slices {
            state.slices_done += 1;
            return Ok(Step::continue_().status(format!("slice {}", state.slices_done)));
        }
        let input = &state.input;
        let mut waits = Vec::new();
        if let Some(ms) = input.after_ms {
            waits.push(Wait::until(now() + ms));
        }
        if let Some(expr) = &input.cron {
            waits.push(Wait::cron(expr));
        }
        if let Some(topic) = &input.topic {
            waits.push(Wait::event(topic));
        }
        if let Some(ms) = input.approval_ms {
            let details = input.details.clone();
            let details = details.unwrap_or_else(|| json!({"why": "testing"}));
            waits.push(Wait::approval("ok?", "Carry on?", details, ms));
        }
        Ok(Step::wait(waits).status("waiting"))
    }
}

wakeful_sdk::export_agent!(Waiter);
