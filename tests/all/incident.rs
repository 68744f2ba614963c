//! The six experiments of the incident agent (seed 001), each against the
//! real binary: the approval pause across processes, crashes around the model
//! call and the action, a colleague fixing the service first, a stale
//! approval, another holder of the lease, and the kill switch. Every test
//! runs three times: against the Rust agent (`agents/incident`) and
//! against the same agent written in Python (`agents/python/incident`) and
//! in TypeScript (`agents/ts/incident`).

use serde_json::{Value, json};

use crate::harness::{Env, FAST_LIMITS, INCIDENT_TOOLS, Lang};

/// Each test below, once per language the incident agent is written in.
macro_rules! in_each_language {
    ($($test:ident),* $(,)?) => {
        mod rust {
            $(#[test]
            fn $test() {
                super::$test(crate::harness::Lang::Rust)
            })*
        }
        mod python {
            $(#[test]
            fn $test() {
                super::$test(crate::harness::Lang::Python)
            })*
        }
        mod typescript {
            $(#[test]
            fn $test() {
                super::$test(crate::harness::Lang::TypeScript)
            })*
        }
    };
}

in_each_language!(
    experiment_1_pause_at_approval_and_finish_from_new_processes,
    a_rejected_plan_is_not_carried_out,
    experiment_2_crash_after_the_model_call,
    experiment_2_crash_after_the_action_before_its_checkpoint,
    experiment_3_a_colleague_fixes_it_first,
    experiment_4_a_stale_approval_is_refused,
    experiment_5_another_holder_has_the_lease,
    experiment_6_the_kill_switch_pauses_without_losing_anything,
    an_unknown_model_action_escalates_to_a_human,
    workers_killed_at_arbitrary_moments_lose_nothing_and_repeat_nothing,
);

const RUN: &str = "inc-7001";
const REQUEST: &str = "approve-scale_out";

fn degraded() -> String {
    json!({"status": "degraded", "memory_pct": 97, "actions_applied": 0}).to_string()
}

/// The operator's address of a service's world: a key of the incident
/// agent's own namespace.
fn world(lang: Lang, service: &str) -> String {
    format!("agent/{}/service/{service}", lang.agent_name("incident"))
}

/// A host with the incident agent in `lang` deployed, the service
/// degraded, and a run started. `input` overrides fields of the start
/// input.
fn setup(lang: Lang, name: &str, input: Value) -> Env {
    let env = Env::new(name, &format!("{INCIDENT_TOOLS}\n{FAST_LIMITS}"));
    env.ok(&["kv", "put", &world(lang, "payments-api"), &degraded()]);
    let env = env.deploy_in(lang, "incident", &["kv", "lease", "llm"]);
    let mut start = json!({"incident": "INC-7001", "service": "payments-api"});
    start
        .as_object_mut()
        .unwrap()
        .extend(input.as_object().unwrap().clone());
    let id = env.ok(&[
        "start",
        &lang.agent_name("incident"),
        "--input",
        &start.to_string(),
        "--id",
        RUN,
    ]);
    assert_eq!(id.trim(), RUN);
    env
}

/// Runs the worker until the run waits for the approval, and checks it does.
fn until_approval(env: &Env) -> Value {
    env.work();
    let show = env.show(RUN);
    assert_eq!(show["status"], "waiting", "{show}");
    assert_eq!(show["wake_when"], format!("approval:{REQUEST}"));
    let pending = show["pending_approvals"].as_array().unwrap();
    assert_eq!(pending.len(), 1, "{show}");
    assert_eq!(pending[0]["id"], REQUEST);
    assert_eq!(
        pending[0]["question"],
        "Approve 'scale_out' on payments-api?"
    );
    assert_eq!(pending[0]["details"]["action"], "scale_out");
    show
}

fn approve(env: &Env) {
    env.approve(RUN, REQUEST, &["--by", "on-call engineer"]);
}

