//! The operator's console over plain HTTP, as a browser without JavaScript
//! sends it: signing in, the session cookie, CSRF, the pages, and acts that
//! ask to be confirmed.

use std::io::{Read, Write};

use serde_json::json;

use crate::api::{RUN, api_config, incident, incident_with};
use crate::fake_servers::{FakeServer, Reply};
use crate::harness::{API_TOKEN, API_TOKEN_NAME, Env, Server, token_config};

/// One answer: status, headers (lowercase names) and body.
pub struct Answer {
    pub status: u16,
    headers: Vec<(String, String)>,
    pub body: String,
}

impl Answer {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

fn send(server: &Server, method: &str, path: &str, headers: &[(&str, &str)], body: &str) -> Answer {
    let mut stream = std::net::TcpStream::connect(server.authority()).unwrap();
    let mut head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nContent-Length: {}\r\n",
        server.authority(),
        body.len()
    );
    for (k, v) in headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes()).unwrap();
    stream.write_all(body.as_bytes()).unwrap();
    let mut text = String::new();
    stream.read_to_string(&mut text).unwrap();
    let (head, body) = text.split_once("\r\n\r\n").unwrap();
    let mut lines = head.lines();
    let status = lines
        .next()
        .unwrap()
        .split(' ')
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    Answer {
        status,
        headers,
        body: body.to_string(),
    }
}

/// A signed-in browser: its cookie, and the CSRF token its forms carry.
pub struct Browser<'a> {
    server: &'a Server,
    cookie: String,
}

