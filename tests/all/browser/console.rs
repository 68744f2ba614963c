//! The operator's console in a browser: signing in, a form on another site
//! posting an act, and pausing everything from the Kill switches page.

use serde_json::{Value, json};

use super::webdriver::{Browser, DESKTOP};
use super::{button, page_status, sign_in};
use crate::api::{RUN, api_config, deploy, incident};
use crate::fake_servers::{FakeServer, Reply};
use crate::harness::{API_TOKEN, API_TOKEN_NAME, Env, Server};

/// What a script on the page reads of its cookies.
fn script_cookies(browser: &Browser) -> String {
    let cookies = browser.execute("return document.cookie;", json!([]));
    cookies.as_str().unwrap().to_string()
}

/// The kill switches on, through the API.
fn switches(server: &Server) -> Value {
    let (status, switches) = server.get("/v1/switches");
    assert_eq!(status, 200, "{switches}");
    switches
}

#[test]
fn the_console_signs_in_with_the_token_only_into_a_cookie_no_script_reads() {
    let browser = Browser::start("console-sign-in", DESKTOP);
    let (_env, server, _) = incident("browser-console-sign-in", json!({}));
    let console = format!("{}/ui/", server.base);
    browser.goto(&console);
    browser.wait_heading("Sign in");
    assert_eq!(browser.url(), format!("{}/ui/login", server.base));

    browser.wait_for("#token").send_keys("not-the-token");
    button(&browser, "Sign in").click();
    browser.wait_until("the refusal", |b| {
        b.find(".refused")
            .map(|r| r.text())
            .filter(|t| t.contains("not one of this host's API tokens"))
    });
    assert_eq!(page_status(&browser), 401);
    assert_eq!(script_cookies(&browser), "");
    assert_eq!(browser.cookies(), Vec::<Value>::new(), "no cookie was set");
    browser.goto(&console);
    browser.wait_heading("Sign in");
    assert_eq!(browser.url(), format!("{}/ui/login", server.base));

    browser.wait_for("#token").send_keys(API_TOKEN);
    button(&browser, "Sign in").click();
    let text = browser.wait_heading("Runs");
    assert_eq!(browser.url(), console);
    assert!(
        text.contains(RUN) && text.contains("approval:approve-scale_out"),
        "the runs list shows the run and what it waits for:\n{text}"
    );
    assert!(
        text.contains(&format!("Signed in as {API_TOKEN_NAME}")),
        "{text}"
    );
    let cookies = browser.cookies();
    let session = cookies
        .iter()
        .find(|c| c["name"] == "wakeful_session")
        .unwrap_or_else(|| panic!("no session cookie in {cookies:?}"));
    assert_eq!(session["httpOnly"], true, "{session}");
    assert_eq!(session["sameSite"], "Strict", "{session}");
    assert!(
        !script_cookies(&browser).contains("wakeful_session"),
        "a script reads the session cookie"
    );
    // The session holds across pages.
    browser.goto(&format!("{}/ui/runs/{RUN}", server.base));
    browser.wait_heading(&format!("Run {RUN}"));
}

#[test]
fn a_form_on_another_site_cannot_pause_anything() {
    let browser = Browser::start("console-cross-site", DESKTOP);
    let (env, server, _) = incident("browser-console-cross-site", json!({}));
    sign_in(&browser, &server);
    browser.goto(&format!("{}/ui/switches", server.base));
    browser.wait_heading("Kill switches");
    let csrf = browser
        .wait_for("input[name=csrf]")
        .attribute("value")
        .unwrap();
    // Everything the console's own confirmed form sends, its CSRF token
    // too (as if it leaked): only the page's origin differs.
    let fields = format!(
        "<input type=hidden name=csrf value=\"{csrf}\">\
         <input type=hidden name=action value=pause>\
         <input type=hidden name=scope value=all>\
         <input type=hidden name=confirmed value=yes>"
    );
    let act = format!("{}/ui/act", server.base);
    let page = format!(
        "<!doctype html><title>Cat pictures</title>\
         <form method=post action=\"{act}\">{fields}<button id=go>More cats</button></form>"
    );
    let evil = FakeServer::start(move |_| Reply::Html(200, page.clone()));
    browser.goto(&evil.url);
    browser.wait_for("#go").click();
    browser.wait_until("the refusal", |b| {
        (b.url() == act && b.text().contains("no calls from web pages of other sites"))
            .then_some(())
    });
    assert_eq!(page_status(&browser), 403);
    assert_eq!(switches(&server), json!([]), "nothing was paused");
    let pauses = env.audit_json(&["audit"]);
    assert!(
        !pauses
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["kind"] == "pause"),
        "{pauses}"
    );
    assert_eq!(
        server.wait_run(RUN, "its wait", |_| true)["status"],
        "waiting"
    );

    // The same form posted from the console's own page does pause: what
    // the other site lacked was only its origin.
    browser.goto(&format!("{}/ui/switches", server.base));
    browser.wait_heading("Kill switches");
    browser.execute(
        "const f = document.createElement('form');
         f.method = 'post'; f.action = '/ui/act'; f.innerHTML = arguments[0];
         document.body.append(f); f.submit();",
        json!([fields]),
    );
    browser.wait_until("everything paused", |b| {
        b.text().contains("Everything is paused.").then_some(())
    });
    assert_eq!(switches(&server)[0]["scope"], "all");
}

