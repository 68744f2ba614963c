//! The command line never misleads its operator: it ends quietly into a
//! closed pipe, lists kv keys, says when a deploy changed only the owner,
//! writes readable audit rows, refuses to overwrite a schedule by accident,
//! and benchmarks any agent without touching the data directory.

use std::io::{BufRead, Read};
use std::os::unix::process::ExitStatusExt;
use std::process::Stdio;

use serde_json::{Value, json};

use crate::harness::{self, Env, StoreKind};

/// Runs `wakeful ARGS`, reads the first line of its output, and closes the
/// pipe as `| head -1` does. Returns that line, the exit status and stderr.
fn first_line_then_hang_up(env: &Env, args: &[&str]) -> (String, std::process::ExitStatus, String) {
    let mut child = env
        .command(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run wakeful");
    let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    stdout.read_line(&mut line).unwrap();
    drop(stdout);
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    (line, child.wait().unwrap(), stderr)
}

fn ends_quietly(what: &str, (line, status, stderr): (String, std::process::ExitStatus, String)) {
    assert!(!line.is_empty(), "{what} printed nothing");
    assert!(
        !stderr.contains("panicked") && status.code() != Some(101),
        "{what} panicked on the closed pipe ({status}):\n{stderr}"
    );
    let quiet = status.signal() == Some(13) || matches!(status.code(), Some(0 | 141));
    assert!(quiet, "{what} ended with {status}:\n{stderr}");
    assert!(stderr.is_empty(), "{what} wrote to stderr:\n{stderr}");
}

#[test]
fn listing_into_a_closed_pipe_ends_quietly() {
    let env = Env::new("closed-pipe", "");
    env.deploy("waiter", &[]);
    // A state larger than a pipe's buffer, so `show` is still writing
    // when the reader goes.
    let big = "x".repeat(200 << 10);
    let input = env.dir.join("big.json");
    std::fs::write(&input, json!({"topic": "t", "details": big}).to_string()).unwrap();
    let input = format!("@{}", input.display());
    env.ok(&["start", "waiter", "--id", "big", "--input", &input]);
    env.work();
    // Many runs, copied in SQL: `runs` prints far more than a pipe holds.
    // Each copy has an incarnation of its own, as a started run would.
    let mut sql = String::from(
        "CREATE TEMP TABLE seed AS SELECT * FROM runs WHERE run_id = 'big';
         UPDATE seed SET state = '{}', input = 'null';
         BEGIN;",
    );
    // PostgreSQL's runs have an explicit `rowid` (SQLite's is hidden
    // from `*`): each copy takes its own.
    let postgres = env.store_kind() == StoreKind::Postgres;
    for i in 0..2000 {
        let rowid = if postgres {
            format!(", rowid = {}", 1_000_000 + i)
        } else {
            String::new()
        };
        sql.push_str(&format!(
            "UPDATE seed SET run_id = 'copy-{i:05}', incarnation = '{:032x}'{rowid};
             INSERT INTO runs SELECT * FROM seed;",
            (u128::from(std::process::id()) << 64) | i
        ));
    }
    sql.push_str("COMMIT;");
    env.sql_execute(&sql);
    ends_quietly("runs", first_line_then_hang_up(&env, &["runs"]));
    ends_quietly("show", first_line_then_hang_up(&env, &["show", "big"]));
}

#[test]
fn kv_list_shows_keys_in_order_a_page_at_a_time_in_text_json_and_the_api() {
    let env = Env::new("kv-list", "");
    for (key, value) in [
        ("shared/app/b", "2"),
        ("shared/app/a", r#"{"n":1}"#),
        ("shared/app/c", "3"),
        ("shared/zz/other", "0"),
    ] {
        env.ok(&["kv", "put", key, value]);
    }
    env.ok(&["kv", "put", "shared/app/b", "22"]);
    env.ok(&["kv", "delete", "shared/app/c"]);

    let text = env.ok(&["kv", "list", "shared/app/"]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines.len(),
        3,
        "a header and two keys (app/c was deleted):\n{text}"
    );
    assert!(lines[0].starts_with("NAMESPACE"), "{text}");
    assert!(
        lines[1].starts_with("shared/app ")
            && lines[1].contains("shared/app/a")
            && lines[1].contains(r#"{"n":1}"#),
        "{text}"
    );
    assert!(
        lines[2].contains("shared/app/b") && lines[2].contains(" 2 "),
        "{text}"
    );

    let all = env.json(&["kv", "list"]);
    assert_eq!(
        all,
        json!([
            {"key": "shared/app/a", "namespace": "shared/app", "value": {"n": 1}, "version": 1},
            {"key": "shared/app/b", "namespace": "shared/app", "value": 22, "version": 2},
            {"key": "shared/zz/other", "namespace": "shared/zz", "value": 0, "version": 1},
        ])
    );

    let out = env.output(&["kv", "list", "--limit", "1", "--json"]);
    assert!(out.status.success());
    let page: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(page[0]["key"], "shared/app/a");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("more: pass --after shared/app/a"),
        "{stderr}"
    );
    let rest = env.json(&["kv", "list", "--after", "shared/app/a"]);
    let keys: Vec<&str> = rest
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["key"].as_str().unwrap())
        .collect();
    assert_eq!(keys, ["shared/app/b", "shared/zz/other"]);
    let err = env.fails(&["kv", "list", "--limit", "0"]);
    assert!(err.contains("--limit 0 lists nothing"), "{err}");

    let server = env.serve();
    let (status, page) = server.get("/v1/kv?prefix=shared/app/&limit=1");
    assert_eq!(status, 200, "{page}");
    assert_eq!(
        page,
        json!({"items": [{"key": "shared/app/a", "namespace": "shared/app",
            "value": {"n": 1}, "version": 1}], "next": "shared/app/a"})
    );
    let (status, page) = server.get("/v1/kv?prefix=shared/app/&after=shared/app/a");
    assert_eq!(status, 200, "{page}");
    assert_eq!(page["items"][0]["key"], "shared/app/b");
    assert_eq!(page["next"], Value::Null);
    let (status, err) = server.get("/v1/kv?limit=0");
    assert_eq!(status, 400, "{err}");
    let (status, err) = server.get("/v1/kv?bogus=1");
    assert_eq!(status, 400, "{err}");
    let (status, one) = server.get("/v1/kv/shared/app/a");
    assert_eq!((status, &one["value"]), (200, &json!({"n": 1})), "{one}");
    assert_eq!(one["namespace"], "shared/app");
    let (status, err) = server.get("/v1/kv/app/a");
    assert_eq!(status, 400, "{err}");
    assert!(err.to_string().contains("names no namespace"), "{err}");
}

#[test]
fn redeploying_with_another_owner_changes_the_owner_and_says_so() {
    let env = Env::new("owner", "");
    let wasm = harness::agent("waiter");
    let wasm = wasm.to_str().unwrap();
    let first = env.ok(&["deploy", wasm, "--owner", "alice"]);
    let label = first
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("deployed "))
        .unwrap_or_else(|| panic!("{first}"))
        .to_string();
    let owner = || env.json(&["agents"])[0]["owner"].clone();

    let changed = env.ok(&["deploy", wasm, "--owner", "bob"]);
    assert!(
        changed.contains(&format!("owner of {label} is now bob (was alice)")),
        "{changed}"
    );
    assert_eq!(owner(), "bob");
    let rows = env.audit_json(&["audit"]);
    let change: Vec<&Value> = rows
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["kind"] == "owner changed")
        .collect();
    assert_eq!(change.len(), 1, "{rows}");
    assert_eq!(
        (&change[0]["data"]["old"], &change[0]["data"]["new"]),
        (&json!("alice"), &json!("bob"))
    );

    for again in [vec!["deploy", wasm], vec!["deploy", wasm, "--owner", "bob"]] {
        let out = env.ok(&again);
        assert!(
            out.starts_with(&format!("already deployed {label}")),
            "{out}"
        );
        assert!(
            out.contains("owner bob"),
            "the stored owner is shown: {out}"
        );
    }
    assert_eq!(owner(), "bob");
    let doc = env.json(&["deploy", wasm, "--owner", "carol"]);
    assert_eq!(doc["agent"]["owner"], "carol", "{doc}");
    assert_eq!(doc["owner_changed"]["was"], "bob", "{doc}");
    let audit = env.ok(&["audit"]);
    assert!(audit.contains(&format!("{label} bob -> carol")), "{audit}");
}

