//! The incident agent against a fake world: the SDK's test host with `kv`,
//! `lease` and `llm` tools that follow the host's JSON contract.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use wakeful_sdk::serde_json::{from_str, to_string};
use wakeful_sdk::testing;

use super::*;

const NOW: u64 = 1_800_000_000_000;
const SERVICE: &str = "service/payments-api";

#[derive(Default)]
struct World {
    kv: HashMap<String, (Value, u64)>,
    leases: HashMap<String, String>,
    proposal: Value,
    /// Set to make every kv call fail.
    kv_down: bool,
}

impl World {
    fn version(&self, key: &str) -> u64 {
        self.kv.get(key).map_or(0, |(_, v)| *v)
    }

    fn write(&mut self, key: &str, value: Value) -> u64 {
        let version = self.version(key) + 1;
        self.kv.insert(key.to_owned(), (value, version));
        version
    }

    fn tool(&mut self, name: &str, args: &Value) -> Result<Value, ToolError> {
        let text = |field: &str| args[field].as_str().unwrap_or_default().to_owned();
        Ok(match (name, args["op"].as_str().unwrap_or_default()) {
            ("kv", _) if self.kv_down => return Err(ToolError::Failed("disk on fire".into())),
            ("kv", "get") => match self.kv.get(&text("key")) {
                Some((value, version)) => json!({"value": value, "version": version}),
                None => json!({"value": null, "version": 0}),
            },
            ("kv", "put") => {
                let (key, current) = (text("key"), self.version(&text("key")));
                match args["expected_version"].as_u64() {
                    Some(expected) if expected != current => {
                        json!({"ok": false, "version": current})
                    }
                    _ => json!({"ok": true, "version": self.write(&key, args["value"].clone())}),
                }
            }
            ("lease", "acquire") => match self.leases.get(&text("resource")) {
                Some(other) if *other != text("holder") => {
                    json!({"granted": false, "holder": other, "expires_at": NOW + 1})
                }
                _ => {
                    self.leases.insert(text("resource"), text("holder"));
                    let expires_at = NOW + args["ttl_ms"].as_u64().unwrap_or_default();
                    json!({"granted": true, "holder": text("holder"), "expires_at": expires_at})
                }
            },
            ("lease", "release") => {
                let held = self.leases.get(&text("resource")) == Some(&text("holder"));
                if held {
                    self.leases.remove(&text("resource"));
                }
                json!({"released": held})
            }
            ("llm", _) => self.proposal.clone(),
            _ => return Err(ToolError::Unknown(name.to_owned())),
        })
    }
}

/// A degraded payments-api at version 7 and a model that proposes a restart.
fn world() -> Rc<RefCell<World>> {
    let mut world = World {
        proposal: json!({"action": "restart_service", "reason": "memory leak"}),
        ..World::default()
    };
    world.kv.insert(
        SERVICE.into(),
        (
            json!({"status": "degraded", "memory_pct": 93, "actions_applied": 0}),
            7,
        ),
    );
    let world = Rc::new(RefCell::new(world));
    testing::reset();
    testing::set_now(NOW);
    let tools = Rc::clone(&world);
    testing::on_tool(move |name, args| tools.borrow_mut().tool(name, args));
    world
}

/// One step with the state kept as JSON between steps, as the host does; an
/// error leaves the state as it was.
fn step(state: &mut State, wake: Wake) -> Result<Step, String> {
    let mut loaded: State = from_str(&to_string(state).unwrap()).unwrap();
    let step = Incident::step(&mut loaded, wake)?;
    *state = loaded;
    Ok(step)
}

/// A step that must continue to the next phase.
fn advance(state: &mut State, wake: Wake) {
    assert_eq!(step(state, wake).unwrap().next, Next::Continue);
}

fn start() -> Wake {
    Wake::Start(json!({"incident": "INC-7001", "service": "payments-api"}))
}

/// An answer to the request of [`expected_ask`], as the host delivers it.
fn answer(approved: bool, at: u64, comment: Option<&str>) -> Wake {
    let Next::Wait(waits) = expected_ask().next else {
        unreachable!("expected_ask waits")
    };
    let [Wait::Approval(request)] = waits.as_slice() else {
        unreachable!("expected_ask waits for one approval")
    };
    Wake::Approval(Approval {
        request_id: "approve-restart_service".into(),
        approved,
        by: "ann".into(),
        at,
        comment: comment.map(str::to_owned),
        digest: request.digest(),
    })
}

