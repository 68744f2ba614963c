//! An ended run's history is packed into one row of the store, and reads
//! through the CLI and the API as it did while the run was live: its
//! checkpoints, its calls, its audit rows in the log across runs, and
//! after `prune` its audit rows.

use serde_json::{Value, json};

use crate::harness::Env;

fn count(env: &Env, sql: &str) -> i64 {
    env.sql_query(sql)[0][0].as_i64().unwrap()
}

/// Rows of `run` in the live history tables.
fn live_rows(env: &Env, run: &str) -> i64 {
    count(
        env,
        &format!(
            "SELECT (SELECT COUNT(*) FROM checkpoints WHERE run_id = '{run}') \
             + (SELECT COUNT(*) FROM ledger WHERE run_id = '{run}') \
             + (SELECT COUNT(*) FROM audit WHERE run_id = '{run}')"
        ),
    )
}

/// Every audit row over the API, `limit` at a time.
fn audit_pages(env: &Env, limit: usize) -> Vec<Value> {
    let server = env.serve();
    let mut items = Vec::new();
    let mut path = format!("/v1/audit?limit={limit}");
    loop {
        let (status, page) = server.get(&path);
        assert_eq!(status, 200, "{path}: {page}");
        items.extend(page["items"].as_array().unwrap().iter().cloned());
        match &page["next"] {
            Value::Null => return items,
            next => path = format!("/v1/audit?limit={limit}&after={next}"),
        }
    }
}

#[test]
fn an_ended_run_is_one_archived_row_that_reads_as_before_and_survives_prune() {
    let env = Env::new("archive", "");
    env.deploy("caller", &["pager", "llm", "kv"]);
    env.deploy("waiter", &[]);
    // A run that stays live, whose audit rows interleave with the other's.
    env.start("waiter", "live", json!({"topic": "go"}));
    let calls = json!({"calls": [
        {"tool": "kv", "args": {"op": "put", "key": "note", "value": {"text": "zoë's café"}}},
        {"tool": "kv", "args": {"op": "get", "key": "note"}},
        {"tool": "kv", "args": {"op": "get", "key": "note"}},
    ]});
    env.ok(&[
        "start",
        "caller",
        "--id",
        "ended",
        "--input",
        &calls.to_string(),
    ]);
    env.work();
    assert_eq!(env.show("ended")["status"], "done");
    assert_eq!(env.show("live")["status"], "waiting");

    // Stored as one archive row, nothing left in the live tables.
    assert_eq!(live_rows(&env, "ended"), 0);
    assert_eq!(
        count(
            &env,
            "SELECT COUNT(*) FROM run_archives WHERE run_id = 'ended'"
        ),
        1
    );
    assert!(live_rows(&env, "live") > 0, "a live run is not archived");

    // Read as before: three checkpoints, three recorded calls, the rows in
    // order, the values the guest got.
    assert_eq!(env.checkpoint_seqs("ended"), [1, 2, 3]);
    let calls = env.recorded_calls("ended");
    let keys: Vec<&str> = calls
        .iter()
        .map(|c| c["data"]["key"].as_str().unwrap())
        .collect();
    assert_eq!(keys, ["k1", "k2", "k3"]);
    let kinds = env.audit_kinds(Some("ended"));
    assert_eq!(
        kinds,
        [
            "start", "tool", "step", "tool", "step", "tool", "step", "done"
        ]
    );
    let outcome = env.show("ended")["outcome"].as_str().unwrap().to_string();
    assert!(outcome.contains("zoë's café"), "{outcome}");
    let history = env.json(&["history", "ended"]);
    assert_eq!(history[2]["next"]["kind"], "done", "{history}");

    // The log across runs, page by page over the API, is the CLI's log:
    // every row once, in id order, archived and live runs merged.
    let whole = env.audit_json(&["audit"]);
    let whole = whole.as_array().unwrap();
    for limit in [1, 3] {
        assert_eq!(&audit_pages(&env, limit), whole, "pages of {limit}");
    }
    let ids: Vec<u64> = whole.iter().map(|r| r["id"].as_u64().unwrap()).collect();
    assert!(ids.windows(2).all(|w| w[0] < w[1]), "{ids:?}");
    assert!(whole.iter().any(|r| r["run_id"] == "live"));

    // Pruned, the run keeps its audit rows, from its archive.
    let audit = env.audit_json(&["audit", "ended"]);
    env.ok(&["prune", "--older-than-days", "0"]);
    assert!(env.fails(&["show", "ended"]).contains("was pruned"));
    assert_eq!(env.audit_json(&["audit", "ended"]), audit);
    let after = env.audit_json(&["audit"]);
    let (last, before) = after.as_array().unwrap().split_last().unwrap();
    assert_eq!(last["kind"], "prune", "{last}");
    assert_eq!(before, whole);
}

/// Starts `run` of the `caller` agent: one step, one kv write, done.
fn start_one_step(env: &Env, run: &str) {
    let calls = json!({"calls": [
        {"tool": "kv", "args": {"op": "put", "key": run, "value": 1}},
    ]});
    env.ok(&[
        "start",
        "caller",
        "--id",
        run,
        "--input",
        &calls.to_string(),
    ]);
}

