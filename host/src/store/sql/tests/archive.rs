//! An ended run's history packed into its archive row: read back exactly,
//! merged with rows written later, paged with other runs' live rows, kept
//! (audit only) by pruning, and refused by name when damaged.

use super::*;

fn call(c: &Claim, key: &str) -> LedgerWrite {
    LedgerWrite {
        run_id: c.run.run_id.clone(),
        incarnation: c.run.incarnation.clone(),
        epoch: c.epoch,
        key: key.into(),
        tool: "http".into(),
        args: format!(r#"{{"to":"zoë","key":"{key}"}}"#),
    }
}

/// Everything a reader sees of a run's history.
fn history(store: &SqlStore, run_id: &str) -> String {
    format!(
        "{:?}\n{:?}\n{:?}",
        store.checkpoints(run_id).unwrap(),
        store.ledger(run_id).unwrap(),
        store.audit(Some(run_id)).unwrap()
    )
}

fn live_rows(db: &TempDb, run_id: &str) -> i64 {
    let sql = format!(
        "SELECT (SELECT COUNT(*) FROM checkpoints WHERE run_id = '{run_id}') \
         + (SELECT COUNT(*) FROM ledger WHERE run_id = '{run_id}') \
         + (SELECT COUNT(*) FROM audit WHERE run_id = '{run_id}')"
    );
    match &db.postgres {
        Some((url, _)) => admin(url).query_one(&sql, &[]).unwrap().get(0),
        None => raw(&db.path()).query_row(&sql, [], |r| r.get(0)).unwrap(),
    }
}

/// Steps `run_id` (the only due run) `steps` times with a tool call each,
/// the last step ending it when `end` is set.
fn run_steps(store: &mut SqlStore, run_id: &str, steps: u64, end: bool, t: &mut Millis) {
    for n in 0..steps {
        *t += 1;
        let (c, wake) = claim(store, *t).expect("a due run");
        assert_eq!(c.run.run_id, run_id);
        store
            .ledger_put(&call(&c, &format!("{run_id}-{t}")), &Ok("sent".into()), *t)
            .unwrap();
        let next = if end && n + 1 == steps {
            Next::Done {
                outcome: "fine".into(),
            }
        } else {
            Next::Continue
        };
        let mut commit = step(&c, wake, next, vec![], *t);
        // A state that grows a little at each step, stored as edits.
        commit.state = format!(
            r#"{{"run":"{run_id}","notes":"{}"}}"#,
            "note ".repeat(n as usize + 3)
        );
        store.commit_step(&commit).unwrap();
    }
}

#[test]
fn an_ended_run_reads_back_exactly_with_its_history_in_one_archived_row() {
    let (db, mut store) = setup("archive-read");
    let mut t = 1;
    run_steps(&mut store, "r1", 4, false, &mut t);
    let before = history(&store, "r1");
    assert!(live_rows(&db, "r1") > 0);

    run_steps(&mut store, "r1", 1, true, &mut t);
    assert_eq!(
        live_rows(&db, "r1"),
        0,
        "every row of the ended run is packed"
    );
    let after = history(&store, "r1");
    // What was there before reads the same; the last step is added.
    assert_eq!(store.checkpoints("r1").unwrap().len(), 5);
    assert_eq!(store.ledger("r1").unwrap().len(), 5);
    let head = |h: &str| h.lines().map(|l| l.len()).collect::<Vec<_>>();
    assert_ne!(head(&before), head(&after));
    for (seq, checkpoint) in store.checkpoints("r1").unwrap().iter().enumerate() {
        assert_eq!(checkpoint.seq, seq as u64 + 1);
        assert!(
            checkpoint.state.contains("note note note"),
            "{}",
            checkpoint.state
        );
    }
    let ledger = store.ledger("r1").unwrap();
    let entry = ledger
        .iter()
        .find(|e| e.key == "r1-3")
        .expect("an archived call");
    assert_eq!(entry.args, r#"{"to":"zoë","key":"r1-3"}"#);
    // A step's replay lookup reads live rows only: no step runs after the end.
    assert!(store.ledger_get("r1", "r1-3").unwrap().is_none());

    // Reopened, it reads the same.
    drop(store);
    let store = db.open();
    assert_eq!(history(&store, "r1"), after);
}

/// An operator's note on run `r1`, written after it ended.
fn operator_note(store: &mut SqlStore) {
    store
        .append_audit(
            &AuditEntry {
                run_id: Some("r1".into()),
                kind: "note".into(),
                data: json!({"by": "an operator"}),
            },
            50,
        )
        .unwrap();
}

#[test]
fn rows_written_for_a_run_after_it_ended_are_read_with_its_archive() {
    let (_db, mut store) = setup("archive-late");
    let mut t = 1;
    run_steps(&mut store, "r1", 2, true, &mut t);
    let archived = store.audit(Some("r1")).unwrap();
    operator_note(&mut store);
    let rows = store.audit(Some("r1")).unwrap();
    assert_eq!(rows.len(), archived.len() + 1);
    assert_eq!(rows.last().unwrap().kind, "note");
    assert!(rows.windows(2).all(|w| w[0].id < w[1].id));
    let page = store
        .audit_page(Some("r1"), Some(archived[1].id), 100)
        .unwrap();
    assert_eq!(page.items.len(), rows.len() - 2);
}

#[test]
fn the_audit_log_pages_through_archived_and_live_runs_in_id_order() {
    let db = TempDb::new("archive-pages");
    let mut store = db.open();
    store
        .put_agent(&agent_version("mail", "1.0.0", "d-mail-1"), b"wasm")
        .unwrap();
    // Runs whose audit ids interleave: each steps once, then each again,
    // and every other one ends.
    let ids: Vec<String> = (0..6).map(|n| format!("run-{n}")).collect();
    for (n, id) in ids.iter().enumerate() {
        store.create_run(&new_run(id, n as Millis + 1)).unwrap();
    }
    let mut t = 10;
    for round in 0..3 {
        for (n, id) in ids.iter().enumerate() {
            t += 1;
            let (c, wake) = store.claim(t, "w", 1_000).unwrap().expect("a due run");
            let _ = id;
            let ends = round == 2 && n % 2 == 0;
            let next = if ends {
                Next::Done {
                    outcome: "ok".into(),
                }
            } else {
                Next::Continue
            };
            store
                .ledger_put(&call(&c, &format!("k{round}")), &Ok("sent".into()), t)
                .unwrap();
            store.commit_step(&step(&c, wake, next, vec![], t)).unwrap();
        }
    }
    let done = store
        .runs()
        .unwrap()
        .iter()
        .filter(|r| r.status == RunStatus::Done)
        .count();
    assert!(done >= 2, "some runs ended and were archived");
    let whole = store.audit(None).unwrap();
    assert!(whole.windows(2).all(|w| w[0].id < w[1].id));
    for id in &ids {
        let of_run = whole.iter().filter(|r| r.run_id.as_deref() == Some(id));
        assert_eq!(
            of_run.count(),
            store.audit(Some(id)).unwrap().len(),
            "run {id}"
        );
    }
    for size in [1, 2, 3, 5, 7, 100] {
        let mut seen = Vec::new();
        let mut after = None;
        loop {
            let page = store.audit_page(None, after, size).unwrap();
            assert!(page.items.len() <= size);
            seen.extend(page.items.iter().map(|r| r.id));
            match page.next {
                Some(next) => after = Some(next),
                None => break,
            }
        }
        let expected: Vec<u64> = whole.iter().map(|r| r.id).collect();
        assert_eq!(seen, expected, "pages of {size}");
    }
}

#[test]
fn pruning_an_archived_run_keeps_its_audit_rows_only() {
    let (_db, mut store) = setup("archive-prune");
    let mut t = 1;
    run_steps(&mut store, "r1", 3, true, &mut t);
    let audit = store.audit(Some("r1")).unwrap();
    assert_eq!(store.prune_runs(100, 200).unwrap(), 1);
    assert!(store.run("r1").unwrap().is_none());
    assert!(store.checkpoints("r1").unwrap().is_empty());
    assert!(store.ledger("r1").unwrap().is_empty());
    assert_eq!(
        format!("{:?}", store.audit(Some("r1")).unwrap()),
        format!("{audit:?}")
    );
    assert_eq!(store.audit(None).unwrap().len(), audit.len());
}

#[test]
fn a_cancelled_run_is_archived_too() {
    let (db, mut store) = setup("archive-cancel");
    let mut t = 1;
    run_steps(&mut store, "r1", 2, false, &mut t);
    let before = history(&store, "r1");
    assert!(
        store
            .cancel_run("r1", "no longer needed", "alice", 30)
            .unwrap()
    );
    assert_eq!(live_rows(&db, "r1"), 0);
    let after = history(&store, "r1");
    assert!(after.starts_with(before.lines().next().unwrap()));
    assert_eq!(
        store.audit(Some("r1")).unwrap().last().unwrap().kind,
        "cancelled"
    );
}

/// Overwrites every archive row with bytes that are no archive.
fn damage_archives(db: &TempDb) {
    db.execute_batch(if db.is_postgres() {
        "UPDATE run_archives SET data = decode('01deadbeef', 'hex')"
    } else {
        "UPDATE run_archives SET data = x'01deadbeef'"
    });
}

#[test]
fn a_damaged_archive_is_refused_by_name() {
    let (db, mut store) = setup("archive-damaged");
    let mut t = 1;
    run_steps(&mut store, "r1", 2, true, &mut t);
    damage_archives(&db);
    let error = store.checkpoints("r1").unwrap_err().to_string();
    assert!(
        error.contains("archived history of run r1") && error.contains("backup"),
        "{error}"
    );
    assert!(store.audit(None).is_err());
    // Other runs are unaffected.
    store.create_run(&new_run("r2", 40)).unwrap();
    assert!(store.audit(Some("r2")).unwrap().is_empty());
}

#[test]
fn a_row_read_both_live_and_archived_is_read_once() {
    // What a reader sees when the run is packed between its read of the
    // live tables and its read of the archive: the same rows twice.
    let (db, mut store) = setup("archive-twice");
    let mut t = 1;
    run_steps(&mut store, "r1", 2, false, &mut t);
    let live_checkpoint = "SELECT run_id, seq, version, wake, upgraded_from, state, next, \
                           status_text, fuel_used, at, state_is_edit FROM checkpoints";
    let live_ledger = "SELECT run_id, key, tool, args, result, at FROM ledger";
    let live_audit = "SELECT id, at, run_id, kind, data FROM audit WHERE run_id = 'r1'";
    db.execute_batch(&format!(
        "CREATE TABLE c_copy AS {live_checkpoint}; CREATE TABLE l_copy AS {live_ledger}; \
         CREATE TABLE a_copy AS {live_audit};"
    ));
    run_steps(&mut store, "r1", 1, true, &mut t);
    let once = history(&store, "r1");
    db.execute_batch(
        "INSERT INTO checkpoints (run_id, seq, version, wake, upgraded_from, state, next, \
         status_text, fuel_used, at, state_is_edit) SELECT * FROM c_copy; \
         INSERT INTO ledger (run_id, key, tool, args, result, at) SELECT * FROM l_copy; \
         INSERT INTO audit (id, at, run_id, kind, data) SELECT * FROM a_copy;",
    );
    assert_eq!(history(&store, "r1"), once);
    assert_eq!(
        store.audit_page(None, None, 100).unwrap().items.len(),
        store.audit(Some("r1")).unwrap().len()
    );
}

fn queued(db: &TempDb) -> i64 {
    let sql = "SELECT COUNT(*) FROM unpacked_runs";
    match &db.postgres {
        Some((url, _)) => admin(url).query_one(sql, &[]).unwrap().get(0),
        None => raw(&db.path()).query_row(sql, [], |r| r.get(0)).unwrap(),
    }
}

/// Sets the hook run after an ended run's history was read for packing,
/// for the next packing only.
fn after_read_once(f: impl FnOnce() + 'static) {
    let mut f = Some(f);
    super::super::archive::AFTER_READ.with(|hook| {
        *hook.borrow_mut() = Some(Box::new(move || {
            if let Some(f) = f.take() {
                f()
            }
        }))
    });
}

fn clear_after_read() {
    super::super::archive::AFTER_READ.with(|hook| hook.borrow_mut().take());
}

#[test]
fn a_row_written_while_an_ended_run_is_packed_is_packed_with_it() {
    let (db, mut store) = setup("archive-race");
    let mut t = 1;
    run_steps(&mut store, "r1", 2, false, &mut t);
    let mut other = db.open();
    after_read_once(move || {
        operator_note(&mut other);
    });
    run_steps(&mut store, "r1", 1, true, &mut t);
    clear_after_read();
    let rows = store.audit(Some("r1")).unwrap();
    assert_eq!(
        rows.last().map(|r| r.kind.as_str()),
        Some("note"),
        "the row written between the read and the swap is kept: {rows:?}"
    );
    assert_eq!(live_rows(&db, "r1"), 0, "and packed with the rest");
    assert_eq!(queued(&db), 0);
    assert_eq!(store.checkpoints("r1").unwrap().len(), 3);
}

/// Takes `run_id`'s last step, whose commit ends it, in a process that
/// stops once the ending has committed, before the swap that packs it.
fn end_in_a_process_stopped_before_the_swap(store: &mut SqlStore, run_id: &str, t: &mut Millis) {
    after_read_once(|| panic!("stopped before the swap"));
    let stopped = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        run_steps(store, run_id, 1, true, t)
    }));
    clear_after_read();
    assert!(stopped.is_err());
}

