//! Copying a whole store (`migrate-store`): SQLite to PostgreSQL and back,
//! read the same through the store afterwards; refusals leave the target
//! as they found it.

use super::*;
use crate::store::sql::{Copied, CopyError, CopyOrder, copy::AFTER_READ, copy_store};
use crate::store::{Callback, Intent, NewCallback, Overlap, Schedule, Usage};

/// The PostgreSQL server these tests copy to and from, whichever store the
/// other tests run on: `WAKEFUL_TEST_POSTGRES`, else the local one.
fn postgres_server() -> String {
    std::env::var("WAKEFUL_TEST_POSTGRES")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/test".into())
}

/// A schema of its own on [`postgres_server`], dropped when the test ends.
struct PgSchema {
    name: String,
    url: String,
}

impl PgSchema {
    fn new(name: &str) -> PgSchema {
        let server = postgres_server();
        let name = format!("copy_{}_{name}", std::process::id());
        postgres::Client::connect(&server, postgres::NoTls)
            .unwrap_or_else(|e| {
                panic!(
                    "the copy tests need PostgreSQL: cannot reach {server} ({e}); start it, or \
                     set WAKEFUL_TEST_POSTGRES to a database the tests may create schemas in"
                )
            })
            .batch_execute(&format!(
                "DROP SCHEMA IF EXISTS {name} CASCADE; CREATE SCHEMA {name}"
            ))
            .unwrap();
        let sep = if server.contains('?') { '&' } else { '?' };
        let url = format!("{server}{sep}options=-c%20search_path%3D{name}");
        PgSchema { name, url }
    }

    fn open(&self) -> SqlStore {
        SqlStore::connect(&self.url).unwrap()
    }
}

impl Drop for PgSchema {
    fn drop(&mut self) {
        let _ = admin(&postgres_server())
            .batch_execute(&format!("DROP SCHEMA IF EXISTS {} CASCADE", self.name));
    }
}

/// Copies `from` to `to` at `at`, as `dave`; hosts that beat in the last
/// 10 ms count as running.
fn copy(from: &str, to: &str, at: Millis) -> Result<Copied, CopyError> {
    copy_store(&CopyOrder {
        from,
        to,
        by: "dave",
        at,
        live_since: at.saturating_sub(10),
    })
}

fn sqlite_url(db: &TempDb) -> String {
    format!("sqlite:{}", db.path().display())
}

/// Puts rows in every table: an agent whose bytes hold every byte value;
/// a run waiting on an event and an approval, with an unconsumed event, a
/// ledger, an open intent, a callback link and spent money; a pruned run;
/// two runs made in the same millisecond whose ids sort differently by
/// bytes and by dictionary (`Zed`, `alpha`); kv, a lease, a switch, a
/// schedule; a host that stopped; and broadcasts whose newest was
/// forgotten, so that the highest id ever given is above every id left.
fn populate(store: &mut SqlStore) {
    agents_and_sessions(store);
    a_waiting_run_with_its_calls(store);
    a_pruned_run(store);
    broadcasts_and_same_millisecond_runs(store);
    kv_and_a_lease(store);
    switch_schedule_audit_and_host(store);
}

/// An agent whose bytes hold every byte value, and a console session's
/// key.
fn agents_and_sessions(store: &mut SqlStore) {
    store
        .put_agent(&agent_version("mail", "1.0.0", "d-mail-1"), b"wasm")
        .unwrap();
    let every_byte: Vec<u8> = (0..=255).collect();
    store
        .put_agent(&agent_version("mail", "1.1.0", "d-mail-2"), &every_byte)
        .unwrap();
    // A console session's key, so that the copy carries one: a session
    // signed on the source still opens on the copy.
    store.revoke_sessions("alice").unwrap();
}

