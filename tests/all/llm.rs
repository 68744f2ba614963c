//! The `llm` tool kind against fake model servers, and the run's token and
//! money budgets: what the model is sent, what a call is charged, parking
//! when a budget is spent, garbage answers, timeouts, retries and crashes.

use serde_json::{Value, json};

use crate::fake_servers::{FakeServer, Reply, model};
use crate::harness::{Env, FAST_LIMITS};
use crate::tools::{call, idempotency_key, ok_result};

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
    env.ok(&[
        "kv",
        "put",
        "agent/incident/service/payments-api",
        &degraded.to_string(),
    ]);
    env.deploy("incident", &["kv", "lease", "llm"]);
    let start = json!({"incident": "INC-7001", "service": "payments-api"}).to_string();
    env.ok(&["start", "incident", "--input", &start, "--id", "inc-7001"]);
    env
}

/// What the gate estimates the incident agent's diagnose call at: the 64
/// tokens its model may generate and its prompt. A call is charged at
/// least this, whatever the model server reports.
const INCIDENT_ESTIMATE: u64 = 177;

const SCALE_OUT: &str =
    r#"{"action": "scale_out", "reason": "memory at 97% after an OutOfMemoryError"}"#;

fn resolve(env: &Env) -> Value {
    env.work();
    let show = env.show("inc-7001");
    assert_eq!(show["wake_when"], "approval:approve-scale_out", "{show}");
    env.approve(
        "inc-7001",
        "approve-scale_out",
        &["--by", "on-call engineer"],
    );
    env.work();
    let show = env.show("inc-7001");
    assert_eq!(show["outcome"], "resolved", "{show}");
    show
}

#[test]
fn incident_agent_resolves_with_a_real_model_client() {
    // Reported usage above the estimate is charged in full.
    let server = model(SCALE_OUT, 400);
    let env = incident("llm-incident", &server.url, "");
    let show = resolve(&env);
    assert_eq!(show["tokens_used"], 400);
    assert_eq!(show["token_budget"], 200_000);
    let text = env.ok(&["show", "inc-7001"]);
    assert!(text.contains("tokens     400 of 200000"), "{text}");
    assert_eq!(show["usd_budget"], 5.0);
    let usd = show["usd_used"].as_f64().unwrap();
    assert!((usd - 0.0008).abs() < 1e-12, "{usd}");
    assert_eq!(
        show["state"]["plan"]["reason"],
        "memory at 97% after an OutOfMemoryError"
    );

    let sent = server.requests();
    assert_eq!(sent.len(), 1);
    assert_eq!(sent[0].path, "/v1/chat/completions");
    idempotency_key(&sent[0]);
    let body = sent[0].json();
    assert_eq!(
        (
            &body["model"],
            &body["max_completion_tokens"],
            &body["temperature"]
        ),
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
    let server = model(SCALE_OUT, 400);
    let env = incident("llm-crash", &server.url, "");
    let out = env
        .clone_with_env("WAKEFUL_FAILPOINT", "after-call:INC-7001:diagnose")
        .output(&["work", "--until-idle"]);
    assert_eq!(out.status.signal(), Some(9), "the worker should be killed");
    assert_eq!(env.show("inc-7001")["tokens_used"], 400);
    let show = resolve(&env);
    assert_eq!(server.requests().len(), 1, "the model was asked once");
    assert_eq!(show["tokens_used"], 400, "and charged once");
}

/// A host whose `llm` tool's calls may each use 100 tokens plus their
/// prompt (estimated 18 here) and use 120, with a token budget of 130 a
/// run; and run `spender`, whose first call fits the budget before it runs
/// and whose second cannot, parked by its second.
fn spent_token_budget(name: &str, server: &FakeServer) -> Env {
    let config = format!(
        "{FAST_LIMITS}tokens_per_run = 130\n[tools.llm]\nkind = \"llm\"\n\
         url = \"{}/v1/chat/completions\"\nmodel = \"local\"\nmax_tokens = 100\n",
        server.url
    );
    let env = Env::new(name, &config);
    env.deploy("caller", &["pager", "llm", "kv"]);
    let calls = json!([
        {"tool": "llm", "args": {"prompt": "first"}},
        {"tool": "llm", "args": {"prompt": "second"}},
    ]);
    let show = call(&env, "spender", calls);
    assert_eq!(show["status"], "parked", "{show}");
    env
}

#[test]
fn llm_calls_stop_at_the_run_token_budget() {
    let server = model("a short answer", 120);
    let env = spent_token_budget("token-budget", &server);
    let show = env.show("spender");
    assert_eq!(show["status"], "parked", "{show}");
    assert_eq!(show["tokens_used"], 120);
    let reason = show["last_error"].as_str().unwrap();
    assert!(
        reason.starts_with("token budget of 130 is spent (120 used; this call may use 118)"),
        "{reason}"
    );
    let first = ok_result(&show["state"]["results"][0]);
    assert_eq!(first["text"], "a short answer");
    assert_eq!(first["usage"]["total_tokens"], 120);
    assert_eq!(server.requests().len(), 1, "the refused call was not made");
    assert_eq!(env.audit_rows("spender", "parked").len(), 1);
}

#[test]
fn resume_grants_a_run_parked_by_its_token_budget_more_tokens() {
    let server = model("a short answer", 120);
    let env = spent_token_budget("token-budget-resumed", &server);
    env.ok(&["resume", "--run", "spender"]);
    assert_eq!(env.show("spender")["token_budget"], 250);
    env.work();
    let show = env.show("spender");
    assert_eq!(show["status"], "done", "{show}");
    assert_eq!(show["tokens_used"], 240);
    let sent = server.requests();
    assert_eq!(sent.len(), 2);
    assert_ne!(
        idempotency_key(&sent[0]),
        idempotency_key(&sent[1]),
        "keys k1 and k2 send different headers"
    );
}

#[test]
fn a_model_call_is_charged_at_least_its_estimate_however_the_server_reports_or_fails() {
    // `{"prompt": "hello"}` with max_tokens = 64 is estimated at the 64
    // tokens the model may generate, plus the prompt: 5 bytes / 3 rounded
    // up, and 16 for the message: 82 tokens, 0.082 USD at 1 USD per 1000.
    let free = model("free text", 0);
    let failing = FakeServer::start(|_| Reply::Text(500, "overloaded".into()));
    let hanging = FakeServer::start(|_| Reply::Never);
    let generous = model("long text", 500);
    let refused = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        format!("http://{}", listener.local_addr().unwrap())
    };
    let cases = [
        ("zero", free.url.as_str(), "done", 82, Some(&free)),
        // Sent and failed: the caller sees the error and goes on.
        ("failing", &failing.url, "done", 82, Some(&failing)),
        ("hanging", &hanging.url, "done", 82, Some(&hanging)),
        // Reported usage above the estimate is charged in full.
        ("generous", &generous.url, "done", 500, Some(&generous)),
        // Nothing was sent: nothing is charged.
        ("refused", &refused, "done", 0, None),
    ];
    for (name, url, status, tokens, server) in cases {
        let config = format!(
            "{FAST_LIMITS}max_attempts = 1\n[tools.llm]\nkind = \"llm\"\n\
             url = \"{url}/v1/chat/completions\"\nmodel = \"local\"\nmax_tokens = 64\n\
             timeout_ms = 500\nprice_per_1k_tokens_usd = 1.0\n"
        );
        let env = Env::new(&format!("llm-spend-{name}"), &config);
        env.deploy("caller", &["pager", "llm", "kv"]);
        let calls = json!([{"tool": "llm", "args": {"prompt": "hello"}}]);
        let show = call(&env, "spender", calls);
        assert_eq!(show["status"], status, "{name}: {show}");
        assert_eq!(show["tokens_used"], tokens, "{name}: {show}");
        let usd = show["usd_used"].as_f64().unwrap();
        assert!((usd - tokens as f64 / 1000.0).abs() < 1e-9, "{name}: {usd}");
        if let Some(server) = server {
            assert_eq!(server.requests().len(), 1, "{name}: the call was sent once");
        }
        if tokens > 0 {
            let text = env.ok(&["show", "spender"]);
            let line = format!("tokens     {tokens} of 200000");
            assert!(text.contains(&line), "{name}: {text}");
        }
    }
}

