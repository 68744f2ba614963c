//! The agent against the SDK's fake host.

use wakeful_sdk::testing;

use super::*;

const URL: &str = "http://127.0.0.1:7070/v1/callback/ab";

fn start() -> Wake {
    Wake::Start(json!({"order": "9482", "amount_usd": 120.0, "customer": "ann"}))
}

fn answer(payload: Value) -> Wake {
    Wake::Event(Event {
        id: "callback:approval".into(),
        topic: "callback:approval".into(),
        payload,
        received_at: 5,
    })
}

fn world() {
    testing::reset();
    testing::on_tool(|name, _args| match name {
        "callback" => {
            Ok(json!({"url": URL, "topic": "callback:approval", "expires_at": 3_600_000}))
        }
        "approvals" => Ok(json!({"status": 202, "body": {"queued": true}})),
        "refunds" => Ok(json!({"status": 200, "body": {"refund": "r-1"}})),
        other => Err(ToolError::Unknown(other.into())),
    });
}

fn asked() -> State {
    world();
    let mut state = State::default();
    let step = RefundApproval::step(&mut state, start()).unwrap();
    assert_eq!(
        step.next,
        Next::Wait(vec![
            Wait::event("callback:approval"),
            Wait::until(3_600_000)
        ])
    );
    state
}

#[test]
fn it_sends_the_link_with_the_order_and_waits_for_the_answer_or_the_expiry() {
    asked();
    let calls = testing::calls();
    assert_eq!(
        calls[0].args,
        json!({"op": "create", "id": "approval", "valid_for_ms": 3_600_000})
    );
    assert_eq!(calls[1].name, "approvals");
    assert_eq!(calls[1].idempotency_key, "refund-9482:ask");
    assert_eq!(calls[1].args["body"]["callback_url"], URL);
    assert_eq!(calls[1].args["body"]["amount_usd"], 120.0);
}

#[test]
fn an_approval_refunds_once() {
    let mut state = asked();
    let step = RefundApproval::step(
        &mut state,
        answer(json!({"approved": true, "by": "finance"})),
    );
    let step = step.unwrap();
    assert_eq!(
        step.next,
        Next::Done("refunded 120.00 USD for order 9482, approved by finance".into())
    );
    let refunds: Vec<_> = testing::calls()
        .into_iter()
        .filter(|c| c.name == "refunds")
        .collect();
    assert_eq!(refunds.len(), 1);
    assert_eq!(refunds[0].idempotency_key, "refund-9482:pay");
}

#[test]
fn a_refusal_or_silence_refunds_nothing() {
    let mut state = asked();
    let step = RefundApproval::step(
        &mut state,
        answer(json!({"approved": false, "by": "finance"})),
    );
    assert_eq!(step.unwrap().next, Next::Done("refused by finance".into()));
    let mut state = asked();
    let step = RefundApproval::step(&mut state, Wake::Timer(3_600_000)).unwrap();
    let Next::Done(outcome) = step.next else {
        panic!("not done")
    };
    assert!(outcome.starts_with("escalated: no answer"), "{outcome}");
    assert!(testing::calls().iter().all(|c| c.name != "refunds"));
}

#[test]
fn with_human_approval_the_refund_waits_for_an_operator_who_approves_that_call() {
    world();
    let mut state = State::default();
    let input = json!({"order": "9482", "amount_usd": 120.0, "customer": "ann",
        "human_approval": true});
    let asked = RefundApproval::step(&mut state, Wake::Start(input)).unwrap();
    assert!(matches!(asked.next, Next::Wait(_)), "{:?}", asked.next);
    let step = RefundApproval::step(
        &mut state,
        answer(json!({"approved": true, "by": "finance"})),
    )
    .unwrap();
    let Next::Wait(waits) = &step.next else {
        panic!("{:?}", step.next)
    };
    let Wait::Approval(ask) = &waits[0] else {
        panic!("{waits:?}")
    };
    assert_eq!(ask.id, "refund-9482");
    let named = &ask.details["calls"][0];
    assert_eq!(named["tool"], "refunds");
    assert_eq!(named["args"]["body"]["amount_usd"], 120.0);
    let refund = state.input.as_ref().unwrap().refund().unwrap();
    assert_eq!(named["args_sha256"], refund.args_sha256());
    assert!(testing::calls().iter().all(|c| c.name != "refunds"));

    let approved = Wake::Approval(Approval {
        request_id: "refund-9482".into(),
        approved: true,
        by: "alice".into(),
        at: 9,
        comment: None,
        digest: ask.digest(),
    });
    let step = RefundApproval::step(&mut state, approved).unwrap();
    assert_eq!(
        step.next,
        Next::Done("refunded 120.00 USD for order 9482, approved by finance and alice".into())
    );
    let refunds: Vec<_> = testing::calls()
        .into_iter()
        .filter(|c| c.name == "refunds")
        .collect();
    assert_eq!(refunds.len(), 1);
    assert_eq!(refunds[0].args, named["args"]);
}

#[test]
fn with_human_approval_a_rejection_refunds_nothing() {
    world();
    let mut state = State::default();
    let input = json!({"order": "9482", "amount_usd": 120.0, "human_approval": true});
    let asked = RefundApproval::step(&mut state, Wake::Start(input)).unwrap();
    assert!(matches!(asked.next, Next::Wait(_)), "{:?}", asked.next);
    let approved = RefundApproval::step(
        &mut state,
        answer(json!({"approved": true, "by": "finance"})),
    )
    .unwrap();
    assert!(
        matches!(approved.next, Next::Wait(_)),
        "{:?}",
        approved.next
    );
    let rejected = Wake::Approval(Approval {
        request_id: "refund-9482".into(),
        approved: false,
        by: "bob".into(),
        at: 9,
        comment: None,
        digest: String::new(),
    });
    let step = RefundApproval::step(&mut state, rejected).unwrap();
    assert_eq!(step.next, Next::Done("refused by bob".into()));
    assert!(testing::calls().iter().all(|c| c.name != "refunds"));
}
