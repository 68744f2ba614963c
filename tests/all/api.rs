//! The HTTP API of `wakeful serve`, end to end: the real binary as a child
//! process on a loopback port, its own workers stepping the runs, and a
//! blocking HTTP client talking to it as an operator or approver would.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::api_guard::error_of;
use crate::harness::{
    API_TOKEN, Env, FAST_LIMITS, INCIDENT_TOOLS, Server, agent, api_token_config, token_config,
};

pub fn api_config(extra: &str) -> String {
    format!("[api]\n{extra}\n{}", api_token_config())
}

/// Deploys an agent over HTTP with the given grants.
pub fn deploy(server: &Server, crate_name: &str, grants: &[&str]) -> Value {
    let bytes = std::fs::read(agent(crate_name)).unwrap();
    let query: Vec<String> = grants.iter().map(|g| format!("grant={g}")).collect();
    let path = format!("/v1/agents?{}", query.join("&"));
    let (status, body) = server.request(
        "POST",
        &path,
        Some(API_TOKEN),
        Some(("application/wasm", bytes)),
    );
    assert_eq!(status, 201, "{body}");
    body
}

#[test]
fn health_auth_and_bad_requests() {
    let env = Env::new(
        "api-errors",
        &api_config("[limits]\nmax_payload_bytes = 4096\n"),
    );
    let server = env.serve();

    let (status, body) = server.request("GET", "/v1/health", None, None);
    assert_eq!((status, body), (200, json!({"ok": true})));
    let (status, body) = server.request("GET", "/metrics", None, None);
    assert_eq!(status, 401, "metrics tell who runs what: {body}");
    let (status, body) = server.get("/metrics");
    assert_eq!(status, 200);
    assert!(
        body.as_str()
            .unwrap()
            .contains("wakeful_runs{status=\"done\"} 0"),
        "{body}"
    );

    let (status, body) = server.request("GET", "/v1/runs", None, None);
    assert_eq!(status, 401, "{body}");
    assert!(body["error"].as_str().unwrap().contains("Bearer"), "{body}");
    let (status, body) = server.request("GET", "/v1/runs", Some("wrong"), None);
    assert_eq!(status, 401, "{body}");
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("not the configured"),
        "{body}"
    );
    assert_eq!(
        server.get("/v1/runs"),
        (200, json!({"items": [], "next": null}))
    );
    let (status, body) = server.request("GET", "/v1/runs", Some("wrong"), None);
    assert_eq!(status, 401, "{body}");
    let (status, _) = server.raw(
        "GET",
        "/v1/runs",
        &[("Authorization", &format!("bEaReR {API_TOKEN}"))],
        b"",
    );
    assert_eq!(status, 200, "the scheme is matched in any case");

    let bad = b"{\"agent\": \"invoice-mail\",".to_vec();
    let (status, body) = server.request(
        "POST",
        "/v1/runs",
        Some(API_TOKEN),
        Some(("application/json", bad)),
    );
    assert_eq!(status, 400, "{body}");
    assert!(body["error"].as_str().unwrap().contains("JSON"), "{body}");
    let (status, body) = server.post("/v1/runs", &json!({"input": {}}));
    assert_eq!(status, 400, "{body}");
    assert!(
        body["error"].as_str().unwrap().contains("`agent`"),
        "{body}"
    );
    let (status, body) = server.post("/v1/runs", &json!({"agent": "nobody"}));
    assert_eq!(status, 404, "{body}");
    assert!(
        body["error"].as_str().unwrap().contains("no agent nobody"),
        "{body}"
    );

    let (status, body) = server.get("/v1/runs/ghost");
    assert_eq!(status, 404, "{body}");
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("run ghost does not exist"),
        "{body}"
    );
    let (status, _) = server.post("/v1/runs/ghost/events", &json!({"topic": "t", "id": "e1"}));
    assert_eq!(status, 404);

    let huge = json!({"topic": "t", "id": "e1", "payload": "x".repeat(64 << 10)});
    let (status, body) = server.post_refused_early("/v1/events", &huge);
    assert_eq!(status, 413, "{body}");
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("max_payload_bytes"),
        "{body}"
    );
    // Under the body limit, over the payload limit: the app's own check.
    let big = json!({"topic": "t", "id": "e1", "payload": "x".repeat(5000)});
    let (status, body) = server.post("/v1/events", &big);
    assert_eq!(status, 400, "{body}");
    assert!(body["error"].as_str().unwrap().contains("limit"), "{body}");

    let (status, body) = server.request(
        "POST",
        "/v1/agents?grant_all=true",
        Some(API_TOKEN),
        Some(("application/wasm", b"not wasm".to_vec())),
    );
    assert_eq!(status, 400, "{body}");
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("not a WebAssembly file"),
        "{body}"
    );
}

