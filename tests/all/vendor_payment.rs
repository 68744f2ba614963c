//! The vendor-payment agent (`agents/vendor-payment`), end to end: it asks
//! for approval and waits on a callback link through the SDK's remembered
//! waits, so a run upgraded to v2 while it waits (v2 renames `amount_usd` to
//! `amount` and its `migrate` knows nothing of the SDK's waits), and a host
//! killed while it waits on the bank, still get the answers.

use serde_json::{Value, json};

use crate::fake_servers::{FakeServer, Reply};
use crate::harness::{Env, FAST_LIMITS};

const RUN: &str = "pay-I-7";
const TOOLS: &[&str] = &["vendors", "payments", "callback"];

#[test]
fn a_payment_upgraded_while_it_waits_is_approved_paid_once_and_confirmed_after_a_kill() {
    let env = Env::new("vendor-pay", "");
    let vendors = FakeServer::start(|_| Reply::Json(200, json!({"iban": "DE89"})));
    let payments = FakeServer::start(|_| Reply::Json(202, json!({"queued": true})));
    let config = format!(
        "{FAST_LIMITS}[tools.vendors]\nkind = \"http\"\nmethod = \"GET\"\nurl = \"{}/vendors\"\n\n\
         [tools.payments]\nkind = \"http\"\nurl = \"{}/payments\"\n",
        vendors.url, payments.url
    );
    std::fs::write(env.dir.join("wakeful.toml"), config).unwrap();
    env.deploy("vendor-payment", TOOLS);
    let server = env.serve();
    let input = json!({"invoice": "I-7", "vendor": "acme", "amount_usd": 5000.0});
    let (status, body) = server.post(
        "/v1/runs",
        &json!({"agent": "vendor-payment", "id": RUN, "input": input}),
    );
    assert_eq!(status, 201, "{body}");
    server.wait_run(RUN, "the approval wait", |r| r["status"] == "waiting");
    assert_eq!(vendors.requests()[0].path, "/vendors/acme");
    let show = env.show(RUN);
    assert_eq!(show["pending_approvals"][0]["id"], "approve", "{show}");
    assert!(
        payments.requests().is_empty(),
        "nothing paid before approval"
    );

    // The operator moves the waiting run to v2.
    env.deploy("vendor-payment-v2", TOOLS);
    env.ok(&["upgrade", RUN, "--to", "2.0.0"]);
    let show = env.show(RUN);
    assert_eq!(show["version"], "2.0.0", "{show}");
    assert_eq!(show["state"]["amount"], 5000.0, "{show}");
    assert_eq!(show["state"].get("amount_usd"), None, "{show}");
    assert_eq!(
        show["state"]["wakeful:waits"]["approvals"][0]["id"], "approve",
        "the SDK's waits crossed the upgrade: {show}"
    );

    env.approve(RUN, "approve", &[]);
    server.wait_run(RUN, "the payment", |r| {
        r["status"] == "waiting"
            && r["status_text"]
                .as_str()
                .is_some_and(|t| t.starts_with("approved by "))
    });
    let paid = payments.requests();
    assert_eq!(paid.len(), 1, "paid once");
    let body = paid[0].json();
    assert_eq!(
        (body["amount"].clone(), body["iban"].clone()),
        (json!(5000.0), json!("DE89")),
        "v2 paid: {body}"
    );
    let url = body["callback_url"].as_str().unwrap().to_string();
    let path = url.strip_prefix(&server.base).unwrap().to_string();

    // SIGKILL the host while the run waits on the bank, then start it again.
    drop(server);
    let server = env.serve();
    let (status, answer) = server.post_as(&path, None, &json!({"settled": true}));
    assert_eq!(status, 200, "{answer}");
    let done = server.wait_run(RUN, "done", |r| r["status"] == "done");
    assert_eq!(
        done["outcome"], r#"paid I-7 (5000.00 USD): {"settled":true}"#,
        "{done}"
    );
    assert_eq!(payments.requests().len(), 1, "still paid once");
    let state: Value = env.show(RUN)["state"].clone();
    assert_eq!(
        state.get("wakeful:waits"),
        None,
        "nothing left to wait on: {state}"
    );
}
