//! Group commit through the real binary: runs due together are stepped by
//! one worker pass and committed in one transaction, and a run whose step
//! fails in the middle of the group (a panic, an error, a state over the
//! limit, memory exhausted) neither keeps the others from committing nor
//! commits anything of its own. A busy worker claims its next group with
//! the commit of the last; a pause still stops that group, and a worker
//! that stops gives it back.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use serde_json::json;

use crate::crash::runs_under_claim;
use crate::harness::{Env, INCIDENT_TOOLS};
use crate::serve_process::Server;

const LIMITS: &str = "[limits]\nmax_attempts = 1\nmemory_mib = 32\nsteps_per_commit = 16\n";

#[test]
fn failing_steps_in_a_group_leave_the_others_committed_and_write_nothing() {
    let env = Env::new("group-commit", LIMITS);
    env.deploy("hostile", &["kv"]);
    let bad = ["panic", "error", "bigstate", "membomb"];
    let mut runs = Vec::new();
    // Good and failing runs interleaved, all due at once: one group.
    for i in 0..12 {
        let mode = if i % 3 == 1 { bad[i / 3] } else { "clock" };
        let run = format!("g-{i}-{mode}");
        env.start("hostile", &run, json!({"mode": mode}));
        runs.push((run, mode));
    }
    env.work();
    for (run, mode) in &runs {
        let show = env.show(run);
        if *mode == "clock" {
            assert_eq!(show["status"], "done", "{show}");
            assert_eq!(show["steps"], 1, "{show}");
            assert_eq!(env.checkpoint_seqs(run), [1], "{run}");
            assert!(
                show["state"]["now"].is_number(),
                "the step's state was kept: {show}"
            );
        } else {
            assert_eq!(show["status"], "parked", "{mode}: {show}");
            assert_eq!(show["steps"], 0, "{mode}: {show}");
            assert!(
                env.checkpoint_seqs(run).is_empty(),
                "{mode}: a failed step writes no checkpoint"
            );
            assert!(
                show["last_error"].as_str().is_some_and(|e| !e.is_empty()),
                "{mode}: {show}"
            );
        }
    }
}

/// Two incidents on one service, approved together: their act steps run in
/// one group and both find the service at the version their plans were
/// made for, so each is told its kv write would succeed. Only the first
/// to commit writes; the second is void (no attempt counted), runs again
/// at once, finds the world changed and does nothing. The action is
/// applied once.
#[test]
fn of_two_runs_writing_one_key_in_a_group_the_second_is_void_and_runs_again() {
    let limits = "[limits]\nsteps_per_commit = 16\nretry_backoff_ms = 60000\n";
    let env = Env::new("group-void", &format!("{INCIDENT_TOOLS}\n{limits}"));
    let degraded = json!({"status": "degraded", "memory_pct": 97, "actions_applied": 0});
    env.ok(&[
        "kv",
        "put",
        "agent/incident/service/payments-api",
        &degraded.to_string(),
    ]);
    env.deploy("incident", &["kv", "lease", "llm"]);
    let runs = ["inc-a", "inc-b"];
    for (i, run) in runs.iter().enumerate() {
        let input = json!({"incident": format!("INC-{i}"), "service": "payments-api"});
        env.start("incident", run, input);
    }
    env.work();
    for run in runs {
        env.approve(run, "approve-scale_out", &["--by", "on-call"]);
    }
    env.work();
    let service = env.kv("agent/incident/service/payments-api");
    assert_eq!(service["actions_applied"], 1, "{service}");
    let outcomes: Vec<String> = runs
        .iter()
        .map(|run| env.show(run)["outcome"].as_str().unwrap_or("").to_string())
        .collect();
    assert_eq!(outcomes[0], "resolved", "{outcomes:?}");
    assert!(
        outcomes[1].starts_with("world changed since the plan"),
        "{outcomes:?}"
    );
    let void = env.audit_rows("inc-b", "step void");
    assert_eq!(void.len(), 1, "{void:?}");
    assert!(
        void[0]["data"]["why"]
            .as_str()
            .is_some_and(|why| why.contains("service/payments-api")),
        "{void:?}"
    );
    // Not a failed attempt: no backoff (a minute here) held it back.
    assert!(env.audit_rows("inc-b", "step failed").is_empty());
    assert_eq!(env.show("inc-b")["status"], "done");
}

