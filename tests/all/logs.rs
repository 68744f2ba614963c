//! `serve`'s log as an operator reads it: text or one JSON object a line,
//! every step naming its run, step, agent and version, and no secret in
//! any line, answer-link tokens included.

use std::time::Duration;

use serde_json::{Value, json};

use crate::harness::{
    API_TOKEN, Env, FAST_LIMITS, INCIDENT_TOOLS, Server, agent, api_token_config,
};

const RUN: &str = "inc-logs";

/// A host whose `serve` logs every request (debug) in `format`.
fn host(name: &str) -> Env {
    let config = format!("{}{INCIDENT_TOOLS}\n{FAST_LIMITS}", api_token_config());
    Env::new(name, &config).clone_with_env("WAKEFUL_LOG", "info,wakeful=debug")
}

/// Deploys the incident agent over HTTP, takes a run of it to its approval,
/// approves it through its answer link and waits for it to end. Returns the
/// link's token and the run's document.
fn approved_incident(server: &Server) -> (String, Value) {
    let degraded = json!({"status": "degraded", "memory_pct": 97, "actions_applied": 0});
    let (status, body) = server.request(
        "PUT",
        "/v1/kv/agent/incident/service/payments-api?expected_version=0",
        Some(API_TOKEN),
        Some(("application/json", degraded.to_string().into_bytes())),
    );
    assert_eq!(status, 200, "{body}");
    let bytes = std::fs::read(agent("incident")).unwrap();
    let (status, body) = server.request(
        "POST",
        "/v1/agents?grant=kv&grant=lease&grant=llm",
        Some(API_TOKEN),
        Some(("application/wasm", bytes)),
    );
    assert_eq!(status, 201, "{body}");
    let start = json!({"incident": "INC-7001", "service": "payments-api"});
    let (status, body) = server.post(
        "/v1/runs",
        &json!({"agent": "incident", "input": start, "id": RUN}),
    );
    assert_eq!(status, 201, "{body}");
    let show = server.wait_run(RUN, "the approval", |r| {
        r["pending_approvals"]
            .as_array()
            .is_some_and(|a| !a.is_empty())
    });
    let link = show["pending_approvals"][0]["answer_url"]
        .as_str()
        .unwrap()
        .to_string();
    let token = link.strip_prefix("/v1/approve/").unwrap().to_string();
    assert!(token.len() >= 16, "{link}");
    // The page, then the answer: both carry the token in their path.
    let (status, _) = server.raw("GET", &link, &[("Accept", "text/html")], b"");
    assert_eq!(status, 200);
    let answer = json!({"by": "on-call engineer", "approved": true});
    let (status, body) = server.post_as(&link, None, &answer);
    assert_eq!(status, 200, "{body}");
    let done = server.wait_run(RUN, "done", |r| r["status"] == "done");
    (token, done)
}

/// No secret of the host in `log`.
fn assert_no_secret(log: &str, link_token: &str) {
    assert!(
        !log.contains(link_token),
        "the answer link's token is in the log:\n{log}"
    );
    assert!(
        !log.contains(API_TOKEN),
        "the API token is in the log:\n{log}"
    );
}

#[test]
fn json_log_lines_are_objects_and_each_step_names_its_run() {
    let env = host("logs-json");
    let server = env.serve_with(&["--log-format", "json"]);
    let (token, done) = approved_incident(&server);
    // Stopped as an init system would, so that its last lines are written.
    server.terminate();
    let log = env.serve_log();
    let lines: Vec<Value> = log
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l)
                .unwrap_or_else(|e| panic!("a log line is not JSON ({e}): {l}\n{log}"));
            assert!(v.is_object(), "{l}");
            assert!(v["level"].is_string() && v["message"].is_string(), "{l}");
            v
        })
        .collect();

    let steps: Vec<&Value> = lines
        .iter()
        .filter(|l| l["run"] == RUN && l["result"].is_string())
        .collect();
    let committed: Vec<u64> = steps
        .iter()
        .filter(|l| l["result"] == "committed")
        .map(|l| l["step"].as_u64().expect("a numeric step"))
        .collect();
    assert_eq!(committed, env.checkpoint_seqs(RUN), "{log}");
    for step in &steps {
        assert_eq!(step["agent"], done["agent"], "{step}");
        assert_eq!(step["version"], done["version"], "{step}");
        assert!(step["wake"].is_string(), "{step}");
    }
    let last = steps.last().unwrap();
    assert!(last["next"].as_str().unwrap().starts_with("done"), "{last}");
    assert!(last["fuel"].as_u64().unwrap() > 0, "{last}");
    assert!(last["wall_ms"].is_u64(), "{last}");

    // The answer's request, logged with the token cut out of its path.
    assert!(
        lines
            .iter()
            .any(|l| l["path"] == "/v1/approve/…" && l["method"] == "POST" && l["status"] == 200),
        "{log}"
    );
    for message in ["listening on", "store integrity checked", "stopped"] {
        assert!(
            lines
                .iter()
                .any(|l| l["message"].as_str().unwrap().starts_with(message)),
            "no {message:?} line:\n{log}"
        );
    }
    assert_no_secret(&log, &token);
}

