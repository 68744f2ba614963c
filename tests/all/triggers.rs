//! Timers, cron, several waits at once, approvals bound to their details,
//! and kill switches per run, agent and tool.

use std::time::Duration;

use serde_json::json;

use crate::harness::Env;

fn waiter(name: &str, config: &str) -> Env {
    let env = Env::new(name, config);
    env.deploy("waiter", &[]);
    env
}

fn outcome(env: &Env, run: &str) -> String {
    let show = env.show(run);
    assert_eq!(show["status"], "done", "{show}");
    show["outcome"].as_str().unwrap().to_string()
}

#[test]
fn an_until_wait_fires_once_it_is_due() {
    let env = waiter("until", "");
    env.start("waiter", "t", json!({"after_ms": 1500}));
    env.work();
    let show = env.show("t");
    assert_eq!(show["status"], "waiting");
    assert!(
        show["wake_when"].as_str().unwrap().starts_with("until:2"),
        "{show}"
    );
    assert!(env.work().contains("idle after 0 step(s)"), "not due yet");
    std::thread::sleep(Duration::from_millis(1600));
    env.work();
    assert!(outcome(&env, "t").starts_with("timer due at "));
}

#[test]
fn cron_waits_are_checked_and_shown() {
    let env = waiter("cron", "[limits]\nmax_attempts = 1\n");
    env.start("waiter", "ok", json!({"cron": "0 9 * * *"}));
    env.start("waiter", "bad", json!({"cron": "61 * * * *"}));
    env.work();
    let ok = env.show("ok");
    assert_eq!(ok["wake_when"], "cron:0 9 * * *", "{ok}");
    let bad = env.show("bad");
    assert_eq!(bad["status"], "parked", "{bad}");
    assert!(
        bad["last_error"]
            .as_str()
            .unwrap()
            .contains("cron expression `61 * * * *`"),
        "{bad}"
    );
}

#[test]
fn the_first_of_several_waits_wakes_the_run() {
    let env = waiter("several", "");
    env.start(
        "waiter",
        "s",
        json!({"topic": "deploys", "after_ms": 3_600_000, "slices": 2}),
    );
    env.work();
    assert_eq!(
        env.show("s")["wake_when"]
            .as_str()
            .unwrap()
            .split(", ")
            .count(),
        2
    );
    env.ok(&["send", "--topic", "deploys", "--id", "d1"]);
    env.work();
    assert_eq!(outcome(&env, "s"), "event d1 on deploys");
    let history = env.json(&["history", "s"]);
    let statuses: Vec<&str> = history
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["status_text"].as_str().unwrap())
        .collect();
    assert_eq!(
        statuses,
        ["slice 1", "slice 2", "waiting", "done: event d1 on deploys"]
    );
}

#[test]
fn an_answer_is_bound_to_the_details_it_was_given_for() {
    let env = waiter("digest", "");
    env.start("waiter", "a", json!({"approval_ms": 60_000}));
    env.work();
    let pending = env.show("a")["pending_approvals"][0].clone();
    let digest = pending["details_digest"].as_str().unwrap().to_string();
    assert_eq!(pending["details"]["why"], "testing");
    let err = env.fails(&["approve", "a", "ok?", "--by", "bob", "--digest", "0000"]);
    assert!(err.contains("other details"), "{err}");
    env.ok(&[
        "approve", "a", "ok?", "--by", "bob", "--reject", "--digest", &digest,
    ]);
    let err = env.fails(&["approve", "a", "ok?", "--by", "eve", "--digest", &digest]);
    let me = crate::principal::os_principal();
    assert!(err.contains(&format!("already answered by {me}")), "{err}");
    env.work();
    assert_eq!(
        outcome(&env, "a"),
        format!("approved=false by {me} digest {digest}")
    );
}

#[test]
fn an_unanswered_approval_expires_and_wakes_the_run() {
    let env = waiter("expire", "");
    env.start("waiter", "e", json!({"approval_ms": 300}));
    env.work();
    std::thread::sleep(Duration::from_millis(400));
    env.work();
    assert_eq!(outcome(&env, "e"), "ok? expired");
}

