//! Approvals the host enforces: a tool configured `requires_approval` runs
//! only for a call an approved, unexpired, unused request of the run names
//! (tool and SHA-256 of its arguments), whatever the agent does with the
//! answer; each named call runs once; a quorum counts distinct allowed
//! principals, through authenticated routes only.

use serde_json::{Value, json};

use crate::api::deploy;
use crate::harness::{Env, FAST_LIMITS, api_token_config, token_config};

/// A host whose `refund` tool (a fixed answer) needs an approval.
const GATED: &str = r#"
[tools.refund]
kind = "static"
result = { refunded = true }

[approvals.tools.refund]
requires_approval = true
"#;

fn host(name: &str, extra: &str) -> Env {
    let env = Env::new(name, &format!("{GATED}\n{extra}\n{FAST_LIMITS}"));
    env.deploy("gated", &["refund", "kv"]);
    env
}

/// The `tool` audit rows of a run's calls of `refund`.
fn refund_rows(env: &Env, run: &str) -> Vec<Value> {
    env.audit_rows(run, "tool")
        .into_iter()
        .filter(|r| r["data"]["tool"] == "refund")
        .collect()
}

fn needs_approval(outcome: &Value) -> bool {
    outcome
        .as_str()
        .is_some_and(|o| o.contains("err: denied: needs approval"))
}

#[test]
fn a_call_never_asked_for_is_refused_and_audited() {
    let env = host("gate-never", "");
    env.start("gated", "r", json!({"mode": "never_ask"}));
    env.work();
    let show = env.show("r");
    assert_eq!(show["status"], "done", "{show}");
    assert!(needs_approval(&show["outcome"]), "{show}");
    let rows = refund_rows(&env, "r");
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(rows[0]["data"]["outcome"], "needs approval", "{rows:?}");
    assert!(env.recorded_calls("r").is_empty());
}

#[test]
fn a_run_that_ignores_a_rejection_is_refused_and_audited() {
    let env = host("gate-ignore", "");
    env.start("gated", "r", json!({"mode": "ignore_rejection"}));
    env.work();
    env.approve("r", "pay", &["--reject", "--by", "bob"]);
    env.work();
    let show = env.show("r");
    assert!(needs_approval(&show["outcome"]), "{show}");
    let rows = refund_rows(&env, "r");
    assert_eq!(rows[0]["data"]["outcome"], "needs approval", "{rows:?}");
}