#[test]
fn a_run_left_unpacked_reads_whole_and_is_packed_once_later() {
    let (db, mut store) = setup("archive-left");
    let mut t = 1;
    run_steps(&mut store, "r1", 2, false, &mut t);
    // The process stops after the ending committed, before the swap.
    end_in_a_process_stopped_before_the_swap(&mut store, "r1", &mut t);
    assert_eq!(store.run("r1").unwrap().unwrap().status, RunStatus::Done);
    assert!(live_rows(&db, "r1") > 0);
    assert_eq!(queued(&db), 1);
    let unpacked = history(&store, "r1");
    assert_eq!(store.checkpoints("r1").unwrap().len(), 3);

    let mut store = db.open();
    assert_eq!(store.pack_queued(10).unwrap(), 1);
    assert_eq!(live_rows(&db, "r1"), 0);
    assert_eq!(queued(&db), 0);
    assert_eq!(history(&store, "r1"), unpacked);
    assert_eq!(store.pack_queued(10).unwrap(), 0, "packed once");
}

#[test]
fn a_run_packed_by_another_host_meanwhile_is_left_as_that_host_packed_it() {
    let (db, mut store) = setup("archive-two-hosts");
    let mut t = 1;
    run_steps(&mut store, "r1", 2, false, &mut t);
    // The other host packs the run between this one's read and its swap.
    let mut other = db.open();
    after_read_once(move || assert_eq!(other.pack_queued(10).unwrap(), 1));
    run_steps(&mut store, "r1", 1, true, &mut t);
    clear_after_read();
    assert_eq!(live_rows(&db, "r1"), 0);
    assert_eq!(queued(&db), 0);
    // Each row once: the archive was not written a second time over
    // rows this host read before the other packed them.
    let checkpoints = store.checkpoints("r1").unwrap();
    let seqs: Vec<u64> = checkpoints.iter().map(|c| c.seq).collect();
    assert_eq!(seqs, [1, 2, 3]);
    assert_eq!(store.ledger("r1").unwrap().len(), 3);
    let audit = store.audit(Some("r1")).unwrap();
    assert!(audit.windows(2).all(|w| w[0].id < w[1].id), "{audit:?}");
}

