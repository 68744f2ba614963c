//! A run's page in the console: a finished incident's whole timeline, and
//! an open page that follows its run without a click.

use serde_json::json;

use super::sign_in;
use super::webdriver::{Browser, DESKTOP};
use crate::api::{RUN, answer_url, api_config, deploy, incident};
use crate::harness::{Env, Server, repo};

#[test]
fn a_finished_incidents_page_shows_every_step_and_call() {
    let browser = Browser::start("console-run-page", DESKTOP);
    let (env, server, show) = incident("browser-console-run-page", json!({}));
    let answer = json!({"by": "Ann On-Call", "approved": true, "comment": "go ahead"});
    let (status, body) = server.post_as(&answer_url(&show), None, &answer);
    assert_eq!(status, 200, "{body}");
    let done = server.wait_run(RUN, "done", |r| r["status"] == "done");
    assert_eq!(done["outcome"], "resolved", "{done}");
    let seqs = env.checkpoint_seqs(RUN);
    assert_eq!(seqs, (1..=6).collect::<Vec<u64>>(), "the incident's steps");

    sign_in(&browser, &server);
    browser.goto(&format!("{}/ui/runs/{RUN}", server.base));
    let text = browser.wait_heading(&format!("Run {RUN}"));
    let steps: Vec<String> = browser
        .find_all("ol.timeline > li > h3")
        .iter()
        .map(|h| h.text())
        .collect();
    let numbers: Vec<String> = steps
        .iter()
        .map(|h| h.split(" · ").next().unwrap().to_string())
        .collect();
    let expected: Vec<String> = (1..=6).rev().map(|n| format!("Step {n}")).collect();
    assert_eq!(numbers, expected, "newest first: {steps:?}");
    let marks: Vec<Option<String>> = browser
        .find_all("ol.timeline > li")
        .iter()
        .map(|li| li.attribute("value"))
        .collect();
    let expected: Vec<Option<String>> = (1..=6).rev().map(|n| Some(n.to_string())).collect();
    assert_eq!(marks, expected, "each step's number is its list mark");
    let calls = env.recorded_calls(RUN);
    assert!(calls.len() >= 4, "{calls:?}");
    let keys: Vec<String> = browser
        .find_all("table.calls td code")
        .iter()
        .map(|c| c.text())
        .collect();
    for call in &calls {
        let key = call["data"]["key"].as_str().unwrap();
        assert!(keys.iter().any(|k| k == key), "no call {key} in {keys:?}");
    }
    for shown in [
        "INC-7001:diagnose",
        "INC-7001:scale_out",
        "resolved",
        "Ann On-Call",
    ] {
        assert!(text.contains(shown), "the page lacks {shown:?}:\n{text}");
    }
    assert!(
        browser.find("form[action='/ui/act']").is_none(),
        "an ended run offers no act"
    );
    let shot = repo().join("target/screenshots/run-page.png");
    browser.screenshot_page(&shot);
}

/// A served host with the `waiter` agent and one run waiting for an event
/// on `go`; the signed-in browser shows its page, at its first step.
fn waiting_run_page(name: &str) -> (Browser, Env, Server) {
    let browser = Browser::start(name, DESKTOP);
    let env = Env::new(&format!("browser-{name}"), &api_config(""));
    let server = env.serve();
    deploy(&server, "waiter", &[]);
    let start = json!({"agent": "waiter", "input": {"topic": "go"}, "id": "w"});
    let (status, body) = server.post("/v1/runs", &start);
    assert_eq!(status, 201, "{body}");
    server.wait_run("w", "its wait", |r| r["status"] == "waiting");
    sign_in(&browser, &server);
    (browser, env, server)
}

/// Sends the waiting run its event and waits, without touching the
/// browser, for the open page to show the step it took.
fn event_shows_up_by_itself(browser: &Browser, server: &Server) {
    let event = json!({"topic": "go", "id": "e1"});
    let (status, body) = server.post("/v1/runs/w/events", &event);
    assert!(status < 300, "{status} {body}");
    browser.wait_until("the new step", |b| {
        let text = b.text();
        (text.contains("Step 2") && text.contains("event e1 on go")).then_some(())
    });
}

#[test]
fn an_open_run_page_shows_a_new_step_without_a_click() {
    let (browser, _env, server) = waiting_run_page("console-live");
    browser.goto(&format!("{}/ui/runs/w", server.base));
    let text = browser.wait_heading("Run w");
    assert!(
        text.contains("Step 1") && !text.contains("Step 2"),
        "{text}"
    );
    event_shows_up_by_itself(&browser, &server);
}

#[test]
fn a_page_whose_first_look_fails_still_sees_the_change() {
    let (browser, _env, server) = waiting_run_page("console-live-missed");
    // The page's looks at its stamp fail (a server restarting, a flaky
    // network) from the moment it loads...
    browser.cdp("Network.enable", json!({}));
    browser.cdp("Network.setBlockedURLs", json!({"urls": ["*/stamp*"]}));
    browser.goto(&format!("{}/ui/runs/w", server.base));
    browser.wait_heading("Run w");
    let event = json!({"topic": "go", "id": "e1"});
    let (status, body) = server.post("/v1/runs/w/events", &event);
    assert!(status < 300, "{status} {body}");
    server.wait_run("w", "its step", |r| r["status"] == "done");
    assert!(
        !browser.text().contains("Step 2"),
        "the page was not reloaded"
    );
    // ...until they work again, after the run changed: what the page
    // shows is older than the first stamp it gets.
    browser.cdp("Network.setBlockedURLs", json!({"urls": []}));
    browser.wait_until("the new step", |b| {
        b.text().contains("event e1 on go").then_some(())
    });
}