#[test]
fn kill_switches_cover_one_run_or_one_agent() {
    let env = waiter("switches", "");
    env.start("waiter", "r1", json!({"topic": "go"}));
    env.start("waiter", "r2", json!({"topic": "go"}));
    env.work();
    env.ok(&["pause", "--run", "r1", "--reason", "looks odd"]);
    env.ok(&["send", "--topic", "go", "--id", "g1"]);
    env.work();
    assert_eq!(
        env.show("r1")["status"],
        "waiting",
        "paused runs take no step"
    );
    assert_eq!(env.show("r1")["paused_by"][0]["reason"], "looks odd");
    let runs = env.json(&["runs"])["items"].take();
    let paused: Vec<bool> = runs
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["paused"].as_bool().unwrap())
        .collect();
    assert_eq!(paused.iter().filter(|p| **p).count(), 1, "{runs}");
    assert!(env.ok(&["runs"]).contains("paused: run r1 (looks odd)"));
    let done = env.json(&["runs", "--status", "done", "--agent", "waiter"])["items"].take();
    assert_eq!(done.as_array().unwrap().len(), 1, "{done}");
    assert_eq!(done[0]["run_id"], "r2");
    assert_eq!(
        env.json(&["runs", "--limit", "1"])["items"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    let err = env.fails(&["runs", "--status", "sleeping"]);
    assert!(err.contains("--status `sleeping`"), "{err}");
    assert_eq!(env.show("r2")["status"], "done");
    env.ok(&["pause", "--agent", "waiter"]);
    env.ok(&["resume", "--run", "r1"]);
    env.work();
    assert_eq!(
        env.show("r1")["status"],
        "waiting",
        "the agent switch still holds it"
    );
    let switches = env.json(&["switches"]);
    assert_eq!(switches.as_array().unwrap().len(), 1, "{switches}");
    env.ok(&["resume", "--agent", "waiter"]);
    env.work();
    assert_eq!(outcome(&env, "r1"), "event g1 on go");

    let kinds = env.audit_kinds(None);
    assert!(
        kinds.iter().any(|k| k == "pause") && kinds.iter().any(|k| k == "resume"),
        "{kinds:?}"
    );
}

#[test]
fn a_cancelled_run_takes_no_further_step() {
    let env = waiter("cancel", "");
    env.start("waiter", "c", json!({"topic": "go"}));
    env.work();
    let err = env.fails(&["cancel", "c", "--reason", " "]);
    assert!(err.contains("--reason is empty"), "{err}");
    env.ok(&["cancel", "c", "--reason", "duplicate incident"]);
    let show = env.show("c");
    assert_eq!(show["status"], "cancelled", "{show}");
    assert_eq!(show["outcome"], "cancelled: duplicate incident");
    assert_eq!(show["wake_when"], serde_json::Value::Null);
    let err = env.fails(&["send", "c", "--topic", "go", "--id", "g1"]);
    assert!(err.contains("has ended"), "{err}");
    assert!(env.work().contains("idle after 0 step(s)"));
    assert!(
        env.ok(&["cancel", "c", "--reason", "again"])
            .contains("had already ended")
    );
    let err = env.fails(&["cancel", "nope", "--reason", "x"]);
    assert!(err.contains("run nope does not exist"), "{err}");
    assert_eq!(env.audit_rows("c", "cancelled").len(), 1);
}

fn runs_of(env: &Env, prefix: &str) -> Vec<serde_json::Value> {
    let runs = env.json(&["runs"])["items"].take();
    runs.as_array()
        .unwrap()
        .iter()
        .filter(|r| r["run_id"].as_str().unwrap().starts_with(prefix))
        .cloned()
        .collect()
}

#[test]
fn schedules_start_one_run_per_tick_and_skip_while_the_last_one_lives() {
    let env = waiter("schedule", "");
    let err = env.fails(&["schedule", "add", "bad", "waiter", "--cron", "61 * * * *"]);
    assert!(err.contains("cron expression `61 * * * *`"), "{err}");
    let err = env.fails(&["schedule", "add", "nobody", "ghost", "--cron", "* * * * *"]);
    assert!(err.contains("no agent ghost is deployed"), "{err}");
    let never = json!({"topic": "never"}).to_string();
    env.ok(&[
        "schedule",
        "add",
        "every",
        "waiter",
        "--cron",
        "* * * * * *",
        "--input",
        &never,
    ]);
    env.ok(&[
        "schedule",
        "add",
        "pile",
        "waiter",
        "--cron",
        "* * * * * *",
        "--input",
        &never,
        "--overlap",
        "allow",
    ]);
    let list = env.json(&["schedule", "list"]);
    assert_eq!(list.as_array().unwrap().len(), 2, "{list}");

    std::thread::sleep(Duration::from_millis(1100));
    env.work();
    let first = runs_of(&env, "every-");
    assert_eq!(first.len(), 1, "{first:?}");
    assert_eq!(
        first[0]["status"], "waiting",
        "the scheduled run was stepped"
    );

    // Two ticks pass: `skip` starts nothing while its run lives; `allow`
    // starts one run for the missed ticks, not one per tick.
    std::thread::sleep(Duration::from_millis(2100));
    env.work();
    assert_eq!(runs_of(&env, "every-").len(), 1);
    assert_eq!(runs_of(&env, "pile-").len(), 2);
    let skipped: Vec<_> = env
        .audit_json(&["audit"])
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["kind"] == "schedule skipped")
        .cloned()
        .collect();
    assert!(!skipped.is_empty());

    // Paused, a schedule neither fires nor forgets: it fires once resumed.
    env.ok(&["pause", "--agent", "waiter"]);
    env.ok(&[
        "cancel",
        first[0]["run_id"].as_str().unwrap(),
        "--reason",
        "make room",
    ]);
    std::thread::sleep(Duration::from_millis(1100));
    env.work();
    assert_eq!(
        runs_of(&env, "every-").len(),
        1,
        "nothing fires while paused"
    );
    env.ok(&["resume", "--agent", "waiter"]);
    env.work();
    assert_eq!(
        runs_of(&env, "every-").len(),
        2,
        "the missed tick fires once"
    );

    env.ok(&["schedule", "remove", "every"]);
    env.ok(&["schedule", "remove", "pile"]);
    let err = env.fails(&["schedule", "remove", "every"]);
    assert!(err.contains("there is no schedule every"), "{err}");
    let before = env.json(&["runs"])["items"].as_array().unwrap().len();
    std::thread::sleep(Duration::from_millis(1100));
    env.work();
    assert_eq!(
        env.json(&["runs"])["items"].as_array().unwrap().len(),
        before
    );
}

