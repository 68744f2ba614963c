//! Idle workers wake when the API takes a start, an event or an answer,
//! not at their next look: with the look put ten minutes apart, a run
//! started and woken over the API still finishes at once. On PostgreSQL a
//! wake written by another process arrives at once too (NOTIFY).

use serde_json::{Value, json};

use crate::api::{api_config, deploy};
use crate::harness::{Env, Server, StoreKind};

/// A host whose idle workers look for work only every ten minutes, with
/// the waiter agent deployed and one run of it started with `input`
/// through the API.
fn sleepy_host(name: &str, run: &str, input: Value) -> (Env, Server) {
    let env = Env::new(name, &api_config("[limits]\nidle_recheck_ms = 600000\n"));
    let server = env.serve();
    deploy(&server, "waiter", &[]);
    // The workers looked at start, found nothing, and sleep ten minutes.
    std::thread::sleep(std::time::Duration::from_millis(300));
    let (status, body) = server.post(
        "/v1/runs",
        &json!({"agent": "waiter", "input": input, "id": run}),
    );
    assert_eq!(status, 201, "{body}");
    (env, server)
}

#[test]
fn the_api_wakes_idle_workers_without_waiting_for_their_next_look() {
    let (env, server) = sleepy_host("wakeups", "w", json!({"topic": "go"}));
    server.wait_run("w", "its first step", |r| r["status"] == "waiting");
    let (status, body) = server.post(
        "/v1/runs/w/events",
        &json!({"topic": "go", "id": "e1", "payload": 1}),
    );
    assert_eq!(status, 200, "{body}");
    let done = server.wait_run("w", "done", |r| r["status"] == "done");
    assert_eq!(done["outcome"], "event e1 on go");

    // A wake written by another process: on SQLite it is seen only at the
    // next look; on PostgreSQL the writer's NOTIFY reaches the listening
    // connection of `serve`, which wakes its workers at once.
    env.ok(&[
        "start",
        "waiter",
        "--id",
        "cli",
        "--input",
        r#"{"topic":"go"}"#,
    ]);
    if env.store_kind() == StoreKind::Postgres {
        let run = server.wait_run("cli", "its first step, woken by NOTIFY", |r| {
            r["status"] == "waiting"
        });
        assert_eq!(run["steps"], 1);
        return;
    }
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let (_, run) = server.get("/v1/runs/cli");
    assert_eq!(
        run["status"], "active",
        "no signal crosses processes on SQLite: the workers still sleep"
    );
}

#[test]
fn an_idle_worker_wakes_for_a_timer_at_its_due_time() {
    // The look is ten minutes apart: only sleeping until the timer's due
    // time lets the run take its step within the wait below.
    let (_env, server) = sleepy_host("timer-wake", "t", json!({"after_ms": 2000}));
    server.wait_run("t", "its first step", |r| r["status"] == "waiting");
    let started = std::time::Instant::now();
    let done = server.wait_run("t", "its timer", |r| r["status"] == "done");
    assert!(done["outcome"].to_string().contains("timer"), "{done}");
    assert!(
        started.elapsed() < std::time::Duration::from_secs(15),
        "woken by the timer, not by the ten-minute look"
    );
}
