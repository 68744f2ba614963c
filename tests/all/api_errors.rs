//! The API never misleads its client: every refusal is `{"error": ...}`
//! with the status that says what kind it is, worded in the API's own terms
//! (fields, query parameters, routes; never a command-line flag), and a list
//! filters exactly as asked or refuses the query.

use serde_json::{Value, json};

use crate::api::api_config;
use crate::harness::{API_TOKEN, Env, Server, agent};

/// The error message of a refusal, which must be a JSON `{"error": "..."}`.
fn error_of(what: &str, body: &Value) -> String {
    match body["error"].as_str() {
        Some(e) => e.to_string(),
        None => panic!("{what}: the answer is not a JSON error: {body}"),
    }
}

/// A refusal's message, checked to speak of the API only.
fn api_error(what: &str, body: &Value) -> String {
    let e = error_of(what, body);
    assert!(
        !e.contains("--") && !e.contains("`wakeful "),
        "{what}: the API client is told about the command line: {e}"
    );
    e
}

fn deploy_as(server: &Server, crate_name: &str, query: &str) -> (u16, Value) {
    let bytes = std::fs::read(agent(crate_name)).unwrap();
    server.request(
        "POST",
        &format!("/v1/agents?{query}"),
        Some(API_TOKEN),
        Some(("application/wasm", bytes)),
    )
}

#[test]
fn every_refusal_is_a_json_error_in_api_terms() {
    let env = Env::new(
        "api-terms",
        &api_config("[limits]\nmax_payload_bytes = 4096\n"),
    );
    let server = env.serve();
    let auth = format!("Bearer {API_TOKEN}");
    let json_type = ("Content-Type", "application/json");

    // Refusals made by the framework, before any handler.
    let (status, body) = server.raw("DELETE", "/v1/runs", &[("Authorization", &auth)], b"");
    assert_eq!(status, 405, "{body}");
    assert!(error_of("a wrong method", &body).contains("DELETE"));
    let (status, body) = server.raw(
        "POST",
        "/v1/pause",
        &[("Authorization", &auth), ("Content-Type", "text/plain")],
        br#"{"scope": "all"}"#,
    );
    assert_eq!(status, 415, "{body}");
    assert!(error_of("a wrong content type", &body).contains("application/json"));
    let (status, body) = server.raw(
        "POST",
        "/v1/pause",
        &[("Authorization", &auth), json_type],
        br#"{"scope": "all""#,
    );
    assert_eq!(status, 400, "{body}");
    error_of("malformed JSON", &body);
    let (status, body) = server.post_refused_early(
        "/v1/events",
        &json!({"topic": "t", "id": "e", "payload": "x".repeat(64 << 10)}),
    );
    assert_eq!(status, 413, "{body}");
    error_of("an oversized body", &body);
    let (status, body) = server.raw("GET", "/v2/runs", &[("Authorization", &auth)], b"");
    assert_eq!(status, 404, "{body}");
    error_of("a missing route", &body);
    let (status, body) = server.raw("GET", "/v1/runs/%FF", &[("Authorization", &auth)], b"");
    assert_eq!(status, 400, "{body}");
    error_of("a path that is not UTF-8", &body);

    // Refusals of the operations themselves.
    let (status, body) = deploy_as(&server, "incident", "grant=kv");
    assert_eq!(status, 400, "{body}");
    let e = api_error("a deploy missing grants", &body);
    assert!(
        e.contains("grant=lease&grant=llm") && e.contains("grant_all=true"),
        "the API's way of granting: {e}"
    );
    let (status, body) = deploy_as(&server, "waiter", "grant_all=true&owner=");
    assert_eq!(status, 400, "{body}");
    assert!(api_error("an empty owner", &body).contains("`owner`"));

    let (status, body) = server.post("/v1/runs", &json!({"agent": "nobody"}));
    assert_eq!(status, 404, "{body}");
    assert!(api_error("an unknown agent", &body).contains("GET /v1/agents"));
    let (status, body) = server.get("/v1/runs/ghost");
    assert_eq!(status, 404, "{body}");
    assert!(api_error("an unknown run", &body).contains("GET /v1/runs"));

    let (status, body) = deploy_as(&server, "waiter", "");
    assert_eq!(status, 201, "{body}");
    let start = json!({"agent": "waiter", "id": "w", "input": {"topic": "go"}});
    assert_eq!(server.post("/v1/runs", &start).0, 201);
    let (status, body) = server.post("/v1/runs", &start);
    assert_eq!(status, 409, "{body}");
    assert!(api_error("a run id taken", &body).contains("another `id`"));

    let big = json!({"topic": "go", "id": "e1", "payload": "x".repeat(5000)});
    let (status, body) = server.post("/v1/runs/w/events", &big);
    assert_eq!(status, 400, "{body}");
    assert!(api_error("a payload over the limit", &body).contains("`payload`"));
    let (status, body) = server.post("/v1/events", &json!({"topic": " ", "id": "e1"}));
    assert_eq!(status, 400, "{body}");
    assert!(api_error("an empty topic", &body).contains("`topic`"));
    let (status, body) = server.post("/v1/runs/w/cancel", &json!({"reason": ""}));
    assert_eq!(status, 400, "{body}");
    assert!(api_error("an empty reason", &body).contains("`reason`"));
    let (status, body) = server.post(
        "/v1/runs/w/approvals/ok%3F",
        &json!({"by": " ", "approved": true}),
    );
    assert_eq!(status, 400, "{body}");
    assert!(api_error("an answer without a digest", &body).contains("`digest`"));
    let (status, body) = server.post("/v1/runs/w/resolve", &json!({"key": "k", "fail": ""}));
    assert_eq!(status, 400, "{body}");
    assert!(api_error("a failure without a reason", &body).contains("`fail`"));
}

