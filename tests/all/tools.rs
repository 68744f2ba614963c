//! The `http` and `llm` tool kinds against real loopback servers, and the
//! token budget: what the host sends (URL, body, `Idempotency-Key`), what
//! the guest gets back, refusals, timeouts, crashes and parking.

use serde_json::{Value, json};

use crate::fake_servers::{FakeServer, Reply, TestCa, completion, model};
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

/// The `Idempotency-Key` a request carried, checked to be of the form
/// `wakeful-<64 lowercase hex digits>`.
fn idempotency_key(request: &crate::fake_servers::Request) -> String {
    let key = request
        .header("Idempotency-Key")
        .unwrap_or_else(|| panic!("{} {} has no Idempotency-Key", request.method, request.path));
    let hex = key
        .strip_prefix("wakeful-")
        .unwrap_or_else(|| panic!("`{key}` does not start with `wakeful-`"));
    assert!(
        hex.len() == 64
            && hex
                .chars()
                .all(|c| c.is_ascii_digit() || ('a'..='f').contains(&c)),
        "`{key}` is not `wakeful-` and 64 hex digits"
    );
    key.to_string()
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
         headers = {{ \"X-Team\" = \"sre\" }}\nidempotent = true\n",
        server.url
    );
    // `idempotent`: the 5xx below is then the guest's to see, not an
    // unknown outcome that parks the run.
    let env = Env::new("http-tool", &config);
    env.deploy("caller", &["pager", "llm", "kv"]);

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
    let key = idempotency_key(&sent[0]);
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
    let sent = server.requests();
    assert_ne!(
        idempotency_key(&sent[1]),
        key,
        "another run's call has another key"
    );

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
fn http_tool_refuses_every_path_and_query_that_could_leave_its_url() {
    let server = FakeServer::start(|_| Reply::Json(200, json!({"ok": true})));
    let config = format!(
        "{FAST_LIMITS}[tools.pager]\nkind = \"http\"\nurl = \"{}/api/page?token=operator\"\n",
        server.url
    );
    let env = Env::new("http-paths", &config);
    env.deploy("caller", &["pager", "llm", "kv"]);
    let hostile = [
        ("/..;/admin", "`..` or `.` segment"),
        ("/x/..;x=1/..;/admin", "`..` or `.` segment"),
        ("/%2e%2e/admin", "`..` or `.` segment"),
        ("/%252e%252e/admin", "`..` or `.` segment"),
        ("/..%2fadmin", "`..` or `.` segment"),
        ("/a%5c..%5cadmin", "`..` or `.` segment"),
        ("/a\\..\\admin", "`..` or `.` segment"),
        ("/a%2fb", "encoded `/` or `\\`"),
        ("/a%252Fb", "encoded `/` or `\\`"),
        ("/a\\b", "`\\`"),
        ("/\\evil.example/x", "another host"),
        ("/a%3ftoken=mine", "`?` or `#`"),
    ];
    let mut calls: Vec<Value> = hostile
        .iter()
        .map(|(path, _)| json!({"tool": "pager", "args": {"path": path}}))
        .collect();
    calls.push(json!({"tool": "pager", "args": {"path": "/ok", "query": {"token": "mine"}}}));
    calls.push(json!({"tool": "pager", "args": {"path": "/ok", "query": {"Token": "mine"}}}));
    let show = call(&env, "paths", Value::Array(calls));
    assert_eq!(show["status"], "done", "{show}");
    let results = show["state"]["results"].as_array().unwrap();
    assert_eq!(results.len(), hostile.len() + 2, "{show}");
    for (i, (path, why)) in hostile.iter().enumerate() {
        let r = results[i].as_str().unwrap();
        assert!(
            r.starts_with("err: invalid arguments: pager: path"),
            "{path}: {r}"
        );
        assert!(r.contains(why), "{path}: {r}");
    }
    for r in &results[hostile.len()..] {
        let r = r.as_str().unwrap();
        assert!(r.starts_with("err: invalid arguments: pager: query"), "{r}");
        assert!(r.contains("configured URL's query"), "{r}");
    }
    let seen: Vec<String> = server.requests().into_iter().map(|r| r.path).collect();
    assert!(seen.is_empty(), "the server saw {seen:?}");

    // The same tool still reaches what is below its URL.
    let show = call(
        &env,
        "fine",
        json!([{"tool": "pager", "args": {"path": "/a%2eb;v=1", "query": {"q": "1"}}}]),
    );
    assert_eq!(
        ok_result(&show["state"]["results"][0])["status"],
        200,
        "{show}"
    );
    let seen: Vec<String> = server.requests().into_iter().map(|r| r.path).collect();
    assert_eq!(seen, ["/api/page/a%2eb;v=1?token=operator&q=1"]);
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
    env.deploy("caller", &["pager", "llm", "kv"]);
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

#[test]
fn a_spent_token_budget_parks_the_run_and_resume_grants_more() {
    // Each call may use 100 tokens plus its prompt (estimated 18 here) and
    // uses 120: the first fits the budget of 130 before it runs; the
    // second cannot.
    let server = model("a short answer", 120);
    let config = format!(
        "{FAST_LIMITS}tokens_per_run = 130\n[tools.llm]\nkind = \"llm\"\n\
         url = \"{}/v1/chat/completions\"\nmodel = \"local\"\nmax_tokens = 100\n",
        server.url
    );
    let env = Env::new("token-budget", &config);
    env.deploy("caller", &["pager", "llm", "kv"]);
    let calls = json!([
        {"tool": "llm", "args": {"prompt": "first"}},
        {"tool": "llm", "args": {"prompt": "second"}},
    ]);
    let show = call(&env, "spender", calls);
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
    env.deploy("caller", &["pager", "llm", "kv"]);
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
        json!([{"tool": "llm", "args": {"prompt": "p", "max_tokens": 30}}]),
    );
    assert_eq!(show["status"], "done", "{show}");
    assert_eq!(server.requests()[0].json()["max_tokens"], 30);
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
        show["tokens_used"], INCIDENT_ESTIMATE,
        "a garbage answer (reporting 50 tokens) is charged at least the estimate"
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

#[test]
fn idempotency_keys_differ_for_every_run_and_key_and_a_pruned_id_is_not_reused() {
    let server = FakeServer::start(|_| Reply::Json(200, json!({})));
    let config = format!(
        "{FAST_LIMITS}[tools.pager]\nkind = \"http\"\nurl = \"{}/page\"\n",
        server.url
    );
    let env = Env::new("idempotency-keys", &config);
    env.deploy("caller", &["pager", "llm", "kv"]);
    let keyed = |key: &str| json!([{"tool": "pager", "args": {}, "key": key}]);
    let sent_last = || idempotency_key(server.requests().last().unwrap());

    // Run `a:b` with key `c`, and run `a` with key `b:c`: joined with `:`
    // both would read `a:b:c`.
    assert_eq!(call(&env, "a:b", keyed("c"))["status"], "done");
    let first = sent_last();
    assert_eq!(call(&env, "a", keyed("b:c"))["status"], "done");
    assert_ne!(
        sent_last(),
        first,
        "runs a:b (key c) and a (key b:c) collide"
    );

    // A pruned run's id is never used again, so its keys never repeat.
    assert_eq!(call(&env, "again", keyed("k"))["status"], "done");
    let out = env.ok(&["prune", "--older-than-days", "0"]);
    assert!(out.contains("pruned 3 run(s)"), "{out}");
    let err = env.fails(&["start", "caller", "--id", "again"]);
    assert!(err.contains("never reused"), "{err}");
    assert_eq!(server.requests().len(), 3, "nothing was called again");
}

/// A host whose `pager` and `llm` tools call `pager_url` and `model_url`,
/// trusting the CAs of `ca_file` (written to the host's directory) when
/// given. The pager is `idempotent`, so that a failed call is the guest's to
/// see rather than an unknown outcome that parks the run.
fn https_env(name: &str, ca: Option<&TestCa>, pager_url: &str, model_url: &str) -> Env {
    let env = Env::new(name, "");
    let ca_line = match ca {
        Some(ca) => {
            let file = env.dir.join("ca.pem");
            std::fs::write(&file, &ca.pem).unwrap();
            format!("ca_file = \"{}\"\n", file.display())
        }
        None => String::new(),
    };
    let config = format!(
        "{FAST_LIMITS}[tools.pager]\nkind = \"http\"\nurl = \"{pager_url}/page\"\n{ca_line}\
         idempotent = true\n[tools.llm]\nkind = \"llm\"\nurl = \"{model_url}/v1/chat/completions\"\n\
         model = \"local\"\n{ca_line}"
    );
    std::fs::write(env.dir.join("wakeful.toml"), config).unwrap();
    env.deploy("caller", &["pager", "llm", "kv"]);
    env
}

const BOTH: &str = r#"[{"tool": "pager", "args": {"body": {"secret": "s3cret"}}},
    {"tool": "llm", "args": {"prompt": "the secret is s3cret"}}]"#;

#[test]
fn https_tools_reach_a_server_whose_certificate_their_ca_file_signed() {
    let ca = TestCa::new("wakeful test CA");
    let pager = FakeServer::start_tls(ca.server_cert(&["127.0.0.1"]), |_| {
        Reply::Json(200, json!({"paged": true}))
    });
    let model = FakeServer::start_tls(ca.server_cert(&["127.0.0.1"]), |_| {
        Reply::Json(200, completion("hello", 10))
    });
    assert!(pager.url.starts_with("https://127.0.0.1:"), "{}", pager.url);
    let env = https_env("https-trusted", Some(&ca), &pager.url, &model.url);
    let show = call(&env, "tls", serde_json::from_str(BOTH).unwrap());
    assert_eq!(show["status"], "done", "{show}");
    let results = &show["state"]["results"];
    assert_eq!(
        ok_result(&results[0]),
        json!({"status": 200, "body": {"paged": true}})
    );
    assert_eq!(ok_result(&results[1])["text"], "hello");
    let sent = pager.requests();
    assert_eq!(sent.len(), 1);
    assert_eq!(sent[0].path, "/page");
    assert_eq!(sent[0].json(), json!({"secret": "s3cret"}));
    idempotency_key(&sent[0]);
    assert_eq!(model.requests().len(), 1);
}

#[test]
fn https_tools_refuse_a_certificate_from_another_ca_or_for_another_name() {
    let ca = TestCa::new("wakeful test CA");
    let other = TestCa::new("someone else's CA");
    let answer = |_: &crate::fake_servers::Request| Reply::Json(200, completion("hi", 1));
    let other_ca = FakeServer::start_tls(other.server_cert(&["127.0.0.1"]), answer);
    let other_name = FakeServer::start_tls(ca.server_cert(&["wakeful.example"]), answer);
    let ours = FakeServer::start_tls(ca.server_cert(&["127.0.0.1"]), answer);

    // pager: a certificate from another CA; llm: ours, but for another name.
    let env = https_env("https-refused", Some(&ca), &other_ca.url, &other_name.url);
    // And without a ca_file the public roots do not know the test CA.
    let public = https_env("https-public-roots", None, &ours.url, &ours.url);
    for (env, run) in [(&env, "refused"), (&public, "public")] {
        let show = call(env, run, serde_json::from_str(BOTH).unwrap());
        assert_eq!(show["status"], "done", "{show}");
        let results = show["state"]["results"].as_array().unwrap();
        for (result, tool) in results.iter().zip(["pager", "llm"]) {
            let r = result.as_str().unwrap();
            assert!(
                r.starts_with(&format!("err: failed: {tool}: POST https://")),
                "{r}"
            );
            assert!(
                r.contains("the server's certificate was not trusted"),
                "{r}"
            );
        }
    }
    for server in [&other_ca, &other_name, &ours] {
        let seen: Vec<String> = server.requests().into_iter().map(|r| r.path).collect();
        assert!(seen.is_empty(), "{} saw {seen:?}", server.url);
    }
}

#[test]
fn plain_http_to_another_host_is_refused_at_start_unless_allowed() {
    let pager = "[tools.pager]\nkind = \"http\"\nurl = \"http://example.com/page\"\n";
    let env = Env::new("plain-http", pager);
    let err = env.fails(&["runs"]);
    assert!(
        err.contains("tools.pager.url `http://example.com/page`: plain http:// to `example.com`"),
        "{err}"
    );
    assert!(err.contains("allow_plain_http = true"), "{err}");
    let allowed = Env::new(
        "plain-http-allowed",
        &format!("{pager}allow_plain_http = true\n"),
    );
    allowed.ok(&["runs"]);
}
