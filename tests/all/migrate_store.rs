//! Moving a host's store from its SQLite file to PostgreSQL with
//! `wakeful migrate-store`: runs left waiting on events and approvals
//! finish on PostgreSQL with their history, and the SQLite file is left as
//! it was.

use serde_json::{Value, json};

use crate::harness::{Env, INCIDENT_TOOLS};

/// A schema of its own on the test PostgreSQL (`WAKEFUL_TEST_POSTGRES`,
/// else the local server), dropped when the test ends.
struct PgSchema {
    server: String,
    name: String,
    url: String,
}

impl PgSchema {
    fn new(name: &str) -> PgSchema {
        let server = std::env::var("WAKEFUL_TEST_POSTGRES")
            .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/test".into());
        let name = format!("e2e_{name}_{}", std::process::id());
        admin(&server)
            .batch_execute(&format!(
                "DROP SCHEMA IF EXISTS {name} CASCADE; CREATE SCHEMA {name}"
            ))
            .unwrap();
        let sep = if server.contains('?') { '&' } else { '?' };
        let url = format!("{server}{sep}options=-c%20search_path%3D{name}");
        PgSchema { server, name, url }
    }
}

impl Drop for PgSchema {
    fn drop(&mut self) {
        let _ = admin(&self.server)
            .batch_execute(&format!("DROP SCHEMA IF EXISTS {} CASCADE", self.name));
    }
}

fn admin(server: &str) -> postgres::Client {
    postgres::Client::connect(server, postgres::NoTls).unwrap_or_else(|e| {
        panic!(
            "the migrate-store tests need PostgreSQL: cannot reach {server} ({e}); start it, \
             or set WAKEFUL_TEST_POSTGRES to a database the tests may create schemas in"
        )
    })
}

/// `wakeful migrate-store` run from a directory with no data directory
/// and no `WAKEFUL_DATA`: the command needs none, and makes none.
fn migrate(env: &Env, from: &str, to: &str, json: bool) -> std::process::Output {
    let mut args = vec!["migrate-store", "--from", from, "--to", to];
    if json {
        args.push("--json");
    }
    let out = env
        .command(&args)
        .env_remove("WAKEFUL_DATA")
        .output()
        .expect("run wakeful");
    assert!(
        !env.dir.join(".wakeful").exists(),
        "migrate-store made a data directory"
    );
    out
}

fn status(env: &Env, run: &str) -> String {
    env.show(run)["status"].as_str().unwrap().to_string()
}

