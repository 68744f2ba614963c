//! Who acted is who the host authenticated: an audit row's `by` is the
//! token, the console user, the OS user of the command line or the answer
//! link itself; a name the caller typed is kept beside it as `said`. An
//! answer names the digest of what it answers, the principal who deployed
//! a version may not answer its runs, and the store keeps no link token
//! that a copy of it could answer with.

use serde_json::{Value, json};

use crate::harness::{Env, StoreKind, agent, api_token_config, token_config};

const BOT: &str = "bot-token-5f1e";
const ALICE: &str = "alice-token-09ab";

fn config() -> String {
    format!(
        "{}{}{}",
        api_token_config(),
        token_config("bot", BOT, &["operate", "approve", "read"]),
        token_config("alice", ALICE, &["deploy", "operate", "approve", "read"])
    )
}

const ANSWER: &str = "/v1/runs/w/approvals/ok%3F";

/// The run's audit rows of `kind`, through the API.
fn audit_rows(server: &crate::serve_process::Server, kind: &str) -> Vec<Value> {
    let (status, body) = server.get("/v1/audit?limit=1000");
    assert_eq!(status, 200, "{body}");
    body["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["kind"] == kind && r["run_id"] == "w")
        .cloned()
        .collect()
}

/// The OS user the tests run as, as the command line names it.
pub fn os_principal() -> String {
    let out = std::process::Command::new("id")
        .arg("-un")
        .output()
        .unwrap();
    format!("os:{}", String::from_utf8(out.stdout).unwrap().trim())
}

#[test]
fn a_token_answers_as_itself_and_the_name_in_its_body_is_only_said() {
    let env = Env::new("principal-api", &config());
    let server = env.serve();
    let bytes = std::fs::read(agent("waiter")).unwrap();
    let (status, body) = server.request(
        "POST",
        "/v1/agents",
        Some(ALICE),
        Some(("application/wasm", bytes)),
    );
    assert_eq!(status, 201, "{body}");
    let (status, body) = server.post_as(
        "/v1/runs",
        Some(BOT),
        &json!({"agent": "waiter", "id": "w", "input": {"approval_ms": 600_000}}),
    );
    assert_eq!(status, 201, "{body}");
    let show = server.wait_run("w", "its approval request", |r| {
        r["pending_approvals"][0].is_object()
    });
    let digest = show["pending_approvals"][0]["details_digest"]
        .as_str()
        .unwrap()
        .to_string();

    // No digest: refused, saying where to find it.
    let (status, body) = server.post_as(
        ANSWER,
        Some(BOT),
        &json!({"by": "alice (CISO)", "approved": true}),
    );
    assert_eq!(status, 400, "{body}");
    let error = body["error"].as_str().unwrap();
    assert!(
        error.contains("`digest` is missing") && error.contains("GET /v1/runs/w"),
        "{error}"
    );

    // The token that deployed the version may not answer its runs.
    let (status, body) = server.post_as(
        ANSWER,
        Some(ALICE),
        &json!({"approved": true, "digest": digest}),
    );
    assert_eq!(status, 403, "{body}");
    let error = body["error"].as_str().unwrap();
    assert!(error.contains("separation of duties"), "{error}");

    let (status, body) = server.post_as(
        ANSWER,
        Some(BOT),
        &json!({"by": "alice (CISO)", "approved": true, "digest": digest}),
    );
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["answer"]["by"], "bot", "{body}");
    assert_eq!(body["answer"]["said"], "alice (CISO)", "{body}");
    let rows = audit_rows(&server, "approval");
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(rows[0]["data"]["by"], "bot", "{rows:?}");
    assert_eq!(rows[0]["data"]["said"], "alice (CISO)", "{rows:?}");
    let text = env.ok(&["audit", "w"]);
    assert!(
        text.contains("ok? approved by bot (said: alice (CISO))"),
        "{text}"
    );
}

