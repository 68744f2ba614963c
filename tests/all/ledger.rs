//! Exactly-once for tool calls: what a key means, calls whose outcome is
//! unknown (settled by an operator), and steps that lost their run while a
//! call was out.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use serde_json::json;

use crate::fake_servers::{FakeServer, Reply};
use crate::harness::{Env, FAST_LIMITS};

fn pager(url: &str, extra: &str) -> String {
    format!(
        "{FAST_LIMITS}[tools.pager]\nkind = \"http\"\nurl = \"{url}/page\"\ntimeout_ms = 400\n{extra}"
    )
}

/// The second of three calls with key `page` repeats the first and replays
/// its result; the third, with other args, is refused.
fn replayed_then_refused(results: &serde_json::Value) {
    assert_eq!(results[1], results[0], "the same call replays its result");
    let refused = results[2].as_str().unwrap();
    assert!(
        refused.starts_with(
            "err: invalid arguments: idempotency key `page` was already used for another call"
        ),
        "{refused}"
    );
}

#[test]
fn a_key_repeated_with_other_arguments_is_refused_and_audited() {
    let config = "[tools.pager]\nkind = \"static\"\nresult = { paged = true }\n";
    let env = Env::new("key-reuse", config);
    env.deploy("caller", &["pager", "llm", "kv"]);
    let calls = json!([
        {"tool": "pager", "args": {"to": "ann"}, "key": "page"},
        {"tool": "pager", "args": {"to": "ann"}, "key": "page"},
        {"tool": "pager", "args": {"to": "bob"}, "key": "page"},
    ]);
    env.start("caller", "r", json!({ "calls": calls }));
    env.work();
    let show = env.show("r");
    let results = &show["state"]["results"];
    assert_eq!(results[0], r#"ok: {"paged":true}"#, "{show}");
    replayed_then_refused(results);
    let rows = env.audit_rows("r", "tool key reused");
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(rows[0]["data"]["key"], "page");
    assert_eq!(env.recorded_calls("r").len(), 1, "one call was made");
}

#[test]
fn a_key_already_in_the_ledger_repeated_with_other_arguments_is_refused() {
    // An http call is recorded in the ledger at once (it left the host), so
    // the repeats are checked against the ledger's row, not the step's
    // held calls.
    let pages = Arc::new(AtomicUsize::new(0));
    let seen = pages.clone();
    let server = FakeServer::start(move |_| {
        seen.fetch_add(1, Ordering::SeqCst);
        Reply::Json(200, json!({"paged": true}))
    });
    let env = Env::new("ledger-key-reuse", &pager(&server.url, ""));
    env.deploy("caller", &["pager", "llm", "kv"]);
    let calls = json!([
        {"tool": "pager", "args": {"body": {"to": "ann"}}, "key": "page"},
        {"tool": "pager", "args": {"body": {"to": "ann"}}, "key": "page"},
        {"tool": "pager", "args": {"body": {"to": "bob"}}, "key": "page"},
    ]);
    env.start("caller", "r", json!({ "calls": calls }));
    env.work();
    let show = env.show("r");
    let results = &show["state"]["results"];
    assert!(results[0].as_str().unwrap().starts_with("ok: "), "{show}");
    replayed_then_refused(results);
    assert_eq!(pages.load(Ordering::SeqCst), 1, "one page was sent");
    assert_eq!(env.recorded_calls("r").len(), 1, "{show}");
}

#[test]
fn a_call_of_unknown_outcome_to_a_tool_that_cannot_dedup_parks_the_run_until_settled() {
    // Requests are taken and never answered (did they page or not?) until
    // the operator has looked.
    let answering = Arc::new(AtomicBool::new(false));
    let answer = answering.clone();
    let server = FakeServer::start(move |_| {
        if answer.load(Ordering::SeqCst) {
            Reply::Json(200, json!({"paged": "again"}))
        } else {
            Reply::Never
        }
    });
    let env = Env::new("unknown-outcome", &pager(&server.url, ""));
    env.deploy("caller", &["pager", "llm", "kv"]);
    let calls = json!([{"tool": "pager", "args": {"body": {"to": "ann"}}}]);
    for run in ["settled", "retried", "failed"] {
        env.start("caller", run, json!({ "calls": calls }));
        env.work();
        let show = env.show(run);
        assert_eq!(show["status"], "parked", "{show}");
        let error = show["last_error"].as_str().unwrap();
        assert!(
            error.contains("unknown outcome of pager call k1"),
            "{error}"
        );
        assert!(error.contains("wakeful resolve"), "{error}");
        let unknown = &show["unknown_outcomes"];
        assert_eq!(unknown[0]["key"], "k1", "{show}");
        // Working again sends nothing: the run waits for an operator.
        env.work();
    }
    assert_eq!(
        server.requests().len(),
        3,
        "one request per run, never a second"
    );

    let err = env.fails(&["resolve", "settled", "k9", "--retry"]);
    assert!(
        err.contains("no call of unknown outcome with key `k9` (it has: k1)"),
        "{err}"
    );
    let err = env.fails(&["resolve", "settled", "k1", "--result", "{not json"]);
    assert!(err.contains("--result is not valid JSON"), "{err}");

    answering.store(true, Ordering::SeqCst);
    env.ok(&[
        "resolve",
        "settled",
        "k1",
        "--result",
        r#"{"status":200,"body":"paged"}"#,
        "--by",
        "ann",
    ]);
    env.ok(&["resolve", "retried", "k1", "--retry", "--by", "ann"]);
    env.ok(&[
        "resolve",
        "failed",
        "k1",
        "--fail",
        "the pager says no",
        "--by",
        "ann",
    ]);
    env.work();

    let settled = env.show("settled");
    assert_eq!(settled["status"], "done", "{settled}");
    assert_eq!(settled["outcome"], r#"ok: {"status":200,"body":"paged"}"#);
    let retried = env.show("retried");
    assert_eq!(
        retried["outcome"],
        r#"ok: {"body":{"paged":"again"},"status":200}"#
    );
    let failed = env.show("failed");
    assert_eq!(failed["outcome"], "err: failed: the pager says no");
    assert_eq!(
        server.requests().len(),
        4,
        "only the retried call went out again"
    );
    let resolved = env.audit_rows("settled", "resolved");
    // The command line acts as the OS user; `--by` is what it said.
    let me = crate::principal::os_principal();
    assert_eq!(resolved[0]["data"]["by"], me.as_str());
    assert_eq!(resolved[0]["data"]["said"], "ann");
    assert_eq!(resolved[0]["data"]["how"], "result");
}

#[test]
fn an_idempotent_tool_gets_a_call_of_unknown_outcome_again_with_the_same_key() {
    let answered = Arc::new(AtomicUsize::new(0));
    let count = answered.clone();
    let server = FakeServer::start(move |_| {
        if count.fetch_add(1, Ordering::SeqCst) == 0 {
            Reply::Never
        } else {
            Reply::Json(200, json!({"paged": true}))
        }
    });
    let env = Env::new(
        "idempotent-retry",
        &pager(&server.url, "idempotent = true\n"),
    );
    env.deploy("caller", &["pager", "llm", "kv"]);
    let calls = json!([{"tool": "pager", "args": {}}]);
    env.start("caller", "r", json!({ "calls": calls, "batch": true }));
    env.work();
    let show = env.show("r");
    assert_eq!(show["status"], "done", "{show}");
    let sent = server.requests();
    assert_eq!(sent.len(), 2);
    assert_eq!(
        sent[0].header("Idempotency-Key"),
        sent[1].header("Idempotency-Key")
    );
}

#[test]
fn a_cancelled_step_sends_no_further_call() {
    // The first call takes a while; the run is cancelled meanwhile. The
    // step's second call must not leave the host.
    let server = FakeServer::start(|r| {
        if r.path.ends_with("/slow") {
            std::thread::sleep(Duration::from_millis(1500));
        }
        Reply::Json(200, json!({"ok": true}))
    });
    let config = format!(
        "[limits]\nclaim_ms = 10000\nstep_deadline_ms = 8000\n\
         [tools.pager]\nkind = \"http\"\nurl = \"{}/page\"\ntimeout_ms = 5000\nidempotent = true\n",
        server.url
    );
    let env = Env::new("fenced", &config);
    env.deploy("caller", &["pager", "llm", "kv"]);
    let calls = json!([
        {"tool": "pager", "args": {"path": "/slow"}},
        {"tool": "pager", "args": {"path": "/second"}},
    ]);
    env.start("caller", "r", json!({ "calls": calls, "batch": true }));
    let mut worker = env.command(&["work", "--until-idle"]).spawn().unwrap();
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    while server.requests().is_empty() {
        assert!(
            std::time::Instant::now() < deadline,
            "the first call never came"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    env.ok(&["cancel", "r", "--reason", "stop it"]);
    assert!(worker.wait().unwrap().success());
    let paths: Vec<String> = server.requests().iter().map(|r| r.path.clone()).collect();
    assert_eq!(
        paths,
        ["/page/slow"],
        "the second call was sent by a cancelled step"
    );
    assert_eq!(env.show("r")["status"], "cancelled");
}

#[test]
fn an_operator_settles_an_unknown_outcome_over_the_api() {
    let server = FakeServer::start(|_| Reply::Never);
    let env = Env::new("resolve-api", &pager(&server.url, ""));
    env.deploy("caller", &["pager", "llm", "kv"]);
    let calls = json!([{"tool": "pager", "args": {}}]);
    env.start("caller", "r", json!({ "calls": calls }));
    env.start("caller", "fresh", json!({ "calls": [] }));
    env.work();
    assert_eq!(env.show("r")["status"], "parked");

    let api = env.serve();
    let (status, body) = api.post(
        "/v1/runs/r/resolve",
        &json!({"key": "k1", "by": "ann", "retry": true, "fail": "no"}),
    );
    assert_eq!(status, 400, "{body}");
    let (status, body) = api.post(
        "/v1/runs/fresh/resolve",
        &json!({"key": "k1", "by": "ann", "retry": true}),
    );
    assert_eq!(status, 404, "{body}");
    let (status, body) = api.post(
        "/v1/runs/r/resolve",
        &json!({"key": "k1", "by": "ann", "fail": "the pager is gone"}),
    );
    assert_eq!(status, 200, "{body}");
    // The token settled it: the body's `by` is only what it said.
    let resolved = env.audit_rows("r", "resolved");
    assert_eq!(resolved[0]["data"]["by"], "api", "{resolved:?}");
    assert_eq!(resolved[0]["data"]["said"], "ann", "{resolved:?}");
    let show = api.wait_run("r", "done", |r| r["status"] == "done");
    assert_eq!(show["outcome"], "err: failed: the pager is gone");
    assert_eq!(server.requests().len(), 1);
}

#[test]
fn a_call_that_never_left_the_host_is_not_an_unknown_outcome() {
    // Nothing listens there: the connection is refused, nothing was sent.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let env = Env::new("unsent", &pager(&format!("http://127.0.0.1:{port}"), ""));
    env.deploy("caller", &["pager", "llm", "kv"]);
    env.start(
        "caller",
        "r",
        json!({"calls": [{"tool": "pager", "args": {}}]}),
    );
    env.work();
    let show = env.show("r");
    assert_eq!(show["status"], "done", "{show}");
    let outcome = show["outcome"].as_str().unwrap();
    assert!(outcome.contains("Connection refused"), "{outcome}");
    assert_eq!(show["unknown_outcomes"], json!([]));
}

/// A step's kv writes are held for its commit but written before its next
/// call leaves the host, so the system called can already rely on them; a
/// key repeated within the step replays the held result; and a step that
/// fails after a kv write leaves nothing of it in the store.
#[test]
fn a_steps_kv_writes_are_in_the_store_before_a_call_leaves_and_gone_with_a_failed_step() {
    let slot: Arc<std::sync::OnceLock<Env>> = Arc::default();
    let seen: Arc<std::sync::Mutex<Vec<Vec<Vec<serde_json::Value>>>>> = Arc::default();
    let server = {
        let (slot, seen) = (slot.clone(), seen.clone());
        FakeServer::start(move |_| {
            let env = slot.get().expect("the host is set up before any call");
            let rows =
                env.sql_query("SELECT value, version FROM kv WHERE key = 'agent/caller/plan'");
            seen.lock().unwrap().push(rows);
            Reply::Json(200, json!({"paged": true}))
        })
    };
    let env = Env::new("held-kv", &pager(&server.url, ""));
    slot.set(env.clone()).ok().unwrap();
    env.deploy("caller", &["pager", "llm", "kv"]);
    let put = |key: &str| json!({"op": "put", "key": key, "value": {"step": 1}});
    let calls = json!([
        {"tool": "kv", "args": put("plan"), "key": "w"},
        {"tool": "kv", "args": put("plan"), "key": "w"},
        {"tool": "pager", "args": {}},
    ]);
    env.start("caller", "r", json!({ "calls": calls, "batch": true }));
    env.work();
    let show = env.show("r");
    assert_eq!(show["status"], "done", "{show}");
    let results = &show["state"]["results"];
    assert_eq!(results[0], r#"ok: {"ok":true,"version":1}"#, "{show}");
    assert_eq!(results[1], results[0], "the repeated key replays: {show}");
    assert_eq!(
        *seen.lock().unwrap(),
        [[[json!(r#"{"step":1}"#), json!(1)]]],
        "the pager was called before the kv write was in the store"
    );

    // The second call fails the step (no such tool): the write before it
    // is dropped with the step, every attempt, until the run is parked.
    let calls = json!([
        {"tool": "kv", "args": put("doomed"), "key": "w"},
        {"tool": "nope", "args": {}},
    ]);
    env.start("caller", "f", json!({ "calls": calls, "batch": true }));
    env.work();
    let show = env.show("f");
    assert_eq!(show["status"], "parked", "{show}");
    assert!(
        env.sql_query("SELECT version FROM kv WHERE key = 'agent/caller/doomed'")
            .is_empty(),
        "a failed step's kv write was kept"
    );
    assert!(env.recorded_calls("f").is_empty(), "{show}");
}