/// Six runs due at once for a `serve` with one worker and groups of two:
/// a group's commit claims the next two, and the worker is then held
/// (`WAKEFUL_HOLD=claimed-ahead`) until the returned file is removed.
/// Returns the server and the two runs claimed ahead, not yet stepped.
/// Whichever group's commit first claimed ahead is held: where a claim
/// taken with a commit failed (it is logged, and the worker claims on its
/// own next), the next commit's is.
fn held_with_next_group_claimed(name: &str, limits: &str) -> (Env, Server, PathBuf, Vec<String>) {
    let env = Env::new(name, &format!("[limits]\nsteps_per_commit = 2\n{limits}"));
    env.deploy("waiter", &[]);
    for i in 0..6 {
        env.start("waiter", &format!("r{i}"), json!({"topic": "go"}));
    }
    let hold = env.dir.join("hold-claimed-ahead");
    std::fs::write(&hold, "").unwrap();
    let holding = env.dir.join("hold-claimed-ahead.holding");
    let held = env.clone_with_env("WAKEFUL_HOLD", &format!("claimed-ahead:{}", hold.display()));
    let server = held.serve_with(&["--workers", "1"]);
    let start = Instant::now();
    while !holding.exists() {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "the worker never held runs claimed for its next group"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    // Held: the runs claimed ahead, unstepped, after a group stepped.
    let claimed = claimed_unstepped(&env);
    let stepped = env.sql_query("SELECT COUNT(*) FROM runs WHERE steps = 1")[0][0]
        .as_i64()
        .unwrap();
    assert_eq!(claimed.len(), 2, "{claimed:?}");
    assert!(stepped == 2 || stepped == 4, "{stepped} stepped");
    (env, server, hold, claimed)
}

/// Runs under a claim that have not taken a step.
fn claimed_unstepped(env: &Env) -> Vec<String> {
    env.sql_query(
        "SELECT run_id FROM runs WHERE lease_owner IS NOT NULL AND steps = 0 ORDER BY run_id",
    )
    .iter()
    .map(|row| row[0].as_str().unwrap().to_string())
    .collect()
}

#[test]
fn a_pause_set_after_the_next_group_was_claimed_still_stops_it() {
    let (env, server, hold, ahead) = held_with_next_group_claimed("claim-ahead-pause", "");
    env.ok(&["pause", "--all", "--reason", "maintenance"]);
    std::fs::remove_file(&hold).unwrap();
    // The worker goes on: it finds the switch and gives the runs back.
    let start = Instant::now();
    while runs_under_claim(&env) > 0 {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "the runs claimed ahead were never given back"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    for run in &ahead {
        assert_eq!(
            env.show(run)["steps"],
            0,
            "{run} stepped under a pause set before its step began"
        );
    }
    env.ok(&["resume", "--all"]);
    for i in 0..6 {
        server.wait_run(&format!("r{i}"), "its first step", |r| r["steps"] == 1);
    }
}

#[test]
fn a_worker_stopped_with_its_next_group_claimed_gives_those_runs_back() {
    let (env, mut server, hold, ahead) = held_with_next_group_claimed("claim-ahead-stop", "");
    let status = std::process::Command::new("kill")
        .args(["-TERM", &server.pid().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    // The workers are told to stop once the API has shut down: released
    // before that, the worker could take its next group first. The host's
    // row says when: `serve` records that it stopped after telling them.
    let start = Instant::now();
    while env.sql_query("SELECT COUNT(*) FROM hosts WHERE stopped_at IS NOT NULL")[0][0] != 1 {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "serve never recorded that it stopped"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    std::fs::remove_file(&hold).unwrap();
    let exit = server
        .wait_exit(Duration::from_secs(20))
        .expect("wakeful serve did not exit after SIGTERM");
    assert!(exit.success(), "{exit}");
    // Claimable now, not when the claims would have run out (30 s).
    assert_eq!(runs_under_claim(&env), 0, "claims left behind");
    for run in &ahead {
        assert_eq!(env.show(run)["steps"], 0, "{run}");
    }
    env.work();
    for i in 0..6 {
        assert_eq!(env.show(&format!("r{i}"))["steps"], 1, "r{i}");
    }
}

#[test]
fn a_worker_killed_with_its_next_group_claimed_loses_and_repeats_no_step() {
    // Claims of a dead worker run out after `claim_ms`: short here.
    let (env, mut server, hold, ahead) =
        held_with_next_group_claimed("claim-ahead-kill", "claim_ms = 11000\n");
    let status = std::process::Command::new("kill")
        .args(["-KILL", &server.pid().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    server
        .wait_exit(Duration::from_secs(20))
        .expect("wakeful serve outlived SIGKILL");
    std::fs::remove_file(&hold).unwrap();
    assert_eq!(runs_under_claim(&env), 2, "the claims taken ahead are left");
    // `work` waits for those claims to run out, then steps every run left.
    env.work();
    for i in 0..6 {
        let run = format!("r{i}");
        assert_eq!(env.show(&run)["steps"], 1, "{run}");
        assert_eq!(env.checkpoint_seqs(&run), [1], "{run}: one step, once");
    }
    assert!(ahead.iter().all(|run| env.show(run)["status"] == "waiting"));
}
