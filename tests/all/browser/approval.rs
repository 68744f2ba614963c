//! An approver's clicks on the approval page: approving resolves the
//! incident; an expired, used or stale page answers nothing.

use serde_json::json;

use super::webdriver::{Browser, PHONE};
use super::{answers, approve_as, controls};
use crate::api::{RUN, answer_url, incident};
use crate::harness::repo;

#[test]
fn approving_on_the_page_resolves_the_incident() {
    let browser = Browser::start("approve", PHONE);
    let (env, server, show) = incident("browser-approve", json!({}));
    let link = format!("{}{}", server.base, answer_url(&show));
    browser.goto(&link);
    let text = browser.wait_heading("Approval requested");
    for shown in [
        "Approve 'scale_out' on payments-api?",
        "incident@0.1.0",
        RUN,
        "Based on",
        "Expires",
    ] {
        assert!(text.contains(shown), "the page lacks {shown:?}:\n{text}");
    }
    assert_eq!(browser.title(), "Approval requested · wakeful");
    let width = browser.execute("return window.innerWidth;", json!([]));
    assert_eq!(width, PHONE.0, "the page is seen at a phone's width");
    let digest = show["pending_approvals"][0]["details_digest"]
        .as_str()
        .unwrap();
    assert!(
        browser.source().contains(&format!("value=\"{digest}\"")),
        "the form carries the digest of what it shows"
    );
    // The countdown is the page's script at work: it ran.
    browser.wait_until("the countdown", |b| {
        b.find(".countdown")
            .map(|c| c.text())
            .filter(|t| t.ends_with(" s left"))
    });
    let shots = repo().join("target/screenshots");
    browser.screenshot_page(&shots.join("approval-page.png"));

    browser
        .wait_for("#comment")
        .send_keys("memory is at 97%, go ahead");
    approve_as(&browser, "Ann On-Call");
    let text = browser.wait_heading("Approved");
    assert!(
        text.contains("(said: Ann On-Call)")
            && text.contains("memory is at 97%, go ahead")
            && text.contains("This link cannot answer again."),
        "{text}"
    );
    assert_eq!(controls(&browser), 0, "an answered page offers no form");
    assert_eq!(
        browser.url(),
        link,
        "the answer is shown by a GET of the link"
    );
    browser.screenshot(&shots.join("approval-answered.png"));

    let done = server.wait_run(RUN, "done", |r| r["status"] == "done");
    assert_eq!(done["outcome"], "resolved", "{done}");
    let recorded = answers(&env, RUN);
    assert_eq!(recorded.len(), 1, "{recorded:?}");
    assert_eq!(recorded[0]["data"]["said"], "Ann On-Call", "{recorded:?}");
    let (_, kv) = server.get("/v1/kv/agent/incident/service/payments-api");
    assert_eq!(kv["value"]["actions_applied"], 1, "{kv}");
}

#[test]
fn an_expired_link_shows_expired_and_offers_no_buttons() {
    let browser = Browser::start("expired", PHONE);
    let (env, server, show) = incident("browser-expired", json!({"approval_valid_ms": 6000}));
    let link = format!("{}{}", server.base, answer_url(&show));
    browser.goto(&link);
    browser.wait_heading("Approval requested");
    // The open page's script disables its buttons when the time is up...
    browser.wait_until("the buttons disabled at expiry", |b| {
        let buttons = b.find_all("form button");
        let off = !buttons.is_empty() && buttons.iter().all(|e| e.attribute("disabled").is_some());
        off.then_some(())
    });
    assert_eq!(
        browser.wait_for(".countdown").text(),
        "expired: reload the page"
    );
    // ...and the server refuses the form even when they are enabled again.
    browser.execute(
        "for (const b of document.querySelectorAll('form button')) b.disabled = false;",
        json!([]),
    );
    approve_as(&browser, "Late Larry");
    let refusal = browser.wait_for(".refused").text();
    assert!(
        refusal.contains("Not answered") && refusal.contains("expired at"),
        "{refusal}"
    );
    browser.wait_heading("Expired");
    let refused = env.audit_rows(RUN, "approval refused");
    assert_eq!(
        refused.len(),
        1,
        "the click reached the server: {refused:?}"
    );
    assert_eq!(refused[0]["data"]["said"], "Late Larry");
    assert_eq!(refused[0]["data"]["reason"], "expired");

    browser.goto(&link);
    let text = browser.wait_heading("Expired");
    assert!(text.contains("without an answer"), "{text}");
    assert_eq!(controls(&browser), 0, "an expired page offers no buttons");

    let done = server.wait_run(RUN, "done", |r| r["status"] == "done");
    assert_eq!(done["outcome"], "approval expired; needs a fresh plan");
    assert!(answers(&env, RUN).is_empty(), "nothing was approved");
}

#[test]
fn a_used_link_shows_who_answered_and_no_form() {
    let browser = Browser::start("used", PHONE);
    let (env, server, show) = incident("browser-used", json!({}));
    let link = format!("{}{}", server.base, answer_url(&show));
    browser.goto(&link);
    approve_as(&browser, "Ann On-Call");
    browser.wait_heading("Approved");

    // Another tab, as a second approver opening the same link later.
    browser.new_tab();
    browser.goto(&link);
    let text = browser.wait_heading("Approved");
    assert!(text.contains("(said: Ann On-Call)"), "{text}");
    assert_eq!(controls(&browser), 0, "a used link offers no form");
    assert_eq!(answers(&env, RUN).len(), 1);
    let done = server.wait_run(RUN, "done", |r| r["status"] == "done");
    assert_eq!(done["outcome"], "resolved");
}

#[test]
fn a_stale_page_cannot_answer_after_an_answer_through_the_api() {
    let browser = Browser::start("stale", PHONE);
    let (env, server, show) = incident("browser-stale", json!({}));
    let path = answer_url(&show);
    browser.goto(&format!("{}{path}", server.base));
    browser.wait_heading("Approval requested");

    let answer = json!({"by": "API Approver", "approved": true});
    let (status, body) = server.post_as(&path, None, &answer);
    assert_eq!(status, 200, "{body}");

    // The page still shows the form it loaded before that answer.
    approve_as(&browser, "Mallory");
    let refusal = browser.wait_for(".refused").text();
    assert!(refusal.contains("(said: API Approver)"), "{refusal}");
    let text = browser.wait_heading("Approved");
    assert!(text.contains("(said: API Approver)"), "{text}");
    assert_eq!(controls(&browser), 0, "the refusal offers no form");

    let recorded = answers(&env, RUN);
    assert_eq!(recorded.len(), 1, "{recorded:?}");
    assert_eq!(recorded[0]["data"]["said"], "API Approver");
}
