//! The operator is never misled: names that exist nowhere are refused, a
//! paused tool pauses, every tool call and act is in the audit log, and a
//! run's state says what it is going through.

use serde_json::{Value, json};

use crate::fake_servers::{FakeServer, Reply};
use crate::harness::{Env, FAST_LIMITS, INCIDENT_TOOLS};

fn rows(env: &Env, run: &str, kind: &str) -> Vec<Value> {
    env.audit_rows(run, kind)
}

/// (key, outcome) of each of the run's tool call rows, in log order.
fn call_outcomes(env: &Env, run: &str) -> Vec<(String, String)> {
    rows(env, run, "tool")
        .iter()
        .map(|r| {
            (
                r["data"]["key"].as_str().unwrap().to_string(),
                r["data"]["outcome"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn expect(key: &str, outcome: &str) -> (String, String) {
    (key.to_string(), outcome.to_string())
}

#[test]
fn a_kill_switch_that_names_nothing_is_refused_with_the_names_that_exist() {
    let env = Env::new("switch-typos", "");
    env.deploy("waiter", &[]);
    env.start("waiter", "w1", json!({"topic": "go"}));

    let err = env.fails(&["pause", "--agent", "waitr", "--reason", "typo"]);
    assert!(
        err.contains("no agent `waitr`") && err.contains("waiter"),
        "{err}"
    );
    let err = env.fails(&["pause", "--tool", "pagr"]);
    assert!(
        err.contains("no tool `pagr`") && err.contains("kv") && err.contains("--preemptive"),
        "{err}"
    );
    let switches = env.json(&["switches"]);
    assert_eq!(switches, json!([]), "a refused pause sets nothing");
    assert!(
        env.audit_json(&["audit"])
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r["kind"] != "pause"),
        "a refused pause is not recorded as one"
    );

    // Deliberately, before the agent exists.
    env.ok(&["pause", "--agent", "payments", "--preemptive"]);
    assert_eq!(env.json(&["switches"])[0]["scope"], "agent:payments");
    let err = env.fails(&["resume", "--agent", "paymnts"]);
    assert!(
        err.contains("no kill switch `agent:paymnts`") && err.contains("agent:payments"),
        "{err}"
    );
    env.ok(&["resume", "--agent", "payments"]);
    let out = env.ok(&["resume", "--agent", "waiter"]);
    assert!(out.contains("was not paused; nothing changed"), "{out}");

    for (args, says) in [
        (vec!["pause", "--run", "nope"], "run nope does not exist"),
        (
            vec!["cancel", "nope", "--reason", "x"],
            "run nope does not exist",
        ),
        (
            vec!["send", "nope", "--topic", "go", "--id", "e1"],
            "run nope does not exist",
        ),
        (
            vec!["approve", "w1", "nothing", "--by", "ann", "--digest", "00"],
            "has no approval request nothing",
        ),
        (
            vec!["upgrade", "w1", "--to", "9.9.9"],
            "its versions: 0.1.0",
        ),
        (
            vec!["upgrade", "--agent", "nope", "--to", "1.0.0"],
            "no agent nope",
        ),
    ] {
        let err = env.fails(&args);
        assert!(err.contains(says), "{args:?}: {err}");
    }
    env.work();
    let err = env.fails(&["approve", "w1", "nothing", "--by", "ann", "--digest", "00"]);
    assert!(err.contains("it waits for no approval"), "{err}");
}

#[test]
fn a_value_put_by_an_operator_reads_back_compact_to_guests_and_operators() {
    let env = Env::new("kv-compact", "");
    env.deploy("hostile", &["kv"]);
    let put = [
        "kv",
        "put",
        "agent/hostile/k",
        r#"{ "b": [1, "x\"y"],  "a": 2 }"#,
    ];
    env.ok(&put);
    // The guest names the key as it addressed it; the operator by its
    // whole address, with its namespace.
    let compact = r#"{"key":"k","value":{"a":2,"b":[1,"x\"y"]},"version":1}"#;
    let shown = r#"{"key":"agent/hostile/k","namespace":"agent/hostile","value":{"a":2,"b":[1,"x\"y"]},"version":1}"#;
    assert_eq!(env.ok(&["kv", "get", "agent/hostile/k"]).trim(), shown);
    env.start(
        "hostile",
        "h",
        json!({"mode": "tool", "tool": "kv", "args": {"op": "get", "key": "k"}}),
    );
    env.work();
    let show = env.show("h");
    assert_eq!(show["outcome"], format!("ok: {compact}"), "{show}");
}

#[test]
fn a_paused_tool_holds_the_step_unchanged_until_the_switch_lifts() {
    let env = Env::new("tool-pause", "");
    env.deploy("hostile", &["kv"]);
    env.ok(&["kv", "put", "agent/hostile/k", "41"]);
    env.ok(&["pause", "--tool", "kv", "--reason", "kv migration"]);
    env.start(
        "hostile",
        "h",
        json!({"mode": "tool", "tool": "kv", "args": {"op": "get", "key": "k"}}),
    );
    let out = env.work();
    assert!(
        out.contains("h paused by kill switch `tool:kv` (kv migration)"),
        "{out}"
    );

    let show = env.show("h");
    assert_eq!(show["status"], "active", "{show}");
    assert_eq!(show["steps"], 0, "the step was abandoned: {show}");
    assert_eq!(show["attempts"], 0, "a pause is not a failure: {show}");
    assert_eq!(show["paused"], true);
    assert_eq!(show["condition"], "paused: tool kv (kv migration)");
    let table = env.ok(&["runs"]);
    assert!(
        table.contains("paused") && table.contains("paused: tool kv (kv migration)"),
        "{table}"
    );
    let held = rows(&env, "h", "step held");
    assert_eq!(held.len(), 1, "{held:?}");
    assert_eq!(held[0]["data"]["switch"], "tool:kv");
    let calls = rows(&env, "h", "tool");
    assert_eq!(calls.len(), 1, "{calls:?}");
    assert_eq!(calls[0]["data"]["outcome"], "paused");

    // While the switch is on, no worker takes the run again.
    assert!(env.work().contains("idle after 0 step(s)"));

    env.ok(&["resume", "--tool", "kv"]);
    env.work();
    let show = env.show("h");
    assert_eq!(show["status"], "done", "{show}");
    let outcome = show["outcome"].as_str().unwrap();
    assert!(
        outcome.starts_with("ok: ") && outcome.contains("41"),
        "the guest never saw the pause: {outcome}"
    );
    assert_eq!(env.checkpoint_seqs("h"), vec![1]);
}

#[test]
fn an_event_on_a_topic_the_run_does_not_wait_on_is_held_and_said_so() {
    let env = Env::new("held-event", "");
    env.deploy("waiter", &[]);
    env.start("waiter", "w", json!({"topic": "tick"}));
    env.work();

    let out = env.ok(&["send", "w", "--topic", "tik", "--id", "z1"]);
    assert!(
        out.contains("held z1") && out.contains("waits on event:tick") && out.contains("`tik`"),
        "{out}"
    );
    let sent = env.json(&["send", "w", "--topic", "tik", "--id", "z2"]);
    assert!(
        sent[0]["held"].as_str().unwrap().contains("waits on"),
        "{sent}"
    );
    let show = env.show("w");
    let held = show["held_events"].as_array().unwrap();
    assert_eq!(held.len(), 2, "{show}");
    assert_eq!(
        (&held[0]["id"], &held[0]["topic"]),
        (&json!("z1"), &json!("tik"))
    );
    assert!(env.ok(&["show", "w"]).contains("held event z1 on `tik`"));

    let out = env.ok(&["send", "w", "--topic", "tick", "--id", "t1"]);
    assert!(out.contains("delivered t1 to w"), "{out}");
    env.work();
    assert_eq!(env.show("w")["outcome"], "event t1 on tick");
}

#[test]
fn every_tool_call_is_audited_with_how_it_ended() {
    let server = FakeServer::start(|r| match r.path.as_str() {
        "/page/fail" => Reply::Text(503, "try later".into()),
        "/page/slow" => Reply::Never,
        _ => Reply::Json(200, json!({"paged": true})),
    });
    let config = format!(
        "{FAST_LIMITS}[tools.pager]\nkind = \"http\"\nurl = \"{}/page\"\ntimeout_ms = 300\n\
         idempotent = true\n",
        server.url
    );
    let env = Env::new("tool-audit", &config);
    env.deploy("caller", &["pager", "llm", "kv"]);
    let calls = json!([
        {"tool": "pager", "args": {"path": "/fail"}},
        {"tool": "pager", "args": {"path": "/slow"}},
        {"tool": "pager", "args": {"path": "/ok"}},
    ]);
    env.start("caller", "c", json!({"calls": calls}));
    env.work();
    let show = env.show("c");
    assert_eq!(show["status"], "done", "{show}");

    assert_eq!(
        call_outcomes(&env, "c"),
        vec![
            expect("k1", "server error"),
            expect("k2", "timeout"),
            expect("k3", "ok")
        ],
        "one row per call, each saying how it ended"
    );
    let first = &rows(&env, "c", "tool")[0]["data"];
    assert_eq!(first["status"], 503, "{first}");
}

#[test]
fn a_pruned_run_keeps_its_audit_and_its_id_is_never_reused() {
    let env = Env::new("prune-ids", "");
    env.deploy("waiter", &[]);
    env.start("waiter", "p1", json!({"topic": "go"}));
    env.work();
    env.ok(&["cancel", "p1", "--reason", "done with it"]);
    let out = env.ok(&["prune", "--older-than-days", "0"]);
    assert!(out.contains("pruned 1 run"), "{out}");

    let audit = env.audit_json(&["audit", "p1"]);
    let kinds = env.audit_kinds(Some("p1"));
    assert!(
        kinds.iter().any(|k| k == "start") && kinds.iter().any(|k| k == "cancelled"),
        "{kinds:?}"
    );
    let err = env.fails(&["show", "p1"]);
    assert!(
        err.contains("was pruned") && err.contains("wakeful audit p1"),
        "{err}"
    );
    let err = env.fails(&["start", "waiter", "--id", "p1"]);
    assert!(err.contains("never reused"), "{err}");
    let again = env.audit_json(&["audit", "p1"]);
    assert_eq!(
        again, audit,
        "nothing new was mixed into the pruned run's rows"
    );
    let err = env.fails(&["audit", "never-was"]);
    assert!(err.contains("run never-was does not exist"), "{err}");

    // Over the API, in the API's words.
    let server = env.serve();
    let (status, body) = server.get("/v1/runs/p1");
    assert_eq!(status, 404, "{body}");
    let error = body["error"].as_str().unwrap();
    assert!(
        error.contains("was pruned") && error.contains("GET /v1/runs/p1/audit"),
        "{error}"
    );
    assert!(!error.contains("wakeful "), "{error}");
    let (status, rows) = server.get("/v1/runs/p1/audit");
    assert_eq!(status, 200, "{rows}");
    assert_eq!(rows["items"], audit, "the pruned run's rows over the API");
}

#[test]
fn a_failing_run_says_it_is_retrying_with_its_attempt_and_error() {
    let env = Env::new("retrying", "[limits]\nretry_backoff_ms = 600000\n");
    env.deploy("hostile", &["kv"]);
    env.start("hostile", "f", json!({"mode": "error"}));
    env.work();
    let show = env.show("f");
    let condition = show["condition"].as_str().unwrap();
    assert!(
        condition.starts_with("retrying (attempt 2 of 5, next at ")
            && condition.contains("hostile error"),
        "{show}"
    );
    let table = env.ok(&["runs"]);
    assert!(
        table.contains("retrying") && table.contains("attempt 2 of 5"),
        "{table}"
    );
    assert!(
        env.ok(&["show", "f"])
            .contains("now        retrying (attempt 2 of 5")
    );
}

#[test]
fn work_takes_over_a_crashed_workers_claim_and_says_which_live_claim_it_waits_for() {
    let server = FakeServer::start(|r| {
        if r.path == "/page/slow" {
            std::thread::sleep(std::time::Duration::from_millis(2000));
        }
        Reply::Json(200, json!({"paged": r.path}))
    });
    let config = format!(
        "[limits]\nclaim_ms = 60000\nstep_deadline_ms = 50000\nretry_backoff_ms = 0\n\
         [tools.pager]\nkind = \"http\"\nurl = \"{}/page\"\ntimeout_ms = 10000\n",
        server.url
    );
    let env = Env::new("claim-wait", &config);
    env.deploy("waiter", &[]);
    env.start("waiter", "cw", json!({"topic": "go"}));
    let crashed = env
        .clone_with_env("WAKEFUL_FAILPOINT", "before-commit")
        .output(&["work", "--until-idle"]);
    assert!(!crashed.status.success(), "the failpoint kills the worker");

    // The crashed worker's process is gone: the next takes its claim over
    // at once rather than waiting a minute for it to run out.
    let out = env.output(&["work", "--until-idle"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(!stderr.contains("waiting for run cw"), "{stderr}");
    assert_eq!(env.show("cw")["status"], "waiting");
    assert_eq!(rows(&env, "cw", "takeover").len(), 1);

    // A claim whose worker lives is waited for, and said so.
    env.deploy("caller", &["pager", "llm", "kv"]);
    let calls = json!([{"tool": "pager", "args": {"path": "/slow"}}]);
    env.start("caller", "m", json!({ "calls": calls }));
    let mut first = env.command(&["work", "--until-idle"]).spawn().unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while server.requests().is_empty() {
        assert!(std::time::Instant::now() < deadline, "the call never came");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let out = env.output(&["work", "--until-idle"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("waiting for run m: claimed by ") && stderr.contains("s from now"),
        "{stderr}"
    );
    assert!(first.wait().unwrap().success());
    assert_eq!(env.show("m")["status"], "done");
    assert!(rows(&env, "m", "takeover").is_empty());
    assert_eq!(server.requests().len(), 1);
}

#[test]
fn a_switch_set_while_a_step_runs_stops_its_next_call_and_loses_nothing() {
    let server = FakeServer::start(|r| {
        if r.path == "/page/slow" {
            std::thread::sleep(std::time::Duration::from_millis(1500));
        }
        Reply::Json(200, json!({"paged": r.path}))
    });
    let config = format!(
        "[tools.pager]\nkind = \"http\"\nurl = \"{}/page\"\ntimeout_ms = 5000\n",
        server.url
    );
    let env = Env::new("pause-mid-step", &config);
    env.deploy("caller", &["pager", "llm", "kv"]);
    let calls = json!([
        {"tool": "pager", "args": {"path": "/slow"}},
        {"tool": "pager", "args": {"path": "/next"}},
    ]);
    env.start("caller", "m", json!({"calls": calls, "batch": true}));
    let worker = env
        .command(&["work", "--until-idle"])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while server.requests().is_empty() {
        assert!(
            std::time::Instant::now() < deadline,
            "the step never called"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    env.ok(&["pause", "--tool", "pager", "--reason", "pager storm"]);
    let out = worker.wait_with_output().unwrap();
    let out = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.contains("m paused by kill switch `tool:pager`"),
        "{out}"
    );
    assert_eq!(server.requests().len(), 1, "the second call was not sent");
    let show = env.show("m");
    assert_eq!(
        (show["steps"].as_u64(), show["attempts"].as_u64()),
        (Some(0), Some(0))
    );
    assert_eq!(show["condition"], "paused: tool pager (pager storm)");

    env.ok(&["resume", "--tool", "pager"]);
    env.work();
    let show = env.show("m");
    assert_eq!(show["status"], "done", "{show}");
    let paths: Vec<String> = server.requests().iter().map(|r| r.path.clone()).collect();
    assert_eq!(paths, ["/page/slow", "/page/next"], "each call sent once");
    // Recorded calls are audited with their result, the others with the
    // step's outcome: compare as a set.
    let mut outcomes = call_outcomes(&env, "m");
    outcomes.sort();
    assert_eq!(
        outcomes,
        vec![
            expect("k1", "ok"),
            expect("k1", "replayed"),
            expect("k2", "ok"),
            expect("k2", "paused"),
        ]
    );
}

#[test]
fn a_guest_flooding_refused_calls_cannot_flood_the_audit_log() {
    let env = Env::new("call-flood", "");
    env.deploy("hostile", &["kv"]);
    // Each call's arguments are 1,012 bytes: the step may keep 16 KiB of
    // refused calls' arguments (for cassettes), so 16 of them.
    let args = json!({"pad": "x".repeat(1000)});
    let size = args.to_string().len();
    env.start(
        "hostile",
        "flood",
        json!({"mode": "toolflood", "tool": "nope", "args": args}),
    );
    env.work();
    assert_eq!(env.show("flood")["outcome"], "200 calls refused");
    let calls = rows(&env, "flood", "tool");
    assert_eq!(calls.len(), 65, "64 rows and a count of the rest");
    assert_eq!(calls[0]["data"]["outcome"], "unknown tool");
    let last = &calls[64]["data"];
    assert_eq!(
        (&last["outcome"], &last["calls"]),
        (&json!("not audited"), &json!(136))
    );
    let kept = calls[..64].iter().filter(|c| c["data"]["args"] == args);
    assert_eq!(kept.count(), (16 << 10) / size, "{:#}", calls[16]);
    for call in &calls[(16 << 10) / size..64] {
        let data = &call["data"];
        assert_eq!(
            (data.get("args"), &data["args_bytes"]),
            (None, &json!(size))
        );
    }
    // What was kept is what a cassette of the run replays.
    let cassette: Value = serde_json::from_str(&env.ok(&["cassette", "flood"])).unwrap();
    let entries = cassette["entries"].as_array().unwrap();
    assert_eq!(entries.len(), (16 << 10) / size, "{cassette:#}");
    assert!(
        entries
            .iter()
            .all(|e| e["refused"] == true && e["args"] == args)
    );
}

#[test]
fn a_run_told_to_keep_two_checkpoints_keeps_its_newest_two_and_nothing_else_is_lost() {
    let config = format!("{INCIDENT_TOOLS}\n[retention]\ncheckpoints_per_run = 2\n");
    let env = Env::new("keep-checkpoints", &config);
    let degraded = json!({"status": "degraded", "memory_pct": 97, "actions_applied": 0});
    env.ok(&[
        "kv",
        "put",
        "agent/incident/service/payments-api",
        &degraded.to_string(),
    ]);
    env.deploy("incident", &["kv", "lease", "llm"]);
    let input = json!({"incident": "INC-1", "service": "payments-api"});
    env.start("incident", "inc-1", input);
    env.work();
    assert_eq!(env.checkpoint_seqs("inc-1"), [2, 3], "the newest two");
    env.approve("inc-1", "approve-scale_out", &["--by", "on-call"]);
    env.work();
    let show = env.show("inc-1");
    assert_eq!(show["status"], "done", "{show}");
    assert_eq!(show["outcome"], "resolved", "{show}");
    assert_eq!(
        show["steps"], 6,
        "the step count is the run's, not its history's"
    );
    assert_eq!(env.checkpoint_seqs("inc-1"), [5, 6]);
    assert_eq!(
        env.kv("agent/incident/service/payments-api")["actions_applied"],
        1,
        "the action ran once"
    );
    assert_eq!(
        rows(&env, "inc-1", "step").len(),
        6,
        "the audit log keeps a line per step"
    );
}

#[test]
fn keeping_no_checkpoint_is_refused_with_the_setting_named() {
    let env = Env::new("keep-none", "[retention]\ncheckpoints_per_run = 0\n");
    let err = env.fails(&["runs"]);
    assert!(err.contains("retention.checkpoints_per_run"), "{err}");
}