impl<'a> Browser<'a> {
    pub fn sign_in(server: &'a Server, token: &str) -> Browser<'a> {
        let answer = post_form(server, "/ui/login", &format!("token={token}"), None);
        assert_eq!(answer.status, 303, "{}", answer.body);
        let set = answer.header("set-cookie").expect("a session cookie");
        assert!(
            set.contains("HttpOnly") && set.contains("SameSite=Strict"),
            "{set}"
        );
        let cookie = set.split(';').next().unwrap().to_string();
        Browser { server, cookie }
    }

    pub fn get(&self, path: &str) -> Answer {
        send(self.server, "GET", path, &[("Cookie", &self.cookie)], "")
    }

    fn post(&self, path: &str, form: &str) -> Answer {
        post_form(self.server, path, form, Some(&self.cookie))
    }

    fn csrf(&self) -> String {
        let page = self.get("/ui/switches").body;
        let at = page.find("name=\"csrf\" value=\"").expect("a CSRF field") + 19;
        page[at..at + 64].to_string()
    }
}

fn post_form(server: &Server, path: &str, form: &str, cookie: Option<&str>) -> Answer {
    let origin = format!("http://{}", server.authority());
    let mut headers = vec![
        ("Content-Type", "application/x-www-form-urlencoded"),
        ("Origin", origin.as_str()),
    ];
    if let Some(c) = cookie {
        headers.push(("Cookie", c));
    }
    send(server, "POST", path, &headers, form)
}

#[test]
fn the_console_needs_a_session_and_a_wrong_token_is_refused() {
    let (_env, server, _) = incident("console-login", json!({}));
    let answer = send(&server, "GET", "/ui/", &[], "");
    assert_eq!(answer.status, 303);
    assert_eq!(answer.header("location"), Some("/ui/login"));
    let wrong = post_form(&server, "/ui/login", "token=not-the-token", None);
    assert_eq!(wrong.status, 401);
    assert!(wrong.header("set-cookie").is_none());
    let forged = send(
        &server,
        "GET",
        "/ui/",
        &[("Cookie", "wakeful_session=617069.99999999999999.00")],
        "",
    );
    assert_eq!(forged.status, 303, "a forged cookie signs nobody in");

    let browser = Browser::sign_in(&server, API_TOKEN);
    let runs = browser.get("/ui/");
    assert_eq!(runs.status, 200);
    assert!(
        runs.body.contains(RUN) && runs.body.contains("approval:approve-scale_out"),
        "the runs list shows the run and what it waits for: {}",
        runs.body
    );
    let filtered = browser.get("/ui/?waiting_on=approval&agent=incident");
    assert!(filtered.body.contains(RUN));
    let none = browser.get("/ui/?status=done");
    assert!(none.body.contains("No run matches."));
}

#[test]
fn a_run_page_shows_its_timeline_calls_and_pending_approval() {
    let (_env, server, _) = incident("console-run", json!({}));
    let browser = Browser::sign_in(&server, API_TOKEN);
    let page = browser.get(&format!("/ui/runs/{RUN}"));
    assert_eq!(page.status, 200);
    for shown in [
        "Step 3",
        "Step 1",
        "INC-7001:diagnose",
        "INC-7001:triage",
        "Waiting for approval",
        "State changes",
        "Budgets",
    ] {
        assert!(page.body.contains(shown), "the run page lacks {shown}");
    }
}

#[test]
fn a_run_page_shows_the_idempotency_key_each_call_was_sent_with() {
    let sink = FakeServer::start(|_| Reply::Json(200, json!({"applied": true})));
    let tools = format!(
        "\n[tools.pager]\nkind = \"http\"\nurl = \"{}/effect\"\n",
        sink.url
    );
    let env = Env::new("console-sent", &api_config(&tools));
    env.deploy("caller", &["pager", "llm", "kv"]);
    let calls = json!([
        {"tool": "pager", "args": {}, "key": "page:1"},
        {"tool": "kv", "args": {"op": "get", "key": "x"}, "key": "read:1"},
    ]);
    env.start("caller", "r", json!({ "calls": calls }));
    env.work();
    let server = env.serve();
    let page = Browser::sign_in(&server, API_TOKEN).get("/ui/runs/r");
    assert_eq!(page.status, 200);
    let sent = sink.requests()[0]
        .header("Idempotency-Key")
        .unwrap()
        .to_string();
    assert!(page.body.contains("Idempotency-Key sent"), "{}", page.body);
    assert!(page.body.contains(&sent), "the page lacks {sent}");
    assert!(
        page.body.contains("(not sent out)"),
        "a kv call stays in the host"
    );
}

#[test]
fn acts_ask_to_be_confirmed_and_need_the_sessions_csrf_token() {
    let (env, server, _) = incident("console-acts", json!({}));
    let browser = Browser::sign_in(&server, API_TOKEN);
    let csrf = browser.csrf();

    let forged = browser.post("/ui/act", "csrf=0000&action=pause&scope=all");
    assert_eq!(forged.status, 403, "{}", forged.body);
    let foreign = send(
        &server,
        "POST",
        "/ui/act",
        &[
            ("Content-Type", "application/x-www-form-urlencoded"),
            ("Origin", "http://evil.example"),
            ("Cookie", &browser.cookie),
        ],
        &format!("csrf={csrf}&action=pause&scope=all&confirmed=yes"),
    );
    assert_eq!(foreign.status, 403, "a cross-site post is refused");
    assert_eq!(env.json(&["switches"]), json!([]), "nothing was paused");

    let asked = browser.post("/ui/act", &format!("csrf={csrf}&action=pause&scope=all"));
    assert_eq!(asked.status, 200);
    assert!(asked.body.contains("Pause everything") && asked.body.contains("Yes, do it"));
    assert_eq!(env.json(&["switches"]), json!([]), "asking changes nothing");

    let done = browser.post(
        "/ui/act",
        &format!("csrf={csrf}&action=pause&scope=all&reason=drill&confirmed=yes"),
    );
    assert_eq!(done.status, 303, "{}", done.body);
    let switches = env.json(&["switches"]);
    assert_eq!(switches[0]["scope"], "all", "{switches}");
    let pause = env
        .audit_json(&["audit"])
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["kind"] == "pause")
        .cloned()
        .unwrap();
    assert_eq!(
        pause["data"]["by"], API_TOKEN_NAME,
        "the act is the token's: {pause}"
    );
    assert!(
        browser
            .get("/ui/switches")
            .body
            .contains("Everything is paused.")
    );

    let resumed = browser.post(
        "/ui/act",
        &format!("csrf={csrf}&action=resume&scope=all&confirmed=yes"),
    );
    assert_eq!(resumed.status, 303);
    assert_eq!(env.json(&["switches"]), json!([]));
}

const READER: &str = "console-reader-3f9a";
const REFUNDS: &str = "console-refunds-c41d";

fn scoped_tokens() -> String {
    token_config("reader", READER, &["read"])
        + &token_config("refunds", REFUNDS, &["approve", "read"])
        + "agents = [\"refund\"]\n"
}