#[test]
fn an_approved_call_runs_once_and_other_arguments_are_refused() {
    let env = host("gate-once", "");
    env.start("gated", "twice", json!({"mode": "twice"}));
    env.start("gated", "other", json!({"mode": "other_args"}));
    env.start("gated", "again", json!({"mode": "again"}));
    env.work();
    for run in ["twice", "other", "again"] {
        env.approve(run, "pay", &["--by", "bob"]);
    }
    env.work();
    let twice = env.show("twice")["outcome"].clone();
    let (first, second) = twice.as_str().unwrap().split_once(" | ").unwrap();
    assert_eq!(first, r#"ok: {"refunded":true}"#, "{twice}");
    assert!(needs_approval(&json!(second)), "{twice}");
    let other = env.show("other");
    assert!(needs_approval(&other["outcome"]), "{other}");
    assert_eq!(env.recorded_calls("twice").len(), 1);
    // The same key again is the same call: its recorded result, not a refusal.
    let again = env.show("again")["outcome"].clone();
    let ok = r#"ok: {"refunded":true}"#;
    assert_eq!(again, format!("{ok} | {ok}"));
    assert_eq!(env.recorded_calls("again").len(), 1);
    // The request records which call used its named call.
    let used = env.sql_query("SELECT used_calls FROM approvals WHERE run_id = 'twice'");
    assert_eq!(used, [[json!(r#"{"0":"k1"}"#)]]);
}

#[test]
fn an_honest_run_is_let_through_and_a_built_in_tool_can_be_gated() {
    let env = host(
        "gate-honest",
        "[approvals.tools.kv]\nrequires_approval = true\n",
    );
    env.start("gated", "r", json!({"mode": "honest"}));
    let get = json!({"op": "get", "key": "k"});
    env.start(
        "gated",
        "kv-never",
        json!({"mode": "never_ask", "tool": "kv", "args": get}),
    );
    env.start(
        "gated",
        "kv",
        json!({"mode": "honest", "tool": "kv", "args": get}),
    );
    env.work();
    env.approve("r", "pay", &["--by", "bob"]);
    env.approve("kv", "pay", &["--by", "bob"]);
    env.work();
    assert_eq!(env.show("r")["outcome"], r#"ok: {"refunded":true}"#);
    assert!(needs_approval(&env.show("kv-never")["outcome"]));
    let kv = env.show("kv")["outcome"].clone();
    assert!(kv.as_str().unwrap().starts_with("ok: "), "{kv}");
}

#[test]
fn a_crash_before_the_commit_consumes_nothing() {
    let env = host("gate-crash", "");
    env.start("gated", "r", json!({"mode": "honest"}));
    env.work();
    env.approve("r", "pay", &["--by", "bob"]);
    let out = env
        .clone_with_env("WAKEFUL_FAILPOINT", "before-commit:r")
        .output(&["work", "--until-idle"]);
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("failpoint before-commit"),
        "{out:?}"
    );
    let used = env.sql_query("SELECT used_calls FROM approvals WHERE run_id = 'r'");
    assert_eq!(
        used,
        [[json!("{}")]],
        "a step that never committed used nothing"
    );
    env.work();
    assert_eq!(env.show("r")["outcome"], r#"ok: {"refunded":true}"#);
    assert_eq!(env.recorded_calls("r").len(), 1);
}

/// The tokens of the quorum tests: an admin, two approvers in `sre` and
/// one outside it.
fn quorum_tokens() -> String {
    let approver = ["approve", "read"];
    [
        api_token_config(),
        token_config("alice", "alice-token-0001", &approver),
        token_config("bob", "bob-token-00002", &approver),
        token_config("eve", "eve-token-00003", &approver),
    ]
    .concat()
}

const QUORUM: &str = r#"

[groups]
sre = ["alice", "bob"]

[tools.refund]
kind = "static"
result = { refunded = true }

[approvals.tools.refund]
requires_approval = true
approvers = ["group:sre"]
quorum = 2
"#;

#[test]
fn a_quorum_of_two_answered_by_one_principal_twice_stays_unanswered() {
    let env = Env::new(
        "gate-quorum",
        &format!("{}{QUORUM}\n{FAST_LIMITS}", quorum_tokens()),
    );
    let server = env.serve();
    deploy(&server, "gated", &["refund", "kv"]);
    let (status, body) = server.post(
        "/v1/runs",
        &json!({"agent": "gated", "input": {"mode": "honest"}, "id": "q"}),
    );
    assert_eq!(status, 201, "{body}");
    let show = server.wait_run("q", "the request", |r| {
        r["pending_approvals"]
            .as_array()
            .is_some_and(|p| !p.is_empty())
    });
    let link = show["pending_approvals"][0]["answer_url"]
        .as_str()
        .unwrap()
        .to_string();
    let digest = show["pending_approvals"][0]["details_digest"].clone();
    let answer = |token: &str| {
        let body = json!({"by": "someone", "approved": true, "digest": digest});
        server.post_as("/v1/runs/q/approvals/pay", Some(token), &body)
    };

    for _ in 0..2 {
        let (status, body) = answer("alice-token-0001");
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["answer"], Value::Null, "one principal twice: {body}");
        assert_eq!(body["votes"].as_array().unwrap().len(), 1, "{body}");
    }
    let (status, body) = answer("eve-token-00003");
    assert_eq!(status, 403, "eve is not an approver: {body}");
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("eve may not answer"),
        "{body}"
    );
    let (status, body) = server.post_as(&link, None, &json!({"by": "bob", "approved": true}));
    assert_eq!(status, 403, "a link proves nobody: {body}");
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("answer link cannot say who"),
        "{body}"
    );
    // The page's form is a link answer too.
    let origin = format!("http://{}", server.authority());
    let form = format!(
        "decision=approve&by=bob&digest={}",
        digest.as_str().unwrap()
    );
    let headers = [
        ("Content-Type", "application/x-www-form-urlencoded"),
        ("Origin", origin.as_str()),
    ];
    let (status, page) = server.raw("POST", &link, &headers, form.as_bytes());
    assert_eq!(status, 403, "{page}");
    assert!(
        page.as_str()
            .unwrap()
            .contains("answer link cannot say who"),
        "{page}"
    );
    assert_eq!(server.get("/v1/runs/q").1["status"], "waiting");

    let (status, body) = answer("bob-token-00002");
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["answer"]["approved"], true, "{body}");
    assert_eq!(body["answer"]["by"], "alice, bob", "{body}");
    let done = server.wait_run("q", "done", |r| r["status"] == "done");
    assert_eq!(done["outcome"], r#"ok: {"refunded":true}"#, "{done}");
    drop(server);
    let votes = env.audit_rows("q", "approval vote");
    let by: Vec<&str> = votes
        .iter()
        .map(|v| v["data"]["by"].as_str().unwrap())
        .collect();
    assert_eq!(by, ["alice", "alice", "bob"], "{votes:?}");
}

#[test]
fn an_allowed_no_rejects_at_once_and_the_run_cannot_call() {
    let env = Env::new(
        "gate-quorum-no",
        &format!("{}{QUORUM}\n{FAST_LIMITS}", quorum_tokens()),
    );
    let server = env.serve();
    deploy(&server, "gated", &["refund", "kv"]);
    let input = json!({"mode": "ignore_rejection"});
    let (status, body) = server.post(
        "/v1/runs",
        &json!({"agent": "gated", "input": input, "id": "q"}),
    );
    assert_eq!(status, 201, "{body}");
    let asking = server.wait_run("q", "the request", |r| {
        r["pending_approvals"]
            .as_array()
            .is_some_and(|p| !p.is_empty())
    });
    let digest = asking["pending_approvals"][0]["details_digest"].clone();
    let body = json!({"by": "x", "approved": true, "digest": digest});
    let (status, _) = server.post_as("/v1/runs/q/approvals/pay", Some("alice-token-0001"), &body);
    assert_eq!(status, 200);
    let body = json!({"by": "x", "approved": false, "digest": digest});
    let (status, body) = server.post_as("/v1/runs/q/approvals/pay", Some("bob-token-00002"), &body);
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["answer"]["approved"], false, "{body}");
    let done = server.wait_run("q", "done", |r| r["status"] == "done");
    assert!(needs_approval(&done["outcome"]), "{done}");
}

#[test]
fn a_config_naming_an_unknown_group_or_an_impossible_quorum_is_refused() {
    for (config, error) in [
        (
            "[approvals.tools.kv]\nrequires_approval = true\napprovers = [\"group:sre\"]\n",
            "approvals.tools.kv.approvers names `group:sre`, but [groups] has no `sre`",
        ),
        (
            "[approvals.tools.kv]\nrequires_approval = true\napprovers = [\"alice\"]\nquorum = 2\n",
            "approvals.tools.kv.quorum is 2, but its approvers are only 1 principals",
        ),
        (
            "[approvals.tools.refunds]\nrequires_approval = true\n",
            "approvals.tools.refunds: no tool named `refunds`",
        ),
    ] {
        let env = Env::new("gate-config", config);
        let stderr = env.fails(&["runs"]);
        assert!(stderr.contains(error), "{stderr}");
    }
}
