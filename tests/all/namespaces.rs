//! Namespaces of `kv` and `lease`, and the files of the store: an agent's
//! keys are its own, a shared namespace is opened by a grant naming it, a
//! lease's holder is the run, and the store and its backups are readable
//! by their owner only.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command;

use serde_json::{Value, json};

use crate::harness::{Env, FAST_LIMITS};

/// Starts a run of `agent` (`caller` or `peer`) making `calls` and steps it
/// until idle; returns its results, one line per call.
fn calls(env: &Env, agent: &str, run: &str, calls: Value) -> Vec<String> {
    env.start(agent, run, json!({ "calls": calls }));
    env.work();
    let show = env.show(run);
    assert_eq!(show["status"], "done", "{show}");
    show["state"]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap().to_string())
        .collect()
}

/// The JSON of an `ok: <result>` line.
fn ok(line: &str) -> Value {
    let json = line
        .strip_prefix("ok: ")
        .unwrap_or_else(|| panic!("not ok: {line}"));
    serde_json::from_str(json).unwrap()
}

fn kv(op: &str, key: &str, value: Option<Value>) -> Value {
    let mut args = json!({"op": op, "key": key});
    if let Some(value) = value {
        args["value"] = value;
    }
    json!({"tool": "kv", "args": args})
}

#[test]
fn another_agent_granted_kv_cannot_read_or_overwrite_an_agents_key() {
    let env = Env::new("ns-private", FAST_LIMITS);
    env.deploy("peer", &["kv", "lease"]);
    env.deploy("caller", &["pager", "llm", "kv"]);
    let mine = json!({"owner": "peer", "status": "degraded"});
    let put = calls(
        &env,
        "peer",
        "a1",
        json!([kv("put", "service/payments-api", Some(mine.clone()))]),
    );
    assert_eq!(ok(&put[0])["ok"], true, "{put:?}");

    // The other agent: its `service/payments-api` is its own, and the
    // whole address of the first agent's key is just another key of its own.
    let other = calls(
        &env,
        "caller",
        "b1",
        json!([
            kv("get", "service/payments-api", None),
            kv(
                "put",
                "service/payments-api",
                Some(json!({"owner": "caller"}))
            ),
            kv("get", "agent/peer/service/payments-api", None),
            kv("put", "shared/services/payments-api", Some(json!(1))),
        ]),
    );
    assert_eq!(
        ok(&other[0]),
        json!({"key": "service/payments-api", "value": null, "version": 0}),
        "{other:?}"
    );
    assert_eq!(ok(&other[1]), json!({"ok": true, "version": 1}));
    assert_eq!(ok(&other[2])["value"], Value::Null, "{other:?}");
    assert!(
        other[3].starts_with("err: denied") && other[3].contains("--grant kv:shared/services"),
        "{other:?}"
    );

    // The operator sees each key under its agent's namespace, untouched.
    let a = env.json(&["kv", "get", "agent/peer/service/payments-api"]);
    assert_eq!(
        (&a["value"], &a["version"], &a["namespace"]),
        (&mine, &json!(1), &json!("agent/peer"))
    );
    let b = env.json(&["kv", "get", "agent/caller/service/payments-api"]);
    assert_eq!(b["value"], json!({"owner": "caller"}));
    let listed = env.json(&["kv", "list"]);
    let keys: Vec<&str> = listed
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["key"].as_str().unwrap())
        .collect();
    assert_eq!(
        keys,
        [
            "agent/caller/service/payments-api",
            "agent/peer/service/payments-api"
        ]
    );
    // An operator's address always names its namespace.
    let err = env.fails(&["kv", "get", "service/payments-api"]);
    assert!(err.contains("names no namespace"), "{err}");
    let err = env.fails(&["kv", "put", "agent/peer", "1"]);
    assert!(err.contains("names no namespace"), "{err}");
}

#[test]
fn a_shared_namespace_granted_by_name_is_seen_by_both_agents() {
    let env = Env::new("ns-shared", FAST_LIMITS);
    env.deploy("peer", &["kv", "lease", "kv:shared/services"]);
    env.deploy("caller", &["pager", "llm", "kv", "kv:shared/services"]);
    let degraded = json!({"status": "degraded"});
    env.ok(&[
        "kv",
        "put",
        "shared/services/payments-api",
        &degraded.to_string(),
    ]);
    let key = "shared/services/payments-api";
    let peer = calls(
        &env,
        "peer",
        "p1",
        json!([
            kv("get", key, None),
            {"tool": "kv", "args": {"op": "put", "key": key,
                "value": {"status": "healthy"}, "expected_version": 1}},
            kv("get", "shared/billing/x", None),
        ]),
    );
    assert_eq!(
        ok(&peer[0]),
        json!({"key": key, "value": degraded, "version": 1})
    );
    assert_eq!(ok(&peer[1]), json!({"ok": true, "version": 2}));
    assert!(
        peer[2].starts_with("err: denied") && peer[2].contains("--grant kv:shared/billing"),
        "{peer:?}"
    );
    let caller = calls(&env, "caller", "c1", json!([kv("get", key, None)]));
    assert_eq!(
        ok(&caller[0]),
        json!({"key": key, "value": {"status": "healthy"}, "version": 2})
    );
    let shown = env.json(&["kv", "get", key]);
    assert_eq!(shown["namespace"], "shared/services");

    // A grant names a namespace of a tool the agent asks for.
    let err = env.fails(&[
        "deploy",
        crate::harness::agent("waiter").to_str().unwrap(),
        "--grant",
        "kv:shared/services",
    ]);
    assert!(err.contains("does not ask for"), "{err}");
    let err = env.fails(&[
        "deploy",
        crate::harness::agent("caller").to_str().unwrap(),
        "--grant-all",
        "--grant",
        "kv:shared/a b",
    ]);
    assert!(err.contains("is not a grant"), "{err}");
}

