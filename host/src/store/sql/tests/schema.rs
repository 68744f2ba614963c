//! The SQLite schema's text: checks that SQLite evaluates without a
//! temporary table, on a new store and on one migrated from the schema
//! before.

use super::*;
use crate::store::sql::schema::MIGRATIONS;

/// The text SQLite keeps for `table`.
fn table_sql(conn: &rusqlite::Connection, table: &str) -> String {
    conn.query_row(
        "SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = ?1",
        [table],
        |row| row.get(0),
    )
    .unwrap()
}

/// The schema version before `SCHEMA_V12`, which made the checks on a
/// run's status and a wait's kind comparisons.
const BEFORE_COMPARISONS: usize = 11;

/// A store made new and one migrated from an older schema keep the same
/// text for every table and index, and their checks on a run's status
/// and a wait's kind are comparisons, not `IN` lists.
#[test]
fn status_and_kind_checks_are_comparisons_on_new_and_migrated_stores() {
    let new = TempDb::new("schema-new");
    let old = TempDb::new("schema-old");
    let schema_of = |path: &Path| -> Vec<(String, Option<String>)> {
        raw(path)
            .prepare("SELECT name, sql FROM sqlite_schema ORDER BY name")
            .unwrap()
            .query_map([], |row| Ok((row.get(0)?, row.get(1)?)))
            .unwrap()
            .collect::<rusqlite::Result<_>>()
            .unwrap()
    };
    drop(SqlStore::open(new.path()).unwrap());
    std::fs::create_dir_all(old.path().parent().unwrap()).unwrap();
    {
        // The schema before the migration that made the checks comparisons
        // (version 12), then every migration since on open.
        let conn = raw(&old.path());
        // The schema before the one that made these checks comparisons.
        for sql in &MIGRATIONS[..BEFORE_COMPARISONS] {
            conn.execute_batch(sql).unwrap();
        }
        conn.pragma_update(None, "user_version", BEFORE_COMPARISONS as i64)
            .unwrap();
        assert!(table_sql(&conn, "runs").contains("status IN ("));
    }
    drop(SqlStore::open(old.path()).unwrap());
    assert_eq!(schema_of(&old.path()), schema_of(&new.path()));
    let conn = raw(&new.path());
    for (table, check, list) in [
        (
            "runs",
            "CHECK (status = 'active' OR status = 'waiting'",
            "status IN (",
        ),
        (
            "waits",
            "CHECK (kind = 'event' OR kind = 'approval'",
            "kind IN (",
        ),
    ] {
        let sql = table_sql(&conn, table);
        assert!(sql.contains(check), "{table}: {sql}");
        assert!(!sql.contains(list), "{table}: {sql}");
    }
    let integrity: String = conn
        .query_row("PRAGMA integrity_check", [], |row| row.get(0))
        .unwrap();
    assert_eq!(integrity, "ok");
}

/// The checks still refuse what they refused, through the store's own
/// connection (the one that migrated the file) and through a new one.
#[test]
fn a_run_status_or_wait_kind_out_of_the_list_is_still_refused() {
    let db = TempDb::new("schema-checks");
    let store = sqlite_store_with_a_run(&db);
    let refused = |conn: &rusqlite::Connection, sql: &str| {
        let e = conn.execute_batch(sql).unwrap_err().to_string();
        assert!(e.contains("CHECK constraint failed"), "{sql}: {e}");
    };
    let other = raw(&db.path());
    let own = store.conn.as_sqlite().expect("a SQLite store");
    for conn in [own, &other] {
        refused(
            conn,
            "UPDATE runs SET status = 'sleeping' WHERE run_id = 'r1'",
        );
        refused(
            conn,
            "INSERT INTO waits (run_id, pos, kind, key, wait) VALUES ('r1', 0, 'mail', 'k', '{}')",
        );
        conn.execute_batch("UPDATE runs SET status = 'parked' WHERE run_id = 'r1'")
            .unwrap();
        conn.execute_batch(
            "INSERT INTO waits (run_id, pos, kind, key, wait) VALUES ('r1', 0, 'cron', 'k', '{}'); \
             DELETE FROM waits WHERE run_id = 'r1'",
        )
        .unwrap();
    }
}

/// A request stored before approvals kept votes and used calls reads back
/// with none of either once the store is migrated.
#[test]
fn requests_stored_before_votes_and_used_calls_read_back_with_none() {
    let db = TempDb::new("schema-votes");
    drop(sqlite_store_with_a_run(&db));
    {
        let conn = raw(&db.path());
        conn.execute_batch(
            "INSERT INTO approvals (run_id, id, question, details, details_digest, token, \
             requested_at, expires_at, answered, consumed) \
             VALUES ('r1', 'pay', 'ok?', '{}', 'd', 't', 1, 2, 0, 0); \
             ALTER TABLE approvals DROP COLUMN votes; \
             ALTER TABLE approvals DROP COLUMN used_calls; \
             ALTER TABLE approvals DROP COLUMN answered_said; \
             ALTER TABLE agents DROP COLUMN deployed_by; \
             DROP TABLE principal_sessions;",
        )
        .unwrap();
        conn.pragma_update(None, "user_version", 12).unwrap();
    }
    let store = SqlStore::open(db.path()).unwrap();
    let approvals = store.approvals("r1").unwrap();
    assert_eq!(approvals.len(), 1);
    assert!(approvals[0].votes.is_empty() && approvals[0].used_calls.is_empty());
}