#[test]
fn a_run_whose_history_cannot_be_packed_stays_queued_and_the_others_are_packed() {
    let (db, mut store) = setup("archive-one-damaged");
    let mut t = 1;
    run_steps(&mut store, "r1", 2, true, &mut t);
    // r1's archive is damaged, and r1 is queued again, as if rows of it
    // were still live: reading its history for packing fails.
    damage_archives(&db);
    db.execute_batch("INSERT INTO unpacked_runs (run_id) VALUES ('r1')");
    // r2 ends in a process that stops before it packs it.
    store.create_run(&new_run("r2", t)).unwrap();
    run_steps(&mut store, "r2", 1, false, &mut t);
    end_in_a_process_stopped_before_the_swap(&mut store, "r2", &mut t);
    assert_eq!(queued(&db), 2);
    let unpacked = history(&store, "r2");

    let mut store = db.open();
    let error = store.pack_queued(10).unwrap_err().to_string();
    assert!(
        error.contains("packed 1 of 2") && error.contains("run(s) r1 stay queued"),
        "{error}"
    );
    assert_eq!(live_rows(&db, "r2"), 0, "r2 is packed");
    assert_eq!(history(&store, "r2"), unpacked);
    assert_eq!(queued(&db), 1, "r1 stays queued");
    // With r1 alone left, the failure is reported again.
    let error = store.pack_queued(10).unwrap_err().to_string();
    assert!(error.contains("archived history of run r1"), "{error}");
}

