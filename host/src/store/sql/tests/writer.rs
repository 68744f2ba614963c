//! The write transactions of a process's handles to one SQLite file run
//! on one connection, whose page cache the others' writes leave warm.

use super::*;
use crate::store::sql::db::{params, write};

/// Reads run `r1`'s row in a write transaction of `store`; returns how
/// many pages the connection it ran on had to read from the file.
fn pages_read_to_write(store: &mut SqlStore) -> i64 {
    write(&mut store.conn, "reading a run in a write", |tx| {
        let before = tx.cache_misses();
        let state: String = tx
            .prepare_cached("SELECT state FROM runs WHERE run_id = 'r1'")
            .and_then(|mut stmt| stmt.query_row(params![], |row| row.get::<_, String>(0)))
            .unwrap();
        assert!(!state.is_empty());
        tx.prepare_cached("UPDATE runs SET updated_at = updated_at + 1 WHERE run_id = 'r1'")
            .and_then(|mut stmt| stmt.execute(params![]))
            .unwrap();
        Ok(tx.cache_misses() - before)
    })
    .unwrap()
}

#[test]
fn a_write_of_one_handle_leaves_the_next_writer_s_cache_warm() {
    let db = TempDb::new("writer");
    let mut first = sqlite_store_with_a_run(&db);
    let mut second = SqlStore::open(db.path()).unwrap();
    pages_read_to_write(&mut second);
    for _ in 0..3 {
        pages_read_to_write(&mut first);
        assert_eq!(
            pages_read_to_write(&mut second),
            0,
            "a write by another handle of the process emptied the writer's cache"
        );
    }
}

#[test]
fn each_handle_counts_its_own_writes_and_sees_the_others() {
    let db = TempDb::new("writer-counts");
    let mut first = sqlite_store_with_a_run(&db);
    let mut second = SqlStore::open(db.path()).unwrap();
    let (synced, statements) = (first.synced_commits(), first.statements_run());
    pages_read_to_write(&mut second);
    assert_eq!(first.synced_commits(), synced);
    assert_eq!(first.statements_run(), statements);
    pages_read_to_write(&mut first);
    assert_eq!(first.synced_commits(), synced + 1);
    // BEGIN, the read, the update, COMMIT.
    assert_eq!(first.statements_run(), statements + 4);
    // What one handle wrote, the other reads on its own connection.
    let updated = |store: &SqlStore| -> i64 {
        store
            .conn
            .query_row(
                "SELECT updated_at FROM runs WHERE run_id = 'r1'",
                params![],
                |row| row.get::<_, i64>(0),
            )
            .unwrap()
    };
    let before = updated(&second);
    pages_read_to_write(&mut first);
    assert_eq!(updated(&second), before + 1);
}
