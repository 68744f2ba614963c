//! The approval page behind each request's answer link, over plain HTTP
//! as a browser without JavaScript sends it: the page, its form, and the
//! refusals that keep an approver from approving what they did not see.

use serde_json::{Value, json};

use crate::api::{RUN, answer_url, incident};
use crate::harness::Server;

/// A page's HTML, from a `raw` answer.
fn html(answer: &(u16, Value)) -> &str {
    answer.1.as_str().expect("an HTML page, not JSON")
}

fn open(server: &Server, link: &str) -> (u16, Value) {
    server.raw("GET", link, &[("Accept", "text/html")], b"")
}

/// The form as the page's own origin posts it.
fn post_form(server: &Server, link: &str, fields: &[(&str, &str)]) -> (u16, Value) {
    let body: Vec<String> = fields
        .iter()
        .map(|(k, v)| format!("{k}={}", v.replace(' ', "+")))
        .collect();
    let origin = format!("http://{}", server.authority());
    server.raw(
        "POST",
        link,
        &[
            ("Content-Type", "application/x-www-form-urlencoded"),
            ("Origin", &origin),
        ],
        body.join("&").as_bytes(),
    )
}

/// The digest the page's form carries.
fn digest_in(page: &str) -> String {
    let at = page
        .find("name=\"digest\" value=\"")
        .expect("the form's digest")
        + 21;
    page[at..at + 64].to_string()
}

#[test]
fn the_page_shows_what_is_asked_and_its_form_answers_once() {
    let (_env, server, show) = incident("page-approve", json!({}));
    let link = answer_url(&show);
    let page = open(&server, &link);
    assert_eq!(page.0, 200);
    let text = html(&page);
    for shown in [
        "Approve &#39;scale_out&#39; on payments-api?",
        "incident@0.1.0",
        RUN,
        "scale_out",
        "Based on",
        "Observed",
        "memory_pct",
        "Expires",
        "name=\"decision\" value=\"approve\"",
        "name=\"decision\" value=\"reject\"",
    ] {
        assert!(
            text.contains(shown) || text.contains(&shown.replace("&#39;", "'")),
            "the page lacks {shown}: {text}"
        );
    }
    let digest = digest_in(text);
    assert_eq!(
        digest,
        show["pending_approvals"][0]["details_digest"]
            .as_str()
            .unwrap()
    );

    let answered = post_form(
        &server,
        &link,
        &[
            ("decision", "approve"),
            ("by", "Ann On-Call"),
            ("comment", "go ahead"),
            ("digest", &digest),
        ],
    );
    assert_eq!(answered.0, 303, "{answered:?}");
    let after = open(&server, &link);
    let text = html(&after);
    assert!(
        text.contains("Approved")
            && text.contains("by link:approve-scale_out (said: Ann On-Call)")
            && !text.contains("<form"),
        "a used link shows who answered and offers no form: {text}"
    );
    let again = post_form(
        &server,
        &link,
        &[
            ("decision", "reject"),
            ("by", "Mallory"),
            ("digest", &digest),
        ],
    );
    assert_eq!(again.0, 409);
    assert!(
        html(&again).contains("already answered by link:approve-scale_out (said: Ann On-Call)")
    );

    let done = server.wait_run(RUN, "done", |r| r["status"] == "done");
    assert_eq!(done["outcome"], "resolved");
}

#[test]
fn an_answer_for_other_details_is_refused_and_changes_nothing() {
    let (env, server, show) = incident("page-digest", json!({}));
    let link = answer_url(&show);
    let refused = post_form(
        &server,
        &link,
        &[
            ("decision", "approve"),
            ("by", "Ann"),
            ("digest", &"0".repeat(64)),
        ],
    );
    assert_eq!(refused.0, 409, "{refused:?}");
    assert!(
        html(&refused).contains("other details"),
        "{}",
        html(&refused)
    );
    assert!(
        env.audit_rows(RUN, "approval").is_empty(),
        "nothing answered"
    );
    let (_, run) = server.get(&format!("/v1/runs/{RUN}"));
    assert_eq!(run["status"], "waiting");

    // An unknown (or replaced) link answers nothing and says so.
    let gone = post_form(
        &server,
        "/v1/approve/00ff",
        &[("decision", "approve"), ("by", "Ann"), ("digest", "x")],
    );
    assert_eq!(gone.0, 404);
    assert!(html(&gone).contains("Nothing was answered"));
    assert!(html(&open(&server, "/v1/approve/00ff")).contains("answers no request"));
}

#[test]
fn a_form_posted_from_another_site_is_refused() {
    let (env, server, show) = incident("page-csrf", json!({}));
    let link = answer_url(&show);
    let page = open(&server, &link);
    let digest = digest_in(html(&page));
    let (status, body) = server.raw(
        "POST",
        &link,
        &[
            ("Content-Type", "application/x-www-form-urlencoded"),
            ("Origin", "http://evil.example"),
        ],
        format!("decision=approve&by=Eve&digest={digest}").as_bytes(),
    );
    assert_eq!(status, 403, "{body}");
    assert!(env.audit_rows(RUN, "approval").is_empty());
}

#[test]
fn an_expired_link_shows_that_it_expired_and_takes_no_answer() {
    let (_env, server, show) = incident("page-expired", json!({"approval_valid_ms": 1000}));
    let link = answer_url(&show);
    std::thread::sleep(std::time::Duration::from_millis(1300));
    let page = open(&server, &link);
    let text = html(&page);
    assert!(
        text.contains("Expired") && !text.contains("<form"),
        "{text}"
    );
    let done = server.wait_run(RUN, "done", |r| r["status"] == "done");
    assert_eq!(done["outcome"], "approval expired; needs a fresh plan");
}
