//! Who did it: every operator act in the audit log names who acted — on
//! the command line the OS user it runs as (`os:<user>`: whoever can
//! write the data directory owns the host; `--by`, `WAKEFUL_BY` and
//! `$USER` name no one), through the API the name of the token the request
//! carried.

use serde_json::{Value, json};

use crate::harness::{API_TOKEN, API_TOKEN_NAME, Env, agent, api_token_config, token_config};

/// The `by` of every audit row of `kind`, in order.
fn by_of(rows: &Value, kind: &str) -> Vec<String> {
    rows.as_array()
        .unwrap()
        .iter()
        .filter(|r| r["kind"] == kind)
        .map(|r| r["data"]["by"].as_str().unwrap_or("<none>").to_string())
        .collect()
}

#[test]
fn every_operator_act_on_the_command_line_names_who_did_it() {
    let base = Env::new("who-cli", "");
    let dave = base.clone_with_env("USER", "dave");
    let path = agent("counter-v1");
    dave.ok(&["deploy", path.to_str().unwrap(), "--by", "carol"]);
    dave.ok(&["start", "counter", "--id", "c"]);
    dave.clone_with_env("WAKEFUL_BY", "erin")
        .ok(&["start", "counter", "--id", "d"]);
    dave.ok(&["work", "--until-idle"]);
    dave.ok(&["send", "c", "--topic", "tick", "--id", "t1"]);
    dave.ok(&["send", "--topic", "tick", "--id", "t2", "--by", "carol"]);
    dave.ok(&["pause", "--run", "c"]);
    dave.ok(&["resume", "--run", "c", "--by", "carol"]);
    dave.ok(&["kv", "put", "shared/ops/k", "1"]);
    dave.ok(&[
        "lease",
        "acquire",
        "shared/ops/db",
        "--holder",
        "me",
        "--ttl",
        "60",
    ]);
    let v2 = agent("counter-v2");
    dave.ok(&["deploy", v2.to_str().unwrap(), "--grant", "kv"]);
    dave.ok(&["upgrade", "d", "--to", "2.0.0", "--allow-new-tools"]);
    dave.ok(&["cancel", "c", "--reason", "done with it", "--by", "carol"]);
    dave.ok(&["schedule", "add", "s", "counter", "--cron", "0 9 * * *"]);
    dave.ok(&["schedule", "remove", "s", "--by", "carol"]);
    dave.ok(&["prune", "--older-than-days", "0"]);

    let rows = base.audit_json(&["audit"]);
    let me = crate::principal::os_principal();
    for (kind, count) in [
        ("deploy", 2),
        ("start", 2),
        ("event", 3),
        ("pause", 1),
        ("resume", 1),
        ("kv write", 1),
        ("lease", 1),
        ("upgrade", 1),
        ("cancelled", 1),
        ("schedule", 1),
        ("schedule removed", 1),
        ("prune", 1),
    ] {
        assert_eq!(
            by_of(&rows, kind),
            vec![me.clone(); count],
            "{kind}: {rows}"
        );
    }

    // An answer names the digest of what it answers.
    let err = dave.fails(&["approve", "d", "ok?"]);
    assert!(err.contains("--digest is missing"), "{err}");
}

#[test]
fn every_operator_act_through_the_api_names_the_token_that_made_it() {
    let config = format!(
        "{}{}{}",
        api_token_config(),
        token_config("alice", "alice-token-7d2e", &["deploy", "operate", "read"]),
        token_config("bob@ops", "bob-token-19fa", &["operate"]),
    );
    let env = Env::new("who-api", &config);
    let server = env.serve();
    let alice = Some("alice-token-7d2e");
    let bob = Some("bob-token-19fa");
    let deploy = |name: &str, query: &str| {
        let bytes = std::fs::read(agent(name)).unwrap();
        let path = format!("/v1/agents?{query}");
        let (status, body) =
            server.request("POST", &path, alice, Some(("application/wasm", bytes)));
        assert_eq!(status, 201, "{body}");
    };
    deploy("counter-v1", "");
    deploy("counter-v2", "grant=kv");
    let post = |token: Option<&str>, path: &str, body: Value| {
        let (status, answer) = server.post_as(path, token, &body);
        assert!(status < 300, "{path}: {status} {answer}");
    };
    post(
        bob,
        "/v1/runs",
        json!({"agent": "counter@1.0.0", "id": "c"}),
    );
    post(
        alice,
        "/v1/runs",
        json!({"agent": "counter@1.0.0", "id": "d"}),
    );
    server.wait_run("c", "a wait", |r| r["status"] == "waiting");
    server.wait_run("d", "a wait", |r| r["status"] == "waiting");
    post(
        bob,
        "/v1/runs/c/events",
        json!({"topic": "tick", "id": "t1"}),
    );
    post(
        Some(API_TOKEN),
        "/v1/events",
        json!({"topic": "tick", "id": "t2"}),
    );
    post(alice, "/v1/pause", json!({"scope": "run:c"}));
    post(bob, "/v1/resume", json!({"scope": "run:c"}));
    // An upgrade skips a run a worker is stepping: let the broadcast's
    // step end first.
    server.wait_run("d", "the broadcast's step", |r| r["steps"] == 2);
    post(
        alice,
        "/v1/upgrade",
        json!({"run": "d", "to": "2.0.0", "allow_new_tools": true}),
    );
    post(bob, "/v1/runs/c/cancel", json!({"reason": "enough"}));
    let (status, body) = server.request(
        "PUT",
        "/v1/kv/shared/ops/k",
        alice,
        Some(("application/json", b"1".to_vec())),
    );
    assert_eq!(status, 200, "{body}");

    let (status, body) = server.get("/v1/audit?limit=1000");
    assert_eq!(status, 200, "{body}");
    let rows = &body["items"];
    for (kind, expected) in [
        ("deploy", vec!["alice", "alice"]),
        ("start", vec!["bob@ops", "alice"]),
        ("pause", vec!["alice"]),
        ("resume", vec!["bob@ops"]),
        ("upgrade", vec!["alice"]),
        ("cancelled", vec!["bob@ops"]),
        ("kv write", vec!["alice"]),
    ] {
        assert_eq!(by_of(rows, kind), expected, "{kind}: {rows}");
    }
    let events = by_of(rows, "event");
    assert_eq!(events[0], "bob@ops", "{rows}");
    assert!(
        events[1..].iter().all(|b| b == API_TOKEN_NAME),
        "the admin token's name: {rows}"
    );

    let (status, body) = server.request("GET", "/v1/runs", Some("carol-token"), None);
    assert_eq!(status, 401, "{body}");
    assert!(body["error"].is_string(), "{body}");
}

#[test]
fn a_bad_token_name_or_a_token_given_twice_is_refused_at_load() {
    let twice = token_config("alice", "t-1", &["read"]) + &token_config("bob", "t-1", &["read"]);
    for (config, named) in [
        (
            token_config("al ice", "t-1", &["read"]),
            "`al ice` is not a token name",
        ),
        (twice, "same token"),
    ] {
        let env = Env::new("who-bad-tokens", &config);
        let err = env.fails(&["runs"]);
        assert!(err.contains(named), "{config}: {err}");
    }
}