#[test]
fn a_store_handle_with_a_packer_hands_it_the_runs_it_ends_and_the_packer_packs_them() {
    let (db, mut store) = setup("archive-packer");
    let packer = crate::packer::Packer::start(Box::new(db.open())).unwrap();
    store.pack_by(packer.signal());
    let mut t = 1;
    run_steps(&mut store, "r1", 1, false, &mut t);
    // The hook runs on the thread that packs: this one must not.
    after_read_once(|| panic!("the committing thread packed the run itself"));
    run_steps(&mut store, "r1", 1, true, &mut t);
    clear_after_read();
    packer.wait_idle();
    assert_eq!(live_rows(&db, "r1"), 0, "packed by the packer");
    assert_eq!(queued(&db), 0);
    assert_eq!(store.checkpoints("r1").unwrap().len(), 2);

    // Stopped at once, it packs what it was handed first.
    store.create_run(&new_run("r2", t)).unwrap();
    run_steps(&mut store, "r2", 2, true, &mut t);
    drop(packer);
    assert_eq!(live_rows(&db, "r2"), 0, "packed before the packer stopped");
    assert_eq!(queued(&db), 0);
    assert_eq!(store.checkpoints("r2").unwrap().len(), 2);
}

/// A zstd frame that decompresses to `size` zero bytes, made by hand of
/// 128 KiB blocks that each repeat one byte (four bytes a block): about
/// 16 KB for 512 MiB. `declared` writes its size into the frame's header,
/// as the frames the host compresses carry theirs; without it, a reader
/// learns the size only by decompressing.
fn zeros_frame(size: u64, declared: bool) -> Vec<u8> {
    const BLOCK: u64 = 128 << 10;
    let mut frame = vec![0x28, 0xb5, 0x2f, 0xfd];
    // The header: an 8-byte content size or none, then a window of 2^17.
    frame.push(if declared { 0xc0 } else { 0x00 });
    frame.push(7 << 3);
    if declared {
        frame.extend(size.to_le_bytes());
    }
    let mut left = size;
    while left > 0 {
        let n = left.min(BLOCK);
        left -= n;
        // Last-block bit, block type 1 (one byte repeated), its length.
        let header = u32::from(left == 0) | (1 << 1) | ((n as u32) << 3);
        frame.extend(&header.to_le_bytes()[..3]);
        frame.push(0);
    }
    frame
}

