//! A power cut at every failpoint: each history is killed at one, and the
//! cut falls where it died, keeping only what was flushed, everything, or
//! any part of the rest.

use serde_json::json;

use super::checks::Acks;
use super::history::{Recording, caller_input};
use super::image::Keep;
use super::log::Log;
use super::{Cut, Finish, cut_at, knob, resume};
use crate::harness::Env;

/// Every cut of one kind at `at`, and a few of the others.
fn cuts_at(at: usize, seed: u64) -> Vec<Cut> {
    [
        Keep::Flushed,
        Keep::All,
        Keep::InOrder,
        Keep::Any,
        Keep::Any,
    ]
    .into_iter()
    .enumerate()
    .map(|(i, keep)| Cut {
        at,
        keep,
        seed: seed + i as u64,
        resume: true,
    })
    .collect()
}

/// A caller run (calls to `pager`, to `llm`, which cannot drop a repeat,
/// and to `pager`) whose `work` is killed at the failpoint: at the `llm`
/// call for the points around a call, else at the first step.
fn tool_history(point: &str) -> Recording {
    let rec = Recording::new(&format!("power-cut-{point}"));
    rec.env.deploy("caller", &["pager", "llm", "kv"]);
    rec.start("caller", "c-1", &caller_input("c-1"));
    let around_a_call = [
        "before-intent",
        "after-intent",
        "before-result",
        "after-call",
    ];
    let at = if around_a_call.contains(&point) {
        format!("{point}:k2")
    } else {
        point.to_string()
    };
    let failing = rec.env.clone_with_env("WAKEFUL_FAILPOINT", &at);
    rec.work_with(&failing, &["work", "--until-idle", "--json"]);
    rec
}

/// An upgrade killed at its commit: after the cut the run is on its old
/// version, and the same upgrade then moves it once.
fn upgrade_history(point: &str) -> (Recording, Finish) {
    let rec = Recording::new("power-cut-upgrade");
    rec.env.deploy("counter-v1", &[]);
    rec.start("counter", "a", &json!({}));
    rec.work();
    rec.env.deploy("counter-v2", &["kv"]);
    let upgrade = ["upgrade", "a", "--to", "2.0.0", "--allow-new-tools"];
    let _ = rec
        .env
        .clone_with_env("WAKEFUL_FAILPOINT", point)
        .output(&upgrade);
    let cache = rec.cache();
    let after = move |env: &Env, _: &Acks| {
        let host = resume::host(env, &cache);
        if host.show("a")["version"] != "1.0.0" {
            return Err("an upgrade cut before its commit moved the run".into());
        }
        host.ok(&upgrade);
        let upgraded = host.show("a")["version"] == "2.0.0";
        let rows = host.audit_rows("a", "upgrade").len();
        match (upgraded, rows) {
            (true, 1) => Ok(()),
            _ => Err(format!(
                "upgraded again: {upgraded}, {rows} upgrade audit rows"
            )),
        }
    };
    (rec, Box::new(after))
}

/// An answer killed before it is recorded: after the cut the request is
/// pending, and answering it again ends the run.
fn approval_history(point: &str) -> (Recording, Finish) {
    let rec = Recording::new("power-cut-approval");
    rec.env.deploy("waiter", &[]);
    rec.start("waiter", "a", &json!({"approval_ms": 3_600_000}));
    rec.work();
    let answer = rec.env.approve_args("a", "ok?", &["--by", "bob"]);
    let args: Vec<&str> = answer.iter().map(String::as_str).collect();
    let _ = rec
        .env
        .clone_with_env("WAKEFUL_FAILPOINT", point)
        .output(&args);
    let cache = rec.cache();
    let after = move |env: &Env, _: &Acks| {
        let host = resume::host(env, &cache);
        let pending = host.show("a")["pending_approvals"]
            .as_array()
            .unwrap()
            .len();
        if pending != 1 {
            return Err(format!("{pending} pending approvals after the cut"));
        }
        host.ok(&answer.iter().map(String::as_str).collect::<Vec<_>>());
        host.work();
        let done = host.show("a")["status"] == "done";
        let rows = host.audit_rows("a", "approval").len();
        match (done, rows) {
            (true, 1) => Ok(()),
            _ => Err(format!("done: {done}, {rows} approval audit rows")),
        }
    };
    (rec, Box::new(after))
}

/// A schedule's tick killed before it starts its run: after the cut a
/// host starts runs of the schedule, named after it.
fn schedule_history(point: &str) -> (Recording, Finish) {
    let rec = Recording::new("power-cut-schedule");
    rec.env.deploy("waiter", &[]);
    let input = "{\"topic\":\"t\"}";
    let every_second = ["schedule", "add", "tick", "waiter", "--cron", "* * * * * *"];
    let mut add = every_second.to_vec();
    add.extend(["--input", input]);
    rec.env.ok(&add);
    std::thread::sleep(std::time::Duration::from_millis(1100));
    let failing = rec.env.clone_with_env("WAKEFUL_FAILPOINT", point);
    rec.work_with(&failing, &["work", "--until-idle", "--json"]);
    let cache = rec.cache();
    let after = move |env: &Env, _: &Acks| {
        let host = resume::host(env, &cache);
        host.work();
        let runs = host.sql_query("SELECT run_id FROM runs");
        let named = runs
            .iter()
            .all(|r| r[0].as_str().unwrap().starts_with("tick-"));
        match (runs.is_empty(), named) {
            (false, true) => Ok(()),
            _ => Err(format!("the schedule's runs after the cut: {runs:?}")),
        }
    };
    (rec, Box::new(after))
}

#[test]
fn a_power_cut_at_every_failpoint_loses_nothing_acknowledged() {
    let listed = Env::sqlite("power-cut-list", "").ok(&["failpoints"]);
    let points: Vec<&str> = listed.lines().collect();
    assert!(
        points.len() >= 10,
        "the binary lists its failpoints: {listed}"
    );
    let seed = knob("WAKEFUL_POWER_CUT_SEED", u64::from(std::process::id()));
    eprintln!("power cuts at every failpoint, seed {seed}");
    let (mut failures, mut unreached) = (vec![], vec![]);
    for point in points {
        let (rec, after): (Recording, Finish) = match point {
            "upgrade" => upgrade_history(point),
            "approval-answer" => approval_history(point),
            "schedule-fire" => schedule_history(point),
            _ => {
                let rec = tool_history(point);
                let cache = rec.cache();
                (
                    rec,
                    Box::new(move |env: &Env, acks: &Acks| resume::finish(env, &cache, acks)),
                )
            }
        };
        let log = Log::read(&rec.log);
        let wanted = format!("failpoint {point}");
        let Some((at, _)) = log.marks().find(|(_, text)| *text == wanted) else {
            unreached.push(point.to_string());
            continue;
        };
        for failure in cut_at(&log, &cuts_at(at, seed), &*after) {
            failures.push(format!("at {point}: {failure}"));
        }
    }
    assert!(
        unreached.is_empty(),
        "no history reached the failpoints {unreached:?}"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
