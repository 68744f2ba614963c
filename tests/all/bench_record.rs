//! `wakeful-bench`, the benchmark of record, run small through the real
//! binary: every workload present, counted as it ran, each rate beside the
//! disk's floor measured in the same run. Only counts and the relations
//! between figures are checked, never a speed.

use std::process::{Command, Output};

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
    small_record_with(env, json, &[])
}

/// [`small_record`] with more arguments.
fn small_record_with(env: &Env, json: bool, extra: &[&str]) -> String {
    crate::harness::agent("incident");
    let (sequential, in_flight) = (SEQUENTIAL.to_string(), IN_FLIGHT.to_string());
    let mut args = vec![
        "--runs",
        &sequential,
        "--in-flight",
        &in_flight,
        "--workers",
        "2",
        "--repeat",
        "2",
        "--guest-samples",
        "20",
        "--latency-samples",
        "5",
        "--sleeping",
        "300",
    ];
    args.extend_from_slice(extra);
    if json {
        args.push("--json");
    }
    let out = bench(env, &args);
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.success(),
        "wakeful-bench {args:?} failed ({}):\n{stdout}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

/// Runs `wakeful-bench` with `args` as `env` runs `wakeful`: in its
/// directory, with its config and store settings.
fn bench(env: &Env, args: &[&str]) -> Output {
    let like = env.command(&[]);
    let mut cmd = Command::new(crate::harness::wakeful_bench_bin());
    cmd.args(args);
    if let Some(dir) = like.get_current_dir() {
        cmd.current_dir(dir);
    }
    for (key, value) in like.get_envs() {
        match value {
            Some(value) => cmd.env(key, value),
            None => cmd.env_remove(key),
        };
    }
    cmd.output().expect("run wakeful-bench")
}

/// Runs `wakeful-bench` with `args`, which must fail; returns its stderr.
fn bench_fails(env: &Env, args: &[&str]) -> String {
    let out = bench(env, args);
    assert!(
        !out.status.success(),
        "wakeful-bench {args:?} should have failed:\n{}",
        String::from_utf8_lossy(&out.stdout)
    );
    String::from_utf8_lossy(&out.stderr).to_string()
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
    let floor = floor_of(&r);
    for (flow, incidents) in [("sequential", SEQUENTIAL), ("in_flight", IN_FLIGHT)] {
        check_flow(&r, flow, incidents, floor);
        check_split(&r, flow);
    }
    check_flows_beside_each_other(&r);
    check_guest_and_latency(&r);
    check_sleeping(&r);
    assert!(
        !env.dir.join("data").exists(),
        "the record works on scratch stores of its own"
    );
}

/// The floor, measured before each run of (a) and of (b) and at the end;
/// returns the median the ratios are to.
fn floor_of(r: &Value) -> f64 {
    let floors = r["floor"]["samples"].as_array().unwrap();
    assert_eq!(
        floors.len(),
        5,
        "before each of the two runs of (a) and of (b), at the end: {r}"
    );
    let floor = f(r, "/floor/commits_per_sec");
    assert!(floors.iter().all(|s| s.as_f64().unwrap() > 0.0), "{r}");
    assert!(floor > 0.0, "{r}");
    floor
}

/// (a) or (b): every incident stepped to done, reported by its median
/// run, with its ratio to the floor and its counted commits.
fn check_flow(r: &Value, flow: &str, incidents: u64, floor: f64) {
    let at = |k: &str| f(r, &format!("/{flow}/{k}"));
    assert_eq!(r[flow]["incidents"], incidents, "{r}");
    assert_eq!(
        r[flow]["steps"],
        incidents * STEPS_PER_INCIDENT,
        "every incident stepped to done: {r}"
    );
    // Run twice, reported by the faster run (the upper median, as the
    // floor's), whose own figures are the ones given.
    let runs: Vec<f64> = r[flow]["runs_steps_per_sec"]
        .as_array()
        .unwrap_or_else(|| panic!("{flow}: no runs_steps_per_sec: {r}"))
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect();
    assert_eq!(runs.len(), 2, "{flow}: {r}");
    assert!(runs.iter().all(|s| *s > 0.0), "{flow}: {r}");
    assert_eq!(
        at("steps_per_sec"),
        runs.iter().copied().fold(f64::MIN, f64::max),
        "{flow}: {r}"
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
    assert!(at("statements_per_step") > 0.0, "{flow}: {r}");
}

/// The split of a step's time: each worker's wall time per step, less
/// only the bookkeeping between a pass's parts.
fn check_split(r: &Value, flow: &str) {
    let part = |name: &str| f(r, &format!("/{flow}/split/{name}"));
    for name in ["claim_us", "step_us", "commit_us"] {
        assert!(part(name) > 0.0, "{flow}: {name}: {r}");
    }
    for name in ["idle_look_us", "outside_us"] {
        assert!(part(name) >= 0.0, "{flow}: {name}: {r}");
    }
    let parts: f64 = [
        "claim_us",
        "step_us",
        "commit_us",
        "idle_look_us",
        "outside_us",
    ]
    .iter()
    .map(|name| part(name))
    .sum();
    let workers = r[flow]["workers"].as_f64().unwrap();
    let wall_us = workers * 1e6 / f(r, &format!("/{flow}/steps_per_sec"));
    assert!(
        parts <= wall_us * 1.01 + 1.0 && parts >= wall_us * 0.9,
        "{flow}: the split adds up to {parts} µs against {wall_us} µs of the workers' wall time per step: {r}"
    );
}

/// (a) against (b): the hot path's size one at a time, and the flushes
/// incidents due together share.
fn check_flows_beside_each_other(r: &Value) {
    // Counted rather than timed: an incident's six steps (two claims, two
    // commits, seven tool calls, the archive of its history) and the
    // worker's look for more work after each commit. A step that reads or
    // writes more than it needs shows here.
    assert!(
        f(r, "/sequential/statements_per_step") <= 20.0,
        "statements per step one at a time: {r}"
    );
    assert_eq!(r["sequential"]["workers"], 1, "{r}");
    assert_eq!(r["in_flight"]["workers"], 2, "{r}");
    assert!(
        f(r, "/in_flight/synced_commits_per_step") < f(r, "/sequential/synced_commits_per_step"),
        "incidents due together share their flushes: {r}"
    );
}

/// (c) the guest alone and (d) event → committed step.
fn check_guest_and_latency(r: &Value) {
    assert_eq!(r["guest"]["samples"], 20, "{r}");
    assert!(f(r, "/guest/p50_us") > 0.0, "{r}");
    assert!(f(r, "/guest/p50_us") <= f(r, "/guest/p99_us"), "{r}");
    assert_eq!(r["event_to_commit"]["samples"], 5, "{r}");
    assert!(f(r, "/event_to_commit/p50_ms") > 0.0, "{r}");
}

/// (e) the sleeping runs, (a)'s incidents among them, and `serve` started
/// on their store.
fn check_sleeping(r: &Value) {
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
        "steps/s of each run",
        "µs/step: claim, step, commit, look, outside",
        ">= 0.5x floor",
        ">= 2x floor",
        "(g) LangGraph",
        "not measured",
    ] {
        assert!(table.contains(expected), "no {expected:?} in:\n{table}");
    }
}

#[test]
fn a_record_of_nothing_is_refused_with_the_flag_named() {
    let env = Env::sqlite("bench-record-bad", "");
    let err = bench_fails(&env, &["--runs", "0"]);
    assert!(err.contains("--runs"), "{err}");
    let err = bench_fails(&env, &["--in-flight", "0"]);
    assert!(err.contains("--in-flight"), "{err}");
    let err = bench_fails(&env, &["--repeat", "0"]);
    assert!(err.contains("--repeat"), "{err}");
}

/// LangGraph's figures as `bench/langgraph/incident.py` prints them, made
/// up: rates of 0.5 and 0.25 steps/s make wakeful's ratio to them twice and
/// four times its own rate.
fn langgraph_figures(env: &Env) -> std::path::PathBuf {
    let file = env.dir.join("langgraph.json");
    let figures = serde_json::json!({
        "framework": "langgraph",
        "version": "1.2.24",
        "sqlite": "WAL, synchronous=FULL",
        "python": "3.11.7",
        "sequential": {"incidents": SEQUENTIAL, "steps": SEQUENTIAL * STEPS_PER_INCIDENT, "steps_per_sec": 0.5},
        "in_flight": {"incidents": IN_FLIGHT, "steps": IN_FLIGHT * STEPS_PER_INCIDENT, "steps_per_sec": 0.25},
    });
    std::fs::write(&file, figures.to_string()).unwrap();
    file
}

#[test]
fn the_record_sets_langgraphs_figures_beside_wakefuls() {
    let env = Env::sqlite("bench-record-langgraph", "");
    let file = langgraph_figures(&env);
    let compare = ["--compare-json", file.to_str().unwrap()];

    let out = small_record_with(&env, true, &compare);
    let r: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"));
    assert_eq!(r["langgraph"]["version"], "1.2.24", "{r}");
    assert_eq!(r["langgraph"]["sqlite"], "WAL, synchronous=FULL", "{r}");
    for (flow, rate, incidents) in [
        ("sequential", 0.5, SEQUENTIAL),
        ("in_flight", 0.25, IN_FLIGHT),
    ] {
        assert_eq!(
            f(&r, &format!("/langgraph/{flow}/steps_per_sec")),
            rate,
            "{r}"
        );
        assert_eq!(r["langgraph"][flow]["incidents"], incidents, "{r}");
        let wakeful = f(&r, &format!("/{flow}/steps_per_sec"));
        assert_eq!(
            f(&r, &format!("/langgraph/{flow}/wakeful_ratio")),
            wakeful / rate,
            "wakeful's rate over LangGraph's from the file: {r}"
        );
    }

    let table = small_record_with(&env, false, &compare);
    let wakeful = |workload: &str| -> f64 {
        let line = table
            .lines()
            .find(|l| l.starts_with(workload))
            .unwrap_or_else(|| panic!("no {workload:?} in:\n{table}"));
        let value = line.split("steps/s (x floor)").nth(1).unwrap();
        value.split_whitespace().next().unwrap().parse().unwrap()
    };
    let (a, b) = (wakeful("(a) "), wakeful("(b) "));
    for expected in [
        "(g) LangGraph 1.2.24: 3 incidents".to_string(),
        "8 incidents in flight".to_string(),
        format!("0.5 ({:.2}x)", a / 0.5),
        format!("0.25 ({:.2}x)", b / 0.25),
        ">= 10x LangGraph".to_string(),
    ] {
        assert!(table.contains(&expected), "no {expected:?} in:\n{table}");
    }
    assert!(!table.contains("not measured"), "{table}");
}

#[test]
fn a_malformed_comparison_is_refused_with_its_file_named() {
    let env = Env::sqlite("bench-record-langgraph-bad", "");
    let file = env.dir.join("langgraph.json");
    let path = file.to_str().unwrap();
    for (text, why) in [
        (
            "{\"framework\": \"langgraph\", \"version\"",
            "not LangGraph's figures",
        ),
        (
            r#"{"framework": "langgraph", "version": "1"}"#,
            "missing field",
        ),
        (
            r#"{"framework": "langgraph", "version": "1",
                "sequential": {"incidents": 1, "steps": 6, "steps_per_sec": 0},
                "in_flight": {"incidents": 1, "steps": 6, "steps_per_sec": 9}}"#,
            "sequential.steps_per_sec is 0",
        ),
    ] {
        std::fs::write(&file, text).unwrap();
        let err = bench_fails(&env, &["--compare-json", path]);
        assert!(err.contains(&format!("--compare-json {path}")), "{err}");
        assert!(err.contains(why), "{why:?}: {err}");
    }
    let missing = env.dir.join("absent.json");
    let err = bench_fails(&env, &["--compare-json", missing.to_str().unwrap()]);
    assert!(
        err.contains("absent.json") && err.contains("cannot read"),
        "{err}"
    );
}