fn actions_applied(env: &Env, lang: Lang) -> i64 {
    env.kv(&world(lang, "payments-api"))["actions_applied"]
        .as_i64()
        .unwrap()
}

fn outcome(env: &Env) -> String {
    let show = env.show(RUN);
    assert_eq!(show["status"], "done", "{show}");
    show["outcome"].as_str().unwrap().to_string()
}

fn experiment_1_pause_at_approval_and_finish_from_new_processes(lang: Lang) {
    let env = setup(lang, "exp1", json!({}));
    let waiting = until_approval(&env);
    assert_eq!(waiting["steps"], 3);
    assert_eq!(waiting["state"]["plan"]["action"], "scale_out");
    // Every command below is a new process: the run lives only in the file.
    approve(&env);
    env.work();
    assert_eq!(outcome(&env), "resolved");
    let history = env.json(&["history", RUN]);
    assert!(history.as_array().unwrap().len() >= 6, "{history}");
    assert_eq!(actions_applied(&env, lang), 1);
    let approvals = env.audit_rows(RUN, "approval");
    assert_eq!(approvals.len(), 1);
    // The command line answers as the OS user; `--by` is what it said.
    let me = crate::principal::os_principal();
    assert_eq!(approvals[0]["data"]["by"], me.as_str());
    assert_eq!(approvals[0]["data"]["said"], "on-call engineer");
    // The trail an operator reads: who approved, which action ran, once.
    let trail = env.ok(&["audit", RUN]);
    assert!(
        trail.contains(&format!(
            "approve-scale_out approved by {me} (said: on-call engineer)"
        )),
        "{trail}"
    );
    assert_eq!(
        trail.matches("kv key=INC-7001:scale_out ok").count(),
        1,
        "{trail}"
    );
    assert!(trail.contains("#6 resume -> done: resolved"), "{trail}");
    // The agent gave its lease back after acting.
    let lease = [
        "lease",
        "acquire",
        &world(lang, "payments-api"),
        "--holder",
        "agent-2",
        "--ttl",
        "5",
    ];
    assert!(env.ok(&lease).contains("\"granted\":true"));
}

fn a_rejected_plan_is_not_carried_out(lang: Lang) {
    let env = setup(lang, "rejected", json!({}));
    until_approval(&env);
    env.approve(
        RUN,
        REQUEST,
        &[
            "--by",
            "on-call engineer",
            "--reject",
            "--comment",
            "not during the freeze",
        ],
    );
    env.work();
    // The agent is told who the host authenticated: the OS user.
    assert_eq!(
        outcome(&env),
        format!(
            "rejected by {}: not during the freeze",
            crate::principal::os_principal()
        )
    );
    assert_eq!(actions_applied(&env, lang), 0);
}