/// A host whose `llm` tool may generate 100 tokens a call at 1 USD per
/// 1000, with a money budget of 0.05 USD a run.
fn money_budget_env(name: &str, server: &FakeServer) -> Env {
    let config = format!(
        "{FAST_LIMITS}usd_per_run = 0.05\n[tools.llm]\nkind = \"llm\"\n\
         url = \"{}/v1/chat/completions\"\nmodel = \"local\"\nmax_tokens = 100\n\
         price_per_1k_tokens_usd = 1.0\n",
        server.url
    );
    let env = Env::new(name, &config);
    env.deploy("caller", &["pager", "llm", "kv"]);
    env
}

#[test]
fn a_money_budget_refuses_a_call_that_could_cost_too_much() {
    let server = model("fine", 10);
    let env = money_budget_env("money-budget", &server);
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
}

#[test]
fn a_call_asking_for_fewer_tokens_fits_the_money_budget() {
    let server = model("fine", 10);
    let env = money_budget_env("money-budget-thrifty", &server);
    let show = call(
        &env,
        "thrifty",
        json!([{"tool": "llm", "args": {"prompt": "p", "max_tokens": 30}}]),
    );
    assert_eq!(show["status"], "done", "{show}");
    assert_eq!(server.requests()[0].json()["max_completion_tokens"], 30);
}

#[test]
fn a_model_answering_garbage_fails_the_step() {
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
        show["tokens_used"], INCIDENT_ESTIMATE,
        "a garbage answer (reporting 50 tokens) is charged at least the estimate"
    );
}

#[test]
fn a_model_proposing_an_unknown_action_escalates_to_a_human() {
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
    assert_eq!(
        show["tokens_used"], INCIDENT_ESTIMATE,
        "a call sent and never answered is charged its estimate"
    );
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
    assert_eq!(
        show["tokens_used"],
        2 * INCIDENT_ESTIMATE,
        "each call sent is charged at least its estimate (the answer reported 40)"
    );
    let keys: Vec<String> = server.requests().iter().map(idempotency_key).collect();
    assert_eq!(keys.len(), 2, "{keys:?}");
    assert_eq!(keys[0], keys[1], "the retry carries the same key");
    assert_eq!(env.audit_rows("inc-7001", "step failed").len(), 1);
}
