//! The SQLite store against real files: schema, the step protocol, triggers
//! and the built-in tools' tables.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use serde_json::json;

use super::{SCHEMA_VERSION, SqlStore};
use crate::model::{
    ApprovalAnswer, ApprovalRequest, Event, Millis, Next, ToolError, WaitFor, Wake,
};
use crate::store::{
    AgentVersion, AnswerRefused, AuditEntry, Claim, Delivery, Effects, Held, KvEffect, KvEntry,
    KvOp, KvOutcome, KvWrite, LeaseEffect, LeaseOp, LeaseOutcome, LedgerWrite, NewRun, PutAgent,
    RunStatus, StepCommit, StepFailed, StoreError, StoredWait, Switch, UpgradeCommit,
};

/// Where one test's store lives: a directory of its own, or, when
/// `WAKEFUL_TEST_STORE=postgres`, a schema of its own in the database
/// `WAKEFUL_TEST_POSTGRES` names; removed when the test ends. The same
/// tests run against both stores.
struct TempDb {
    dir: PathBuf,
    /// The PostgreSQL store URL and its schema, when testing PostgreSQL.
    postgres: Option<(String, String)>,
}

/// The PostgreSQL server the tests use, when they test PostgreSQL.
fn test_postgres() -> Option<String> {
    match std::env::var("WAKEFUL_TEST_STORE").as_deref() {
        Ok("postgres") => Some(std::env::var("WAKEFUL_TEST_POSTGRES").unwrap_or_else(|_| {
            panic!(
                "WAKEFUL_TEST_STORE=postgres needs WAKEFUL_TEST_POSTGRES, the URL of a \
                 PostgreSQL database the tests may create schemas in \
                 (scripts/postgres.sh finds or starts one)"
            )
        })),
        _ => None,
    }
}

fn admin(url: &str) -> postgres::Client {
    postgres::Client::connect(url, postgres::NoTls)
        .unwrap_or_else(|e| panic!("cannot reach the test PostgreSQL at {url}: {e}"))
}

impl TempDb {
    fn new(name: &str) -> TempDb {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let dir =
            std::env::temp_dir().join(format!("wakeful-store-{}-{n}-{name}", std::process::id(),));
        let _ = std::fs::remove_dir_all(&dir);
        let postgres = test_postgres().map(|url| {
            let schema = format!(
                "unit_{}_{n}_{}",
                std::process::id(),
                name.replace(|c: char| !c.is_ascii_alphanumeric(), "_")
            )
            .to_lowercase();
            admin(&url)
                .batch_execute(&format!(
                    "DROP SCHEMA IF EXISTS {schema} CASCADE; CREATE SCHEMA {schema}"
                ))
                .unwrap();
            let sep = if url.contains('?') { '&' } else { '?' };
            (
                format!("{url}{sep}options=-c%20search_path%3D{schema}"),
                schema,
            )
        });
        TempDb { dir, postgres }
    }

    fn path(&self) -> PathBuf {
        self.dir.join("data").join("wakeful.db")
    }

    fn is_postgres(&self) -> bool {
        self.postgres.is_some()
    }

    /// A new connection to this test's store.
    fn open(&self) -> SqlStore {
        self.target().open()
    }

    fn target(&self) -> Target {
        match &self.postgres {
            Some((url, _)) => Target::Postgres(url.clone()),
            None => Target::Sqlite(self.path()),
        }
    }

    /// Runs SQL on the store behind its back, as damage or an old writer
    /// would.
    fn execute_batch(&self, sql: &str) {
        match &self.postgres {
            Some((url, _)) => admin(url).batch_execute(sql).unwrap(),
            None => raw(&self.path()).execute_batch(sql).unwrap(),
        }
    }
}

/// A test store that another thread can open.
#[derive(Clone)]
enum Target {
    Sqlite(PathBuf),
    Postgres(String),
}