/// Runs triage, diagnose and approve; returns the state waiting for approval.
fn waiting_for_approval() -> State {
    let mut state = State::default();
    advance(&mut state, start());
    advance(&mut state, Wake::Resume);
    let ask = step(&mut state, Wake::Resume).unwrap();
    assert_eq!(ask, expected_ask());
    state
}

fn expected_ask() -> Step {
    Step::wait_approval(
        "approve-restart_service",
        "Approve 'restart_service' on payments-api?",
        json!({
            "action": "restart_service",
            "reason": "memory leak",
            "service": "payments-api",
            "based_on_version": 7,
            "based_on": {
                "service": "payments-api",
                "status": "degraded",
                "memory_pct": 93.0,
                "version": 7,
                "observed_at": NOW,
            },
        }),
        1_800_000,
    )
    .status("waiting for approval of restart_service on payments-api")
}

fn done(outcome: &str) -> Next {
    Next::Done(outcome.to_owned())
}

#[test]
fn approved_plan_is_applied_once_and_verified() {
    let world = world();
    let mut state = State::default();
    let mut statuses = Vec::new();
    let wakes = [
        start(),
        Wake::Resume,
        Wake::Resume,
        answer(true, NOW, None),
        Wake::Resume,
    ];
    for wake in wakes {
        statuses.push(step(&mut state, wake).unwrap().status.unwrap());
    }
    assert_eq!(
        statuses,
        [
            "triaged; diagnosing",
            "planned restart_service; asking for approval",
            "waiting for approval of restart_service on payments-api",
            "approved by ann; acting",
            "applied restart_service; verifying",
        ]
    );
    assert_eq!(
        step(&mut state, Wake::Resume).unwrap().next,
        done("resolved")
    );

    let world = world.borrow();
    let healthy = json!({"status": "healthy", "memory_pct": 41, "actions_applied": 1});
    assert_eq!(world.kv[SERVICE], (healthy, 8));
    assert!(world.leases.is_empty(), "the lease is released");
    let logs = testing::logs();
    assert!(
        logs.contains(
            &"info: ACTION APPLIED key=INC-7001:restart_service actions_applied=1".into()
        )
    );
    let prompt = &testing::calls()[1].args["prompt"];
    assert!(prompt.as_str().unwrap().contains("degraded"), "{prompt}");
}

#[test]
fn an_act_step_retried_after_a_crash_applies_once() {
    let world = world();
    let mut state = waiting_for_approval();
    advance(&mut state, answer(true, NOW, None));
    let before_act: State = from_str(&to_string(&state).unwrap()).unwrap();
    advance(&mut state, Wake::Resume);
    // The checkpoint was lost: the host runs the act step again.
    let mut state = before_act;
    let again = step(&mut state, Wake::Resume).unwrap();
    assert_eq!(
        again.status.as_deref(),
        Some("applied restart_service; verifying")
    );
    assert_eq!(world.borrow().kv[SERVICE].1, 8, "one write only");
    let puts: Vec<bool> = testing::calls()
        .iter()
        .filter(|c| c.idempotency_key == "INC-7001:restart_service")
        .map(|c| c.replayed)
        .collect();
    assert_eq!(puts, [false, true]);
}

#[test]
fn unknown_service_escalates() {
    world();
    let mut state = State::default();
    let wake = Wake::Start(json!({"incident": "INC-1", "service": "nope"}));
    let step = step(&mut state, wake).unwrap();
    assert_eq!(
        step.next,
        done("unknown service nope; escalating to a human")
    );
}

#[test]
fn bad_input_names_the_missing_field() {
    world();
    let err = step(
        &mut State::default(),
        Wake::Start(json!({"incident": "INC-1"})),
    )
    .unwrap_err();
    assert!(err.contains("missing field `service`"), "{err}");
}

#[test]
fn an_unknown_action_becomes_an_escalation() {
    world().borrow_mut().proposal = json!({"action": "drop_database", "reason": "why not"});
    let mut state = State::default();
    advance(&mut state, start());
    let planned = step(&mut state, Wake::Resume).unwrap();
    assert_eq!(
        planned.status.as_deref(),
        Some("planned escalate_to_human; asking for approval")
    );
    let outcome = step(&mut state, Wake::Resume).unwrap().next;
    assert_eq!(
        outcome,
        done("escalated to a human: model proposed an unknown action: drop_database")
    );
}

