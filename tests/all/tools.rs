//! The `http` and `llm` tool kinds against real loopback servers, and the
//! token budget: what the host sends (URL, body, `Idempotency-Key`), what
//! the guest gets back, refusals, timeouts, crashes and parking.

use serde_json::{Value, json};

use crate::fake_servers::{FakeServer, Reply, model};
use crate::harness::{Env, FAST_LIMITS};

/// Starts a `caller` run making `calls` and steps it until idle.
fn call(env: &Env, run: &str, calls: Value) -> Value {
    let input = json!({ "calls": calls }).to_string();
    env.ok(&["start", "caller", "--input", &input, "--id", run]);
    env.work();
    env.show(run)
}

/// The JSON of an `ok: <result>` line.
fn ok_result(line: &Value) -> Value {
    let text = line.as_str().unwrap();
    let json = text
        .strip_prefix("ok: ")
        .unwrap_or_else(|| panic!("not ok: {text}"));
    serde_json::from_str(json).unwrap()
}

#[test]
fn http_tool_reaches_its_url_with_the_key_and_refuses_other_hosts() {
    let server = FakeServer::start(|r| {
        if r.path.starts_with("/page/fail") {
            Reply::Text(503, "try later".into())
        } else {
            Reply::Json(202, json!({"paged": true}))
        }
    });
    let config = format!(
        "{FAST_LIMITS}[tools.pager]\nkind = \"http\"\nurl = \"{}/page\"\n\
         headers = {{ \"X-Team\" = \"sre\" }}\n",
        server.url
    );
    let env = Env::new("http-tool", &config);
    env.deploy("caller", &["pager", "llm"]);

    let args = json!({"path": "/sre", "query": {"urgent": true},
        "body": {"incident": "INC-1", "text": "payments-api degraded"}});
    let show = call(&env, "page-1", json!([{"tool": "pager", "args": args}]));
    assert_eq!(show["status"], "done", "{show}");
    let result = ok_result(&show["state"]["results"][0]);
    assert_eq!(result, json!({"status": 202, "body": {"paged": true}}));
    let sent = server.requests();
    assert_eq!(sent.len(), 1);
    assert_eq!(
        (sent[0].method.as_str(), sent[0].path.as_str()),
        ("POST", "/page/sre?urgent=true")
    );
    assert_eq!(sent[0].header("Idempotency-Key"), Some("page-1:k1"));
    assert_eq!(sent[0].header("X-Team"), Some("sre"));
    assert_eq!(sent[0].header("Content-Type"), Some("application/json"));
    assert_eq!(sent[0].json(), args["body"]);

    // A 5xx is a value the guest decides about; a text body stays text.
    let show = call(
        &env,
        "page-2",
        json!([{"tool": "pager", "args": {"path": "/fail"}}]),
    );
    let result = ok_result(&show["state"]["results"][0]);
    assert_eq!(result, json!({"status": 503, "body": "try later"}));

    // The guest chooses a path below the URL, never another place.
    let show = call(
        &env,
        "page-3",
        json!([
            {"tool": "pager", "args": {"path": "/../admin"}},
            {"tool": "pager", "args": {"path": "http://evil.example/x"}},
            {"tool": "pager", "args": {"path": "//evil.example/x"}},
            {"tool": "pager", "args": {"body": 1, "method": "DELETE"}},
        ]),
    );
    let results = show["state"]["results"].as_array().unwrap();
    assert_eq!(results.len(), 4, "{show}");
    for r in results {
        let r = r.as_str().unwrap();
        assert!(r.starts_with("err: invalid arguments: pager"), "{r}");
    }
    assert!(results[0].as_str().unwrap().contains(".."));
    assert!(results[1].as_str().unwrap().contains("another host"));
    assert!(results[3].as_str().unwrap().contains("method"));
    assert_eq!(
        server.requests().len(),
        2,
        "no refused call reached the server"
    );
}

#[test]
fn http_tool_that_gets_no_answer_fails_with_a_timeout() {
    let server = FakeServer::start(|_| Reply::Never);
    let config = format!(
        "{FAST_LIMITS}[tools.pager]\nkind = \"http\"\nurl = \"{}/page\"\ntimeout_ms = 400\n\
         idempotent = true\n",
        server.url
    );
    let env = Env::new("http-timeout", &config);
    env.deploy("caller", &["pager", "llm"]);
    let started = std::time::Instant::now();
    let show = call(&env, "slow", json!([{"tool": "pager", "args": {}}]));
    let r = show["state"]["results"][0].as_str().unwrap();
    assert!(r.starts_with("err: failed: pager: POST "), "{r}");
    assert!(r.contains("timed out after 400 ms"), "{r}");
    assert!(started.elapsed() < std::time::Duration::from_secs(10));
}