#[test]
fn the_invoice_agent_runs_through_the_api_and_its_workers() {
    let env = Env::new("api-invoice", &api_config(""));
    let server = env.serve();
    let deployed = deploy(&server, "invoice-mail", &["kv"]);
    assert_eq!(deployed["agent"]["name"], "invoice-mail");
    assert_eq!(deployed["agent"]["granted_tools"], json!(["kv"]));
    let (status, agents) = server.get("/v1/agents");
    assert_eq!((status, agents.as_array().unwrap().len()), (200, 1));

    let (status, run) = server.post("/v1/runs", &json!({"agent": "invoice-mail", "id": "inv-1"}));
    assert_eq!(status, 201, "{run}");
    assert_eq!(run["run_id"], "inv-1");
    let (status, body) = server.post("/v1/runs", &json!({"agent": "invoice-mail", "id": "inv-1"}));
    assert_eq!(status, 409, "{body}");

    let waiting = server.wait_run("inv-1", "waiting", |r| r["status"] == "waiting");
    assert_eq!(waiting["wake_when"], "event:mail:invoice");
    let event = json!({"topic": "mail:invoice", "id": "mail-42", "payload": {"amount": 120}});
    let (status, sent) = server.post("/v1/runs/inv-1/events", &event);
    assert_eq!(status, 200, "{sent}");
    assert_eq!(sent, json!([{"run_id": "inv-1", "delivery": "accepted"}]));
    let done = server.wait_run("inv-1", "done", |r| r["status"] == "done");
    assert_eq!(done["outcome"], "filed invoice mail mail-42");
    let (status, body) = server.post("/v1/runs/inv-1/events", &event);
    assert_eq!(status, 409, "an ended run stores nothing: {body}");

    // One document, whichever interface reads it.
    assert_eq!(done, env.show("inv-1"));
    let (_, history) = server.get("/v1/runs/inv-1/history");
    assert_eq!(history, env.json(&["history", "inv-1"]));
    let (_, audit) = server.get("/v1/runs/inv-1/audit");
    assert_eq!(audit, env.json(&["audit", "inv-1"]));
    assert_eq!(audit["next"], Value::Null);

    let (status, kv) = server.get("/v1/kv/agent/invoice-mail/invoices/mail-42");
    assert_eq!(status, 200);
    assert_eq!(kv["value"], json!({"amount": 120}));
    let (_, metrics) = server.get("/metrics");
    let metrics = metrics.as_str().unwrap().to_string();
    assert!(
        metrics.contains("wakeful_steps_total{result=\"committed\"} 2"),
        "{metrics}"
    );
    assert!(
        metrics.contains("wakeful_runs{status=\"done\"} 1"),
        "{metrics}"
    );
    // Where the workers' two passes spent their time: each part of a pass
    // took some.
    for part in ["claim", "step", "commit"] {
        let series = format!("wakeful_worker_seconds_total{{part=\"{part}\"}} ");
        let seconds: f64 = metrics
            .lines()
            .find_map(|line| line.strip_prefix(&series))
            .unwrap_or_else(|| panic!("no {series:?} in {metrics}"))
            .parse()
            .unwrap_or_else(|e| panic!("{part}: {e}: {metrics}"));
        assert!(seconds > 0.0, "{part}: {metrics}");
    }
}

pub const RUN: &str = "inc-7001";

/// A served host with the incident agent deployed over HTTP, the service
/// degraded, and a run started that its workers take to the approval.
/// A token of the incident host's other than the one that deploys.
const LEAD_TOKEN: &str = "lead-token-77c1";

pub fn incident(name: &str, input: Value) -> (Env, Server, Value) {
    incident_with(name, input, "")
}