/// Starts a `waiter` run that waits for an event on `topic`.
fn start_waiter(server: &Server, id: &str, topic: &str) {
    let body = json!({"agent": "waiter", "input": {"topic": topic}, "id": id});
    let (status, body) = server.post("/v1/runs", &body);
    assert_eq!(status, 201, "{body}");
}

/// How many checkpoints a run has, through the API.
fn checkpoints(server: &Server, run: &str) -> usize {
    let (status, history) = server.get(&format!("/v1/runs/{run}/history"));
    assert_eq!(status, 200, "{history}");
    history.as_array().unwrap().len()
}

#[test]
fn pause_everything_from_the_console_holds_every_run_until_resumed() {
    let browser = Browser::start("console-pause", DESKTOP);
    let env = Env::new("browser-console-pause", &api_config(""));
    let server = env.serve();
    deploy(&server, "waiter", &[]);
    let runs: Vec<(String, String)> = (1..=3)
        .map(|i| (format!("w{i}"), format!("go-{i}")))
        .collect();
    for (run, topic) in &runs {
        start_waiter(&server, run, topic);
    }
    for (run, topic) in &runs {
        server.wait_run(run, "its wait", |r| {
            r["status"] == "waiting" && r["wake_when"].as_str().unwrap_or("").contains(topic)
        });
    }
    sign_in(&browser, &server);
    browser.goto(&format!("{}/ui/switches", server.base));
    browser.wait_heading("Kill switches");
    browser.wait_for("#reason").send_keys("console drill");
    button(&browser, "Pause everything").click();
    let text = browser.wait_heading("Confirm");
    assert!(
        text.contains("Pause everything") && text.contains("console drill"),
        "{text}"
    );
    assert_eq!(switches(&server), json!([]), "asking changes nothing");
    button(&browser, "Yes, do it").click();
    browser.wait_until("everything paused", |b| {
        b.text().contains("Everything is paused.").then_some(())
    });
    let on = switches(&server);
    assert_eq!(on[0]["scope"], "all", "{on}");
    assert_eq!(on[0]["reason"], "console drill", "{on}");

    let before: Vec<usize> = runs.iter().map(|(r, _)| checkpoints(&server, r)).collect();
    for (run, topic) in &runs {
        let event = json!({"topic": topic, "id": "e1"});
        let (status, body) = server.post(&format!("/v1/runs/{run}/events"), &event);
        assert!(status < 300, "{status} {body}");
    }
    // A worker of its own finds nothing it may step...
    let worked = env.work();
    assert!(worked.contains("idle after 0 step(s)"), "{worked}");
    // ...and `serve`'s workers take no step either, beat after beat.
    for _ in 0..15 {
        let now: Vec<usize> = runs.iter().map(|(r, _)| checkpoints(&server, r)).collect();
        assert_eq!(now, before, "a run took a step while everything was paused");
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
    for (run, _) in &runs {
        let show = server.wait_run(run, "its wait", |_| true);
        assert_eq!(
            (&show["status"], &show["paused"]),
            (&json!("waiting"), &json!(true)),
            "{show}"
        );
    }

    button(&browser, "Resume all").click();
    browser.wait_heading("Confirm");
    button(&browser, "Yes, do it").click();
    browser.wait_until("nothing paused", |b| {
        b.text().contains("None: every run steps.").then_some(())
    });
    assert_eq!(switches(&server), json!([]));
    for ((run, topic), before) in runs.iter().zip(before) {
        let done = server.wait_run(run, "done", |r| r["status"] == "done");
        assert_eq!(done["outcome"], format!("event e1 on {topic}"), "{done}");
        assert_eq!(checkpoints(&server, run), before + 1, "one step each");
    }

    let (status, audit) = server.get("/v1/audit?limit=1000");
    assert_eq!(status, 200, "{audit}");
    let rows = audit["items"].as_array().unwrap();
    for kind in ["pause", "resume"] {
        let row = rows
            .iter()
            .find(|r| r["kind"] == kind)
            .unwrap_or_else(|| panic!("no {kind} row in {audit}"));
        assert_eq!(
            row["data"]["by"], API_TOKEN_NAME,
            "the act is the token's: {row}"
        );
    }
}