#[test]
fn runs_waiting_on_sqlite_finish_on_postgres_after_migrate_store() {
    // On the SQLite file whatever store the other tests run on: it is
    // what is moved.
    let env = Env::sqlite("migrate-store", INCIDENT_TOOLS);
    let degraded = json!({"status": "degraded", "memory_pct": 97, "actions_applied": 0});
    env.ok(&[
        "kv",
        "put",
        "agent/incident/service/payments-api",
        &degraded.to_string(),
    ]);
    env.deploy("incident", &["kv", "lease", "llm"]);
    env.deploy("waiter", &[]);
    let incident = json!({"incident": "INC-7001", "service": "payments-api"});
    env.start("incident", "inc", incident);
    env.start("waiter", "on-event", json!({"topic": "deploys"}));
    env.start("waiter", "on-approval", json!({"approval_ms": 3_600_000}));
    env.start("waiter", "on-broadcast", json!({"topic": "news"}));
    env.work();
    let runs = ["inc", "on-event", "on-approval", "on-broadcast"];
    for run in runs {
        assert_eq!(status(&env, run), "waiting", "{run}");
    }
    let seqs: Vec<Vec<u64>> = runs.iter().map(|r| env.checkpoint_seqs(r)).collect();
    let audit = env.audit_json(&["audit"]);
    let runs_listed = env.json(&["runs"]);

    let file = format!("sqlite:{}", env.sqlite_file().display());
    let pg = PgSchema::new("move");
    let out = migrate(&env, &file, &pg.url, false);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("verified"), "{stdout}");
    assert!(stdout.contains("checkpoints"), "{stdout}");

    // Copied once: the target is not empty any more.
    let again = migrate(&env, &file, &pg.url, false);
    let stderr = String::from_utf8_lossy(&again.stderr);
    assert!(!again.status.success());
    assert!(stderr.contains("is not empty"), "{stderr}");

    // The same copy, reported as JSON, into another schema.
    let other = PgSchema::new("move_json");
    let out = migrate(&env, &file, &other.url, true);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["verified"], true, "{report}");
    assert_eq!(report["from"], file.as_str());
    let counts: Vec<(String, u64)> = report["tables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            (
                t["table"].as_str().unwrap().into(),
                t["rows"].as_u64().unwrap(),
            )
        })
        .collect();
    assert!(counts.contains(&("runs".into(), 4)), "{report}");
    assert!(counts.contains(&("agents".into(), 2)), "{report}");
    let audit_rows = audit.as_array().unwrap().len() as u64;
    assert!(counts.contains(&("audit".into(), audit_rows)), "{report}");

    // From here on, the host runs on PostgreSQL.
    // It keeps the link key its approval links were made with: a host on
    // PostgreSQL names its key.
    let key = env.dir.join("data").join("link-key");
    let moved = env
        .clone_with_env("WAKEFUL_STORE", &pg.url)
        .clone_with_env("WAKEFUL_LINK_KEY_FILE", key.to_str().unwrap());
    assert_eq!(moved.json(&["runs"]), runs_listed);
    moved.approve("inc", "approve-scale_out", &["--by", "on-call engineer"]);
    moved.approve("on-approval", "ok?", &["--by", "bob"]);
    moved.ok(&["send", "on-event", "--topic", "deploys", "--id", "d1"]);
    moved.ok(&["send", "--topic", "news", "--id", "n1"]);
    moved.work();

    let outcome = |run: &str| {
        let show = moved.show(run);
        assert_eq!(show["status"], "done", "{show}");
        show["outcome"].as_str().unwrap().to_string()
    };
    assert_eq!(outcome("inc"), "resolved");
    let me = crate::principal::os_principal();
    assert!(outcome("on-approval").starts_with(&format!("approved=true by {me}")));
    assert_eq!(outcome("on-event"), "event d1 on deploys");
    assert_eq!(outcome("on-broadcast"), "event n1 on news");
    let applied = moved.kv("agent/incident/service/payments-api")["actions_applied"].clone();
    assert_eq!(applied, 1);

    // Each run's history goes on from where it stopped.
    for (run, before) in runs.iter().zip(&seqs) {
        let after = moved.checkpoint_seqs(run);
        assert!(after.len() > before.len(), "{run}: {after:?}");
        assert_eq!(&after[..before.len()], before.as_slice(), "{run}");
        let expected: Vec<u64> = (1..=after.len() as u64).collect();
        assert_eq!(after, expected, "{run}");
    }
    // The audit log keeps every row from before the move, ids and all,
    // then the move itself, then what happened on PostgreSQL.
    let moved_audit = moved.audit_json(&["audit"]);
    let moved_rows = moved_audit.as_array().unwrap();
    let old_rows = audit.as_array().unwrap();
    assert_eq!(&moved_rows[..old_rows.len()], old_rows.as_slice());
    let migrated = &moved_rows[old_rows.len()];
    assert_eq!(migrated["kind"], "store migrated", "{migrated}");
    assert_eq!(migrated["data"]["from"], file.as_str());
    assert_eq!(
        migrated["id"].as_u64(),
        old_rows.last().unwrap()["id"].as_u64().map(|id| id + 1)
    );
    assert!(moved_rows.len() > old_rows.len() + 1);
    let trail = moved.ok(&["audit", "inc"]);
    assert!(
        trail.contains(&format!(
            "approve-scale_out approved by {me} (said: on-call engineer)"
        )),
        "{trail}"
    );

    // The SQLite file was only read.
    for run in runs {
        assert_eq!(status(&env, run), "waiting", "{run}");
    }
}