/// A store made before link tokens were hashed keeps its links working:
/// the migration replaces each stored token by its SHA-256, an answer
/// with the old token still finds its request, and the stored value
/// itself answers nothing.
#[test]
fn the_migration_hashes_stored_link_tokens_and_their_links_keep_working() {
    use crate::store::{Callback, CallbackRefused, LedgerWrite, NewCallback};
    let (db, mut store) = setup("links-hashed");
    let (c, wake) = claim(&mut store, 10).unwrap();
    let call = LedgerWrite {
        run_id: "r1".into(),
        incarnation: "i1".into(),
        epoch: c.epoch,
        key: "make-a".into(),
        tool: "callback".into(),
        args: "{}".into(),
    };
    let link = NewCallback {
        id: "a".into(),
        valid_for_ms: 1_000_000,
        now: 10,
    };
    let render = |c: &Callback| c.topic.clone();
    store
        .create_callback(&call, &link, &render)
        .unwrap()
        .unwrap();
    let waits = vec![approval_wait("apr_1", "{}", 1_000_000)];
    store
        .commit_step(&step(&c, wake, waiting(&waits), waits, 20))
        .unwrap();
    drop(store);
    // As the build before left it: plain tokens, schema 13.
    let set_version = if db.is_postgres() {
        "DELETE FROM wakeful_schema; INSERT INTO wakeful_schema (version) VALUES (13);"
    } else {
        "PRAGMA user_version = 13;"
    };
    db.execute_batch(&format!(
        "UPDATE approvals SET token = 'plain-approval-token';
         UPDATE callbacks SET token = 'plain-callback-token';
         ALTER TABLE approvals DROP COLUMN answered_said;
         ALTER TABLE agents DROP COLUMN deployed_by;
         DROP TABLE principal_sessions;
         {set_version}"
    ));
    let mut store = db.open();
    let request = store.approvals("r1").unwrap().remove(0);
    assert_eq!(
        request.token_sha256,
        crate::store::links::token_hash("plain-approval-token")
    );
    let found = store.approval_by_token("plain-approval-token").unwrap();
    assert_eq!(found.map(|a| a.id).as_deref(), Some("apr_1"));
    assert!(
        store
            .approval_by_token(&request.token_sha256)
            .unwrap()
            .is_none()
    );
    let stored = store.callbacks("r1").unwrap().remove(0).token;
    let refused = store.use_callback(&stored, "{}", None, 30).unwrap();
    assert!(
        matches!(refused, Err(CallbackRefused::Unknown)),
        "{refused:?}"
    );
    let used = store
        .use_callback("plain-callback-token", "{}", None, 30)
        .unwrap();
    assert!(used.is_ok(), "{used:?}");
}

/// A store of the build before namespaces (schema 15, on SQLite or
/// PostgreSQL): its keys are bare. Opened by this build, every bare key is
/// in the namespace of each agent granted `kv` (and no other) and kept in
/// `shared/legacy`, a key shaped
/// like a shared address stays there, and leases move likewise.
#[test]
fn keys_and_leases_of_a_store_before_namespaces_move_into_them() {
    let db = TempDb::new("namespaces");
    {
        let mut store = db.open();
        let mut lease = agent_version("incident", "1.0.0", "d-incident");
        lease.granted_tools = vec!["kv".into(), "lease".into()];
        store.put_agent(&lease, b"wasm").unwrap();
        store
            .put_agent(&agent_version("mail", "1.0.0", "d-mail-1"), b"wasm")
            .unwrap();
        store
            .put_agent(&agent_version("mail", "1.1.0", "d-mail-2"), b"wasm")
            .unwrap();
        let mut none = agent_version("quiet", "1.0.0", "d-quiet");
        none.granted_tools = vec![];
        store.put_agent(&none, b"wasm").unwrap();
    }
    // What the build before wrote: bare keys and resources, and schema 15.
    let back = if db.is_postgres() {
        "UPDATE wakeful_schema SET version = 15"
    } else {
        "PRAGMA user_version = 15"
    };
    db.execute_batch(&format!(
        "INSERT INTO kv (key, value, version) VALUES ('service/api', '{{\"s\":1}}', 3), \
         ('shared/services/api', '2', 1), ('shared/odd', '4', 1); \
         INSERT INTO leases (resource, holder, expires_at) VALUES ('service/api', 'agent-1', 99); \
         {back}"
    ));
    let store = db.open();
    assert_eq!(stored_version(&db), SCHEMA_VERSION);
    let page = store.kv_page("", None, 100).unwrap();
    let keys: Vec<(&str, Option<&str>, u64)> = page
        .items
        .iter()
        .map(|e| (e.key.as_str(), e.value.as_deref(), e.version))
        .collect();
    assert_eq!(
        keys,
        [
            ("agent/incident/service/api", Some("{\"s\":1}"), 3),
            ("agent/incident/shared/odd", Some("4"), 1),
            ("agent/mail/service/api", Some("{\"s\":1}"), 3),
            ("agent/mail/shared/odd", Some("4"), 1),
            ("shared/legacy/service/api", Some("{\"s\":1}"), 3),
            ("shared/legacy/shared/odd", Some("4"), 1),
            ("shared/services/api", Some("2"), 1),
        ]
    );
    let held = store.lease_peek("agent/incident/service/api").unwrap();
    assert_eq!(
        held.map(|h| (h.holder, h.expires_at)),
        Some(("agent-1".into(), 99))
    );
    assert_eq!(store.lease_peek("agent/mail/service/api").unwrap(), None);
    assert_eq!(store.lease_peek("service/api").unwrap(), None);
}
