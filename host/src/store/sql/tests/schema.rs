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

/// A store made new and one migrated from the schema before keep the same
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
        for sql in &MIGRATIONS[..11] {
            conn.execute_batch(sql).unwrap();
        }
        conn.pragma_update(None, "user_version", 11).unwrap();
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