#[test]
fn console_acts_need_the_same_scopes_as_the_api() {
    let (env, server, _) = incident_with("console-scopes", json!({}), &scoped_tokens());
    let reader = Browser::sign_in(&server, READER);
    assert_eq!(reader.get("/ui/").status, 200, "read shows the pages");
    let csrf = reader.csrf();
    let pause = reader.post(
        "/ui/act",
        &format!("csrf={csrf}&action=pause&scope=all&confirmed=yes"),
    );
    assert_eq!(pause.status, 403, "{}", pause.body);
    assert!(pause.body.contains("`operate` scope"), "{}", pause.body);
    assert_eq!(env.json(&["switches"]), json!([]), "nothing was paused");

    let refunds = Browser::sign_in(&server, REFUNDS);
    let csrf = refunds.csrf();
    let approve = refunds.post(
        "/ui/act",
        &format!(
            "csrf={csrf}&action=approve&run={RUN}&request=approve-scale_out&digest=00&confirmed=yes"
        ),
    );
    assert_eq!(approve.status, 403, "{}", approve.body);
    assert!(
        approve
            .body
            .contains("may answer only the requests of agents refund"),
        "{}",
        approve.body
    );
    assert_eq!(env.show(RUN)["wake_when"], "approval:approve-scale_out");
}

#[test]
fn a_revoked_session_is_refused_at_once_and_other_principals_stay_signed_in() {
    let (env, server, _) = incident_with("console-revoke", json!({}), &scoped_tokens());
    let admin = Browser::sign_in(&server, API_TOKEN);
    let reader = Browser::sign_in(&server, READER);
    let csrf = admin.csrf();
    assert_eq!(admin.get("/ui/").status, 200);

    let out = env.ok(&["tokens", "revoke", API_TOKEN_NAME]);
    assert!(out.contains("has ended"), "{out}");
    let page = admin.get("/ui/");
    assert_eq!(page.status, 303, "a revoked session is sent to sign in");
    assert_eq!(page.header("location"), Some("/ui/login"));
    let act = admin.post(
        "/ui/act",
        &format!("csrf={csrf}&action=pause&scope=all&confirmed=yes"),
    );
    assert_eq!(act.status, 401, "{}", act.body);
    assert_eq!(env.json(&["switches"]), json!([]), "nothing was paused");
    assert_eq!(
        reader.get("/ui/").status,
        200,
        "another principal's session stays"
    );
    let revoked = env.audit_kinds(None);
    assert!(
        revoked.iter().any(|k| k == "sessions-revoked"),
        "{revoked:?}"
    );

    let again = Browser::sign_in(&server, API_TOKEN);
    assert_eq!(again.get("/ui/").status, 200, "signing in again works");
}

#[test]
fn the_session_cookie_is_secure_behind_an_https_public_url() {
    let (_env, server, _) = incident_with("console-http", json!({}), "");
    let plain = post_form(&server, "/ui/login", &format!("token={API_TOKEN}"), None);
    let set = plain.header("set-cookie").unwrap();
    assert!(!set.contains("Secure"), "plain http: {set}");

    let https = "public_url = \"https://wakeful.example.com\"\n";
    let (_env, server, _) = incident_with("console-https", json!({}), https);
    let answer = post_form(&server, "/ui/login", &format!("token={API_TOKEN}"), None);
    assert_eq!(answer.status, 303, "{}", answer.body);
    let set = answer.header("set-cookie").unwrap();
    assert!(
        set.split(';').any(|a| a.trim() == "Secure"),
        "behind https the cookie is Secure: {set}"
    );
}

#[test]
fn failed_sign_ins_are_limited_per_client() {
    let (_env, server, _) = incident_with("console-sign-in-limit", json!({}), "");
    for n in 0..5 {
        let wrong = post_form(&server, "/ui/login", &format!("token=guess-{n}"), None);
        assert_eq!(wrong.status, 401, "failure {n}");
    }
    for token in ["guess-5", API_TOKEN] {
        let limited = post_form(&server, "/ui/login", &format!("token={token}"), None);
        assert_eq!(limited.status, 429, "{}", limited.body);
        assert!(limited.header("set-cookie").is_none());
        let wait: u64 = limited
            .header("retry-after")
            .expect("Retry-After")
            .parse()
            .unwrap();
        assert!((1..=60).contains(&wait), "{wait}");
        assert!(
            limited.body.contains("Too many failed sign-ins"),
            "{}",
            limited.body
        );
    }
}