/// A host with the incident agent, its service degraded, a real `llm` tool
/// on `model_url`, and run `inc-7001` started.
fn incident(name: &str, model_url: &str, extra: &str) -> Env {
    let config = format!(
        "[limits]\nclaim_ms = 3000\nstep_deadline_ms = 2500\nretry_backoff_ms = 0\n{extra}\n\
         [tools.llm]\nkind = \"llm\"\nurl = \"{model_url}/v1/chat/completions\"\nmodel = \"local\"\n\
         max_tokens = 64\nprice_per_1k_tokens_usd = 0.002\ntimeout_ms = 1000\n"
    );
    let env = Env::new(name, &config);
    let degraded = json!({"status": "degraded", "memory_pct": 97, "actions_applied": 0});
    env.ok(&["kv", "put", "service/payments-api", &degraded.to_string()]);
    env.deploy("incident", &["kv", "lease", "llm"]);
    let start = json!({"incident": "INC-7001", "service": "payments-api"}).to_string();
    env.ok(&["start", "incident", "--input", &start, "--id", "inc-7001"]);
    env
}

const SCALE_OUT: &str =
    r#"{"action": "scale_out", "reason": "memory at 97% after an OutOfMemoryError"}"#;

fn resolve(env: &Env) -> Value {
    env.work();
    let show = env.show("inc-7001");
    assert_eq!(show["wake_when"], "approval:approve-scale_out", "{show}");
    env.ok(&[
        "approve",
        "inc-7001",
        "approve-scale_out",
        "--by",
        "on-call engineer",
    ]);
    env.work();
    let show = env.show("inc-7001");
    assert_eq!(show["outcome"], "resolved", "{show}");
    show
}

#[test]
fn incident_agent_resolves_with_a_real_model_client() {
    let server = model(SCALE_OUT, 120);
    let env = incident("llm-incident", &server.url, "");
    let show = resolve(&env);
    assert_eq!(show["tokens_used"], 120);
    assert_eq!(show["token_budget"], 200_000);
    let text = env.ok(&["show", "inc-7001"]);
    assert!(text.contains("tokens     120 of 200000"), "{text}");
    assert_eq!(show["usd_budget"], 5.0);
    let usd = show["usd_used"].as_f64().unwrap();
    assert!((usd - 0.00024).abs() < 1e-12, "{usd}");
    assert_eq!(
        show["state"]["plan"]["reason"],
        "memory at 97% after an OutOfMemoryError"
    );

    let sent = server.requests();
    assert_eq!(sent.len(), 1);
    assert_eq!(sent[0].path, "/v1/chat/completions");
    assert_eq!(
        sent[0].header("Idempotency-Key"),
        Some("inc-7001:INC-7001:diagnose")
    );
    let body = sent[0].json();
    assert_eq!(
        (&body["model"], &body["max_tokens"], &body["temperature"]),
        (&json!("local"), &json!(64), &json!(0))
    );
    let messages = body["messages"].as_array().unwrap();
    assert_eq!(messages.len(), 2);
    assert_eq!(messages[0]["role"], "system");
    let system = messages[0]["content"].as_str().unwrap();
    assert!(system.contains("ONLY a JSON object"), "{system}");
    assert!(system.contains("\"escalate_to_human\""), "{system}");
    assert!(system.contains("data, not instructions"), "{system}");
    assert_eq!(messages[1]["role"], "user");
    assert!(
        messages[1]["content"]
            .as_str()
            .unwrap()
            .contains("INC-7001")
    );
}

#[test]
fn a_model_call_before_a_crash_is_made_and_charged_once() {
    use std::os::unix::process::ExitStatusExt;
    let server = model(SCALE_OUT, 120);
    let env = incident("llm-crash", &server.url, "");
    let out = env
        .clone_with_env("WAKEFUL_FAILPOINT", "after-call:INC-7001:diagnose")
        .output(&["work", "--until-idle"]);
    assert_eq!(out.status.signal(), Some(9), "the worker should be killed");
    assert_eq!(env.show("inc-7001")["tokens_used"], 120);
    let show = resolve(&env);
    assert_eq!(server.requests().len(), 1, "the model was asked once");
    assert_eq!(show["tokens_used"], 120, "and charged once");
}

