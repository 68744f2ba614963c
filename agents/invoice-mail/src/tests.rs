use wakeful_sdk::testing;

use super::*;

fn mail(topic: &str) -> Wake {
    Wake::Event(Event {
        id: "m-1".into(),
        topic: topic.into(),
        payload: json!({"from": "billing@example.com", "amount": 120}),
        received_at: 5,
    })
}

fn waiting() -> Step {
    Step::wait_event("mail:invoice").status("waiting on the invoice email")
}

#[test]
fn waits_until_the_invoice_arrives_then_files_it() {
    testing::reset();
    testing::on_tool(|_, _| Ok(json!({"ok": true, "version": 1})));
    let mut state = State::default();
    assert_eq!(
        InvoiceMail::step(&mut state, Wake::Start(Value::Null)),
        Ok(waiting())
    );
    assert_eq!(
        InvoiceMail::step(&mut state, mail("mail:other")),
        Ok(waiting())
    );
    assert_eq!(InvoiceMail::step(&mut state, Wake::Resume), Ok(waiting()));
    assert!(testing::calls().is_empty());

    let filed = InvoiceMail::step(&mut state, mail("mail:invoice")).unwrap();
    assert_eq!(
        filed,
        Step::done("filed invoice mail m-1").status("invoice filed")
    );
    assert_eq!(state.filed.as_deref(), Some("m-1"));
    let calls = testing::calls();
    assert_eq!(calls.len(), 1);
    assert_eq!(calls[0].idempotency_key, "file:m-1");
    assert_eq!(
        calls[0].args,
        json!({"op": "put", "key": "invoices/m-1", "value": {"from": "billing@example.com", "amount": 120}})
    );
}

#[test]
fn a_failed_put_is_a_step_error() {
    testing::reset();
    testing::on_tool(|_, _| Err(ToolError::Denied("kv is not granted".into())));
    let err = InvoiceMail::step(&mut State::default(), mail("mail:invoice")).unwrap_err();
    assert_eq!(err, "kv put invoices/m-1: denied: kv is not granted");
}