#[test]
fn the_text_log_names_the_run_step_agent_and_version() {
    let env = host("logs-text");
    let server = env.serve();
    let (token, done) = approved_incident(&server);
    drop(server);
    let log = env.serve_log();
    let version = done["version"].as_str().unwrap();
    let first = log
        .lines()
        .find(|l| l.contains("step committed") && l.contains(&format!("run={RUN} ")))
        .unwrap_or_else(|| panic!("no step line for {RUN}:\n{log}"));
    for field in [
        "step=1 ".to_string(),
        "agent=incident ".to_string(),
        format!("version={version} "),
        "result=committed ".to_string(),
        " INFO ".to_string(),
    ] {
        assert!(first.contains(&field), "{field:?} not in {first}");
    }
    assert!(log.contains("path=\"/v1/approve/…\""), "{log}");
    assert_no_secret(&log, &token);
}

#[test]
fn a_log_filter_that_does_not_parse_is_refused() {
    let env = Env::new("logs-bad-filter", "").clone_with_env("WAKEFUL_LOG", "wakeful=loud");
    let out = env.output(&["serve", "--listen", "127.0.0.1:0"]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("WAKEFUL_LOG"), "{stderr}");
    assert!(out.stdout.is_empty(), "it never listened");
}

/// The JSON log lines of `env`'s server once one of them satisfies `found`
/// (a wait for its workers, at most 20 s).
fn wait_for_line(env: &Env, what: &str, found: impl Fn(&Value) -> bool) -> Vec<Value> {
    let start = std::time::Instant::now();
    loop {
        let log = env.serve_log();
        // The last line may be half written.
        let lines: Vec<Value> = log
            .lines()
            .filter_map(|l| serde_json::from_str(l).ok())
            .collect();
        if lines.iter().any(&found) {
            return lines;
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "no {what} in the log:\n{log}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn schedule_ticks_and_parked_runs_are_logged() {
    let env = Env::new("logs-schedule", "[limits]\nmax_attempts = 1\n")
        .clone_with_env("WAKEFUL_LOG_FORMAT", "json");
    env.deploy("waiter", &[]);
    let never = json!({"topic": "never"}).to_string();
    let cron = ["schedule", "add", "tick", "waiter", "--cron", "* * * * * *"];
    env.ok(&[&cron[..], &["--input", &never]].concat());
    env.start("waiter", "bad", json!({"cron": "61 * * * *"}));
    let _server = env.serve();

    let lines = wait_for_line(&env, "schedule tick", |l| {
        l["message"] == "schedule fired" && l["schedule"] == "tick"
    });
    let fired = lines
        .iter()
        .find(|l| l["message"] == "schedule fired")
        .unwrap();
    let run = fired["run"].as_str().unwrap().to_string();
    assert!(run.starts_with("tick-"), "{fired}");
    assert!(fired["tick"].is_string(), "{fired}");
    wait_for_line(&env, "step of the scheduled run", |l| {
        l["run"] == run.as_str() && l["result"] == "committed" && l["agent"] == "waiter"
    });

    let lines = wait_for_line(&env, "parked run", |l| {
        l["run"] == "bad" && l["result"] == "parked"
    });
    let parked = lines.iter().find(|l| l["run"] == "bad").unwrap();
    assert_eq!(parked["level"], "WARN", "{parked}");
    assert_eq!(parked["step"], 1, "{parked}");
    assert!(
        parked["error"]
            .as_str()
            .unwrap()
            .contains("cron expression"),
        "{parked}"
    );
}
