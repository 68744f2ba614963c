//! `serve`'s workers run a step's guest on their own thread. The incident
//! agent in Rust steps with its kv, lease and llm calls and leaves no guest
//! thread in the server process; in Python (a large agent, slow to
//! instantiate) a guest thread makes the next instance while the worker
//! commits.

use serde_json::json;

use crate::harness::{Env, INCIDENT_TOOLS, Lang};

/// The names of the threads of process `pid` (Linux).
fn thread_names(pid: u32) -> Vec<String> {
    let tasks = std::fs::read_dir(format!("/proc/{pid}/task"))
        .expect("this test reads the server's threads from /proc (Linux)");
    tasks
        .filter_map(|task| std::fs::read_to_string(task.ok()?.path().join("comm")).ok())
        .map(|name| name.trim().to_string())
        .collect()
}

/// Steps an incident of the agent in `lang` to done under `serve` and
/// returns the server's thread names.
fn serve_an_incident(lang: Lang) -> Vec<String> {
    let env = Env::new(&lang.agent_name("in-place"), INCIDENT_TOOLS);
    let degraded = json!({"status": "degraded", "memory_pct": 97, "actions_applied": 0});
    let world = format!("agent/{}/service/checkout", lang.agent_name("incident"));
    env.ok(&["kv", "put", &world, &degraded.to_string()]);
    // Deployed and started from the command line: the server itself
    // calls no guest outside its workers.
    let env = env.deploy_in(lang, "incident", &["kv", "lease", "llm"]);
    env.start(
        &lang.agent_name("incident"),
        "inc-1",
        json!({"incident": "INC-1", "service": "checkout"}),
    );
    let server = env.serve();
    server.wait_run("inc-1", "its approval request", |run| {
        run["status"] == "waiting"
    });
    env.approve("inc-1", "approve-scale_out", &["--by", "on-call engineer"]);
    let run = server.wait_run("inc-1", "done", |run| run["status"] == "done");
    assert_eq!(run["steps"], 6, "{run}");
    // Every tool call reached the gate and was recorded.
    let tools: Vec<String> = env
        .recorded_calls("inc-1")
        .iter()
        .map(|call| {
            call["data"]["tool"]
                .as_str()
                .unwrap_or_default()
                .to_string()
        })
        .collect();
    for tool in ["kv", "lease", "llm"] {
        assert!(tools.iter().any(|t| t == tool), "no {tool} call: {tools:?}");
    }
    let names = thread_names(server.pid());
    assert!(
        names.iter().any(|n| n.starts_with("worker-")),
        "the server's workers: {names:?}"
    );
    names
}

#[test]
fn a_rust_agent_steps_with_its_tool_calls_on_the_worker_threads_alone() {
    let names = serve_an_incident(Lang::Rust);
    assert!(
        !names.iter().any(|n| n == "wakeful-guest"),
        "a guest thread was started: {names:?}"
    );
}

#[test]
fn a_python_agent_gets_its_next_instance_made_on_a_guest_thread() {
    let names = serve_an_incident(Lang::Python);
    assert!(
        names.iter().any(|n| n == "wakeful-guest"),
        "no guest thread made the next instance: {names:?}"
    );
}