fn lease(op: &str, resource: &str, holder: Option<&str>) -> Value {
    let mut args = json!({"op": op, "resource": resource});
    if let Some(holder) = holder {
        args["holder"] = json!(holder);
    }
    if op == "acquire" {
        args["ttl_ms"] = json!(600_000);
    }
    json!({"tool": "lease", "args": args})
}

#[test]
fn two_runs_naming_the_same_lease_holder_do_not_both_hold_the_lease() {
    let env = Env::new("ns-lease", FAST_LIMITS);
    env.deploy("peer", &["kv", "lease"]);
    let first = calls(
        &env,
        "peer",
        "r1",
        json!([
            lease("acquire", "db/main", Some("agent-1")),
            lease("acquire", "db/main", None)
        ]),
    );
    let second = calls(
        &env,
        "peer",
        "r2",
        json!([
            lease("acquire", "db/main", Some("agent-1")),
            lease("acquire", "db/main", None),
            lease("release", "db/main", Some("run:r1"))
        ]),
    );
    let granted = |line: &str| line.starts_with("ok: ") && ok(line)["granted"] == true;
    assert!(
        !(granted(&first[0]) && granted(&second[0])),
        "both runs hold the lease as `agent-1`: {first:?} {second:?}"
    );
    // Naming a holder needs the grant; the holder is the run.
    for named in [&first[0], &second[0]] {
        assert!(
            named.starts_with("err: denied") && named.contains("--grant lease:holder"),
            "{named}"
        );
    }
    assert_eq!(ok(&first[1])["holder"], "run:r1");
    assert_eq!(ok(&first[1])["granted"], true);
    assert_eq!(ok(&second[1])["granted"], false, "{second:?}");
    assert_eq!(ok(&second[1])["holder"], "run:r1");
    // Another run's name is refused too, not taken as that run.
    assert!(second[2].starts_with("err: denied"), "{second:?}");

    // The operator's view: the lease is in the agent's namespace.
    let err = env.fails(&[
        "lease",
        "acquire",
        "agent/peer/db/main",
        "--holder",
        "ops",
        "--ttl",
        "60",
    ]);
    assert!(err.contains("run:r1 holds the lease"), "{err}");
    let err = env.fails(&[
        "lease", "acquire", "db/main", "--holder", "ops", "--ttl", "60",
    ]);
    assert!(err.contains("names no namespace"), "{err}");
}

#[test]
fn a_version_granted_lease_holder_names_its_holder() {
    let env = Env::new("ns-lease-holder", FAST_LIMITS);
    env.deploy("peer", &["kv", "lease", "lease:holder"]);
    let first = calls(
        &env,
        "peer",
        "h1",
        json!([lease("acquire", "db/main", Some("fleet"))]),
    );
    let second = calls(
        &env,
        "peer",
        "h2",
        json!([
            lease("acquire", "db/main", None),
            lease("release", "db/main", Some("fleet")),
            lease("acquire", "db/main", Some("run:h1"))
        ]),
    );
    assert_eq!(ok(&first[0])["holder"], "fleet");
    assert_eq!(ok(&second[0])["granted"], false);
    assert_eq!(ok(&second[1])["released"], true, "{second:?}");
    assert!(second[2].starts_with("err: invalid"), "{second:?}");
}

/// `cmd` run under the umask `mask`.
fn under_umask(cmd: &Command, mask: &str) -> Command {
    let mut sh = Command::new("sh");
    sh.arg("-c")
        .arg(format!("umask {mask} && exec \"$0\" \"$@\""))
        .arg(cmd.get_program())
        .args(cmd.get_args());
    for (key, value) in cmd.get_envs() {
        match value {
            Some(value) => sh.env(key, value),
            None => sh.env_remove(key),
        };
    }
    if let Some(dir) = cmd.get_current_dir() {
        sh.current_dir(dir);
    }
    sh
}

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .permissions()
        .mode()
        & 0o777
}

#[test]
fn the_store_and_its_backup_are_readable_by_their_owner_only() {
    let env = Env::sqlite("ns-modes", "");
    let run = |args: &[&str]| {
        let out = under_umask(&env.command(args), "000").output().unwrap();
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    run(&["kv", "put", "shared/t/k", "1"]);
    let file = env.sqlite_file();
    let data = file.parent().unwrap();
    assert_eq!(mode(data), 0o700, "the data directory");
    assert_eq!(mode(&file), 0o600, "the store");
    for side in ["wakeful.db-wal", "wakeful.db-shm"] {
        let path = data.join(side);
        if path.exists() {
            assert_eq!(mode(&path), 0o600, "{side}");
        }
    }
    let copy = env.sqlite_file().with_file_name("../copy.db");
    run(&["backup", copy.to_str().unwrap()]);
    assert_eq!(mode(&copy), 0o600, "the backup");
    let restored = rusqlite::Connection::open(&copy).unwrap();
    let value: String = restored
        .query_row("SELECT value FROM kv WHERE key = 'shared/t/k'", [], |r| {
            r.get(0)
        })
        .unwrap();
    assert_eq!(value, "1");
}