/// [`incident`] on a config with `extra` lines first in `[api]` (keys, or
/// more tokens' tables).
pub fn incident_with(name: &str, input: Value, extra: &str) -> (Env, Server, Value) {
    let env = Env::new(
        name,
        &api_config(&format!(
            "{extra}\n{INCIDENT_TOOLS}\n{FAST_LIMITS}\n{}",
            token_config("lead", LEAD_TOKEN, &["approve", "read"])
        )),
    );
    let server = env.serve();
    let degraded = json!({"status": "degraded", "memory_pct": 97, "actions_applied": 0});
    let (status, body) = server.request(
        "PUT",
        "/v1/kv/agent/incident/service/payments-api?expected_version=0",
        Some(API_TOKEN),
        Some(("application/json", degraded.to_string().into_bytes())),
    );
    assert_eq!((status, &body), (200, &json!({"ok": true, "version": 1})));
    deploy(&server, "incident", &["kv", "lease", "llm"]);
    let mut start = json!({"incident": "INC-7001", "service": "payments-api"});
    start
        .as_object_mut()
        .unwrap()
        .extend(input.as_object().unwrap().clone());
    let (status, run) = server.post(
        "/v1/runs",
        &json!({"agent": "incident", "input": start, "id": RUN}),
    );
    assert_eq!(status, 201, "{run}");
    let show = server.wait_run(RUN, "the approval", |r| {
        r["wake_when"] == "approval:approve-scale_out"
    });
    (env, server, show)
}

pub fn answer_url(show: &Value) -> String {
    let url = show["pending_approvals"][0]["answer_url"].as_str().unwrap();
    assert!(url.starts_with("/v1/approve/"), "{url}");
    url.to_string()
}

#[test]
fn the_incident_is_approved_through_its_answer_link_once() {
    let (env, server, show) = incident("api-incident", json!({}));
    let link = answer_url(&show);
    // `show` gives the same document, link included, and prints the link
    // in full, on the address of the `serve` sharing the store.
    assert_eq!(show, env.show(RUN));
    let text = env.ok(&["show", RUN]);
    let full = format!("{}{link}", server.base);
    assert!(
        text.lines().any(|l| l.trim() == format!("link {full}")),
        "{text}"
    );

    let answer = json!({"by": "on-call engineer", "approved": true});
    let (status, body) = server.post_as(&link, None, &answer);
    assert_eq!(status, 200, "{body}");
    // The link is who answered; the name its holder gave is what they said.
    assert_eq!(body["answer"]["by"], "link:approve-scale_out");
    assert_eq!(body["answer"]["said"], "on-call engineer");
    let (status, body) = server.post_as(&link, None, &answer);
    assert_eq!(status, 409, "a link answers once: {body}");
    assert!(
        body["error"].as_str().unwrap().contains("already answered"),
        "{body}"
    );
    let (status, _) = server.post_as("/v1/approve/0000", None, &answer);
    assert_eq!(status, 404);

    let done = server.wait_run(RUN, "done", |r| r["status"] == "done");
    assert!(
        done["outcome"].as_str().unwrap().contains("resolved"),
        "{done}"
    );
    let (_, kv) = server.get("/v1/kv/agent/incident/service/payments-api");
    assert_eq!(kv["value"]["actions_applied"], 1, "{kv}");
    let (_, audit) = server.get("/v1/audit?limit=1000");
    assert!(
        audit["items"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["kind"] == "approval")
    );
}

#[test]
fn an_expired_answer_link_is_refused_and_the_run_is_told() {
    let (_env, server, show) = incident("api-expired", json!({"approval_valid_ms": 1000}));
    let link = answer_url(&show);
    std::thread::sleep(Duration::from_millis(1300));
    let answer = json!({"by": "on-call engineer", "approved": true});
    let (status, body) = server.post_as(&link, None, &answer);
    assert_eq!(status, 410, "{body}");
    assert!(
        body["error"].as_str().unwrap().contains("expired"),
        "{body}"
    );
    let done = server.wait_run(RUN, "done", |r| r["status"] == "done");
    assert_eq!(done["outcome"], "approval expired; needs a fresh plan");
}

#[test]
fn operator_controls_over_http() {
    let (_env, server, _) = incident("api-ops", json!({}));
    let (status, body) = server.post("/v1/pause", &json!({"scope": "everything"}));
    assert_eq!(status, 400, "{body}");
    let (status, _) = server.post(
        "/v1/pause",
        &json!({"scope": format!("run:{RUN}"), "reason": "look first"}),
    );
    assert_eq!(status, 200);
    let (_, show) = server.get(&format!("/v1/runs/{RUN}"));
    assert_eq!(show["paused"], true);
    let answer = json!({"by": "lead", "approved": false, "digest": "00"});
    let path = format!("/v1/runs/{RUN}/approvals/approve-scale_out");
    let (status, body) = server.post(&path, &answer);
    assert_eq!(status, 403, "the deployer's token may not answer: {body}");
    let (status, body) = server.post_as(&path, Some(LEAD_TOKEN), &answer);
    assert_eq!(status, 409, "the details digest does not match: {body}");
    let (status, body) = server.post("/v1/resume", &json!({"scope": format!("run:{RUN}")}));
    assert_eq!((status, &body["changed"]), (200, &json!(true)), "{body}");
    let (status, body) = server.post(
        &format!("/v1/runs/{RUN}/cancel"),
        &json!({"reason": "handled by hand"}),
    );
    assert_eq!(status, 200, "{body}");
    let (status, body) = server.post(
        &format!("/v1/runs/{RUN}/cancel"),
        &json!({"reason": "again"}),
    );
    assert_eq!(status, 409, "{body}");
    let (status, body) = server.post("/v1/upgrade", &json!({"agent": "incident", "to": "9.9.9"}));
    assert_eq!(status, 200, "no live run is left to upgrade: {body}");
    assert_eq!(body, json!([]));
}

