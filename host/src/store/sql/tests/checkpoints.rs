//! Copying SQLite's WAL into the data file: left by the workers' handles
//! to the packer thread.

use std::time::{Duration, Instant};

use super::*;
use crate::packer::Packer;

/// Writes about 2,000 pages (8 MB) through `store`'s connection in one
/// commit: past SQLite's own checkpoint mark of 1,000 WAL pages.
fn fill(store: &SqlStore, table: &str) {
    store
        .conn
        .as_sqlite()
        .expect("a SQLite store")
        .execute_batch(&filling(table))
        .unwrap();
}

fn filling(table: &str) -> String {
    format!(
        "CREATE TABLE {table} (x BLOB); \
         WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < 2000) \
         INSERT INTO {table} SELECT randomblob(3000) FROM k"
    )
}

#[test]
fn a_handle_given_to_a_packer_leaves_the_wal_to_it() {
    let db = TempDb::new("checkpoints");
    let path = db.path();
    let size = || std::fs::metadata(&path).unwrap().len();
    let grown = 4_000_000;

    // Alone, a handle's commit copies the WAL into the file itself.
    let alone = sqlite_store_with_a_run(&db);
    let before = size();
    fill(&alone, "alone");
    assert!(
        size() > before + grown,
        "SQLite's own checkpoint did not run"
    );

    let packer = Packer::start(Box::new(SqlStore::open(&path).unwrap())).unwrap();
    let mut worker = SqlStore::open(&path).unwrap();
    worker.pack_by(packer.signal());
    let before = size();
    fill(&worker, "worker");
    assert!(
        size() < before + grown,
        "the worker's commit checkpointed the WAL"
    );
    // A step's commit finds the WAL long and asks the packer to copy it.
    let (c, wake) = claim(&mut worker, 10).expect("r1 is due");
    worker
        .commit_step(&step(&c, wake, waiting(&[]), vec![], 20))
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    while size() < before + grown {
        assert!(Instant::now() < deadline, "the packer never checkpointed");
        std::thread::sleep(Duration::from_millis(20));
    }
    drop(packer);
}

/// [`fill`] in a write transaction of `store`, which runs on the
/// process's writing connection for the file.
fn fill_in_a_write(store: &mut SqlStore, table: &str) {
    crate::store::sql::db::write(&mut store.conn, "filling a table", |tx| {
        tx.execute_batch(&filling(table)).unwrap();
        Ok(())
    })
    .unwrap();
}

#[test]
fn the_writing_connection_checkpoints_for_a_handle_without_a_packer_only() {
    let db = TempDb::new("checkpoints-shared");
    let path = db.path();
    let size = || std::fs::metadata(&path).unwrap().len();
    let grown = 4_000_000;
    let mut alone = sqlite_store_with_a_run(&db);
    let packer = Packer::start(Box::new(SqlStore::open(&path).unwrap())).unwrap();
    let mut worker = SqlStore::open(&path).unwrap();
    worker.pack_by(packer.signal());

    // The same connection commits for both handles.
    let before = size();
    fill_in_a_write(&mut worker, "worker");
    assert!(
        size() < before + grown,
        "the writing connection checkpointed a commit of a handle with a packer"
    );
    let before = size();
    fill_in_a_write(&mut alone, "alone");
    assert!(
        size() > before + grown,
        "the writing connection left the WAL of a handle without a packer uncopied"
    );
    drop(packer);
}

#[test]
fn the_packer_copies_the_wal_its_own_packing_finds_long_after_its_commit() {
    use std::sync::atomic::Ordering;
    let db = TempDb::new("checkpoints-packer");
    let path = db.path();
    let size = || std::fs::metadata(&path).unwrap().len();
    let alone = sqlite_store_with_a_run(&db);
    // A run queued for packing, as the commit that ended it queues it.
    alone
        .conn
        .as_sqlite()
        .unwrap()
        .execute("INSERT INTO unpacked_runs (run_id) VALUES ('r1')", [])
        .unwrap();
    let packer = Packer::start(Box::new(SqlStore::open(&path).unwrap())).unwrap();
    let mut worker = SqlStore::open(&path).unwrap();
    worker.pack_by(packer.signal());
    // A long WAL that nobody has asked the packer to copy yet.
    fill_in_a_write(&mut worker, "worker");
    let before = size();

    packer.signal().ended(&["r1"]);
    packer.wait_idle();
    assert_eq!(
        crate::store::sql::sqlite::wal::PACKER_HOOK_CHECKPOINTS.load(Ordering::SeqCst),
        0,
        "a packing commit copied the WAL under the write turn"
    );
    let deadline = Instant::now() + Duration::from_secs(30);
    while size() < before + 4_000_000 {
        assert!(Instant::now() < deadline, "the packer never checkpointed");
        std::thread::sleep(Duration::from_millis(20));
    }
    drop(packer);
}