impl Target {
    fn open(&self) -> SqlStore {
        match self {
            Target::Sqlite(path) => SqlStore::open(path).unwrap(),
            Target::Postgres(url) => SqlStore::connect(url).unwrap(),
        }
    }
}

impl Drop for TempDb {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
        if let (Some(url), Some((_, schema))) = (test_postgres(), &self.postgres) {
            let _ = admin(&url).batch_execute(&format!("DROP SCHEMA IF EXISTS {schema} CASCADE"));
        }
    }
}

fn raw(path: &Path) -> rusqlite::Connection {
    rusqlite::Connection::open(path).unwrap()
}

fn agent_version(name: &str, version: &str, digest: &str) -> AgentVersion {
    AgentVersion {
        name: name.into(),
        version: version.into(),
        digest: digest.into(),
        description: format!("{name} agent"),
        requested_tools: vec!["kv".into(), "http".into()],
        granted_tools: vec!["kv".into()],
        size: 4,
        deployed_at: 1,
        owner: Some("sre-team".into()),
        deployed_by: None,
    }
}

fn new_run(run_id: &str, created_at: Millis) -> NewRun {
    NewRun {
        run_id: run_id.into(),
        agent: "mail".into(),
        version: "1.0.0".into(),
        digest: "d-mail-1".into(),
        input: format!(r#"{{"run":"{run_id}"}}"#),
        step_budget: 100,
        fuel_budget: u64::MAX,
        token_budget: 1_000,
        usd_budget: 0.0,
        created_at,
    }
}

/// A store with agent `mail@1.0.0` and the run `r1`.
/// A store on a SQLite file in `db`'s directory, whichever store the
/// other tests use, with run `r1` due.
fn sqlite_store_with_a_run(db: &TempDb) -> SqlStore {
    std::fs::create_dir_all(db.path().parent().unwrap()).unwrap();
    let mut store = SqlStore::open(db.path()).unwrap();
    store
        .put_agent(&agent_version("mail", "1.0.0", "d-mail-1"), b"wasm")
        .unwrap();
    store.create_run(&new_run("r1", 1)).unwrap();
    store
}

fn setup(name: &str) -> (TempDb, SqlStore) {
    let db = TempDb::new(name);
    let mut store = db.open();
    store
        .put_agent(&agent_version("mail", "1.0.0", "d-mail-1"), b"wasm")
        .unwrap();
    store.create_run(&new_run("r1", 1)).unwrap();
    (db, store)
}

fn claim(store: &mut SqlStore, now: Millis) -> Option<(Claim, Wake)> {
    store.claim(now, "worker-1", 1_000).unwrap()
}

/// Who sent a broadcast, as its audit rows say.
fn sent_by() -> AuditEntry {
    AuditEntry {
        run_id: None,
        kind: "event".into(),
        data: json!({"by": "ops"}),
    }
}

fn event_wait(topic: &str) -> StoredWait {
    StoredWait {
        wait: WaitFor::Event {
            topic: topic.into(),
        },
        due_at: None,
    }
}

fn approval_wait(id: &str, details: &str, valid_for_ms: u64) -> StoredWait {
    StoredWait {
        wait: WaitFor::Approval(ApprovalRequest {
            id: id.into(),
            question: format!("may I do {id}?"),
            details: details.into(),
            valid_for_ms,
        }),
        due_at: None,
    }
}

fn until_wait(at: Millis) -> StoredWait {
    StoredWait {
        wait: WaitFor::Until { at },
        due_at: Some(at),
    }
}

fn waiting(waits: &[StoredWait]) -> Next {
    Next::Wait {
        waits: waits.iter().map(|w| w.wait.clone()).collect(),
    }
}

fn step(claim: &Claim, wake: Wake, next: Next, waits: Vec<StoredWait>, at: Millis) -> StepCommit {
    StepCommit {
        run_id: claim.run.run_id.clone(),
        epoch: claim.epoch,
        wake,
        state: format!(r#"{{"at":{at}}}"#),
        next,
        status_text: Some(format!("step at {at}")),
        fuel_used: 10,
        wake_when: Some("something".into()),
        waits,
        audit: vec![AuditEntry {
            run_id: Some(claim.run.run_id.clone()),
            kind: "step".into(),
            data: json!({ "at": at }),
        }],
        at,
        park: None,
        keep_checkpoints: None,
        effects: Default::default(),
        keep_claim: false,
        state_before: None,
    }
}

/// Claims `r1` at `now` and commits a step that waits for `waits`.
fn step_to_wait(store: &mut SqlStore, now: Millis, waits: Vec<StoredWait>) -> Wake {
    let (c, wake) = claim(store, now).expect("a due run");
    let next = waiting(&waits);
    store
        .commit_step(&step(&c, wake.clone(), next, waits, now))
        .unwrap();
    wake
}

fn event(id: &str, topic: &str, at: Millis) -> Event {
    Event {
        id: id.into(),
        topic: topic.into(),
        payload: format!(r#"{{"id":"{id}"}}"#),
        received_at: at,
    }
}

fn answer(request_id: &str, approved: bool, at: Millis) -> ApprovalAnswer {
    ApprovalAnswer {
        request_id: request_id.into(),
        approved,
        by: "alice".into(),
        said: None,
        at,
        comment: Some("fine".into()),
        digest: String::new(),
    }
}

fn audit_kinds(store: &SqlStore) -> Vec<String> {
    store
        .audit(Some("r1"))
        .unwrap()
        .into_iter()
        .map(|row| row.kind)
        .collect()
}

fn lost_claim(result: crate::store::Result<impl std::fmt::Debug>) -> bool {
    matches!(result, Err(StoreError::LostClaim { .. }))
}

mod approvals;
mod archive;
mod callbacks;
mod checkpoints;
mod claims;
mod copy;
mod group;
mod history;
mod hosts;
mod schedules;
mod schema;
mod sessions;
mod tools;
mod upgrades;
mod writer;

/// The schema version the store records.
fn stored_version(db: &TempDb) -> i64 {
    match &db.postgres {
        Some((url, _)) => admin(url)
            .query_one("SELECT version FROM wakeful_schema", &[])
            .unwrap()
            .get(0),
        None => raw(&db.path())
            .pragma_query_value(None, "user_version", |r| r.get(0))
            .unwrap(),
    }
}

#[test]
fn migrates_a_new_store_and_reopens_it() {
    let db = TempDb::new("migrate");
    {
        let mut store = db.open();
        store
            .put_agent(&agent_version("mail", "1.0.0", "d-mail-1"), b"wasm")
            .unwrap();
        store.create_run(&new_run("r1", 1)).unwrap();
    }
    assert_eq!(stored_version(&db), SCHEMA_VERSION);
    if !db.is_postgres() {
        let mode: String = raw(&db.path())
            .pragma_query_value(None, "journal_mode", |r| r.get(0))
            .unwrap();
        assert_eq!(mode, "wal");
    }

    let store = db.open();
    let run = store.run("r1").unwrap().expect("the run survives a reopen");
    assert_eq!(run.status, RunStatus::Active);
    assert_eq!(run.state, "null");
    assert_eq!(run.fuel_budget, u64::MAX);
    assert_eq!(store.agents().unwrap().len(), 1);
    if !db.is_postgres() {
        assert_eq!(store.path(), Some(db.path().as_path()));
    }
}

#[test]
fn refuses_a_store_from_a_newer_schema() {
    let db = TempDb::new("too-new");
    let shown = db.open().location().to_string();
    match &db.postgres {
        Some(_) => db.execute_batch("UPDATE wakeful_schema SET version = 999"),
        None => raw(&db.path())
            .pragma_update(None, "user_version", 999)
            .unwrap(),
    }
    let opened = match db.target() {
        Target::Sqlite(path) => SqlStore::open(path),
        Target::Postgres(url) => SqlStore::connect(&url),
    };
    match opened {
        Err(StoreError::TooNew {
            path,
            found,
            supported,
        }) => {
            assert_eq!(path, shown);
            assert_eq!(found, 999);
            assert_eq!(supported, SCHEMA_VERSION);
        }
        Err(other) => panic!("expected TooNew, got {other}"),
        Ok(_) => panic!("a newer store was opened"),
    }
    assert_eq!(
        stored_version(&db),
        999,
        "the refused store is left as it was"
    );
}

#[test]
fn agent_versions_are_immutable_and_latest_is_highest_semver() {
    let db = TempDb::new("agents");
    let mut store = db.open();
    for (version, digest) in [("1.9.0", "d9"), ("1.10.0", "d10"), ("1.2.0", "d2")] {
        let put = store.put_agent(&agent_version("mail", version, digest), digest.as_bytes());
        assert_eq!(put.unwrap(), PutAgent::Inserted);
    }
    let again = store.put_agent(&agent_version("mail", "1.9.0", "d9"), b"d9");
    assert_eq!(again.unwrap(), PutAgent::AlreadyDeployed);
    let owned = |owner: Option<&str>| AgentVersion {
        owner: owner.map(str::to_string),
        deployed_by: None,
        ..agent_version("mail", "1.9.0", "d9")
    };
    let put = store.put_agent(&owned(Some("alice")), b"d9").unwrap();
    let was = Some("sre-team".into());
    assert_eq!(put, PutAgent::OwnerChanged { was });
    let put = store.put_agent(&owned(Some("bob")), b"d9").unwrap();
    assert_eq!(
        put,
        PutAgent::OwnerChanged {
            was: Some("alice".into())
        }
    );
    assert_eq!(
        store.put_agent(&owned(Some("bob")), b"d9").unwrap(),
        PutAgent::AlreadyDeployed
    );
    let kept = store.put_agent(&owned(None), b"d9");
    assert_eq!(
        kept.unwrap(),
        PutAgent::AlreadyDeployed,
        "no owner given keeps it"
    );
    let stored = store.agent("mail", Some("1.9.0")).unwrap().unwrap();
    assert_eq!(stored.owner.as_deref(), Some("bob"));
    let changes: Vec<_> = store
        .audit(None)
        .unwrap()
        .into_iter()
        .filter(|r| r.kind == "owner changed")
        .map(|r| (r.data["old"].clone(), r.data["new"].clone()))
        .collect();
    assert_eq!(
        changes,
        [
            ("sre-team".into(), "alice".into()),
            ("alice".into(), "bob".into())
        ]
    );
    match store.put_agent(&agent_version("mail", "1.9.0", "other"), b"x") {
        Err(StoreError::VersionConflict { existing, .. }) => assert_eq!(existing, "d9"),
        other => panic!("expected VersionConflict, got {other:?}"),
    }

    let latest = store.agent("mail", None).unwrap().unwrap();
    assert_eq!(latest.version, "1.10.0");
    assert_eq!(latest.granted_tools, vec!["kv".to_string()]);
    let pinned = store.agent("mail", Some("1.2.0")).unwrap().unwrap();
    assert_eq!(pinned.digest, "d2");
    assert!(store.agent("mail", Some("3.0.0")).unwrap().is_none());
    assert!(store.agent("nobody", None).unwrap().is_none());
    let order: Vec<String> = store
        .agents()
        .unwrap()
        .into_iter()
        .map(|a| a.version)
        .collect();
    assert_eq!(order, ["1.2.0", "1.9.0", "1.10.0"]);

    assert_eq!(store.agent_bytes("d10", 3).unwrap(), b"d10");
    assert!(matches!(
        store.agent_bytes("nope", 1 << 20),
        Err(StoreError::UnknownDigest(_))
    ));
    let mut run = new_run("r1", 1);
    run.digest = "nope".into();
    assert!(matches!(
        store.create_run(&run),
        Err(StoreError::UnknownDigest(_))
    ));
    run.digest = "d9".into();
    store.create_run(&run).unwrap();
    assert!(matches!(
        store.create_run(&run),
        Err(StoreError::RunExists(_))
    ));
}

#[test]
fn processes_opening_a_new_store_at_once_migrate_it_once() {
    let db = TempDb::new("open-race");
    let barrier = std::sync::Arc::new(std::sync::Barrier::new(4));
    let openers: Vec<_> = (0..4)
        .map(|_| {
            let (target, barrier) = (db.target(), barrier.clone());
            std::thread::spawn(move || {
                barrier.wait();
                match target {
                    Target::Sqlite(path) => SqlStore::open(path).map(drop),
                    Target::Postgres(url) => SqlStore::connect(&url).map(drop),
                }
            })
        })
        .collect();
    for opener in openers {
        opener.join().unwrap().expect("every opener succeeds");
    }
    assert_eq!(stored_version(&db), SCHEMA_VERSION);
}

#[test]
fn concurrent_workers_never_step_a_run_twice() {
    let (db, mut store) = setup("workers");
    for i in 0..29 {
        store.create_run(&new_run(&format!("w{i:02}"), 2)).unwrap();
    }
    drop(store);
    let workers: Vec<_> = (0..4)
        .map(|w| {
            let target = db.target();
            std::thread::spawn(move || {
                // One connection per worker, as separate processes would have.
                let mut store = target.open();
                let mut stepped = Vec::new();
                while let Some((c, wake)) = store.claim(10, &format!("w{w}"), 60_000).unwrap() {
                    let done = Next::Done {
                        outcome: "null".into(),
                    };
                    store
                        .commit_step(&step(&c, wake, done, vec![], 10))
                        .unwrap();
                    stepped.push(c.run.run_id);
                }
                stepped
            })
        })
        .collect();
    let mut stepped: Vec<String> = workers
        .into_iter()
        .flat_map(|w| w.join().unwrap())
        .collect();
    stepped.sort();
    let claimed = stepped.len();
    stepped.dedup();
    assert_eq!((claimed, stepped.len()), (30, 30));
    let store = db.open();
    for run in store.runs().unwrap() {
        assert_eq!(
            (run.status, run.steps),
            (RunStatus::Done, 1),
            "{}",
            run.run_id
        );
    }
}

#[test]
#[ignore = "about PostgreSQL's schemas: needs WAKEFUL_TEST_STORE=postgres, whose pass runs it with --include-ignored"]
fn a_postgres_url_naming_a_missing_schema_makes_it() {
    let db = TempDb::new("missing-schema");
    let (url, schema) = db
        .postgres
        .as_ref()
        .expect("a PostgreSQL store: run with WAKEFUL_TEST_STORE=postgres");
    let fresh = format!("{schema}_made");
    let url = url.replace(schema.as_str(), &fresh);
    let mut store = SqlStore::connect(&url).unwrap();
    store
        .put_agent(&agent_version("mail", "1.0.0", "d-mail-1"), b"wasm")
        .unwrap();
    let admin_url = test_postgres().unwrap();
    let mut client = admin(&admin_url);
    let tables: i64 = client
        .query_one(
            "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = $1",
            &[&fresh],
        )
        .unwrap()
        .get(0);
    client
        .batch_execute(&format!("DROP SCHEMA {fresh} CASCADE"))
        .unwrap();
    assert!(
        tables > 10,
        "the store's tables are in the new schema: {tables}"
    );
}

#[test]
fn a_component_over_its_limit_is_refused_by_name_unread() {
    let (_db, mut store) = setup("component-bound");
    let bytes = vec![7u8; 4096];
    store
        .put_agent(&agent_version("big", "1.0.0", "d-big"), &bytes)
        .unwrap();
    let err = store.agent_bytes("d-big", 4095).unwrap_err().to_string();
    assert!(
        err.contains("d-big") && err.contains("4096 bytes") && err.contains("4095"),
        "{err}"
    );
    assert_eq!(store.agent_bytes("d-big", 4096).unwrap(), bytes);
}