/// Run `r1`, waiting on an event and an approval, with an unconsumed
/// event, a ledger, an open intent, a callback link and spent money.
fn a_waiting_run_with_its_calls(store: &mut SqlStore) {
    store.create_run(&new_run("r1", 1)).unwrap();
    let (c, wake) = claim(store, 2).unwrap();
    assert_eq!(c.run.run_id, "r1");
    let call = |key: &str, tool: &str| LedgerWrite {
        run_id: "r1".into(),
        incarnation: c.run.incarnation.clone(),
        epoch: c.epoch,
        key: key.into(),
        tool: tool.into(),
        args: r#"{"to":"zoë"}"#.into(),
    };
    store
        .ledger_put(&call("k1", "http"), &Ok("sent".into()), 3)
        .unwrap();
    let usage = Usage {
        tokens: 12,
        usd: 0.1,
    };
    store
        .ledger_put_metered(&call("k2", "llm"), &Ok("an answer".into()), &usage, 3)
        .unwrap();
    let intent = Intent {
        run_id: "r1".into(),
        key: "k3".into(),
        tool: "http".into(),
        args: "{}".into(),
        args_digest: "00ff".into(),
        epoch: c.epoch,
        at: 3,
    };
    store.begin_external(&intent, &[], 3, 1_000).unwrap();
    let link = NewCallback {
        id: "cb".into(),
        valid_for_ms: 1_000_000,
        now: 3,
    };
    store
        .create_callback(&call("k4", "callback"), &link, &|l: &Callback| {
            l.token.clone()
        })
        .unwrap()
        .unwrap();
    let waits = vec![
        event_wait("mail"),
        approval_wait("ok?", r#"{"why":"tests"}"#, 1_000_000),
    ];
    store
        .commit_step(&step(&c, wake, waiting(&waits), waits, 4))
        .unwrap();
    store.deliver_event("r1", &event("e1", "other", 5)).unwrap();
}

/// A run that ended and was pruned.
fn a_pruned_run(store: &mut SqlStore) {
    store.create_run(&new_run("done1", 6)).unwrap();
    let (c, wake) = claim(store, 7).unwrap();
    assert_eq!(c.run.run_id, "done1");
    let done = Next::Done {
        outcome: "fine".into(),
    };
    store.commit_step(&step(&c, wake, done, vec![], 8)).unwrap();
    assert_eq!(store.prune_runs(100, 9).unwrap(), 1);
}

/// Broadcasts whose newest was forgotten, so that the highest id ever
/// given is above every id left; and two runs made in the same
/// millisecond whose ids sort differently by bytes and by dictionary.
fn broadcasts_and_same_millisecond_runs(store: &mut SqlStore) {
    store
        .broadcast_event(&event("b1", "news", 10), 1_000_000, &sent_by())
        .unwrap();
    store
        .broadcast_event(&event("b2", "news", 11), 12, &sent_by())
        .unwrap();
    // A run made while b2 is kept: only broadcasts after b2 reach it.
    store.create_run(&new_run("late", 13)).unwrap();
    // A repeat of b1 keeps nothing new and forgets b2, the highest id.
    store
        .broadcast_event(&event("b1", "news", 20), 1_000_000, &sent_by())
        .unwrap();

    store.create_run(&new_run("Zed", 30)).unwrap();
    store.create_run(&new_run("alpha", 30)).unwrap();
}

/// Kv keys, one of them deleted, and a lease.
fn kv_and_a_lease(store: &mut SqlStore) {
    for (key, value) in [("a/1", "1"), ("a/2", "2"), ("b", r#"{"x":"ü"}"#)] {
        let put = KvOp::Put {
            key: key.into(),
            value: value.into(),
            expected_version: None,
        };
        store.kv(&put).unwrap();
    }
    let delete = KvOp::Delete {
        key: "a/2".into(),
        expected_version: None,
    };
    store.kv(&delete).unwrap();
    let acquire = LeaseOp::Acquire {
        resource: "service/x".into(),
        holder: "h1".into(),
        ttl_ms: 1_000_000,
    };
    let entry = |_: &LeaseOutcome| AuditEntry {
        run_id: None,
        kind: "lease".into(),
        data: json!({}),
    };
    store.lease_audited(&acquire, &entry, 33).unwrap();
}

/// A switch, a schedule, an audit note, and a host that stopped.
fn switch_schedule_audit_and_host(store: &mut SqlStore) {
    store
        .set_switch(&Switch {
            scope: "agent:other".into(),
            reason: Some("testing".into()),
            at: 34,
        })
        .unwrap();
    let schedule = Schedule {
        id: "daily".into(),
        agent: "mail".into(),
        cron: "0 9 * * *".into(),
        input: "null".into(),
        overlap: Overlap::Skip,
        next_at: 1_000,
        last_run_id: None,
        created_at: 35,
    };
    store.put_schedule(&schedule, false).unwrap();
    let note = AuditEntry {
        run_id: None,
        kind: "note".into(),
        data: json!({"text": "naïve", "ratio": 1.5}),
    };
    store.append_audit(&note, 36).unwrap();
    store
        .heartbeat("box:42", "serve", Some("127.0.0.1:8080"), 37)
        .unwrap();
    store.host_stopped("box:42", 38).unwrap();
}

/// Everything the store reads back, but the audit log, as text.
fn view(store: &SqlStore) -> Vec<String> {
    let mut out = Vec::new();
    let runs = store.runs().unwrap();
    out.push(format!("{runs:?}"));
    for run in &runs {
        let id = run.run_id.as_str();
        out.push(format!("{:?}", store.checkpoints(id).unwrap()));
        out.push(format!("{:?}", store.approvals(id).unwrap()));
        out.push(format!("{:?}", store.inbox(id).unwrap()));
        out.push(format!("{:?}", store.ledger(id).unwrap()));
        out.push(format!("{:?}", store.intents(id).unwrap()));
        out.push(format!("{:?}", store.callbacks(id).unwrap()));
    }
    let agents = store.agents().unwrap();
    for agent in &agents {
        out.push(format!(
            "{:?}",
            store.agent_bytes(&agent.digest, usize::MAX).unwrap()
        ));
    }
    out.push(format!("{agents:?}"));
    out.push(format!("{:?}", store.kv_page("", None, 100).unwrap()));
    out.push(format!("{:?}", store.schedules().unwrap()));
    out.push(format!("{:?}", store.switches().unwrap()));
    out.push(format!("{:?}", store.retired_run("done1").unwrap()));
    out.push(format!("{:?}", store.run_counts().unwrap()));
    out.push(format!("{:?}", store.hosts(39).unwrap()));
    out
}

/// The target reads as the source did, and its audit log is the source's
/// and then the migration's row.
fn assert_same(source: &SqlStore, target: &SqlStore) {
    assert_eq!(view(source), view(target));
    let before = source.audit(None).unwrap();
    let after = target.audit(None).unwrap();
    assert_eq!(after.len(), before.len() + 1);
    assert_eq!(
        format!("{before:?}"),
        format!("{:?}", &after[..before.len()])
    );
    let last = after.last().unwrap();
    assert_eq!(last.kind, "store migrated");
    assert_eq!(last.id, before.last().unwrap().id + 1);
}

/// The counters go on past what was copied: the next audit row follows
/// the last, and the next broadcast follows the highest ever given (b2,
/// forgotten), so the run made while b2 was kept gets it.
fn assert_counters_go_on(target: &mut SqlStore) {
    let last = target.audit(None).unwrap().last().unwrap().id;
    let note = AuditEntry {
        run_id: None,
        kind: "note".into(),
        data: json!({}),
    };
    target.append_audit(&note, 50).unwrap();
    assert_eq!(target.audit(None).unwrap().last().unwrap().id, last + 1);

    target
        .broadcast_event(&event("b3", "news", 51), 1_000_000, &sent_by())
        .unwrap();
    let (c, wake) = target.claim(52, "worker-1", 1_000).unwrap().unwrap();
    assert_eq!(c.run.run_id, "late");
    let waits = vec![event_wait("news")];
    target
        .commit_step(&step(&c, wake, waiting(&waits), waits, 53))
        .unwrap();
    let inbox: Vec<String> = target
        .inbox("late")
        .unwrap()
        .into_iter()
        .map(|i| i.event.id)
        .collect();
    assert_eq!(inbox, ["b3"], "b1 came before the run, b3 after");
}

#[test]
fn a_sqlite_store_copied_to_postgres_reads_the_same_and_is_not_copied_twice() {
    let db = TempDb::new("copy-to-pg");
    let mut source = SqlStore::open(db.path()).unwrap();
    populate(&mut source);
    let pg = PgSchema::new("to_pg");

    let copied = copy(&sqlite_url(&db), &pg.url, 40).unwrap();
    assert!(copied.verified);
    assert_eq!(copied.source_migrated_from, None);
    let rows = |table: &str| {
        copied
            .tables
            .iter()
            .find(|t| t.table == table)
            .unwrap()
            .rows
    };
    assert_eq!(copied.tables.len(), 21);
    assert_eq!(
        rows("run_archives"),
        1,
        "the pruned run keeps its audit rows there"
    );
    assert_eq!((rows("runs"), rows("retired_runs")), (4, 1));
    assert_eq!((rows("broadcasts"), rows("intents")), (1, 1));
    // Every table but the packing queue, which is empty once a run's
    // ending has committed and its history is packed.
    assert!(
        copied
            .tables
            .iter()
            .all(|t| (t.rows > 0) != (t.table == "unpacked_runs")),
        "{copied:?}"
    );

    let mut target = pg.open();
    assert_same(&source, &target);
    let row = target.audit(None).unwrap().pop().unwrap();
    assert_eq!(row.data["by"], "dave");
    assert_eq!(row.data["from"], sqlite_url(&db));
    assert_eq!(row.data["rows"]["checkpoints"], 1);

    // The target is no longer empty: a second copy is refused, untouched.
    let audit_rows = target.audit(None).unwrap().len();
    match copy(&sqlite_url(&db), &pg.url, 41) {
        Err(CopyError::Refused(why)) => {
            assert!(why.contains("is not empty"), "{why}");
            assert!(why.contains("runs: 4 row(s)"), "{why}");
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
    assert_eq!(target.audit(None).unwrap().len(), audit_rows);

    assert_counters_go_on(&mut target);
}

#[test]
fn a_postgres_store_copies_back_to_sqlite() {
    let db = TempDb::new("copy-from-pg");
    let pg = PgSchema::new("from_pg");
    let mut source = pg.open();
    populate(&mut source);
    let copied = copy(&pg.url, &sqlite_url(&db), 40).unwrap();
    assert!(copied.verified);
    let mut target = SqlStore::open(db.path()).unwrap();
    assert_same(&source, &target);
    assert_counters_go_on(&mut target);
}

#[test]
fn a_copy_is_refused_when_the_source_is_written_meanwhile() {
    let from = TempDb::new("copy-written");
    populate(&mut SqlStore::open(from.path()).unwrap());
    let to = TempDb::new("copy-written-to");
    let path = from.path();
    AFTER_READ.with(|hook| {
        *hook.borrow_mut() = Some(Box::new(move || {
            let mut other = SqlStore::open(&path).unwrap();
            other
                .deliver_event("r1", &event("e9", "other", 60))
                .unwrap();
        }))
    });
    let result = copy(&sqlite_url(&from), &sqlite_url(&to), 61);
    AFTER_READ.with(|hook| hook.borrow_mut().take());
    match result {
        Err(CopyError::Refused(why)) => {
            assert!(why.contains("was written during the copy"), "{why}");
            assert!(why.contains("table inbox: 1 row(s) copied, 2 now"), "{why}");
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
    let target = SqlStore::open(to.path()).unwrap();
    assert!(target.runs().unwrap().is_empty());
    assert!(target.audit(None).unwrap().is_empty());
}

#[test]
fn an_older_sqlite_source_is_migrated_first_and_a_missing_one_refused() {
    let from = TempDb::new("copy-old");
    let to = TempDb::new("copy-old-to");
    std::fs::create_dir_all(from.path().parent().unwrap()).unwrap();
    {
        let conn = raw(&from.path());
        for sql in &crate::store::sql::schema::MIGRATIONS[..4] {
            conn.execute_batch(sql).unwrap();
        }
        conn.pragma_update(None, "user_version", 4).unwrap();
        conn.execute_batch(
            "INSERT INTO kv (key, value, version) VALUES ('k', '\"v\"', 3);
             INSERT INTO audit (at, kind, data) VALUES (1, 'note', '{}');",
        )
        .unwrap();
    }
    let copied = copy(&sqlite_url(&from), &sqlite_url(&to), 2).unwrap();
    assert_eq!(copied.source_migrated_from, Some(4));
    assert_eq!(copied.schema_version, SCHEMA_VERSION);
    assert_eq!(copied.rows, 2);
    let target = SqlStore::open(to.path()).unwrap();
    let kv = target.kv_page("", None, 10).unwrap().items;
    // Migrated into namespaces on the way: no agent has `kv`, so the key
    // is kept in `shared/legacy`.
    assert_eq!((kv[0].key.as_str(), kv[0].version), ("shared/legacy/k", 3));

    let nowhere = TempDb::new("copy-nowhere");
    match copy(&sqlite_url(&nowhere), &sqlite_url(&to), 3) {
        Err(CopyError::Refused(why)) => assert!(why.contains("there is no store"), "{why}"),
        other => panic!("expected a refusal, got {other:?}"),
    }
    assert!(!nowhere.path().exists(), "a missing source is not created");
    match copy(&sqlite_url(&to), &sqlite_url(&to), 3) {
        Err(CopyError::Refused(why)) => assert!(why.contains("both the source"), "{why}"),
        other => panic!("expected a refusal, got {other:?}"),
    }
}

#[test]
fn a_source_a_host_still_runs_on_is_not_copied() {
    let from = TempDb::new("copy-live");
    let to = TempDb::new("copy-live-to");
    let mut source = SqlStore::open(from.path()).unwrap();
    source.heartbeat("box:7", "serve", None, 100).unwrap();
    match copy(&sqlite_url(&from), &sqlite_url(&to), 105) {
        Err(CopyError::Refused(why)) => {
            assert!(why.contains("host box:7 (serve) still running"), "{why}")
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
    // Silent for long enough, it is taken to have died.
    let copied = copy(&sqlite_url(&from), &sqlite_url(&to), 200).unwrap();
    assert_eq!(copied.rows, 1);
}

#[test]
fn a_schema_6_file_moves_component_bytes_out_of_the_agents_rows() {
    let db = TempDb::new("components-v7");
    std::fs::create_dir_all(db.path().parent().unwrap()).unwrap();
    let component = vec![7u8; 300_000];
    {
        let conn = raw(&db.path());
        for sql in &crate::store::sql::schema::MIGRATIONS[..6] {
            conn.execute_batch(sql).unwrap();
        }
        conn.pragma_update(None, "user_version", 6).unwrap();
        conn.execute(
            "INSERT INTO agents (name, version, digest, bytes, description, requested_tools, \
             granted_tools, size, deployed_at, owner) \
             VALUES ('a', '1.0.0', 'd1', ?1, 'an agent', '[\"kv\"]', '[\"kv\"]', 300000, 5, 'ops')",
            [&component],
        )
        .unwrap();
    }
    let store = SqlStore::open(db.path()).unwrap();
    assert_eq!(store.agent_bytes("d1", usize::MAX).unwrap(), component);
    let agents = store.agents().unwrap();
    assert_eq!(agents.len(), 1);
    assert_eq!(agents[0].granted_tools, ["kv"]);
    assert_eq!(agents[0].owner.as_deref(), Some("ops"));
    drop(store);
    let conn = raw(&db.path());
    let columns: Vec<String> = conn
        .prepare("SELECT name FROM pragma_table_info('agents')")
        .unwrap()
        .query_map([], |row| row.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert!(!columns.iter().any(|c| c == "bytes"), "{columns:?}");
}
