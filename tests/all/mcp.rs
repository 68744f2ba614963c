//! The `mcp` tool kind against real MCP servers on this machine: the test
//! server `tests/mcp-server.py` over stdio and over streamable HTTP on
//! loopback (it logs every `tools/call` it gets, so each test counts what
//! was sent), and `@modelcontextprotocol/server-everything`, the reference
//! server from npm (installed by `scripts/install-mcp-everything.sh`, run
//! by node directly). The `mcp-caller` agent asks for `local/*` (stdio),
//! `remote/*` (HTTP) and `everything/echo`.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Once;

use serde_json::{Value, json};

use crate::harness::{Env, FAST_LIMITS, agent, repo};
use crate::tools::ok_result;

/// Every tool `mcp-caller` asks for.
const GRANTS: &[&str] = &[
    "local/echo",
    "local/env",
    "local/fail",
    "local/hang",
    "remote/echo",
    "remote/hang",
    "remote/big",
    "everything/echo",
    "llm",
];

/// The `allow` of a `local` server whose every tool `mcp-caller` asks for.
const ALL_LOCAL: &str = r#"["echo", "env", "fail", "hang"]"#;

fn server_script() -> String {
    repo().join("tests/mcp-server.py").display().to_string()
}

/// `[tools.local]`: the test server over stdio, logging to `log`. The
/// interpreter itself, not a `python3` on the PATH that may be a wrapper
/// script setting variables of its own.
fn local_tool(log: &Path, allow: &str, extra: &str) -> String {
    format!(
        "[tools.local]\nkind = \"mcp\"\ncommand = [\"{}\", \"{}\", \"stdio\", \"--log\", \
         \"{}\"]\nenv = {{ WAKEFUL_TEST_MARK = \"marked\" }}\nallow = {allow}\n{extra}",
        python().display(),
        server_script(),
        log.display()
    )
}

/// The Python interpreter's own path.
fn python() -> PathBuf {
    let out = Command::new("python3")
        .args(["-c", "import sys; print(sys.executable)"])
        .output()
        .expect("python3 is installed");
    assert!(out.status.success());
    PathBuf::from(String::from_utf8(out.stdout).unwrap().trim())
}

/// The test server over streamable HTTP on loopback, killed when dropped.
struct HttpServer {
    child: Child,
    url: String,
}

impl HttpServer {
    fn start(dir: &Path, log: &Path) -> HttpServer {
        HttpServer::start_with(dir, log, None)
    }