fn killed_worker(env: &Env, failpoint: &str) {
    let out = env
        .clone_with_env("WAKEFUL_FAILPOINT", failpoint)
        .output(&["work", "--until-idle"]);
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(
        out.status.signal(),
        Some(9),
        "the worker should die by SIGKILL at {failpoint}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn experiment_2_crash_after_the_model_call(lang: Lang) {
    let env = setup(lang, "exp2-model", json!({}));
    killed_worker(&env, "after-call:INC-7001:diagnose");
    // The model's answer was durable before the crash: the retried step
    // replays it instead of calling the model again.
    until_approval(&env);
    let calls: Vec<Value> = env
        .recorded_calls(RUN)
        .into_iter()
        .filter(|r| r["data"]["key"] == "INC-7001:diagnose")
        .collect();
    assert_eq!(calls.len(), 1, "the model was called once: {calls:?}");
    approve(&env);
    env.work();
    assert_eq!(outcome(&env), "resolved");
    assert_eq!(actions_applied(&env, lang), 1);
}

fn experiment_2_crash_after_the_action_before_its_checkpoint(lang: Lang) {
    let env = setup(lang, "exp2-action", json!({}));
    until_approval(&env);
    approve(&env);
    killed_worker(&env, "after-call:INC-7001:scale_out");
    // The action (a kv write, the world of this agent) commits with its
    // step's checkpoint: the worker died between the two, so neither is
    // there, and the step runs again. (A call that leaves the host, which
    // no commit can take back, is `crash::` and the model call above.)
    // Revalidating continued into the same commit, and is gone with it:
    // the run is back at its answered approval.
    assert_eq!(actions_applied(&env, lang), 0);
    let show = env.show(RUN);
    assert_eq!(show["steps"], 3, "{show}");
    assert_eq!(show["status"], "waiting", "{show}");
    env.work();
    assert_eq!(outcome(&env), "resolved");
    assert_eq!(
        actions_applied(&env, lang),
        1,
        "the action ran exactly once"
    );
}

fn experiment_3_a_colleague_fixes_it_first(lang: Lang) {
    let env = setup(lang, "exp3", json!({}));
    until_approval(&env);
    let fixed = json!({"status": "healthy", "memory_pct": 40, "actions_applied": 0});
    env.ok(&[
        "kv",
        "put",
        &world(lang, "payments-api"),
        &fixed.to_string(),
    ]);
    approve(&env);
    env.work();
    let outcome = outcome(&env);
    assert!(
        outcome.starts_with("world changed since the plan"),
        "{outcome}"
    );
    assert!(outcome.contains("healthy"), "{outcome}");
    assert_eq!(actions_applied(&env, lang), 0);
}

fn experiment_4_a_stale_approval_is_refused(lang: Lang) {
    let env = setup(lang, "exp4", json!({"approval_valid_ms": 1000}));
    until_approval(&env);
    std::thread::sleep(std::time::Duration::from_millis(1300));
    let answer = env.approve_args(RUN, REQUEST, &["--by", "on-call engineer"]);
    let err = env.fails(&answer.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(err.contains("expired"), "{err}");
    env.work();
    assert_eq!(outcome(&env), "approval expired; needs a fresh plan");
    assert_eq!(actions_applied(&env, lang), 0);
    let refused = env.audit_rows(RUN, "approval refused");
    assert_eq!(refused.len(), 1, "the late answer is in the audit log");
}

fn experiment_5_another_holder_has_the_lease(lang: Lang) {
    let env = setup(lang, "exp5", json!({}));
    until_approval(&env);
    env.ok(&[
        "lease",
        "acquire",
        &world(lang, "payments-api"),
        "--holder",
        "agent-2",
        "--ttl",
        "300",
    ]);
    let lease = [
        "lease",
        "acquire",
        &world(lang, "payments-api"),
        "--holder",
        "agent-3",
        "--ttl",
        "9",
    ];
    let err = env.fails(&lease);
    assert!(err.contains("agent-2 holds the lease"), "{err}");
    approve(&env);
    env.work();
    assert_eq!(
        outcome(&env),
        "agent-2 holds the lease on payments-api; backed off"
    );
    assert_eq!(actions_applied(&env, lang), 0);
}

fn experiment_6_the_kill_switch_pauses_without_losing_anything(lang: Lang) {
    let env = setup(lang, "exp6", json!({}));
    until_approval(&env);
    env.ok(&["pause", "--all", "--reason", "incident review"]);
    approve(&env);
    let worked = env.work();
    assert!(worked.contains("idle after 0 step(s)"), "{worked}");
    let paused = env.show(RUN);
    assert_eq!(paused["paused"], true);
    assert_eq!(paused["steps"], 3, "no step was taken while paused");
    env.ok(&["resume", "--all"]);
    env.work();
    assert_eq!(outcome(&env), "resolved");
    assert_eq!(actions_applied(&env, lang), 1);
}

fn an_unknown_model_action_escalates_to_a_human(lang: Lang) {
    let config = "[tools.llm]\nkind = \"static\"\nresult = { action = \"drop_database\", reason = \"why not\" }\n";
    let env = Env::new("escalate", &format!("{config}\n{FAST_LIMITS}"));
    env.ok(&["kv", "put", &world(lang, "payments-api"), &degraded()]);
    let env = env.deploy_in(lang, "incident", &["kv", "lease", "llm"]);
    let input = json!({"incident": "INC-7002", "service": "payments-api"}).to_string();
    let agent = lang.agent_name("incident");
    env.ok(&["start", &agent, "--input", &input, "--id", RUN]);
    env.work();
    let outcome = outcome(&env);
    assert!(outcome.starts_with("escalated to a human"), "{outcome}");
    assert!(outcome.contains("drop_database"), "{outcome}");
    assert_eq!(actions_applied(&env, lang), 0);
}

/// Workers SIGKILLed at arbitrary moments, over and over, while several
/// incidents are handled: every run still ends resolved, every service is
/// changed exactly once, and no step or tool call is recorded twice.
fn workers_killed_at_arbitrary_moments_lose_nothing_and_repeat_nothing(lang: Lang) {
    let limits = "[limits]\nclaim_ms = 700\nstep_deadline_ms = 600\nretry_backoff_ms = 0\n";
    let env = Env::new("kill-anywhere", &format!("{INCIDENT_TOOLS}\n{limits}"));
    let env = env.deploy_in(lang, "incident", &["kv", "lease", "llm"]);
    let agent = lang.agent_name("incident");
    let runs: Vec<String> = (0..8)
        .map(|i| {
            let service = format!("svc-{i}");
            env.ok(&["kv", "put", &world(lang, &service), &degraded()]);
            let input = json!({"incident": format!("INC-{i}"), "service": service});
            let id = format!("inc-{i}");
            env.ok(&["start", &agent, "--id", &id, "--input", &input.to_string()]);
            id
        })
        .collect();
    // Approves whatever waits, as a human would; true once all are done.
    let approve_all = || {
        for run in &runs {
            let show = env.show(run);
            if let Some(a) = show["pending_approvals"].as_array().and_then(|a| a.first()) {
                let id = a["id"].as_str().unwrap();
                env.approve(run, id, &["--by", "on-call engineer"]);
            }
        }
        runs.iter().all(|r| env.show(r)["status"] == "done")
    };
    let mut kill_after_ms = 5;
    let mut killed = 0;
    for round in 0..40 {
        if approve_all() {
            break;
        }
        let mut worker = env.command(&["work", "--until-idle"]).spawn().unwrap();
        std::thread::sleep(std::time::Duration::from_millis(kill_after_ms));
        if worker.try_wait().unwrap().is_none() {
            worker.kill().unwrap(); // SIGKILL
            killed += 1;
        }
        worker.wait().unwrap();
        // Early in a worker's life (opening the store, loading the agent)
        // and deep into its steps, in turn.
        kill_after_ms = 3 + (round * 17 % 45);
    }
    assert!(
        killed >= 3,
        "no worker was killed mid-run; the test proved nothing"
    );
    // Then workers that live: every run finishes from wherever it was left.
    for _ in 0..4 {
        env.work();
        if approve_all() {
            break;
        }
    }
    for (i, run) in runs.iter().enumerate() {
        let show = env.show(run);
        assert_eq!(show["outcome"], "resolved", "{show}");
        let service = env.kv(&world(lang, &format!("svc-{i}")));
        assert_eq!(service["actions_applied"], 1, "{run}: {service}");
        let seqs = env.checkpoint_seqs(run);
        assert_eq!(seqs, (1..=6).collect::<Vec<u64>>(), "{run}");
        let mut keys: Vec<String> = env
            .recorded_calls(run)
            .iter()
            .map(|r| r["data"]["key"].as_str().unwrap().to_string())
            .collect();
        let all = keys.len();
        keys.sort();
        keys.dedup();
        assert_eq!(
            all,
            keys.len(),
            "{run}: a tool call was executed twice: {keys:?}"
        );
    }
}