#[test]
fn ended_runs_are_pruned_after_their_retention_and_the_audit_stays() {
    let env = waiter("prune", "[retention]\nended_runs_days = 0\n");
    env.start("waiter", "live", json!({"topic": "go"}));
    env.start("waiter", "finished", json!({"topic": "go"}));
    env.start("waiter", "dropped", json!({"topic": "go"}));
    env.work();
    env.ok(&["send", "finished", "--topic", "go", "--id", "g1"]);
    env.ok(&["cancel", "dropped", "--reason", "not needed"]);
    env.work();
    assert_eq!(env.show("finished")["status"], "done");
    let err = waiter("prune-unset", "").fails(&["prune"]);
    assert!(err.contains("--older-than-days"), "{err}");
    let out = env.ok(&["prune", "--older-than-days", "1"]);
    assert!(
        out.contains("pruned 0 run(s)"),
        "young runs are kept: {out}"
    );
    std::thread::sleep(Duration::from_millis(5));
    let out = env.ok(&["prune"]);
    assert!(out.contains("pruned 2 run(s)"), "{out}");
    for gone in ["finished", "dropped"] {
        let err = env.fails(&["show", gone]);
        assert!(err.contains("was pruned"), "{err}");
    }
    assert_eq!(env.show("live")["status"], "waiting");
    let audit = env.audit_json(&["audit"]);
    assert!(
        audit
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["run_id"] == "finished" && r["kind"] == "done"),
        "the audit log keeps the pruned run's rows"
    );
}
