//! Who may do what: every API token has scopes, and a route outside them is
//! refused 403 naming the scope it needs; tokens live in the config by hash
//! only; the token file exists only on a host with no token configured.

use serde_json::{Value, json};

use crate::api::{RUN, api_config, deploy, incident_with};
use crate::harness::{API_TOKEN, Env, token_config, token_file};

const READER: &str = "reader-token-51a0";
const BOT: &str = "bot-token-9c3e";
const REFUNDS: &str = "refunds-approver-77d1";
const INCIDENTS: &str = "incidents-approver-08b2";

/// The scope a 403 says a call needs.
fn refused_for(answer: &(u16, Value), scope: &str) {
    let (status, body) = answer;
    assert_eq!(*status, 403, "{body}");
    let error = body["error"].as_str().unwrap_or_default();
    assert!(error.contains(&format!("`{scope}` scope")), "{body}");
}

fn tokens() -> String {
    let approver = |name: &str, secret: &str, agent: &str| {
        token_config(name, secret, &["approve", "read"]) + &format!("agents = [\"{agent}\"]\n")
    };
    token_config("reader", READER, &["read"])
        + &token_config("bot", BOT, &["operate"])
        + &approver("refunds", REFUNDS, "refund")
        + &approver("incidents", INCIDENTS, "incident")
        // The admin token deploys the agent here and answers too.
        + "[approvals]\ndeployer_may_answer = true\n"
}

#[test]
fn a_read_token_reads_but_cannot_start_approve_resolve_or_deploy() {
    let (env, server, _) = incident_with("scopes-read", json!({}), &tokens());
    let reader = Some(READER);
    let (status, body) = server.request("GET", &format!("/v1/runs/{RUN}"), reader, None);
    assert_eq!(status, 200, "{body}");
    let (status, body) = server.request("GET", "/v1/audit", reader, None);
    assert_eq!(status, 200, "{body}");

    let start = server.post_as(
        "/v1/runs",
        reader,
        &json!({"agent": "incident", "id": "r2"}),
    );
    refused_for(&start, "operate");
    let answer = json!({"by": "reader", "approved": true, "digest": "00"});
    let path = format!("/v1/runs/{RUN}/approvals/approve-scale_out");
    refused_for(&server.post_as(&path, reader, &answer), "approve");
    let resolve = json!({"key": "k", "retry": true});
    refused_for(
        &server.post_as(&format!("/v1/runs/{RUN}/resolve"), reader, &resolve),
        "resolve",
    );
    refused_for(
        &server.post_as("/v1/pause", reader, &json!({"scope": "all"})),
        "operate",
    );
    // A small body: the refusal comes before the body is read, and a
    // client still writing a large one may see the connection closed.
    let deploy = server.request(
        "POST",
        "/v1/agents",
        reader,
        Some(("application/wasm", b"\0asm\x01\0\0\0".to_vec())),
    );
    refused_for(&deploy, "deploy");
    refused_for(&server.request("GET", "/v1/kv", reader, None), "operate");

    // Nothing the refused calls asked for happened.
    assert_eq!(env.json(&["switches"]), json!([]));
    let (_, runs) = server.get("/v1/runs");
    assert_eq!(runs["items"].as_array().map(Vec::len), Some(1), "{runs}");
    let (_, agents) = server.get("/v1/agents");
    assert_eq!(agents.as_array().map(Vec::len), Some(1), "{agents}");
}