#[test]
fn the_deployer_may_answer_when_the_config_allows_it() {
    let env = Env::new(
        "principal-sod-off",
        &format!("{}[approvals]\ndeployer_may_answer = true\n", config()),
    );
    let server = env.serve();
    let bytes = std::fs::read(agent("waiter")).unwrap();
    let (status, body) = server.request(
        "POST",
        "/v1/agents",
        Some(ALICE),
        Some(("application/wasm", bytes)),
    );
    assert_eq!(status, 201, "{body}");
    let input = json!({"agent": "waiter", "id": "w", "input": {"approval_ms": 600_000}});
    let (status, body) = server.post_as("/v1/runs", Some(ALICE), &input);
    assert_eq!(status, 201, "{body}");
    let show = server.wait_run("w", "its approval request", |r| {
        r["pending_approvals"][0].is_object()
    });
    let digest = &show["pending_approvals"][0]["details_digest"];
    let (status, body) = server.post_as(
        ANSWER,
        Some(ALICE),
        &json!({"approved": false, "digest": digest}),
    );
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["answer"]["by"], "alice", "{body}");
    assert!(body["answer"].get("said").is_none(), "{body}");
}

#[test]
fn the_command_line_answers_as_the_os_user_with_the_digest_it_was_shown() {
    let env = Env::new("principal-cli", "");
    env.deploy("waiter", &[]);
    env.start("waiter", "w", json!({"approval_ms": 600_000}));
    env.work();
    let err = env.fails(&["approve", "w", "ok?", "--by", "carol"]);
    assert!(
        err.contains("--digest is missing") && err.contains("wakeful show w"),
        "{err}"
    );
    let shown = env.ok(&["show", "w"]);
    let digest = env.show("w")["pending_approvals"][0]["details_digest"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(shown.contains(&format!("--digest {digest}")), "{shown}");
    let said = env.ok(&["approve", "w", "ok?", "--by", "carol", "--digest", &digest]);
    let me = os_principal();
    assert!(said.contains(&format!("as {me} (said: carol)")), "{said}");
    let row = &env.audit_rows("w", "approval")[0];
    assert_eq!(row["data"]["by"], me.as_str(), "{row}");
    assert_eq!(row["data"]["said"], "carol", "{row}");
    let deployed = &env.json(&["agents"])[0];
    assert_eq!(deployed["deployed_by"], me.as_str(), "{deployed}");
}

#[test]
fn a_copy_of_the_store_holds_no_link_token_and_its_stored_value_answers_nothing() {
    let env = Env::new("principal-links", &crate::api::api_config(""));
    env.deploy("waiter", &[]);
    env.start("waiter", "w", json!({"approval_ms": 600_000}));
    env.work();
    let server = env.serve();
    let (status, show) = server.get("/v1/runs/w");
    assert_eq!(status, 200, "{show}");
    let link = show["pending_approvals"][0]["answer_url"]
        .as_str()
        .expect("the API shows the answer link")
        .to_string();
    let token = link.trim_start_matches("/v1/approve/").to_string();
    drop(server);

    let stored = env.sql_query("SELECT token FROM approvals");
    let stored = stored[0][0].as_str().unwrap().to_string();
    assert_eq!(stored.len(), 64, "{stored}");
    assert_ne!(stored, token);
    for table in [
        "approvals",
        "audit",
        "checkpoints",
        "runs",
        "waits",
        "ledger",
    ] {
        for row in env.sql_query(&format!("SELECT * FROM {table}")) {
            let text = Value::Array(row).to_string();
            assert!(
                !text.contains(&token),
                "{table} holds the link token: {text}"
            );
        }
    }
    if env.store_kind() == StoreKind::Sqlite {
        let file = env.sqlite_file();
        for path in [file.clone(), file.with_extension("db-wal")] {
            let bytes = std::fs::read(&path).unwrap_or_default();
            let found = bytes.windows(token.len()).any(|w| w == token.as_bytes());
            assert!(!found, "{} holds the link token", path.display());
        }
    }

    // Restarted, the host shows the same link, which still answers; the
    // value a copy of the store holds does not.
    let server = env.serve();
    let (_, show) = server.get("/v1/runs/w");
    assert_eq!(show["pending_approvals"][0]["answer_url"], link.as_str());
    let answer = json!({"by": "bob", "approved": true});
    let (status, body) = server.post_as(&format!("/v1/approve/{stored}"), None, &answer);
    assert_eq!(status, 404, "{body}");
    let (status, body) = server.post_as(&link, None, &answer);
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["answer"]["by"], "link:ok?", "{body}");
    assert_eq!(body["answer"]["said"], "bob", "{body}");
}
