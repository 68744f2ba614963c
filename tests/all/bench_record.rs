//! `wakeful bench --record`, the benchmark of record, run small through the
//! real binary: every workload present, counted as it ran, each rate beside
//! the disk's floor measured in the same run. Only counts and the relations
//! between figures are checked, never a speed.

use serde_json::Value;

use crate::harness::Env;

/// Incidents one at a time (a) and in flight together (b).
const SEQUENTIAL: u64 = 3;
const IN_FLIGHT: u64 = 8;
/// Triage, diagnose, ask; then revalidate, act, verify.
const STEPS_PER_INCIDENT: u64 = 6;

/// Runs a small record on `env` (building the incident agent first) and
/// returns what it printed: the table, or with `json` the figures.
fn small_record(env: &Env, json: bool) -> String {
    crate::harness::agent("incident");
    let (sequential, in_flight) = (SEQUENTIAL.to_string(), IN_FLIGHT.to_string());
    let mut args = vec![
        "bench",
        "--record",
        "--runs",
        &sequential,
        "--in-flight",
        &in_flight,
        "--workers",
        "2",
        "--guest-samples",
        "20",
        "--latency-samples",
        "5",
        "--sleeping",
        "300",
    ];
    if json {
        args.push("--json");
    }
    env.ok(&args)
}

fn f(v: &Value, path: &str) -> f64 {
    v.pointer(path)
        .and_then(Value::as_f64)
        .unwrap_or_else(|| panic!("no number at {path}: {v}"))
}

#[test]
fn the_record_measures_every_workload_against_the_floor() {
    let env = Env::sqlite("bench-record", "");
    let out = small_record(&env, true);
    let r: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"));

    assert_eq!(r["conditions"]["build"], "debug", "{r}");
    let floors = r["floor"]["samples"].as_array().unwrap();
    assert_eq!(floors.len(), 3, "before (a), before (b), at the end: {r}");
    let floor = f(&r, "/floor/commits_per_sec");
    assert!(floors.iter().all(|s| s.as_f64().unwrap() > 0.0), "{r}");
    assert!(floor > 0.0, "{r}");

    for (flow, incidents) in [("sequential", SEQUENTIAL), ("in_flight", IN_FLIGHT)] {
        let at = |k: &str| f(&r, &format!("/{flow}/{k}"));
        assert_eq!(r[flow]["incidents"], incidents, "{r}");
        assert_eq!(
            r[flow]["steps"],
            incidents * STEPS_PER_INCIDENT,
            "every incident stepped to done: {r}"
        );
        let ratio = at("steps_per_sec") / floor;
        assert!(
            (at("ratio_to_floor") - ratio).abs() <= 0.01 + ratio * 0.01,
            "{flow}: the ratio is to this run's floor: {r}"
        );
        // Counted commits: a step's checkpoint is flushed, its claim and
        // built-in tool calls are not.
        assert!(at("synced_commits_per_step") <= 1.1, "{flow}: {r}");
        assert!(at("synced_commits_per_step") > 0.0, "{flow}: {r}");
        assert_eq!(at("synced_commits_per_start"), 1.0, "{flow}: {r}");
        assert_eq!(at("synced_commits_per_approval"), 1.0, "{flow}: {r}");
        assert!(at("bytes_per_incident") > 0.0, "{flow}: {r}");
        assert!(at("pass_p50_ms") <= at("pass_p99_ms"), "{flow}: {r}");
    }
    assert_eq!(r["sequential"]["workers"], 1, "{r}");
    assert_eq!(r["in_flight"]["workers"], 2, "{r}");
    assert!(
        f(&r, "/in_flight/synced_commits_per_step") < f(&r, "/sequential/synced_commits_per_step"),
        "incidents due together share their flushes: {r}"
    );

    assert_eq!(r["guest"]["samples"], 20, "{r}");
    assert!(f(&r, "/guest/p50_us") > 0.0, "{r}");
    assert!(f(&r, "/guest/p50_us") <= f(&r, "/guest/p99_us"), "{r}");
    assert_eq!(r["event_to_commit"]["samples"], 5, "{r}");
    assert!(f(&r, "/event_to_commit/p50_ms") > 0.0, "{r}");

    let s = &r["sleeping"];
    assert_eq!(s["runs"], 300, "{r}");
    assert!(f(s, "/bytes_per_run") > 0.0, "{r}");
    assert_eq!(
        s["incidents"], SEQUENTIAL,
        "(a)'s incidents among them: {r}"
    );
    assert!(f(s, "/claim_among_woken_ms") > 0.0, "{r}");
    assert!(
        s["serve_note"].is_null(),
        "serve started on the store of sleeping runs: {r}"
    );
    assert!(f(s, "/serve_start_ms") > 0.0, "{r}");
    assert!(f(s, "/serve_rss_kib") > 0.0, "{r}");
    assert!(
        !env.dir.join("data").exists(),
        "the record works on scratch stores of its own"
    );
}

#[test]
fn the_record_prints_each_figure_beside_its_target() {
    let env = Env::sqlite("bench-record-table", "");
    let table = small_record(&env, false);
    for expected in [
        "debug build",
        "(f) floor:",
        "(a) 3 incidents, one at a time",
        "(b) 8 incidents in flight, 2 workers",
        "(c) ",
        "(d) event -> step committed (5)",
        "(e) 300 sleeping runs",
        "fsyncs per step",
        ">= 0.5x floor",
        ">= 2x floor",
    ] {
        assert!(table.contains(expected), "no {expected:?} in:\n{table}");
    }
}

#[test]
fn a_record_of_nothing_is_refused_with_the_flag_named() {
    let env = Env::sqlite("bench-record-bad", "");
    let err = env.fails(&["bench", "--record", "--runs", "0"]);
    assert!(err.contains("--runs"), "{err}");
    let err = env.fails(&["bench", "--record", "--in-flight", "0"]);
    assert!(err.contains("--in-flight"), "{err}");
}