#[test]
fn an_upgrade_that_adds_tools_says_how_to_accept_them_in_api_terms() {
    let env = Env::new("api-upgrade-terms", &api_config(""));
    let server = env.serve();
    assert_eq!(deploy_as(&server, "counter-v1", "").0, 201);
    assert_eq!(deploy_as(&server, "counter-v2", "grant=kv").0, 201);
    let (status, body) = server.post("/v1/runs", &json!({"agent": "counter@1.0.0", "id": "c"}));
    assert_eq!(status, 201, "{body}");
    server.wait_run("c", "a wait", |r| r["status"] == "waiting");
    let (status, body) = server.post("/v1/upgrade", &json!({"run": "c", "to": "2.0.0"}));
    assert_eq!(status, 200, "{body}");
    let detail = body[0]["detail"].as_str().unwrap_or_default();
    assert_eq!(body[0]["result"], "failed", "{body}");
    assert!(
        detail.contains("allow_new_tools: true") && !detail.contains("--"),
        "{detail}"
    );
    let (status, body) = server.post("/v1/upgrade", &json!({"run": "c", "to": "9.0.0"}));
    assert_eq!(status, 404, "{body}");
    let error = api_error("an unknown version", &body);
    assert!(error.contains("its versions: 1.0.0, 2.0.0"), "{error}");
}

/// The run ids of a page of `GET path`.
fn listed(server: &Server, path: &str) -> Vec<String> {
    let (status, body) = server.get(path);
    assert_eq!(status, 200, "{path}: {body}");
    body["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["run_id"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn run_lists_filter_by_version_and_by_what_runs_wait_on_and_refuse_unknown_parameters() {
    let env = Env::new("api-filters", &api_config(""));
    let server = env.serve();
    assert_eq!(deploy_as(&server, "waiter", "").0, 201);
    for (id, input) in [
        ("on-topic", json!({"topic": "mail:invoice"})),
        ("on-approval", json!({"approval_ms": 600_000})),
        ("on-timer", json!({"after_ms": 600_000})),
    ] {
        let body = json!({"agent": "waiter", "id": id, "input": input});
        assert_eq!(server.post("/v1/runs", &body).0, 201);
        server.wait_run(id, "a wait", |r| r["status"] == "waiting");
    }

    assert_eq!(
        listed(&server, "/v1/runs?waiting_on=mail:invoice"),
        ["on-topic"]
    );
    assert_eq!(
        listed(&server, "/v1/runs?waiting_on=approval"),
        ["on-approval"]
    );
    assert_eq!(
        listed(&server, "/v1/runs?waiting_on=timer&status=waiting"),
        ["on-timer"]
    );
    assert!(listed(&server, "/v1/runs?waiting_on=mail:other").is_empty());
    assert_eq!(listed(&server, "/v1/runs?version=0.1.0").len(), 3);
    assert!(listed(&server, "/v1/runs?agent=waiter&version=9.9.9").is_empty());

    let cli = |args: &[&str]| -> Vec<String> {
        let mut all = vec!["runs"];
        all.extend_from_slice(args);
        // `runs --json` answers the API's page: `{items, next}`.
        let page = env.json(&all);
        let rows = page["items"].as_array().unwrap();
        rows.iter()
            .map(|r| r["run_id"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(cli(&["--waiting-on", "mail:invoice"]), ["on-topic"]);
    assert_eq!(cli(&["--waiting-on", "approval"]), ["on-approval"]);
    assert_eq!(cli(&["--waiting-on", "timer"]), ["on-timer"]);
    assert_eq!(cli(&["--version", "0.1.0"]).len(), 3);
    assert!(cli(&["--version", "9.9.9"]).is_empty());

    for (path, status, named) in [
        ("/v1/runs?stauts=done", 400, "stauts"),
        (
            "/v1/runs?status=bogus",
            400,
            "active, waiting, done, parked, cancelled",
        ),
        ("/v1/runs?status=done&status=waiting", 400, "twice"),
        ("/v1/runs?waiting_on=", 400, "waiting_on"),
        ("/v1/runs?version=", 400, "version"),
        ("/v1/audit?run=on-topic", 400, "`run`"),
        ("/v1/runs/on-topic/audit?status=done", 400, "`status`"),
    ] {
        let (got, body) = server.get(path);
        assert_eq!(got, status, "{path}: {body}");
        let e = api_error(path, &body);
        assert!(e.contains(named), "{path}: {e}");
    }
}

#[test]
fn the_bearer_scheme_is_taken_in_any_case() {
    let env = Env::new("api-bearer-case", &api_config(""));
    let server = env.serve();
    for scheme in ["Bearer", "bearer", "BEARER"] {
        let auth = format!("{scheme} {API_TOKEN}");
        let (status, body) = server.raw("GET", "/v1/runs", &[("Authorization", &auth)], b"");
        assert_eq!(status, 200, "{scheme}: {body}");
    }
    let basic = format!("Basic {API_TOKEN}");
    let (status, body) = server.raw("GET", "/v1/runs", &[("Authorization", &basic)], b"");
    assert_eq!(status, 401, "{body}");
    error_of("another scheme", &body);
}