#[test]
fn an_answer_to_other_details_is_not_acted_on() {
    world();
    let mut state = waiting_for_approval();
    let Wake::Approval(mut forged) = answer(true, NOW, None) else {
        unreachable!()
    };
    forged.digest =
        wakeful_sdk::approval_digest("Approve 'restart_service' on payments-api?", "{}");
    let outcome = step(&mut state, Wake::Approval(forged)).unwrap().next;
    assert_eq!(
        outcome,
        done("the answer approved other details than this plan; action not taken")
    );
}

#[test]
fn a_rejection_ends_the_run_with_the_comment() {
    world();
    let mut state = waiting_for_approval();
    let mut other = waiting_for_approval();
    let rejected = step(&mut state, answer(false, NOW, Some("too risky"))).unwrap();
    assert_eq!(rejected.next, done("rejected by ann: too risky"));
    let rejected = step(&mut other, answer(false, NOW, None)).unwrap();
    assert_eq!(rejected.next, done("rejected by ann"));
}

#[test]
fn expired_or_stale_approvals_end_the_run() {
    world();
    let expired = "approval expired; needs a fresh plan";
    let mut state = waiting_for_approval();
    let wake = Wake::Expired("approve-restart_service".into());
    assert_eq!(step(&mut state, wake).unwrap().next, done(expired));
    let mut state = waiting_for_approval();
    let stale = answer(true, NOW - 1_800_001, None);
    assert_eq!(step(&mut state, stale).unwrap().next, done(expired));
}

#[test]
fn other_wakes_keep_waiting_for_the_same_approval() {
    world();
    let mut state = waiting_for_approval();
    assert_eq!(step(&mut state, Wake::Resume).unwrap(), expected_ask());
    let foreign = Wake::Expired("approve-something-else".into());
    assert_eq!(step(&mut state, foreign).unwrap(), expected_ask());
    let approved = step(&mut state, answer(true, NOW, None)).unwrap();
    assert_eq!(approved.status.as_deref(), Some("approved by ann; acting"));
}

#[test]
fn a_world_changed_before_revalidation_stops_the_action() {
    let world = world();
    let mut state = waiting_for_approval();
    world
        .borrow_mut()
        .write(SERVICE, json!({"status": "healthy", "memory_pct": 40}));
    let outcome = step(&mut state, answer(true, NOW, None)).unwrap().next;
    let expected =
        "world changed since the plan (version 7 -> 8, status now 'healthy'); action not taken";
    assert_eq!(outcome, done(expected));
}

#[test]
fn a_world_changed_before_the_write_stops_the_action_and_releases_the_lease() {
    let world = world();
    let mut state = waiting_for_approval();
    advance(&mut state, answer(true, NOW, None));
    world
        .borrow_mut()
        .write(SERVICE, json!({"status": "healthy", "memory_pct": 40}));
    let outcome = step(&mut state, Wake::Resume).unwrap().next;
    assert_eq!(
        outcome,
        done("world changed since the plan (version 7 -> 8); action not taken")
    );
    assert!(world.borrow().leases.is_empty());
}

#[test]
fn a_held_lease_makes_the_agent_back_off() {
    let world = world();
    let mut state = waiting_for_approval();
    advance(&mut state, answer(true, NOW, None));
    world
        .borrow_mut()
        .leases
        .insert(SERVICE.into(), "agent-2".into());
    let outcome = step(&mut state, Wake::Resume).unwrap().next;
    assert_eq!(
        outcome,
        done("agent-2 holds the lease on payments-api; backed off")
    );
    assert_eq!(world.borrow().kv[SERVICE].1, 7, "nothing written");
}

#[test]
fn a_tool_failure_is_a_step_error_naming_the_tool() {
    world().borrow_mut().kv_down = true;
    let mut state = State::default();
    let err = step(&mut state, start()).unwrap_err();
    assert_eq!(err, "kv get service/payments-api: failed: disk on fire");
    assert!(
        matches!(state.phase, Phase::Triage),
        "an error changes nothing"
    );
}