/// Runs the one-step `caller` run `run` in a worker killed by SIGKILL once
/// its ending has committed, before it packed the run; returns what the
/// run reads as then.
fn end_in_a_worker_killed_before_packing(env: &Env, run: &str) -> (Vec<u64>, Value) {
    use std::os::unix::process::ExitStatusExt;
    start_one_step(env, run);
    let point = format!("before-pack:{run}");
    let out = env
        .clone_with_env("WAKEFUL_FAILPOINT", &point)
        .output(&["work", "--until-idle"]);
    assert_eq!(
        out.status.signal(),
        Some(9),
        "the worker dies at {point}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(env.show(run)["status"], "done", "the ending committed");
    assert!(live_rows(env, run) > 0, "its history is still live");
    let queued = format!("SELECT COUNT(*) FROM unpacked_runs WHERE run_id = '{run}'");
    assert_eq!(count(env, &queued), 1);
    (env.checkpoint_seqs(run), env.audit_json(&["audit", run]))
}

fn packed(env: &Env, run: &str) -> bool {
    let archived = format!("SELECT COUNT(*) FROM run_archives WHERE run_id = '{run}'");
    let queued = format!("SELECT COUNT(*) FROM unpacked_runs WHERE run_id = '{run}'");
    live_rows(env, run) == 0 && count(env, &archived) == 1 && count(env, &queued) == 0
}

#[test]
fn a_run_ended_by_a_worker_killed_before_packing_reads_whole_until_the_next_worker_or_serve_packs_it()
 {
    let env = Env::new("archive-crash", "");
    env.deploy("caller", &["pager", "llm", "kv"]);

    // The next worker packs what the killed one left.
    let (seqs, audit) = end_in_a_worker_killed_before_packing(&env, "a");
    assert_eq!(seqs, [1]);
    let kinds: Vec<&str> = audit
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["start", "tool", "step", "done"]);
    env.work();
    assert!(packed(&env, "a"));
    assert_eq!(env.checkpoint_seqs("a"), seqs);
    assert_eq!(env.audit_json(&["audit", "a"]), audit);

    // So does `serve`, on its heartbeat, with no step to take.
    let (seqs, audit) = end_in_a_worker_killed_before_packing(&env, "b");
    let _server = env.serve();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while !packed(&env, "b") {
        assert!(
            std::time::Instant::now() < deadline,
            "serve never packed run b: {}",
            env.serve_log()
        );
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
    assert_eq!(env.checkpoint_seqs("b"), seqs);
    assert_eq!(env.audit_json(&["audit", "b"]), audit);
}

#[test]
fn runs_ended_under_serve_are_packed_by_its_packer_even_when_it_stops_at_once() {
    let env = Env::new("archive-serve-packer", "");
    env.deploy("caller", &["pager", "llm", "kv"]);
    let server = env.serve();
    let runs = ["s1", "s2", "s3"];
    for run in runs {
        start_one_step(&env, run);
    }
    for run in runs {
        server.wait_run(run, "done", |r| r["status"] == "done");
    }
    // Stopped as soon as the runs are done: the packer packs what the
    // workers handed it before serve exits.
    server.terminate();
    for run in runs {
        assert!(packed(&env, run), "run {run} left unpacked");
        assert_eq!(env.checkpoint_seqs(run), [1]);
    }
}

#[test]
fn a_worker_warns_of_a_run_it_cannot_pack_and_packs_and_steps_the_others() {
    let env = Env::new("archive-damaged-leftover", "");
    env.deploy("caller", &["pager", "llm", "kv"]);
    // Run a ends and is packed; then its archive is damaged and it is
    // queued again, as if rows of it were still live.
    start_one_step(&env, "a");
    env.work();
    assert!(packed(&env, "a"));
    let garbage = match env.store_kind() {
        crate::harness::StoreKind::Postgres => "decode('01deadbeef', 'hex')",
        crate::harness::StoreKind::Sqlite => "x'01deadbeef'",
    };
    env.sql_execute(&format!(
        "UPDATE run_archives SET data = {garbage} WHERE run_id = 'a'; \
         INSERT INTO unpacked_runs (run_id) VALUES ('a')"
    ));
    // Run b ends in a worker killed before it packed it; run c is due.
    let (seqs, audit) = end_in_a_worker_killed_before_packing(&env, "b");
    start_one_step(&env, "c");

    let out = env.output(&["work", "--until-idle"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("warning: packing the history of ended runs failed")
            && stderr.contains("run(s) a stay queued")
            && stderr.contains("archived history of run a"),
        "{stderr}"
    );
    assert!(packed(&env, "b"), "b is packed all the same");
    assert_eq!(env.checkpoint_seqs("b"), seqs);
    assert_eq!(env.audit_json(&["audit", "b"]), audit);
    assert_eq!(env.show("c")["status"], "done", "and c is stepped");
    assert!(packed(&env, "c"));
}
