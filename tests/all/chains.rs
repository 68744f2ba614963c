//! A run that continues takes its next steps under the same claim and into
//! the same commit when every tool it may call is answered in the step:
//! each step still has its checkpoint, sees what the steps before it wrote,
//! and is acknowledged only once the commit holding it is on disk; a crash
//! before that commit loses the whole chain, which is taken again.

use std::os::unix::process::ExitStatusExt;

use serde_json::{Value, json};

use crate::fsyncs::commits;
use crate::harness::{Env, INCIDENT_TOOLS};

const RUN: &str = "inc-0";

/// The incident agent (kv, lease and a `static` model: all answered in the
/// step) with one run started for a degraded service, on the SQLite file
/// (whose flushes strace counts).
fn incident(name: &str, limits: &str) -> Env {
    let env = Env::sqlite(name, &format!("{INCIDENT_TOOLS}\n[limits]\n{limits}"));
    with_incident(env)
}

fn with_incident(env: Env) -> Env {
    let degraded = json!({"status": "degraded", "memory_pct": 97, "actions_applied": 0});
    env.ok(&[
        "kv",
        "put",
        "agent/incident/service/svc-0",
        &degraded.to_string(),
    ]);
    env.deploy("incident", &["kv", "lease", "llm"]);
    let input = json!({"incident": "INC-0", "service": "svc-0"});
    env.ok(&[
        "start",
        "incident",
        "--id",
        RUN,
        "--input",
        &input.to_string(),
    ]);
    env
}

fn approve(env: &Env) {
    env.approve(RUN, "approve-scale_out", &["--by", "on-call engineer"]);
}

fn service(env: &Env) -> Value {
    env.json(&["kv", "get", "agent/incident/service/svc-0"])["value"].clone()
}

/// The statuses of the run's checkpoints, oldest first.
fn statuses(env: &Env) -> Vec<String> {
    env.json(&["history", RUN])
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["status_text"].as_str().unwrap_or_default().to_string())
        .collect()
}

#[test]
fn steps_that_continue_share_one_commit_and_see_each_others_writes() {
    let env = incident("chain-one-commit", "steps_per_commit = 16");
    // Triage and diagnose continue; asking for the approval waits.
    assert_eq!(commits(&env, &["work", "--until-idle"]), 1);
    assert_eq!(env.checkpoint_seqs(RUN), [1, 2, 3]);
    approve(&env);
    // Revalidate and act continue; verify reads the service that act wrote
    // in the same, not yet committed, transaction.
    assert_eq!(commits(&env, &["work", "--until-idle"]), 1);
    let show = env.show(RUN);
    assert_eq!(show["status"], "done", "{show}");
    assert_eq!(show["outcome"], "resolved", "{show}");
    assert_eq!(env.checkpoint_seqs(RUN), [1, 2, 3, 4, 5, 6]);
    let statuses = statuses(&env);
    assert!(statuses[4].starts_with("applied scale_out"), "{statuses:?}");
    assert_eq!(service(&env)["actions_applied"], 1);
    // The lease act took and gave back is free.
    let lease = env.json(&[
        "lease",
        "acquire",
        "agent/incident/service/svc-0",
        "--holder",
        "other",
        "--ttl",
        "5",
    ]);
    assert_eq!(lease["granted"], true, "{lease}");
}

#[test]
fn one_step_per_commit_takes_no_chain() {
    let env = incident("chain-off", "steps_per_commit = 1");
    assert_eq!(commits(&env, &["work", "--until-idle"]), 3);
    approve(&env);
    assert_eq!(commits(&env, &["work", "--until-idle"]), 3);
    assert_eq!(env.show(RUN)["outcome"], "resolved");
}

#[test]
fn a_crash_before_a_chains_commit_loses_all_of_it_and_it_is_taken_again() {
    // On the store the tests run on: PostgreSQL's savepoints too.
    let env = with_incident(Env::new(
        "chain-crash",
        &format!(
            "{INCIDENT_TOOLS}\n[limits]\nsteps_per_commit = 16\nclaim_ms = 3000\n\
             step_deadline_ms = 2500\nretry_backoff_ms = 0"
        ),
    ));
    env.work();
    approve(&env);
    let before = env.show(RUN);
    // The worker dies just before the commit of revalidate, act and verify.
    let out = env
        .clone_with_env("WAKEFUL_FAILPOINT", &format!("before-commit:{RUN}"))
        .output(&["work", "--until-idle"]);
    assert_eq!(
        out.status.signal(),
        Some(9),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Nothing of the chain is there: no checkpoint, no kv write, no lease.
    assert_eq!(env.checkpoint_seqs(RUN), [1, 2, 3]);
    let after_crash = env.show(RUN);
    assert_eq!(after_crash["steps"], before["steps"], "{after_crash}");
    assert_eq!(service(&env)["status"], "degraded");
    assert_eq!(service(&env)["actions_applied"], 0);

    // Once the dead worker's claim runs out, the chain is taken again, and
    // its effects happen once.
    std::thread::sleep(std::time::Duration::from_millis(3100));
    env.work();
    let show = env.show(RUN);
    assert_eq!(show["outcome"], "resolved", "{show}");
    assert_eq!(env.checkpoint_seqs(RUN), [1, 2, 3, 4, 5, 6]);
    assert_eq!(service(&env)["actions_applied"], 1);
}

#[test]
fn a_chained_step_stopped_by_a_paused_tool_leaves_the_steps_before_it_committed() {
    let env = incident("chain-paused-tool", "steps_per_commit = 16");
    env.work();
    approve(&env);
    // Act (the step chained after revalidate) takes the lease: paused.
    env.ok(&["pause", "--tool", "lease", "--reason", "lease audit"]);
    let out = env.work();
    assert!(
        out.contains("inc-0 paused by kill switch `tool:lease` (lease audit)"),
        "{out}"
    );
    // Revalidate is committed; act was abandoned unchanged, then taken on
    // its own and held: no kv write, no attempt counted.
    let show = env.show(RUN);
    assert_eq!(show["steps"], 4, "{show}");
    assert_eq!(show["attempts"], 0, "{show}");
    assert_eq!(show["condition"], "paused: tool lease (lease audit)");
    assert_eq!(service(&env)["actions_applied"], 0);
    assert!(env.work().contains("idle after 0 step(s)"));

    env.ok(&["resume", "--tool", "lease"]);
    env.work();
    assert_eq!(env.show(RUN)["outcome"], "resolved");
    assert_eq!(env.checkpoint_seqs(RUN), [1, 2, 3, 4, 5, 6]);
    assert_eq!(service(&env)["actions_applied"], 1);
}