/// Replaces the archive row of `run_id` with `data`, behind the store's back.
fn write_archive_row(store: &SqlStore, run_id: &str, data: &[u8]) {
    let changed = store
        .conn
        .prepare_cached("UPDATE run_archives SET data = ?2 WHERE run_id = ?1")
        .and_then(|mut stmt| stmt.execute(crate::store::sql::db::params![run_id, data]))
        .unwrap();
    assert_eq!(changed, 1, "run {run_id} has an archive row");
}

/// The most memory this process has held at once, in bytes.
fn peak_rss() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let kb: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmHWM in /proc/self/status");
    kb << 10
}

#[test]
fn an_archive_that_decompresses_past_its_bound_is_refused_by_name_and_others_still_read() {
    const BOMB: u64 = 512 << 20;
    // The crafted frames are real zstd: a small one gives back its zeros.
    assert_eq!(
        zstd::decode_all(&zeros_frame(300_000, false)[..]).unwrap(),
        vec![0u8; 300_000]
    );
    let (_db, mut store) = setup("archive-bomb");
    let mut t = 1;
    run_steps(&mut store, "r1", 2, true, &mut t);
    store.create_run(&new_run("r2", t)).unwrap();
    run_steps(&mut store, "r2", 3, true, &mut t);
    let ordinary = history(&store, "r2");

    for declared in [true, false] {
        let mut row = vec![1u8];
        row.extend(zeros_frame(BOMB, declared));
        assert!(row.len() < 20_000, "{} bytes", row.len());
        write_archive_row(&store, "r1", &row);
        let error = store.checkpoints("r1").unwrap_err().to_string();
        assert!(
            error.contains("archived history of run r1")
                && error.contains("more than 64 MiB")
                && error.contains("backup"),
            "size declared: {declared}: {error}"
        );
        assert!(store.ledger("r1").is_err());
        // The audit log of every run reads archives too.
        let error = store.audit(None).unwrap_err().to_string();
        assert!(error.contains("more than 64 MiB"), "{error}");
        // What was refused was never held whole.
        assert!(
            peak_rss() < BOMB,
            "the process held {} MiB",
            peak_rss() >> 20
        );
    }
    // Other runs' archives read as before.
    assert_eq!(history(&store, "r2"), ordinary);
    assert_eq!(store.checkpoints("r2").unwrap().len(), 3);
}