#[test]
fn lease_audit_rows_are_json_fields() {
    let env = Env::new("lease-audit", "");
    env.ok(&[
        "lease",
        "acquire",
        "shared/db/main",
        "--holder",
        "bob",
        "--ttl",
        "60",
    ]);
    env.ok(&["lease", "release", "shared/db/main", "--holder", "bob"]);
    let rows = env.audit_json(&["audit"]);
    let leases: Vec<&Value> = rows
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["kind"] == "lease")
        .map(|r| &r["data"])
        .collect();
    assert_eq!(leases.len(), 2, "{rows}");
    assert_eq!(leases[0]["op"], "acquire");
    assert_eq!(leases[0]["ttl_ms"], 60_000);
    assert_eq!(leases[0]["result"]["granted"], true);
    assert_eq!(leases[1]["op"], "release", "{}", leases[1]);
    assert_eq!(leases[1]["resource"], "shared/db/main");
    assert_eq!(leases[1]["holder"], "bob");
    assert_eq!(leases[1]["result"], json!({"released": true}));
    let text = env.ok(&["audit"]);
    assert!(text.contains("release shared/db/main by bob"), "{text}");
}

#[test]
fn a_schedule_is_replaced_only_with_replace_and_the_audit_shows_both() {
    let env = Env::new("schedule-replace", "");
    env.deploy("waiter", &[]);
    let add = |cron: &str, input: &str, replace: bool| {
        let mut args = vec![
            "schedule", "add", "daily", "waiter", "--cron", cron, "--input", input,
        ];
        if replace {
            args.push("--replace");
        }
        env.output(&args)
    };
    assert!(add("0 9 * * *", r#"{"topic":"a"}"#, false).status.success());
    let refused = add("0 10 * * *", r#"{"topic":"b"}"#, false);
    assert!(!refused.status.success());
    let err = String::from_utf8_lossy(&refused.stderr);
    for part in [
        "schedule daily already exists",
        "waiter",
        "`0 9 * * *`",
        r#"{"topic":"a"}"#,
        "--replace",
    ] {
        assert!(err.contains(part), "missing {part:?}: {err}");
    }
    let list = env.json(&["schedule", "list"]);
    assert_eq!(
        (&list[0]["cron"], &list[0]["input"]),
        (&json!("0 9 * * *"), &json!(r#"{"topic":"a"}"#)),
        "nothing changed"
    );

    let replaced = add("0 10 * * *", r#"{"topic":"b"}"#, true);
    assert!(
        replaced.status.success(),
        "{}",
        String::from_utf8_lossy(&replaced.stderr)
    );
    let list = env.json(&["schedule", "list"]);
    assert_eq!(list.as_array().unwrap().len(), 1);
    assert_eq!(
        (&list[0]["cron"], &list[0]["input"]),
        (&json!("0 10 * * *"), &json!(r#"{"topic":"b"}"#))
    );
    let rows = env.audit_json(&["audit"]);
    let row = rows
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["kind"] == "schedule replaced")
        .unwrap_or_else(|| panic!("no `schedule replaced` row: {rows}"));
    assert_eq!(row["data"]["old"]["cron"], "0 9 * * *");
    assert_eq!(row["data"]["old"]["input"], json!({"topic": "a"}));
    assert_eq!(row["data"]["new"]["cron"], "0 10 * * *");
    assert_eq!(row["data"]["new"]["input"], json!({"topic": "b"}));
}

/// A host whose temporary directory is its own, to see what bench leaves.
fn bench_env(name: &str) -> (Env, std::path::PathBuf) {
    let env = Env::new(name, "");
    let tmp = env.dir.join("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    let env = env.clone_with_env("TMPDIR", tmp.to_str().unwrap());
    (env, tmp)
}

fn assert_nothing_left(env: &Env, tmp: &std::path::Path) {
    assert!(
        !env.dir.join("data").exists(),
        "bench created the data directory"
    );
    let left: Vec<_> = std::fs::read_dir(tmp).unwrap().collect();
    assert!(left.is_empty(), "the scratch store was left: {left:?}");
}

#[test]
fn bench_measures_any_agent_with_its_input_and_leaves_no_store_behind() {
    let (env, tmp) = bench_env("bench-any");
    let waiter = harness::agent("waiter");
    let waiter = waiter.to_str().unwrap();
    let report = env.json(&[
        "bench",
        waiter,
        "--runs",
        "3",
        "--input",
        r#"{"topic":"go"}"#,
        "--topic",
        "go",
    ]);
    assert_eq!(report["runs"], 3, "{report}");
    assert_eq!(
        report["steps"], 6,
        "a start and an event step per run: {report}"
    );
    assert_nothing_left(&env, &tmp);

    let err = env.fails(&["bench", waiter, "--runs", "3"]);
    assert!(
        err.contains("run bench-0 failed"),
        "the waiter needs its input: {err}"
    );
    assert_nothing_left(&env, &tmp);

    let err = env.fails(&["bench", waiter, "--runs", "3", "--input", "{topic"]);
    assert!(err.contains("--input is not valid JSON"), "{err}");
    let err = env.fails(&["bench", waiter, "--payload", "{}"]);
    assert!(err.contains("give its --topic"), "{err}");
    let err = env.fails(&["bench", "invoices", "--runs", "3"]);
    assert!(
        err.contains("there is no workload `invoices`") && err.contains("invoice, incident"),
        "{err}"
    );
    let err = env.fails(&["bench", "ghost.wasm", "--runs", "3"]);
    assert!(err.contains("cannot read ghost.wasm"), "{err}");
    assert_nothing_left(&env, &tmp);
}

#[test]
fn bench_runs_the_built_in_workloads_by_name() {
    let (env, tmp) = bench_env("bench-named");
    harness::agent("incident");
    let invoice = env.json(&["bench", "invoice", "--runs", "3"]);
    assert_eq!(invoice["steps"], 6, "{invoice}");
    assert!(
        invoice["agent"]
            .as_str()
            .unwrap()
            .starts_with("invoice-mail@"),
        "{invoice}"
    );
    // Triage, diagnose, ask; then revalidate, act, verify once approved.
    let incident = env.json(&["bench", "incident", "--runs", "3"]);
    assert_eq!(incident["steps"], 18, "{incident}");
    assert!(
        incident["wakes_per_sec"].as_f64().unwrap() > 0.0,
        "{incident}"
    );
    assert_nothing_left(&env, &tmp);
}
