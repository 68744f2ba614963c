//! Clicks the server must refuse: approving details that changed after the
//! page loaded, and a form on another site posting to the answer link.

use serde_json::json;

use super::webdriver::{Browser, PHONE};
use super::{answers, approve_as, page_status, status_of};
use crate::api::{RUN, answer_url, api_config, deploy, incident};
use crate::fake_servers::{FakeServer, Reply};
use crate::harness::Env;

#[test]
fn details_changed_after_the_page_loaded_refuse_the_click() {
    let browser = Browser::start("changed", PHONE);
    let env = Env::new("browser-changed", &api_config(""));
    let server = env.serve();
    deploy(&server, "waiter", &[]);
    let input = json!({"approval_ms": 60_000, "topic": "change", "details": {"replicas": 3}});
    let (status, body) = server.post(
        "/v1/runs",
        &json!({"agent": "waiter", "input": input, "id": "w"}),
    );
    assert_eq!(status, 201, "{body}");
    let first = server.wait_run("w", "its request", |r| {
        r["pending_approvals"][0]["details"]["replicas"] == 3
    });
    let link = format!("{}{}", server.base, answer_url(&first));
    browser.goto(&link);
    let text = browser.wait_heading("Approval requested");
    assert!(
        text.contains("Carry on?") && text.contains("replicas"),
        "{text}"
    );

    // The agent changes its plan while the approver reads 3.
    let event = json!({"topic": "change", "id": "c1", "payload": {"details": {"replicas": 30}}});
    let (status, body) = server.post("/v1/runs/w/events", &event);
    assert!(status < 300, "{status} {body}");
    let changed = server.wait_run("w", "the changed request", |r| {
        r["pending_approvals"][0]["details"]["replicas"] == 30
    });
    assert_ne!(
        changed["pending_approvals"][0]["details_digest"],
        first["pending_approvals"][0]["details_digest"]
    );

    approve_as(&browser, "Ann On-Call");
    let text = browser.wait_heading("Link not valid");
    assert!(
        text.contains("Nothing was answered") && text.contains("answers no request"),
        "{text}"
    );
    assert_eq!(page_status(&browser), 404);
    assert!(answers(&env, "w").is_empty(), "nothing was answered");
    assert_eq!(status_of(&server, "w"), "waiting");

    // The new link shows the new details and still takes an answer.
    browser.goto(&format!("{}{}", server.base, answer_url(&changed)));
    let text = browser.wait_heading("Approval requested");
    assert!(text.contains("30"), "{text}");
}

#[test]
fn a_form_on_another_site_cannot_answer() {
    let browser = Browser::start("cross-site", PHONE);
    let (env, server, show) = incident("browser-cross-site", json!({}));
    let link = format!("{}{}", server.base, answer_url(&show));
    let digest = show["pending_approvals"][0]["details_digest"]
        .as_str()
        .unwrap()
        .to_string();
    // Everything the real form sends, the right digest included: only the
    // page's origin differs.
    let page = format!(
        "<!doctype html><title>Win a prize</title>\
         <form method=post action=\"{link}\">\
         <input type=hidden name=decision value=approve>\
         <input type=hidden name=by value=Eve>\
         <input type=hidden name=digest value=\"{digest}\">\
         <button id=go>Claim</button></form>"
    );
    let evil = FakeServer::start(move |_| Reply::Html(200, page.clone()));
    browser.goto(&evil.url);
    browser.wait_for("#go").click();
    browser.wait_until("the answer link's response", |b| {
        b.url().starts_with(&server.base).then_some(())
    });
    browser.wait_until("the refusal", |b| {
        b.text()
            .contains("the API takes no calls from web pages of other sites")
            .then_some(())
    });
    assert_eq!(page_status(&browser), 403);
    assert!(answers(&env, RUN).is_empty(), "nothing was answered");
    assert_eq!(status_of(&server, RUN), "waiting");
}