#[test]
fn sigterm_stops_the_server_after_the_steps_in_flight() {
    let env = Env::new("api-sigterm", &api_config(""));
    let server = env.serve();
    deploy(&server, "invoice-mail", &["kv"]);
    for n in 0..8 {
        let (status, body) = server.post(
            "/v1/runs",
            &json!({"agent": "invoice-mail", "id": format!("r{n}")}),
        );
        assert_eq!(status, 201, "{body}");
    }
    server.terminate();

    // A claim left behind would hold its run for claim_ms (30 s by default)
    // and make this worker wait for it.
    let started = Instant::now();
    env.work();
    assert!(
        started.elapsed() < Duration::from_secs(25),
        "a claim was left behind"
    );
    let runs = env.json(&["runs"])["items"].take();
    assert!(
        runs.as_array()
            .unwrap()
            .iter()
            .all(|r| r["status"] == "waiting"),
        "{runs}"
    );
}

// ---- a web page in the operator's browser (DESIGN.md, "Trust model")

/// Follows `next` from `first` to the last page; returns the items and how
/// many pages there were.
fn all_pages(server: &Server, first: &str) -> (Vec<Value>, usize) {
    let sep = if first.contains('?') { '&' } else { '?' };
    let mut items = Vec::new();
    let mut pages = 0;
    let mut path = first.to_string();
    loop {
        let (status, page) = server.get(&path);
        assert_eq!(status, 200, "{path}: {page}");
        pages += 1;
        items.extend(page["items"].as_array().unwrap().iter().cloned());
        match &page["next"] {
            Value::Null => return (items, pages),
            Value::String(next) => path = format!("{first}{sep}after={next}"),
            next => path = format!("{first}{sep}after={next}"),
        }
    }
}

fn ids(items: &[Value], field: &str) -> Vec<String> {
    items
        .iter()
        .map(|r| match &r[field] {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        })
        .collect()
}

#[test]
fn lists_come_in_pages_newest_runs_first() {
    let env = Env::new("api-pages", &api_config(""));
    let server = env.serve();
    deploy(&server, "invoice-mail", &["kv"]);
    for n in 0..5 {
        let (status, body) = server.post(
            "/v1/runs",
            &json!({"agent": "invoice-mail", "id": format!("r{n}")}),
        );
        assert_eq!(status, 201, "{body}");
    }
    for n in 0..5 {
        server.wait_run(&format!("r{n}"), "waiting", |r| r["status"] == "waiting");
    }

    let (runs, pages) = all_pages(&server, "/v1/runs?limit=2");
    assert_eq!(ids(&runs, "run_id"), ["r4", "r3", "r2", "r1", "r0"]);
    assert_eq!(pages, 3);
    let (status, page) = server.get("/v1/runs");
    assert_eq!(status, 200);
    assert_eq!(page["items"].as_array().unwrap().len(), 5);
    assert_eq!(page["next"], Value::Null);
    let (waiting, _) = all_pages(
        &server,
        "/v1/runs?status=waiting&agent=invoice-mail&limit=4",
    );
    assert_eq!(waiting, runs);

    let out = env.output(&["runs", "--limit", "2", "--after", "r3", "--json"]);
    assert!(out.status.success());
    let cli: Value = serde_json::from_slice(&out.stdout).unwrap();
    // The CLI's page has the API's shape: `{items, next}`.
    assert_eq!(
        ids(cli["items"].as_array().unwrap(), "run_id"),
        ["r2", "r1"]
    );
    assert_eq!(cli["next"], "r1", "{cli}");
    let (_, api_page) = server.get("/v1/runs?limit=2&after=r3");
    assert_eq!(cli, api_page, "the CLI and the API list the same page");
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("--after r1"),
        "the CLI says how to read on"
    );

    for (query, named) in [
        ("status=bogus", "bogus"),
        ("limit=0", "0"),
        ("limit=1001", "1001"),
        ("limit=ten", "ten"),
        ("after=ghost", "ghost"),
        ("colour=red", "colour"),
    ] {
        let (status, body) = server.get(&format!("/v1/runs?{query}"));
        assert_eq!(status, 400, "{query}: {body}");
        assert!(error_of(&body).contains(named), "{query}: {body}");
    }
    let (status, body) = server.get("/v1/audit?after=r1");
    assert_eq!(status, 400, "{body}");

    let (rows, pages) = all_pages(&server, "/v1/audit?limit=3");
    let whole = env.audit_json(&["audit"]);
    assert_eq!(rows, *whole.as_array().unwrap());
    assert!(pages > 2, "{pages}");
    let (one_run, _) = all_pages(&server, "/v1/runs/r2/audit?limit=1");
    assert_eq!(
        one_run,
        *env.audit_json(&["audit", "r2"]).as_array().unwrap()
    );

    let third = rows[2]["id"].to_string();
    let cli = env.json(&["audit", "--limit", "2", "--after", &third]);
    assert_eq!(cli["items"].as_array().unwrap()[..], rows[3..5]);
    assert_eq!(
        cli["next"], rows[4]["id"],
        "the CLI's page says where the next starts"
    );
}

