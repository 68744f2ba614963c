//! The agent against the SDK's fake host, stepped as the host would
//! (`testing::step`), with the SDK remembering its waits.

use wakeful_sdk::testing;

use super::*;

const URL: &str = "http://127.0.0.1:7070/v1/callback/ab";

fn world() {
    testing::reset();
    testing::on_tool(|name, _args| match name {
        "vendors" => Ok(json!({"status": 200, "body": {"iban": "DE89"}})),
        "callback" => Ok(json!({"url": URL, "topic": "callback:bank", "expires_at": 2 * DAY_MS})),
        "payments" => Ok(json!({"status": 202, "body": {}})),
        other => Err(ToolError::Unknown(other.into())),
    });
}

fn step(s: &mut State, wake: Wake) -> Step {
    testing::step::<VendorPayment>(s, wake).unwrap()
}

fn start(s: &mut State, amount: f64) -> Step {
    let input = json!({"invoice": "I-7", "vendor": "acme", "amount_usd": amount});
    step(s, Wake::Start(input))
}

fn payments() -> Vec<testing::ToolCall> {
    testing::calls()
        .into_iter()
        .filter(|c| c.name == "payments")
        .collect()
}

fn bank_answer() -> Wake {
    let topic = "callback:bank".to_string();
    Wake::Event(Event {
        id: topic.clone(),
        topic,
        payload: json!({"settled": true}),
        received_at: 9,
    })
}

#[test]
fn a_small_payment_is_paid_at_once_and_waits_for_the_bank_with_a_two_day_timer() {
    world();
    let mut s = State::default();
    let next = start(&mut s, 200.0).next;
    assert_eq!(
        next,
        Next::Wait(vec![Wait::event("callback:bank"), Wait::until(2 * DAY_MS)])
    );
    assert_eq!(payments()[0].args["body"]["callback_url"], URL);
    assert_eq!(payments()[0].args["body"]["iban"], "DE89");
    // An unrelated wake re-waits on the link by itself.
    assert_eq!(step(&mut s, Wake::Resume).next, next);
    let done = step(&mut s, bank_answer()).next;
    assert_eq!(
        done,
        Next::Done(r#"paid I-7 (200.00 USD): {"settled":true}"#.into())
    );
    assert!(waits::outstanding().is_empty());
}

#[test]
fn a_large_payment_waits_for_approval_then_pays_once() {
    world();
    let mut s = State::default();
    let Next::Wait(waits) = start(&mut s, 5000.0).next else {
        panic!("not a wait")
    };
    let [Wait::Approval(asked)] = waits.as_slice() else {
        panic!("{waits:?}")
    };
    assert!(payments().is_empty());
    let answer = |approved, digest: String| {
        Wake::Approval(Approval {
            request_id: "approve".into(),
            approved,
            by: "ann".into(),
            at: 5,
            comment: None,
            digest,
        })
    };
    // Any other wake re-waits on the request by itself.
    assert_eq!(step(&mut s, Wake::Resume).next, Next::Wait(waits.clone()));
    let paid = step(&mut s, answer(true, asked.digest()));
    assert_eq!(paid.status.as_deref(), Some("approved by ann"));
    assert_eq!(
        paid.next,
        Next::Wait(vec![Wait::event("callback:bank"), Wait::until(2 * DAY_MS)])
    );
    assert_eq!(payments().len(), 1);
    assert_eq!(waits::outstanding(), ["bank"]);
    let late = step(&mut s, Wake::Timer(2 * DAY_MS)).next;
    assert_eq!(
        late,
        Next::Done("paid I-7; the bank never confirmed".into())
    );
}

#[test]
fn a_refusal_or_an_expiry_pays_nothing() {
    world();
    let mut s = State::default();
    let _ = start(&mut s, 5000.0);
    let refused = Wake::Approval(Approval {
        request_id: "approve".into(),
        approved: false,
        by: "bob".into(),
        at: 5,
        comment: None,
        digest: approval_digest_of(&s),
    });
    assert_eq!(
        step(&mut s, refused).next,
        Next::Done("refused by bob".into())
    );
    world();
    let mut s = State::default();
    let _ = start(&mut s, 5000.0);
    let expired = step(&mut s, Wake::Expired("approve".into())).next;
    assert_eq!(
        expired,
        Next::Done("nobody approved the payment in time".into())
    );
    assert!(payments().is_empty());
}

fn approval_digest_of(s: &State) -> String {
    let question = format!("Pay {:.2} USD to {}?", s.amount_usd, s.vendor);
    ApprovalRequest::new("approve", question, json!(s), 1).digest()
}