#[test]
fn an_approver_limited_to_one_agent_cannot_answer_anothers_runs_nor_can_a_bot() {
    let (_env, server, _) = incident_with("scopes-approve", json!({}), &tokens());
    let path = format!("/v1/runs/{RUN}/approvals/approve-scale_out");
    // A wrong digest: an answer let through is refused 409 and changes
    // nothing, so each token's right to answer is seen without using up
    // the request.
    let answer = json!({"by": "someone", "approved": true, "digest": "00"});

    let (status, body) = server.post_as(&path, Some(REFUNDS), &answer);
    assert_eq!(status, 403, "{body}");
    let error = body["error"].as_str().unwrap();
    assert!(
        error.contains("may answer only the requests of agents refund")
            && error.contains("`incident`"),
        "{body}"
    );
    refused_for(&server.post_as(&path, Some(BOT), &answer), "approve");

    let (status, body) = server.post_as(&path, Some(INCIDENTS), &answer);
    assert_eq!(
        status, 409,
        "the incident approver gets past the scope check: {body}"
    );
    let (status, body) = server.post_as(&path, Some(API_TOKEN), &answer);
    assert_eq!(status, 409, "admin answers for every agent: {body}");
    let (_, show) = server.get(&format!("/v1/runs/{RUN}"));
    assert_eq!(show["wake_when"], "approval:approve-scale_out", "{show}");

    // The bot operates: it may send an event, but not answer.
    let (status, body) = server.post_as(
        &format!("/v1/runs/{RUN}/events"),
        Some(BOT),
        &json!({"topic": "note", "id": "n1"}),
    );
    assert!(status < 300, "{body}");
}

#[test]
fn a_configured_host_writes_no_token_file_and_an_old_files_token_opens_nothing() {
    let env = Env::new("scopes-token-file", "");
    let server = env.serve();
    let old = std::fs::read_to_string(token_file(&env)).expect("an unconfigured host writes one");
    let old = old.trim().to_string();
    let (status, body) = server.request("GET", "/v1/runs", Some(&old), None);
    assert_eq!(status, 200, "{body}");
    drop(server);

    std::fs::write(env.dir.join("wakeful.toml"), api_config("")).unwrap();
    let server = env.serve();
    let (status, body) = server.request("GET", "/v1/runs", Some(&old), None);
    assert_eq!(status, 401, "the old file's token is refused: {body}");
    let (status, body) = server.request("GET", "/v1/runs", Some(API_TOKEN), None);
    assert_eq!(status, 200, "{body}");
    let log = env.serve_log();
    assert!(log.contains("is not accepted; delete it"), "{log}");
    drop(server);

    let fresh = Env::new("scopes-no-token-file", &api_config(""));
    let server = fresh.serve();
    deploy(&server, "counter-v1", &[]);
    assert!(
        !token_file(&fresh).exists(),
        "a host with tokens configured writes no token file"
    );
}

#[test]
fn a_token_written_in_the_config_is_refused_and_tokens_new_prints_the_lines_to_write() {
    for (config, named) in [
        (
            "[api.tokens]\nalice = \"alice-s3cret\"\n",
            "api.tokens.alice",
        ),
        ("[api]\ntoken = \"s3cret\"\n", "api.token"),
    ] {
        let env = Env::new("scopes-plaintext", config);
        // Every command loads the config: `serve` too, refused the same way.
        let err = env.fails(&["runs"]);
        for said in [
            named,
            "token written in the config file is refused",
            "token_sha256 = ",
            "wakeful tokens new",
        ] {
            assert!(err.contains(said), "{config}: {err}");
        }
        assert!(!token_file(&env).exists(), "{config}");

        // The helper it names works even with the refused config in place.
        let out = env.ok(&["tokens", "new", "alice", "--scopes", "approve,read"]);
        let token = out
            .lines()
            .find_map(|l| l.split_once("): ").map(|(_, t)| t.trim().to_string()))
            .expect("the token, printed once");
        let lines = &out[out.find("[api.tokens.alice]").expect("config lines")..];
        assert!(
            !lines.contains(&token),
            "the config lines never hold the token"
        );
        std::fs::write(env.dir.join("wakeful.toml"), lines).unwrap();
        let server = env.serve();
        let (status, body) = server.request("GET", "/v1/runs", Some(&token), None);
        assert_eq!(status, 200, "{body}");
        let start = server.post_as("/v1/runs", Some(&token), &json!({"agent": "x"}));
        refused_for(&start, "operate");
    }
}
