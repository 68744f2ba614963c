//! The `http` tool kind against real loopback servers: what the host sends
//! (URL, body, `Idempotency-Key`), what the guest gets back, refusals,
//! timeouts, and TLS for both external kinds (`http` and `llm`). The `llm`
//! kind and the run's budgets are in `llm.rs`.

use serde_json::{Value, json};

use crate::fake_servers::{FakeServer, Reply, TestCa, completion};
use crate::harness::{Env, FAST_LIMITS};

/// Starts a `caller` run making `calls` and steps it until idle.
pub(crate) fn call(env: &Env, run: &str, calls: Value) -> Value {
    let input = json!({ "calls": calls }).to_string();
    env.ok(&["start", "caller", "--input", &input, "--id", run]);
    env.work();
    env.show(run)
}

/// The JSON of an `ok: <result>` line.
pub(crate) fn ok_result(line: &Value) -> Value {
    let text = line.as_str().unwrap();
    let json = text
        .strip_prefix("ok: ")
        .unwrap_or_else(|| panic!("not ok: {text}"));
    serde_json::from_str(json).unwrap()
}

/// The `Idempotency-Key` a request carried, checked to be of the form
/// `wakeful-<64 lowercase hex digits>`.
pub(crate) fn idempotency_key(request: &crate::fake_servers::Request) -> String {
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

/// A host whose `pager` tool calls `server`'s `/page`, sending the header
/// `X-Team: sre`. The pager is `idempotent`, so that a 5xx is the guest's
/// to see rather than an unknown outcome that parks the run.
fn pager_env(name: &str, server: &FakeServer) -> Env {
    let config = format!(
        "{FAST_LIMITS}[tools.pager]\nkind = \"http\"\nurl = \"{}/page\"\n\
         headers = {{ \"X-Team\" = \"sre\" }}\nidempotent = true\n",
        server.url
    );
    let env = Env::new(name, &config);
    env.deploy("caller", &["pager", "llm", "kv"]);
    env
}

#[test]
fn http_tool_sends_the_guests_path_query_and_body_with_an_idempotency_key() {
    let server = FakeServer::start(|_| Reply::Json(202, json!({"paged": true})));
    let env = pager_env("http-tool", &server);
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
    idempotency_key(&sent[0]);
    assert_eq!(sent[0].header("X-Team"), Some("sre"));
    assert_eq!(sent[0].header("Content-Type"), Some("application/json"));
    assert_eq!(sent[0].json(), args["body"]);
}

#[test]
fn http_tool_gives_a_5xx_to_the_guest_as_a_value() {
    let server = FakeServer::start(|_| Reply::Text(503, "try later".into()));
    let env = pager_env("http-5xx", &server);
    let show = call(
        &env,
        "page-2",
        json!([{"tool": "pager", "args": {"path": "/fail"}}]),
    );
    let result = ok_result(&show["state"]["results"][0]);
    assert_eq!(result, json!({"status": 503, "body": "try later"}));
}

#[test]
fn http_tool_refuses_bad_arguments_before_sending_anything() {
    let server = FakeServer::start(|_| Reply::Json(202, json!({"paged": true})));
    let env = pager_env("http-elsewhere", &server);
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
    assert!(
        server.requests().is_empty(),
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

/// A host whose `pager` tool answers every call with `{}`.
fn keys_env(name: &str, server: &FakeServer) -> Env {
    let config = format!(
        "{FAST_LIMITS}[tools.pager]\nkind = \"http\"\nurl = \"{}/page\"\n",
        server.url
    );
    let env = Env::new(name, &config);
    env.deploy("caller", &["pager", "llm", "kv"]);
    env
}

/// One `pager` call with idempotency key `key`.
fn keyed(key: &str) -> Value {
    json!([{"tool": "pager", "args": {}, "key": key}])
}

#[test]
fn idempotency_keys_differ_for_every_run_and_key() {
    let server = FakeServer::start(|_| Reply::Json(200, json!({})));
    let env = keys_env("idempotency-keys", &server);
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
    assert_eq!(call(&env, "b", keyed("c"))["status"], "done");
    assert_ne!(sent_last(), first, "another run's call has another key");
}

#[test]
fn a_pruned_runs_id_is_never_reused_so_its_keys_never_repeat() {
    let server = FakeServer::start(|_| Reply::Json(200, json!({})));
    let env = keys_env("pruned-keys", &server);
    for (run, key) in [("a:b", "c"), ("a", "b:c"), ("again", "k")] {
        assert_eq!(call(&env, run, keyed(key))["status"], "done");
    }
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
