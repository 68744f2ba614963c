//! The approval page and the operator's console in a real headless
//! Chromium, driven over WebDriver (`chromedriver`, Debian's
//! `chromium-driver`), against a real `wakeful serve`: what an approver on a
//! phone and an operator at a laptop see, and what their clicks do, down to
//! what the server stored.
//!
//! `scripts/system-deps.sh` installs Chromium and chromedriver; each test
//! starts its own chromedriver and browser, so tests stay independent.

mod approval;
mod console;
mod console_run;
mod refusals;
mod webdriver;

use serde_json::Value;

use crate::harness::{API_TOKEN, Env, Server};
use webdriver::{Browser, Element};

/// Signs in to the console at `server` with this host's API token; waits
/// for the runs list it lands on.
fn sign_in(browser: &Browser, server: &Server) {
    browser.goto(&format!("{}/ui/login", server.base));
    browser.wait_for("#token").send_keys(API_TOKEN);
    browser.wait_for("button[type=submit]").click();
    browser.wait_heading("Runs");
}

/// The button whose text is `text`, waited for.
fn button<'a>(browser: &'a Browser, text: &str) -> Element<'a> {
    browser.wait_until(&format!("a button {text:?}"), |b| {
        b.find_all("button").into_iter().find(|e| e.text() == text)
    })
}

/// Types `name` as the approver and clicks the page's Approve button.
fn approve_as(browser: &Browser, name: &str) {
    browser.wait_for("#by").send_keys(name);
    browser.wait_for("button.approve").click();
}

/// The page's answering controls: the form and its buttons.
fn controls(browser: &Browser) -> usize {
    browser.find_all("form, button, input, textarea").len()
}

/// The HTTP status of the page the browser shows (Chromium reports it on
/// the navigation's timing entry).
fn page_status(browser: &Browser) -> u64 {
    let status = browser.execute(
        "return performance.getEntriesByType('navigation')[0].responseStatus;",
        Value::Array(vec![]),
    );
    status
        .as_u64()
        .unwrap_or_else(|| panic!("no status: {status}"))
}

/// The answers recorded for a run, from its audit trail.
fn answers(env: &Env, run: &str) -> Vec<Value> {
    env.audit_rows(run, "approval")
}

/// How the run stands on the API.
fn status_of(server: &Server, run: &str) -> Value {
    let (code, show) = server.get(&format!("/v1/runs/{run}"));
    assert_eq!(code, 200, "{show}");
    show["status"].clone()
}