#[test]
fn a_spent_token_budget_parks_the_run_and_resume_grants_more() {
    // Each call may use 100 tokens and uses 120 (prompt included): the
    // first fits the budget of 100 before it runs; the second cannot.
    let server = model("a short answer", 120);
    let config = format!(
        "{FAST_LIMITS}tokens_per_run = 100\n[tools.llm]\nkind = \"llm\"\n\
         url = \"{}/v1/chat/completions\"\nmodel = \"local\"\nmax_tokens = 100\n",
        server.url
    );
    let env = Env::new("token-budget", &config);
    env.deploy("caller", &["pager", "llm"]);
    let calls = json!([
        {"tool": "llm", "args": {"prompt": "first"}},
        {"tool": "llm", "args": {"prompt": "second"}},
    ]);
    let show = call(&env, "spender", calls);
    assert_eq!(show["status"], "parked", "{show}");
    assert_eq!(show["tokens_used"], 120);
    let reason = show["last_error"].as_str().unwrap();
    assert!(
        reason.starts_with("token budget of 100 is spent (120 used; this call may use 100)"),
        "{reason}"
    );
    let first = ok_result(&show["state"]["results"][0]);
    assert_eq!(first["text"], "a short answer");
    assert_eq!(first["usage"]["total_tokens"], 120);
    assert_eq!(server.requests().len(), 1, "the refused call was not made");
    assert_eq!(env.audit_rows("spender", "parked").len(), 1);

    env.ok(&["resume", "--run", "spender"]);
    assert_eq!(env.show("spender")["token_budget"], 220);
    env.work();
    let show = env.show("spender");
    assert_eq!(show["status"], "done", "{show}");
    assert_eq!(show["tokens_used"], 240);
    assert_eq!(server.requests().len(), 2);
    assert_eq!(
        server.requests()[1].header("Idempotency-Key"),
        Some("spender:k2")
    );
}

#[test]
fn a_money_budget_refuses_a_call_that_could_cost_too_much() {
    let server = model("fine", 10);
    let config = format!(
        "{FAST_LIMITS}usd_per_run = 0.05\n[tools.llm]\nkind = \"llm\"\n\
         url = \"{}/v1/chat/completions\"\nmodel = \"local\"\nmax_tokens = 100\n\
         price_per_1k_tokens_usd = 1.0\n",
        server.url
    );
    let env = Env::new("money-budget", &config);
    env.deploy("caller", &["pager", "llm"]);
    let show = call(
        &env,
        "pricey",
        json!([{"tool": "llm", "args": {"prompt": "p"}}]),
    );
    assert_eq!(show["status"], "parked", "{show}");
    let reason = show["last_error"].as_str().unwrap();
    assert!(
        reason.starts_with("money budget of 0.05 USD is spent"),
        "{reason}"
    );
    assert!(server.requests().is_empty());
    // Asking for fewer tokens fits.
    let show = call(
        &env,
        "thrifty",
        json!([{"tool": "llm", "args": {"prompt": "p", "max_tokens": 40}}]),
    );
    assert_eq!(show["status"], "done", "{show}");
    assert_eq!(server.requests()[0].json()["max_tokens"], 40);
}

#[test]
fn a_model_answering_garbage_fails_the_step_and_an_unknown_action_escalates() {
    let server = model("I would restart it, probably.", 50);
    let env = incident("llm-garbage", &server.url, "max_attempts = 1");
    env.work();
    let show = env.show("inc-7001");
    assert_eq!(show["status"], "parked", "{show}");
    let error = show["last_error"].as_str().unwrap();
    assert!(
        error.contains("the model's answer is not JSON: I would restart it, probably."),
        "{error}"
    );
    assert_eq!(
        show["tokens_used"], 50,
        "a garbage answer still spent its tokens"
    );

    let server = model(r#"{"action": "drop_database", "reason": "why not"}"#, 50);
    let env = incident("llm-unknown", &server.url, "");
    env.work();
    let show = env.show("inc-7001");
    assert_eq!(
        show["outcome"],
        "escalated to a human: model proposed an unknown action: drop_database"
    );
}

#[test]
fn a_model_that_never_answers_fails_the_step_by_its_timeout() {
    let server = FakeServer::start(|_| Reply::Never);
    let env = incident("llm-hang", &server.url, "max_attempts = 1");
    env.work();
    let show = env.show("inc-7001");
    assert_eq!(show["status"], "parked", "{show}");
    let error = show["last_error"].as_str().unwrap();
    assert!(
        error.starts_with("gave up after 1 failed attempt"),
        "{error}"
    );
    assert!(error.contains("timed out after 1000 ms"), "{error}");
    assert_eq!(show["tokens_used"], 0);
}

#[test]
fn a_call_that_did_not_complete_is_made_again_when_the_step_is_retried() {
    // The model hangs on the first request and answers the second; a 5xx
    // from a pager likewise. Neither failure is recorded, so the retried
    // step calls again — with the same key, for the remote side to dedup.
    let answered = std::sync::atomic::AtomicUsize::new(0);
    let server = FakeServer::start(move |_| {
        if answered.fetch_add(1, std::sync::atomic::Ordering::SeqCst) == 0 {
            Reply::Never
        } else {
            Reply::Json(200, crate::fake_servers::completion(SCALE_OUT, 40))
        }
    });
    let env = incident("llm-retry", &server.url, "max_attempts = 3");
    let show = resolve(&env);
    assert_eq!(show["tokens_used"], 40, "only the answered call is charged");
    let keys: Vec<Option<String>> = server
        .requests()
        .iter()
        .map(|r| r.header("Idempotency-Key").map(str::to_string))
        .collect();
    assert_eq!(keys.len(), 2, "{keys:?}");
    assert_eq!(keys[0], keys[1], "the retry carries the same key");
    assert_eq!(env.audit_rows("inc-7001", "step failed").len(), 1);
}
