//! Every bad input gets a clear error naming what was wrong, and nothing
//! already stored changes.

use serde_json::{Value, json};

use crate::harness::{Env, INCIDENT_TOOLS, agent};

/// What an operator can read back, to compare before and after bad input.
fn snapshot(env: &Env, run: &str) -> Vec<Value> {
    vec![
        env.json(&["agents"]),
        env.json(&["runs"]),
        env.show(run),
        env.json(&["history", run]),
    ]
}

#[test]
fn bad_input_is_refused_clearly_and_changes_nothing() {
    let env = Env::new("bad-input", INCIDENT_TOOLS);
    env.deploy("invoice-mail", &["kv"]);
    env.ok(&["start", "invoice-mail", "--id", "keep"]);
    env.work();
    let before = snapshot(&env, "keep");

    let junk = env.dir.join("junk.wasm");
    std::fs::write(&junk, b"this is not wasm").unwrap();
    let err = env.fails(&["deploy", junk.to_str().unwrap(), "--grant-all"]);
    assert!(err.contains("not a WebAssembly"), "{err}");

    let core = env.dir.join("core.wasm");
    std::fs::write(&core, b"\0asm\x01\0\0\0").unwrap();
    let err = env.fails(&["deploy", core.to_str().unwrap(), "--grant-all"]);
    assert!(
        err.contains("core WebAssembly module, not a component"),
        "{err}"
    );

    let bad_import = agent("bad-import");
    let err = env.fails(&["deploy", bad_import.to_str().unwrap(), "--grant-all"]);
    assert!(err.contains("acme:missing"), "{err}");

    let incident = agent("incident");
    let err = env.fails(&["deploy", incident.to_str().unwrap(), "--grant", "kv"]);
    assert!(err.contains("not granted: lease, llm"), "{err}");

    let err = env.fails(&[
        "deploy",
        incident.to_str().unwrap(),
        "--grant-all",
        "--owner",
        " ",
    ]);
    assert!(err.contains("--owner is empty"), "{err}");
    let err = env.fails(&["start", "invoice-mail", "--input", "{not json"]);
    assert!(err.contains("--input is not valid JSON"), "{err}");
    let err = env.fails(&["start", "nobody"]);
    assert!(err.contains("no agent nobody is deployed"), "{err}");
    let err = env.fails(&["start", "invoice-mail", "--id", "keep"]);
    assert!(err.contains("already exists"), "{err}");

    for args in [
        vec!["show", "nope"],
        vec!["history", "nope"],
        vec!["audit", "nope"],
        vec!["send", "nope", "--topic", "t", "--id", "e1"],
        vec!["approve", "nope", "apr", "--by", "me", "--digest", "00"],
    ] {
        let err = env.fails(&args);
        assert!(err.contains("run nope does not exist"), "{args:?}: {err}");
    }
    let err = env.fails(&["approve", "keep", "apr_7", "--by", "me", "--digest", "00"]);
    assert!(err.contains("has no approval request apr_7"), "{err}");
    let err = env.fails(&[
        "send",
        "keep",
        "--topic",
        "mail:invoice",
        "--id",
        "e1",
        "--payload",
        "{",
    ]);
    assert!(err.contains("--payload is not valid JSON"), "{err}");
    let big = env.dir.join("big.json");
    std::fs::write(&big, format!("\"{}\"", "x".repeat(300 * 1024))).unwrap();
    let big = format!("@{}", big.display());
    let err = env.fails(&[
        "send",
        "keep",
        "--topic",
        "mail:invoice",
        "--id",
        "e2",
        "--payload",
        &big,
    ]);
    assert!(err.contains("the limit is 262144"), "{err}");
    let err = env.fails(&["kv", "put", "shared/t/k", "{oops"]);
    assert!(err.contains("not valid JSON"), "{err}");

    assert_eq!(
        snapshot(&env, "keep"),
        before,
        "bad input changed stored data"
    );
    assert_eq!(env.kv("shared/t/k"), Value::Null);
}

#[test]
fn a_broken_config_is_refused_by_name() {
    let env = Env::new("bad-config", "[limits]\nstep_budget = 3\n");
    let err = env.fails(&["runs"]);
    assert!(
        err.contains("wakeful.toml") && err.contains("step_budget"),
        "{err}"
    );
}

#[test]
fn a_tool_not_granted_is_denied_to_the_guest() {
    let env = Env::new("not-granted", "");
    env.deploy("hostile", &["kv"]);
    let input = json!({"mode": "tool", "tool": "lease",
        "args": {"op": "acquire", "resource": "r", "holder": "h", "ttl_ms": 1000}});
    env.ok(&[
        "start",
        "hostile",
        "--id",
        "t",
        "--input",
        &input.to_string(),
    ]);
    env.work();
    let show = env.show("t");
    assert_eq!(show["status"], "done", "{show}");
    let outcome = show["outcome"].as_str().unwrap();
    assert!(outcome.contains("not granted"), "{outcome}");
    let out = env.ok(&[
        "lease",
        "acquire",
        "agent/hostile/r",
        "--holder",
        "other",
        "--ttl",
        "5",
    ]);
    assert!(
        out.contains("\"granted\":true"),
        "the denied call took no lease: {out}"
    );
}

#[test]
fn a_data_file_from_a_newer_wakeful_is_refused_untouched() {
    let env = Env::sqlite("newer-file", "");
    env.ok(&["kv", "put", "shared/t/k", "1"]);
    let db = env.sqlite_file();
    env.sql_execute("PRAGMA user_version = 999");
    let before = std::fs::read(&db).unwrap();
    let err = env.fails(&["kv", "get", "shared/t/k"]);
    assert!(
        err.contains("newer wakeful") && err.contains("schema 999"),
        "{err}"
    );
    assert_eq!(
        std::fs::read(&db).unwrap(),
        before,
        "the file was not touched"
    );
}