/// Runs `f` with archives holding at most `bytes` of history, on this
/// thread.
fn with_history_bound<T>(bytes: usize, f: impl FnOnce() -> T) -> T {
    super::super::archive::HISTORY_BOUND.with(|b| b.set(Some(bytes)));
    let out = f();
    super::super::archive::HISTORY_BOUND.with(|b| b.set(None));
    out
}

#[test]
fn a_history_larger_than_an_archive_holds_stays_live_and_reads_whole() {
    let (db, mut store) = setup("archive-too-large");
    let mut t = 1;
    run_steps(&mut store, "r1", 6, false, &mut t);
    with_history_bound(1024, || run_steps(&mut store, "r1", 1, true, &mut t));
    assert!(live_rows(&db, "r1") > 0, "r1's history is kept live");
    assert_eq!(queued(&db), 0, "and r1 is not left queued");
    assert_eq!(store.checkpoints("r1").unwrap().len(), 7);
    assert_eq!(store.ledger("r1").unwrap().len(), 7);
    assert_eq!(
        store.audit(Some("r1")).unwrap().len(),
        14,
        "two rows a step"
    );
    // A run within the bound is packed as before.
    store.create_run(&new_run("r2", t)).unwrap();
    run_steps(&mut store, "r2", 2, true, &mut t);
    assert_eq!(live_rows(&db, "r2"), 0);
    assert_eq!(store.checkpoints("r2").unwrap().len(), 2);
}

#[test]
fn an_archive_row_longer_than_any_archive_can_be_is_refused_by_its_length() {
    let (_db, mut store) = setup("archive-long-row");
    let mut t = 1;
    run_steps(&mut store, "r1", 2, true, &mut t);
    write_archive_row(&store, "r1", &[1u8; 4096]);
    let error = with_history_bound(1024, || store.checkpoints("r1").unwrap_err().to_string());
    assert!(
        error.contains("archived history of run r1")
            && error.contains("its row is 4096 bytes")
            && error.contains("1 KiB"),
        "{error}"
    );
}

#[test]
fn a_history_of_megabytes_reads_back_from_its_archive() {
    let (db, mut store) = setup("archive-megabytes");
    let mut t = 1;
    // States of 1 MiB of text that does not repeat: zstd keeps a window
    // of its own size for them, which the reader must accept.
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    let mut noise = || {
        (0..1 << 19)
            .map(|_| {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                format!("{:02x}", seed as u8)
            })
            .collect::<String>()
    };
    let states: Vec<String> = (0..3)
        .map(|_| json!({ "noise": noise() }).to_string())
        .collect();
    for (n, state) in states.iter().enumerate() {
        t += 1;
        let (c, wake) = claim(&mut store, t).expect("a due run");
        let next = if n == 2 {
            Next::Done {
                outcome: "fine".into(),
            }
        } else {
            Next::Continue
        };
        let mut commit = step(&c, wake, next, vec![], t);
        commit.state = state.clone();
        store.commit_step(&commit).unwrap();
    }
    assert_eq!(live_rows(&db, "r1"), 0, "packed");
    let read: Vec<String> = store
        .checkpoints("r1")
        .unwrap()
        .into_iter()
        .map(|c| c.state)
        .collect();
    assert_eq!(read, states);
}

#[test]
fn an_archive_asking_for_a_larger_window_than_the_host_writes_is_refused() {
    let (_db, mut store) = setup("archive-window");
    let mut t = 1;
    run_steps(&mut store, "r1", 1, true, &mut t);
    // One zero byte, in a frame that asks its reader to keep 128 MiB.
    let mut row = vec![1u8, 0x28, 0xb5, 0x2f, 0xfd, 0x00, 17 << 3];
    row.extend([(1 | (1 << 1) | (1 << 3)) as u8, 0, 0, 0]);
    write_archive_row(&store, "r1", &row);
    let error = store.checkpoints("r1").unwrap_err().to_string();
    assert!(
        error.contains("archived history of run r1") && error.contains("too much memory"),
        "{error}"
    );
}