#[test]
fn metrics_count_runs_by_status() {
    let env = Env::new("api-metrics", &api_config(""));
    let server = env.serve();
    deploy(&server, "invoice-mail", &["kv"]);
    for n in 0..3 {
        server.post(
            "/v1/runs",
            &json!({"agent": "invoice-mail", "id": format!("m{n}")}),
        );
    }
    for n in 0..3 {
        server.wait_run(&format!("m{n}"), "waiting", |r| r["status"] == "waiting");
    }
    server.post("/v1/runs/m0/cancel", &json!({"reason": "not needed"}));
    let (status, metrics) = server.get("/metrics");
    assert_eq!(status, 200);
    let metrics = metrics.as_str().unwrap();
    for line in [
        "wakeful_runs{status=\"waiting\"} 2",
        "wakeful_runs{status=\"cancelled\"} 1",
        "wakeful_runs{status=\"active\"} 0",
    ] {
        assert!(metrics.contains(line), "{line} in {metrics}");
    }
}

// ---- a slow operation holds up nothing else

/// A real agent (`counter-v2`) with an unused function of 256 KiB of
/// branches added: it passes every check made before compiling, and its
/// compile takes seconds.
fn slow_component() -> Vec<u8> {
    let real = std::fs::read(agent("counter-v2")).unwrap();
    crate::compile_limits::with_unused_function(&real, 256 << 10)
}

/// Waits (at most 60 s) for the server's log to show `text`.
fn wait_for_log(env: &Env, text: &str) {
    let start = Instant::now();
    loop {
        let log = std::fs::read_to_string(env.dir.join("serve.log")).unwrap_or_default();
        if log.contains(text) {
            return;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the server never logged {text:?}:\n{log}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_slow_deploy_holds_up_no_answer_event_or_read() {
    use std::sync::atomic::{AtomicBool, Ordering};
    let (env, server, show) = incident("api-slow-deploy", json!({}));
    let link = answer_url(&show);
    let big = slow_component();
    let deployed = AtomicBool::new(false);
    std::thread::scope(|s| {
        let deploy = s.spawn(|| {
            let answer = server.request(
                "POST",
                "/v1/agents?grant_all=true",
                Some(&server.token),
                Some(("application/wasm", big)),
            );
            deployed.store(true, Ordering::SeqCst);
            answer
        });
        // The server has the component's bytes and is compiling them.
        wait_for_log(&env, "deploying a component of");

        let answer = json!({"by": "on-call engineer", "approved": true});
        let (status, body) = server.post_as(&link, None, &answer);
        assert_eq!(status, 200, "{body}");
        let event = json!({"topic": "pager:ack", "id": "ack-1"});
        let (status, body) = server.post("/v1/events", &event);
        assert_eq!(status, 200, "{body}");
        for path in [
            "/v1/runs",
            "/v1/audit",
            &format!("/v1/runs/{RUN}"),
            "/metrics",
        ] {
            let (status, body) = server.get(path);
            assert_eq!(status, 200, "{path}: {body}");
        }
        assert!(
            !deployed.load(Ordering::SeqCst),
            "the answer, the event and the reads waited for the deploy"
        );

        let (status, body) = deploy.join().unwrap();
        assert_eq!(status, 201, "the slow component deploys in the end: {body}");
    });
    let done = server.wait_run(RUN, "done", |r| r["status"] == "done");
    assert!(done["outcome"].as_str().unwrap().contains("resolved"));
}
