//! The approval page in a real headless Chromium, driven over WebDriver
//! (`chromedriver`, Debian's `chromium-driver`), against a real
//! `wakeful serve`: what an approver on a phone sees and what their clicks
//! do, down to what the server stored.
//!
//! `scripts/browser-deps.sh` installs Chromium and chromedriver; each test
//! starts its own chromedriver and browser, so tests stay independent.

mod approval;
mod refusals;
mod webdriver;

use serde_json::Value;

use crate::harness::{Env, Server};
use webdriver::Browser;

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
