//! Attacks on the approval protocol by a guest: asking again for a request
//! that was answered or expired, and changing what a request shows after
//! the approver saw it.

use serde_json::{Value, json};

use crate::harness::Env;

fn pending(env: &Env, run: &str) -> Value {
    env.show(run)["pending_approvals"][0].clone()
}

#[test]
fn runs_that_re_ask_an_answered_request_are_refused_and_block_nobody() {
    let env = Env::new(
        "reask",
        "[limits]\nmax_attempts = 2\nretry_backoff_ms = 0\n",
    );
    env.deploy("waiter", &[]);
    // More hostile runs than one claim examines at once.
    let hostile: Vec<String> = (0..20).map(|i| format!("h{i:02}")).collect();
    for run in &hostile {
        env.start("waiter", run, json!({"approval_ms": 60_000, "reask": true}));
    }
    env.work();
    for run in &hostile {
        env.approve(run, "ok?", &["--by", "bob"]);
    }
    env.start("waiter", "plain", json!({"topic": "go"}));
    env.work();

    let plain = env.show("plain");
    assert_eq!(
        plain["status"], "waiting",
        "the ordinary run was stepped: {plain}"
    );
    for run in &hostile {
        let show = env.show(run);
        assert_eq!(show["status"], "parked", "{show}");
        let error = show["last_error"].as_str().unwrap();
        assert!(
            error.contains(&format!(
                "approval request ok? was already approved by {}; ask again with a new id",
                crate::principal::os_principal()
            )),
            "{error}"
        );
    }
}

#[test]
fn a_run_that_re_asks_an_expired_request_is_parked_not_left_waiting() {
    let env = Env::new(
        "reask-expired",
        "[limits]\nmax_attempts = 1\nretry_backoff_ms = 0\n",
    );
    env.deploy("waiter", &[]);
    env.start("waiter", "e", json!({"approval_ms": 200, "reask": true}));
    env.work();
    std::thread::sleep(std::time::Duration::from_millis(300));
    env.work();
    let show = env.show("e");
    assert_eq!(show["status"], "parked", "{show}");
    assert!(
        show["last_error"]
            .as_str()
            .unwrap()
            .contains("approval request ok? was already expired"),
        "{show}"
    );
}

#[test]
fn changed_details_void_the_old_digest_and_the_wake_carries_the_new_one() {
    let env = Env::new("details-change", "");
    env.deploy("waiter", &[]);
    env.start(
        "waiter",
        "a",
        json!({"approval_ms": 60_000, "topic": "change", "details": {"replicas": 3}}),
    );
    env.work();
    let first = pending(&env, "a");
    assert_eq!(first["details"], json!({"replicas": 3}));
    let seen = first["details_digest"].as_str().unwrap().to_string();

    // The guest changes what it asks while the approver looks at 3.
    let payload = json!({"details": {"replicas": 30}}).to_string();
    env.ok(&[
        "send",
        "a",
        "--topic",
        "change",
        "--id",
        "c1",
        "--payload",
        &payload,
    ]);
    env.work();
    let now = pending(&env, "a");
    assert_eq!(now["details"], json!({"replicas": 30}));
    let current = now["details_digest"].as_str().unwrap().to_string();
    assert_ne!(seen, current);
    assert_ne!(
        first["expires_at_ms"], now["expires_at_ms"],
        "a changed request is a new request"
    );
    let changed = env.audit_rows("a", "approval changed");
    assert_eq!(changed.len(), 1, "{changed:?}");
    assert_eq!(changed[0]["data"]["old_digest"], seen.as_str());

    // An approval of what the approver saw (3) is not an approval of 30.
    let err = env.fails(&["approve", "a", "ok?", "--by", "bob", "--digest", &seen]);
    assert!(err.contains("other details"), "{err}");
    env.work();
    assert_eq!(env.show("a")["status"], "waiting");

    env.ok(&["approve", "a", "ok?", "--by", "bob", "--digest", &current]);
    env.work();
    let show = env.show("a");
    assert_eq!(show["status"], "done", "{show}");
    assert_eq!(
        show["outcome"],
        format!(
            "approved=true by {} digest {current}",
            crate::principal::os_principal()
        ),
        "the wake names the digest of what was approved"
    );
}

#[test]
fn asking_again_unchanged_keeps_the_request_its_expiry_and_its_answer() {
    let env = Env::new("details-same", "");
    env.deploy("waiter", &[]);
    env.start(
        "waiter",
        "s",
        json!({"approval_ms": 60_000, "topic": "change", "details": {"replicas": 3}}),
    );
    env.work();
    let first = pending(&env, "s");
    let payload = json!({"details": {"replicas": 3}}).to_string();
    env.ok(&[
        "send",
        "s",
        "--topic",
        "change",
        "--id",
        "c1",
        "--payload",
        &payload,
    ]);
    env.work();
    let again = pending(&env, "s");
    assert_eq!(first["expires_at_ms"], again["expires_at_ms"]);
    assert_eq!(first["details_digest"], again["details_digest"]);
    assert!(env.audit_rows("s", "approval changed").is_empty());
}
