//! The vendor-payment agent, end to end, written in Rust
//! (`agents/vendor-payment`), Python (`agents/python/vendor-payment`) and
//! TypeScript (`agents/ts/vendor-payment`): it asks for approval and waits
//! on a callback link through the SDK's remembered waits, so a host killed
//! while it waits on the bank still gets the answer, and the bank's answer
//! ends the run with nothing left to wait on. Each run is also upgraded to
//! v2 while it waits (`agents/testing/vendor-payment-v2`,
//! `agents/python/vendor-payment-v2`, `agents/ts/vendor-payment-v2`: v2
//! renames `amount_usd` to `amount` and its `migrate` knows nothing of the
//! SDK's waits), and still gets the answers.

use serde_json::{Value, json};

use crate::fake_servers::{FakeServer, Reply};
use crate::harness::{Env, FAST_LIMITS, Lang};

const RUN: &str = "pay-I-7";
const TOOLS: &[&str] = &["vendors", "payments", "callback"];

#[test]
fn rust_a_payment_upgraded_while_it_waits_is_approved_paid_once_and_confirmed_after_a_kill() {
    approved_paid_once_and_confirmed_after_a_kill(Lang::Rust);
}

#[test]
fn python_a_payment_upgraded_while_it_waits_is_approved_paid_once_and_confirmed_after_a_kill() {
    approved_paid_once_and_confirmed_after_a_kill(Lang::Python);
}

#[test]
fn typescript_a_payment_upgraded_while_it_waits_is_approved_paid_once_and_confirmed_after_a_kill() {
    approved_paid_once_and_confirmed_after_a_kill(Lang::TypeScript);
}

/// The fake vendor directory and bank, and a host with the agent in `lang`
/// deployed, whose `vendors` and `payments` tools reach them.
fn setup(lang: Lang, name: &str) -> (Env, FakeServer, FakeServer) {
    let env = Env::new(name, "");
    let vendors = FakeServer::start(|_| Reply::Json(200, json!({"iban": "DE89"})));
    let payments = FakeServer::start(|_| Reply::Json(202, json!({"queued": true})));
    let config = format!(
        "{FAST_LIMITS}[tools.vendors]\nkind = \"http\"\nmethod = \"GET\"\nurl = \"{}/vendors\"\n\n\
         [tools.payments]\nkind = \"http\"\nurl = \"{}/payments\"\n",
        vendors.url, payments.url
    );
    std::fs::write(env.dir.join("wakeful.toml"), config).unwrap();
    let env = env.deploy_in(lang, "vendor-payment", TOOLS);
    (env, vendors, payments)
}

/// The operator moves the waiting run to v2 (written in `lang`), which
/// renames `amount_usd`; the SDK's waits cross the upgrade. Returns the
/// amount field's new name.
fn upgrade_to_v2(env: &Env, lang: Lang) -> &'static str {
    env.deploy_in(lang, "vendor-payment-v2", TOOLS);
    env.ok(&["upgrade", RUN, "--to", "2.0.0"]);
    let show = env.show(RUN);
    assert_eq!(show["version"], "2.0.0", "{show}");
    assert_eq!(show["state"]["amount"], 5000.0, "{show}");
    assert_eq!(show["state"].get("amount_usd"), None, "{show}");
    assert_eq!(
        show["state"]["wakeful:waits"]["approvals"][0]["id"], "approve",
        "the SDK's waits crossed the upgrade: {show}"
    );
    "amount"
}

fn approved_paid_once_and_confirmed_after_a_kill(lang: Lang) {
    let (env, vendors, payments) = setup(lang, &format!("vendor-pay-{lang:?}").to_lowercase());
    let server = env.serve();
    let input = json!({"invoice": "I-7", "vendor": "acme", "amount_usd": 5000.0});
    let agent = lang.agent_name("vendor-payment");
    let (status, body) = server.post(
        "/v1/runs",
        &json!({"agent": agent, "id": RUN, "input": input}),
    );
    assert_eq!(status, 201, "{body}");
    server.wait_run(RUN, "the approval wait", |r| r["status"] == "waiting");
    assert_eq!(vendors.requests()[0].path, "/vendors/acme");
    let show = env.show(RUN);
    assert_eq!(show["pending_approvals"][0]["id"], "approve", "{show}");
    assert_eq!(
        show["state"]["wakeful:waits"]["approvals"][0]["id"], "approve",
        "the SDK keeps the request in the state: {show}"
    );
    assert!(
        payments.requests().is_empty(),
        "nothing paid before approval"
    );

    let amount = upgrade_to_v2(&env, lang);

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
    // A whole amount is `5000` in TypeScript's JSON, `5000.0` in the others'.
    assert_eq!(body[amount].as_f64(), Some(5000.0), "{body}");
    assert_eq!(body["iban"], "DE89", "{body}");
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
