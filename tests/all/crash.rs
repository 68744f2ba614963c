//! Crashes at every persistence and effect boundary (the failpoint sweep):
//! the process is SIGKILLed there, a new one finishes the work, and nothing
//! is lost, done twice or left inconsistent.

use std::collections::{BTreeMap, BTreeSet};
use std::os::unix::process::ExitStatusExt;
use std::path::Path;

use serde_json::json;

use crate::fake_servers::{FakeServer, Reply};
use crate::harness::{Env, FAST_LIMITS};

/// Runs a command that must die at `point`; returns whether it did.
fn crash_at(env: &Env, point: &str, args: &[&str]) -> bool {
    let out = env.clone_with_env("WAKEFUL_FAILPOINT", point).output(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let killed = out.status.signal() == Some(9);
    assert!(
        killed || out.status.success(),
        "wakeful {args:?} at {point} neither died nor succeeded: {stderr}"
    );
    killed && stderr.contains(&format!("failpoint {point}"))
}

/// The database file is whole after a crash.
fn integrity_ok(env: &Env) {
    let db = env.dir.join("data/wakeful.db");
    assert!(Path::new(&db).exists(), "{}", db.display());
    let conn = rusqlite::Connection::open(&db).unwrap();
    let check: String = conn
        .query_row("PRAGMA integrity_check", [], |row| row.get(0))
        .unwrap();
    assert_eq!(check, "ok");
}

/// Checkpoints numbered 1..=n with no gap or repeat.
fn checkpoints_without_gaps(env: &Env, run: &str) {
    let history = env.json(&["history", run]);
    let seqs: Vec<u64> = history
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["seq"].as_u64().unwrap())
        .collect();
    let expected: Vec<u64> = (1..=seqs.len() as u64).collect();
    assert_eq!(seqs, expected, "{history}");
}

/// Requests per `Idempotency-Key` a sink saw.
fn per_key(server: &FakeServer) -> BTreeMap<String, usize> {
    let mut seen = BTreeMap::new();
    for r in server.requests() {
        let key = r.header("Idempotency-Key").unwrap_or_default().to_string();
        *seen.entry(key).or_insert(0) += 1;
    }
    seen
}

/// A step with two calls to a sink that drops repeated keys: crashes
/// around the calls and the commit.
fn tool_scenario(point: &str) -> bool {
    let sink = FakeServer::start(|_| Reply::Json(200, json!({"applied": true})));
    let config = format!(
        "{FAST_LIMITS}[tools.pager]\nkind = \"http\"\nurl = \"{}/effect\"\ntimeout_ms = 1000\n\
         idempotent = true\n",
        sink.url
    );
    let env = Env::new(&format!("sweep-{point}"), &config);
    env.deploy("caller", &["pager", "llm"]);
    let calls = json!([{"tool": "pager", "args": {}}, {"tool": "pager", "args": {}}]);
    let input = json!({ "calls": calls }).to_string();
    env.ok(&["start", "caller", "--id", "r", "--input", &input]);
    let hit = crash_at(&env, point, &["work", "--until-idle"]);
    integrity_ok(&env);
    env.work();
    integrity_ok(&env);
    let show = env.show("r");
    assert_eq!(show["status"], "done", "after a crash at {point}: {show}");
    checkpoints_without_gaps(&env, "r");
    let keys = per_key(&sink);
    assert_eq!(
        keys.len(),
        2,
        "two distinct effects after a crash at {point}: {keys:?}"
    );
    // The ledger gave the guest each result once.
    assert_eq!(env.audit_rows("r", "tool").len(), 2, "at {point}");
    hit
}

fn upgrade_scenario(point: &str) -> bool {
    let env = Env::new("sweep-upgrade", FAST_LIMITS);
    env.deploy("counter-v1", &[]);
    env.ok(&["start", "counter", "--id", "a", "--input", "{}"]);
    env.work();
    env.deploy("counter-v2", &["kv"]);
    let upgrade = ["upgrade", "a", "--to", "2.0.0", "--allow-new-tools"];
    let hit = crash_at(&env, point, &upgrade);
    integrity_ok(&env);
    assert_eq!(
        env.show("a")["version"],
        "1.0.0",
        "a crashed upgrade changes nothing"
    );
    // The dead process's claim on the run expires (claim_ms), then the
    // upgrade goes through.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while env.show("a")["version"] != "2.0.0" {
        assert!(
            std::time::Instant::now() < deadline,
            "the upgrade never went through"
        );
        env.ok(&upgrade);
        std::thread::sleep(std::time::Duration::from_millis(300));
    }
    assert_eq!(env.audit_rows("a", "upgrade").len(), 1);
    hit
}

fn approval_scenario(point: &str) -> bool {
    let env = Env::new("sweep-approval", "");
    env.deploy("waiter", &[]);
    let input = json!({"approval_ms": 60_000}).to_string();
    env.ok(&["start", "waiter", "--id", "a", "--input", &input]);
    env.work();
    let hit = crash_at(&env, point, &["approve", "a", "ok?", "--by", "bob"]);
    integrity_ok(&env);
    assert_eq!(
        env.show("a")["pending_approvals"].as_array().unwrap().len(),
        1
    );
    env.ok(&["approve", "a", "ok?", "--by", "bob"]);
    env.work();
    assert_eq!(env.show("a")["status"], "done");
    assert_eq!(env.audit_rows("a", "approval").len(), 1);
    hit
}

fn schedule_scenario(point: &str) -> bool {
    let env = Env::new("sweep-schedule", FAST_LIMITS);
    env.deploy("waiter", &[]);
    env.ok(&[
        "schedule",
        "add",
        "tick",
        "waiter",
        "--cron",
        "* * * * * *",
        "--input",
        "{\"topic\":\"t\"}",
    ]);
    std::thread::sleep(std::time::Duration::from_millis(1100));
    let hit = crash_at(&env, point, &["work", "--until-idle"]);
    integrity_ok(&env);
    env.work();
    let runs = env.json(&["runs"]);
    let ids: BTreeSet<String> = runs
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["run_id"].as_str().unwrap().to_string())
        .collect();
    assert!(
        !ids.is_empty(),
        "the schedule started its run after the crash"
    );
    assert!(ids.iter().all(|id| id.starts_with("tick-")), "{ids:?}");
    hit
}

#[test]
fn a_crash_at_every_failpoint_loses_nothing_and_repeats_nothing() {
    let listed = Env::new("sweep-list", "").ok(&["failpoints"]);
    let points: Vec<&str> = listed.lines().collect();
    assert!(
        points.len() >= 10,
        "the binary lists its failpoints: {listed}"
    );
    let mut unreached = vec![];
    for point in &points {
        let hit = match *point {
            "upgrade" => upgrade_scenario(point),
            "approval-answer" => approval_scenario(point),
            "schedule-fire" => schedule_scenario(point),
            _ => tool_scenario(point),
        };
        if !hit {
            unreached.push(point.to_string());
        }
    }
    assert!(
        unreached.is_empty(),
        "no scenario reached the failpoints {unreached:?}"
    );
}