    /// With `tls`, the server's certificate and key files: https.
    fn start_with(dir: &Path, log: &Path, tls: Option<(&Path, &Path)>) -> HttpServer {
        let port_file = dir.join("mcp-port");
        let mut command = Command::new("python3");
        command
            .arg(server_script())
            .args(["http", "--log"])
            .arg(log)
            .arg("--port-file")
            .arg(&port_file);
        if let Some((cert, key)) = tls {
            command.arg("--cert").arg(cert).arg("--key").arg(key);
        }
        let child = command
            .stdin(Stdio::null())
            .spawn()
            .expect("start tests/mcp-server.py http");
        // The server writes the file whole once it listens.
        let port = loop {
            if let Ok(port) = std::fs::read_to_string(&port_file) {
                break port;
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        };
        let scheme = if tls.is_some() { "https" } else { "http" };
        HttpServer {
            child,
            url: format!("{scheme}://127.0.0.1:{}/mcp", port.trim()),
        }
    }
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The `tools/call` requests a test server logged, oldest first.
fn logged(log: &Path) -> Vec<Value> {
    std::fs::read_to_string(log)
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The idempotency key a logged call carried in `_meta`, checked to be of
/// the form `wakeful-<64 hex digits>`.
fn meta_key(call: &Value) -> String {
    let key = call["meta"]["wakeful/idempotency-key"]
        .as_str()
        .unwrap_or_else(|| panic!("no wakeful/idempotency-key in _meta: {call}"));
    let hex = key
        .strip_prefix("wakeful-")
        .unwrap_or_else(|| panic!("{key}"));
    assert!(
        hex.len() == 64 && hex.chars().all(|c| c.is_ascii_hexdigit()),
        "{key}"
    );
    key.to_string()
}

/// Starts an `mcp-caller` run making `calls` and steps it until idle.
fn call(env: &Env, run: &str, calls: Value) -> Value {
    env.start("mcp-caller", run, json!({ "calls": calls }));
    env.work();
    env.show(run)
}

#[test]
fn mcp_calls_are_refused_without_the_grant_of_each_tool() {
    let dir = tempdir("mcp-grants");
    let log = dir.join("calls.log");
    let config = format!(
        "{FAST_LIMITS}{}",
        local_tool(&log, r#"["echo", "env", "fail", "hang", "extra"]"#, "")
    );
    let env = Env::new("mcp-grants", &config);
    let wasm = agent("mcp-caller");
    let wasm = wasm.to_str().unwrap();

    // A version is granted each server tool by its own name: not the server.
    let err = env.fails(&["deploy", wasm, "--grant", "local"]);
    assert!(
        err.contains("`local` is an MCP server") && err.contains("local/TOOL"),
        "{err}"
    );
    let mut args = vec!["deploy", wasm];
    for g in &GRANTS[1..] {
        args.extend(["--grant", g]);
    }
    let err = env.fails(&args);
    assert!(
        err.contains("local/echo"),
        "the missing grant is named: {err}"
    );
    env.deploy("mcp-caller", GRANTS);

    // `local/extra` is allowed by the config but not granted to the version.
    let show = call(
        &env,
        "r",
        json!([{"tool": "local/extra", "args": {}}, {"tool": "local", "args": {}}]),
    );
    let results = &show["state"]["results"];
    let denied = results[0].as_str().unwrap();
    assert!(
        denied.starts_with("err: denied") && denied.contains("--grant local/extra"),
        "{show}"
    );
    let bare = results[1].as_str().unwrap();
    assert!(bare.contains("`local` is an MCP server"), "{show}");
    assert!(logged(&log).is_empty(), "nothing reached the server");
}

#[test]
fn a_tool_the_config_does_not_allow_cannot_be_granted_and_bad_configs_are_refused() {
    let dir = tempdir("mcp-allow");
    let log = dir.join("calls.log");
    let env = Env::new("mcp-allow", &local_tool(&log, r#"["echo"]"#, ""));
    let mut args = vec![
        "deploy".to_string(),
        agent("mcp-caller").display().to_string(),
    ];
    for g in GRANTS {
        args.extend(["--grant".to_string(), g.to_string()]);
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let err = env.fails(&args);
    assert!(
        err.contains("tool `env` of MCP server `local` is not in tools.local.allow"),
        "{err}"
    );

    for (config, expected) in [
        (local_tool(&log, "[]", ""), "tools.local.allow is empty"),
        (
            local_tool(&log, r#"["echo"]"#, "url = \"http://127.0.0.1:1/mcp\"\n"),
            "exactly one of command",
        ),
        (
            "[tools.x]\nkind = \"mcp\"\nurl = \"http://example.com/mcp\"\nallow = [\"a\"]\n"
                .to_string(),
            "plain http://",
        ),
        (
            "[tools.x]\nkind = \"mcp\"\ncommand = [\"node\"]\nallow = [\"a\"]\n\
             headers = { A = \"b\" }\n"
                .to_string(),
            "headers, ca_file and allow_plain_http are for a url server",
        ),
    ] {
        let env = Env::new("mcp-bad-config", &config);
        let err = env.fails(&["agents"]);
        assert!(err.contains(expected), "{expected}: {err}");
    }
}

#[test]
fn a_call_over_stdio_is_sent_once_with_its_key_in_meta_and_its_answer_recorded() {
    let dir = tempdir("mcp-stdio");
    let log = dir.join("calls.log");
    let config = format!("{FAST_LIMITS}{}", local_tool(&log, ALL_LOCAL, ""));
    let env = Env::new("mcp-stdio", &config);
    env.deploy("mcp-caller", GRANTS);
    let show = call(
        &env,
        "r",
        json!([
            {"tool": "local/echo", "args": {"message": "hi"}, "key": "e"},
            {"tool": "local/echo", "args": {"message": "hi"}, "key": "e"},
            {"tool": "local/env", "args": {}},
            {"tool": "local/fail", "args": {}},
        ]),
    );
    assert_eq!(show["status"], "done", "{show}");
    let results = &show["state"]["results"];
    let echo = ok_result(&results[0]);
    assert_eq!(echo["content"][0]["text"], "hi", "{show}");
    assert_eq!(echo["structuredContent"]["message"], "hi", "{show}");
    assert_eq!(
        results[0], results[1],
        "the repeat is answered from the ledger"
    );
    // The server saw only the environment its config gives (Python may add
    // LC_CTYPE itself, under a C locale).
    let env_names = ok_result(&results[2])["structuredContent"]["names"].clone();
    let names: Vec<&str> = env_names
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap())
        .collect();
    assert!(names.contains(&"WAKEFUL_TEST_MARK"), "{names:?}");
    assert!(
        names
            .iter()
            .all(|n| ["WAKEFUL_TEST_MARK", "LC_CTYPE"].contains(n)),
        "only the configured environment: {names:?}"
    );
    let failed = results[3].as_str().unwrap();
    assert!(
        failed.starts_with("err: failed") && failed.contains("the test server's fail tool failed"),
        "{show}"
    );

    let calls = logged(&log);
    let tools: Vec<&str> = calls.iter().map(|c| c["tool"].as_str().unwrap()).collect();
    assert_eq!(
        tools,
        ["echo", "env", "fail"],
        "each call sent once: {calls:?}"
    );
    assert_eq!(calls[0]["arguments"], json!({"message": "hi"}));
    let keys: Vec<String> = calls.iter().map(meta_key).collect();
    assert!(keys[0] != keys[1] && keys[1] != keys[2], "{keys:?}");
    // Each answer, the failure too, is recorded: working again sends nothing.
    assert_eq!(env.recorded_calls("r").len(), 3, "{show}");
    env.work();
    assert_eq!(logged(&log).len(), 3);
}

#[test]
fn a_call_over_streamable_http_carries_its_headers_and_key_and_is_sent_once() {
    let dir = tempdir("mcp-http");
    let log = dir.join("calls.log");
    let server = HttpServer::start(&dir, &log);
    let config = format!(
        "{FAST_LIMITS}[secrets.mcp]\nenv = \"MCP_TEST_TOKEN\"\n\n[tools.remote]\nkind = \"mcp\"\n\
         url = \"{}\"\nheaders = {{ Authorization = \"Bearer ${{secret:mcp}}\" }}\n\
         allow = [\"echo\", \"hang\", \"big\"]\n",
        server.url
    );
    let env = Env::new("mcp-http", &config).clone_with_env("MCP_TEST_TOKEN", "mcp-token-value");
    env.deploy("mcp-caller", GRANTS);
    let show = call(
        &env,
        "r",
        json!([{"tool": "remote/echo", "args": {"message": "over http"}}]),
    );
    assert_eq!(show["status"], "done", "{show}");
    let echo = ok_result(&show["state"]["results"][0]);
    assert_eq!(echo["content"][0]["text"], "over http", "{show}");
    let calls = logged(&log);
    assert_eq!(calls.len(), 1, "{calls:?}");
    assert_eq!(calls[0]["transport"], "http");
    assert_eq!(
        calls[0]["headers"]["authorization"],
        "Bearer mcp-token-value"
    );
    meta_key(&calls[0]);
    env.work();
    assert_eq!(logged(&log).len(), 1, "sent once");
}

/// A server over https is reached only through a certificate that chains
/// to the tool's `ca_file`: the same server, configured without it (the
/// public roots), is never sent the call.
#[test]
fn a_call_over_https_needs_a_certificate_the_tools_ca_file_trusts() {
    let dir = tempdir("mcp-https");
    let log = dir.join("calls.log");
    let ca = crate::fake_servers::TestCa::new("wakeful test MCP CA");
    let (cert, key) = ca.server_pems(&["127.0.0.1"]);
    let (cert_file, key_file, ca_file) = (
        dir.join("server.pem"),
        dir.join("server.key"),
        dir.join("ca.pem"),
    );
    std::fs::write(&cert_file, cert).unwrap();
    std::fs::write(&key_file, key).unwrap();
    std::fs::write(&ca_file, &ca.pem).unwrap();
    let server = HttpServer::start_with(&dir, &log, Some((&cert_file, &key_file)));
    assert!(server.url.starts_with("https://"), "{}", server.url);
    let tool = |ca: &str| {
        format!(
            "{FAST_LIMITS}[tools.remote]\nkind = \"mcp\"\nurl = \"{}\"\n{ca}\
             allow = [\"echo\", \"hang\", \"big\"]\n",
            server.url
        )
    };

    let stranger = Env::new("mcp-https-untrusted", &tool(""));
    stranger.deploy("mcp-caller", GRANTS);
    let calls = json!([{"tool": "remote/echo", "args": {"message": "over tls"}}]);
    let show = call(&stranger, "r", calls.clone());
    let refused = show["state"]["results"][0].as_str().unwrap_or_default();
    assert!(
        refused.starts_with("err: failed") && refused.contains("the call was not sent"),
        "{show}"
    );
    assert!(logged(&log).is_empty(), "nothing reached the server");

    let config = tool(&format!("ca_file = \"{}\"\n", ca_file.display()));
    let env = Env::new("mcp-https", &config);
    env.deploy("mcp-caller", GRANTS);
    let show = call(&env, "r", calls);
    assert_eq!(show["status"], "done", "{show}");
    let echo = ok_result(&show["state"]["results"][0]);
    assert_eq!(echo["content"][0]["text"], "over tls", "{show}");
    let sent = logged(&log);
    assert_eq!(sent.len(), 1, "{sent:?}");
    meta_key(&sent[0]);
}

#[test]
fn an_answer_larger_than_a_result_may_be_is_not_read_whole_and_its_outcome_is_unknown() {
    let dir = tempdir("mcp-big");
    let log = dir.join("calls.log");
    let server = HttpServer::start(&dir, &log);
    let config = format!(
        "[limits]\nclaim_ms = 3000\nstep_deadline_ms = 2500\nretry_backoff_ms = 0\n\
         max_payload_bytes = 65536\n\n[tools.remote]\nkind = \"mcp\"\nurl = \"{}\"\n\
         allow = [\"echo\", \"hang\", \"big\"]\n",
        server.url
    );
    let env = Env::new("mcp-big", &config);
    env.deploy("mcp-caller", GRANTS);
    let show = call(
        &env,
        "r",
        json!([{"tool": "remote/big", "args": {"bytes": 3_000_000}}]),
    );
    // Read up to the result limit (64 KiB) and the session's 1 MiB, no
    // further: the call was sent and its answer unread, so its outcome is
    // unknown and it is not sent again.
    assert_eq!(show["status"], "parked", "{show}");
    let error = show["last_error"].as_str().unwrap();
    assert!(
        error.contains("exceeded the maximum size of 1114112 bytes")
            && error.contains("unknown outcome of remote/big call k1"),
        "{error}"
    );
    env.work();
    assert_eq!(logged(&log).len(), 1, "sent once");
}

#[test]
fn an_mcp_server_that_hangs_leaves_an_unknown_outcome_parked_not_a_second_call() {
    let dir = tempdir("mcp-hang");
    let log = dir.join("calls.log");
    let server = HttpServer::start(&dir, &log);
    let config = format!(
        "{FAST_LIMITS}{}\n[tools.remote]\nkind = \"mcp\"\nurl = \"{}\"\nallow = [\"echo\", \"hang\", \"big\"]\n\
         timeout_ms = 1000\n",
        local_tool(&log, ALL_LOCAL, "timeout_ms = 1000\n"),
        server.url
    );
    let env = Env::new("mcp-hang", &config);
    env.deploy("mcp-caller", GRANTS);
    for (run, tool) in [("stdio", "local/hang"), ("http", "remote/hang")] {
        let show = call(&env, run, json!([{"tool": tool, "args": {}}]));
        assert_eq!(show["status"], "parked", "{show}");
        let error = show["last_error"].as_str().unwrap();
        assert!(
            error.contains(&format!("unknown outcome of {tool} call k1")),
            "{error}"
        );
        assert_eq!(show["unknown_outcomes"][0]["key"], "k1", "{show}");
        // Working again sends nothing: the run waits for an operator.
        env.work();
        assert_eq!(env.show(run)["status"], "parked");
    }
    let calls = logged(&log);
    let transports: Vec<&str> = calls
        .iter()
        .map(|c| c["transport"].as_str().unwrap())
        .collect();
    assert_eq!(transports, ["stdio", "http"], "one call each: {calls:?}");
}

static EVERYTHING: Once = Once::new();

/// The reference server's entry point, installed from its lock file.
fn everything_server() -> PathBuf {
    EVERYTHING.call_once(|| {
        let status = Command::new("bash")
            .arg(repo().join("scripts/install-mcp-everything.sh"))
            .status()
            .expect("run scripts/install-mcp-everything.sh");
        assert!(
            status.success(),
            "installing the MCP reference server failed"
        );
    });
    repo().join(
        "tests/mcp-everything/node_modules/@modelcontextprotocol/server-everything/dist/index.js",
    )
}

#[test]
fn the_reference_server_everything_answers_echo_and_check_shows_its_annotations() {
    let index = everything_server();
    let node = which("node");
    let config = format!(
        "[tools.everything]\nkind = \"mcp\"\ncommand = [\"{}\", \"{}\", \"stdio\"]\n\
         allow = [\"echo\"]\ntimeout_ms = 8000\n",
        node.display(),
        index.display()
    );
    let env = Env::new("mcp-everything", &config);
    env.deploy("mcp-caller", GRANTS);
    let show = call(
        &env,
        "r",
        json!([{"tool": "everything/echo", "args": {"message": "hello"}}]),
    );
    assert_eq!(show["status"], "done", "{show}");
    let echo = ok_result(&show["state"]["results"][0]);
    assert_eq!(echo["content"][0]["text"], "Echo: hello", "{show}");

    let check = env.json(&["check", agent("mcp-caller").to_str().unwrap()]);
    let listed = check["check"]["mcp_tools"]
        .as_array()
        .unwrap_or_else(|| panic!("{check}"));
    let echo = listed
        .iter()
        .find(|t| t["name"] == "everything/echo")
        .unwrap_or_else(|| panic!("{check}"));
    assert_eq!(echo["allowed"], true);
    assert_eq!(echo["annotations"]["readOnlyHint"], true, "{echo}");
    let text = env.ok(&["check", agent("mcp-caller").to_str().unwrap()]);
    assert!(
        text.contains("everything/echo") && text.contains("readOnlyHint"),
        "{text}"
    );
}

fn which(program: &str) -> PathBuf {
    let out = Command::new("sh")
        .args(["-c", &format!("command -v {program}")])
        .output()
        .unwrap();
    assert!(out.status.success(), "{program} is not installed");
    PathBuf::from(String::from_utf8(out.stdout).unwrap().trim())
}

/// A fresh directory for a test's server files.
fn tempdir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("mcp-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn a_worker_killed_around_an_mcp_call_never_sends_it_twice() {
    use std::os::unix::process::ExitStatusExt;
    // Killed after the answer came back but before it was recorded, the
    // call's outcome is unknown to the next worker: parked, not resent.
    // Killed after it was recorded, the next worker replays the answer.
    for (point, status) in [("before-result", "parked"), ("after-call", "done")] {
        let dir = tempdir(point);
        let log = dir.join("calls.log");
        let config = format!("{FAST_LIMITS}{}", local_tool(&log, ALL_LOCAL, ""));
        let env = Env::new("mcp-crash", &config);
        env.deploy("mcp-caller", GRANTS);
        let calls = json!([{"tool": "local/echo", "args": {"message": "once"}}]);
        env.start("mcp-caller", "r", json!({ "calls": calls }));
        let out = env
            .clone_with_env("WAKEFUL_FAILPOINT", point)
            .output(&["work", "--until-idle"]);
        assert_eq!(
            out.status.signal(),
            Some(9),
            "{point}: the worker died there"
        );
        env.work();
        let show = env.show("r");
        assert_eq!(show["status"], status, "{point}: {show}");
        assert_eq!(logged(&log).len(), 1, "{point}: sent once");
    }
}

/// A model that asks for `echo` once, then answers with what it said.
fn echo_model() -> crate::fake_servers::FakeServer {
    use crate::fake_servers::{FakeServer, Reply};
    FakeServer::start(|request| {
        let body = request.json();
        let messages = body["messages"].as_array().unwrap();
        let message = match messages.iter().find(|m| m["role"] == "tool") {
            None => json!({"role": "assistant", "content": null, "tool_calls": [{
                "id": "call_1", "type": "function", "function": {"name": "echo",
                "arguments": "{\"message\":\"from the model\"}"}}]}),
            Some(result) => json!({"role": "assistant",
                "content": format!("echo said {}", result["content"].as_str().unwrap())}),
        };
        let finish = if message["tool_calls"].is_array() {
            "tool_calls"
        } else {
            "stop"
        };
        Reply::Json(
            200,
            json!({"id": "c", "object": "chat.completion", "model": "m-1",
            "choices": [{"index": 0, "message": message, "finish_reason": finish}],
            "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}}),
        )
    })
}

/// The SDK's agent loop offers a model an MCP server's tool under a name of
/// its own: the model's call goes through the gate as `local/echo`, is
/// sent once with its key in `_meta` though the worker is killed right
/// after it, and its result goes back to the model.
#[test]
fn a_model_in_the_agent_loop_calls_an_mcp_tool_once_through_a_crash() {
    use std::os::unix::process::ExitStatusExt;
    let dir = tempdir("mcp-loop");
    let log = dir.join("calls.log");
    let model = echo_model();
    let config = format!(
        "{FAST_LIMITS}{}[tools.llm]\nkind = \"llm\"\nurl = \"{}/v1/chat/completions\"\n\
         model = \"m-1\"\nmax_tokens = 100\ntimeout_ms = 1000\n",
        local_tool(&log, ALL_LOCAL, ""),
        model.url
    );
    let env = Env::new("mcp-loop", &config);
    env.deploy("mcp-caller", GRANTS);
    env.start("mcp-caller", "r", json!({"ask": "Echo something."}));
    let out = env
        .clone_with_env("WAKEFUL_FAILPOINT", "after-call:loop:1:tool:call_1")
        .output(&["work", "--until-idle"]);
    assert_eq!(out.status.signal(), Some(9), "killed after the MCP call");
    env.work();
    let show = env.show("r");
    assert_eq!(show["status"], "done", "{show}");
    let outcome = show["outcome"].as_str().unwrap();
    assert!(outcome.starts_with("echo said "), "{outcome}");
    assert!(outcome.contains("from the model"), "{outcome}");
    let calls = logged(&log);
    assert_eq!(calls.len(), 1, "sent once: {calls:?}");
    assert_eq!(calls[0]["arguments"], json!({"message": "from the model"}));
    meta_key(&calls[0]);
    assert_eq!(model.requests().len(), 2, "each model call once");
    let recorded: Vec<String> = (env.recorded_calls("r").iter())
        .map(|r| {
            format!(
                "{} {}",
                r["data"]["tool"].as_str().unwrap(),
                r["data"]["key"]
            )
        })
        .collect();
    assert!(
        recorded.contains(&"local/echo \"loop:1:tool:call_1\"".to_owned()),
        "{recorded:?}"
    );
}

#[test]
fn pausing_an_mcp_server_holds_each_of_its_tools_and_pausing_one_tool_only_it() {
    let dir = tempdir("mcp-pause");
    let log = dir.join("calls.log");
    let env = Env::new(
        "mcp-pause",
        &format!("{FAST_LIMITS}{}", local_tool(&log, ALL_LOCAL, "")),
    );
    env.deploy("mcp-caller", GRANTS);
    let echo = json!([{"tool": "local/echo", "args": {"message": "held"}}]);
    let env_call = json!([{"tool": "local/env", "args": {}}]);

    env.ok(&["pause", "--tool", "local", "--reason", "server upgrade"]);
    env.start("mcp-caller", "a", json!({ "calls": echo }));
    let out = env.work();
    assert!(
        out.contains("a paused by kill switch `tool:local`"),
        "{out}"
    );
    assert_eq!(env.show("a")["status"], "active");
    env.ok(&["resume", "--tool", "local"]);

    env.ok(&["pause", "--tool", "local/echo"]);
    env.start("mcp-caller", "b", json!({ "calls": env_call }));
    env.work();
    assert_eq!(
        env.show("a")["status"],
        "active",
        "local/echo is still paused"
    );
    assert_eq!(env.show("b")["status"], "done", "local/env is not");
    env.ok(&["resume", "--tool", "local/echo"]);
    env.work();
    assert_eq!(env.show("a")["status"], "done");
    let tools: Vec<String> = logged(&log)
        .iter()
        .map(|c| c["tool"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(tools, ["env", "echo"], "nothing was sent while paused");
}
