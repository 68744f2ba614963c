//! What reaches the disk when: claims and built-in tool calls ride on the
//! next synced commit, a step's commit is synced, and several steps share
//! one synced commit without one refused step undoing the others.

use super::*;
use crate::store::NextClaim;

/// SQLite's `synchronous` on the store's own connection: 2 is FULL.
fn synchronous(store: &SqlStore) -> Option<i64> {
    let conn = store.conn.as_sqlite()?;
    Some(
        conn.pragma_query_value(None, "synchronous", |row| row.get(0))
            .unwrap(),
    )
}

/// [`setup`]'s store with runs `r1` to `r4`, due in that order.
fn setup_four(name: &str) -> (TempDb, SqlStore) {
    let (db, mut store) = setup(name);
    for (run, at) in [("r2", 2), ("r3", 3), ("r4", 4)] {
        store.create_run(&new_run(run, at)).unwrap();
    }
    (db, store)
}

#[test]
fn a_step_flushes_once_and_its_claim_and_kv_calls_ride_along() {
    let (db, mut store) = setup("flush-once");
    let before = store.synced_commits();
    let (c, wake) = claim(&mut store, 10).expect("r1 is due");
    let call = LedgerWrite {
        run_id: "r1".into(),
        incarnation: "i1".into(),
        epoch: c.epoch,
        key: "put-1".into(),
        tool: "kv".into(),
        args: r#"{"op":"put"}"#.into(),
    };
    let put = KvOp::Put {
        key: "k".into(),
        value: "1".into(),
        expected_version: None,
    };
    // Written before a call that leaves the host; else with the commit.
    let mut effects = Effects::default();
    effects.kv(&put, |key| store.kv_peek(key)).unwrap();
    effects.record(call, Ok("{}".into()));
    store.apply_effects("r1", c.epoch, &effects, 11).unwrap();
    assert_eq!(
        store.synced_commits(),
        before,
        "a claim and a built-in tool call must not wait for the disk"
    );
    // Not waiting for the disk is not skipping the log: another handle
    // sees both, and the connection flushes again for everything else.
    let other = db.open();
    assert!(other.ledger_get("r1", "put-1").unwrap().is_some());
    assert_eq!(synchronous(&store).unwrap_or(2), 2);

    let next = waiting(&[event_wait("mail")]);
    store
        .commit_step(&step(&c, wake, next, vec![event_wait("mail")], 12))
        .unwrap();
    assert_eq!(
        store.synced_commits(),
        before + 1,
        "the step's commit is synced"
    );

    // An operator's write is synced.
    let entry = |_: &KvOutcome| AuditEntry {
        run_id: None,
        kind: "kv".into(),
        data: json!({}),
    };
    store.kv_audited(&put, &entry, 13).unwrap();
    assert_eq!(store.synced_commits(), before + 2);
}

#[test]
fn a_group_s_audit_rows_follow_its_steps_each_at_its_own_time_and_none_of_a_refused_one() {
    let (_db, mut store) = setup_four("group-audit");
    let claims = store.claim_many(10, "w1", 60_000, 10, false).unwrap();
    let mut commits: Vec<StepCommit> = claims
        .iter()
        .zip(20..)
        .map(|((c, wake), at)| step(c, wake.clone(), Next::Continue, vec![], at))
        .collect();
    // r1 logs a line; r2 parks, its row after its step's; r3's claim was
    // lost, so none of its rows is written.
    commits[0].audit.push(AuditEntry {
        run_id: Some("r1".into()),
        kind: "log".into(),
        data: json!({"line": 1}),
    });
    commits[1].park = Some("a budget is spent".into());
    store
        .conn
        .execute_batch("UPDATE runs SET epoch = epoch + 1 WHERE run_id = 'r3'")
        .unwrap();
    let outcomes = store.commit_steps(&commits).unwrap();
    assert!(
        matches!(outcomes[2], Err(StoreError::LostClaim { .. })),
        "{outcomes:?}"
    );
    let rows: Vec<(String, String, Millis)> = store
        .audit(None)
        .unwrap()
        .into_iter()
        .filter(|r| ["step", "log", "parked"].contains(&r.kind.as_str()))
        .map(|r| (r.run_id.unwrap_or_default(), r.kind, r.at))
        .collect();
    let expected = [
        ("r1", "step", 20),
        ("r1", "log", 20),
        ("r2", "step", 21),
        ("r2", "parked", 21),
        ("r4", "step", 23),
    ]
    .map(|(run, kind, at)| (run.to_string(), kind.to_string(), at));
    assert_eq!(rows, expected, "in the order of the steps, by id");
    let ids: Vec<u64> = store.audit(None).unwrap().iter().map(|r| r.id).collect();
    assert!(ids.windows(2).all(|w| w[0] < w[1]), "{ids:?}");
}

#[test]
fn a_group_commit_keeps_every_step_but_the_one_whose_claim_was_lost() {
    let (_db, mut store) = setup("group");
    store.create_run(&new_run("r2", 2)).unwrap();
    store.create_run(&new_run("r3", 3)).unwrap();
    let claims = store.claim_many(10, "w1", 60_000, 10, false).unwrap();
    let ids: Vec<&str> = claims.iter().map(|(c, _)| c.run.run_id.as_str()).collect();
    assert_eq!(ids, ["r1", "r2", "r3"], "oldest first, each once");
    assert!(
        store
            .claim_many(11, "w2", 60_000, 10, true)
            .unwrap()
            .is_empty()
    );

    // Another worker took r2 over while the group was stepped.
    store
        .conn
        .execute_batch("UPDATE runs SET epoch = epoch + 1 WHERE run_id = 'r2'")
        .unwrap();
    let commits: Vec<StepCommit> = claims
        .iter()
        .map(|(c, wake)| step(c, wake.clone(), Next::Continue, vec![], 20))
        .collect();
    let before = store.synced_commits();
    let outcomes = store.commit_steps(&commits).unwrap();
    assert_eq!(
        store.synced_commits(),
        before + 1,
        "one flush for the group"
    );
    assert!(outcomes[0].is_ok() && outcomes[2].is_ok(), "{outcomes:?}");
    assert!(
        matches!(outcomes[1], Err(StoreError::LostClaim { .. })),
        "{outcomes:?}"
    );
    for (run, steps) in [("r1", 1), ("r2", 0), ("r3", 1)] {
        assert_eq!(store.run(run).unwrap().unwrap().steps, steps, "{run}");
        assert_eq!(store.checkpoints(run).unwrap().len() as u64, steps, "{run}");
    }
}

#[test]
fn of_two_steps_in_a_group_that_wrote_one_key_the_second_is_void_alone() {
    let (_db, mut store) = setup("group-conflict");
    store.create_run(&new_run("r2", 2)).unwrap();
    store.create_run(&new_run("r3", 3)).unwrap();
    let claims = store.claim_many(10, "w1", 60_000, 10, false).unwrap();
    // r1 and r3 both found `k` unwritten and put it; r2 only read it.
    let commits: Vec<StepCommit> = claims
        .iter()
        .map(|(c, wake)| {
            let mut commit = step(c, wake.clone(), Next::Continue, vec![], 20);
            if c.run.run_id != "r2" {
                let put = KvOp::Put {
                    key: "k".into(),
                    value: format!("\"{}\"", c.run.run_id),
                    expected_version: Some(0),
                };
                commit.effects.kv(&put, |_| Ok(None)).unwrap();
            }
            commit
        })
        .collect();
    let outcomes = store.commit_steps(&commits).unwrap();
    assert!(outcomes[0].is_ok() && outcomes[1].is_ok(), "{outcomes:?}");
    assert!(
        matches!(&outcomes[2], Err(StoreError::Conflict(why)) if why.contains("`k`")),
        "{outcomes:?}"
    );
    assert_eq!(
        store.kv_peek("k").unwrap(),
        Some((Some("\"r1\"".into()), 1))
    );
    for (run, steps) in [("r1", 1), ("r2", 1), ("r3", 0)] {
        assert_eq!(store.run(run).unwrap().unwrap().steps, steps, "{run}");
        assert_eq!(store.checkpoints(run).unwrap().len() as u64, steps, "{run}");
    }
    // Alone, the refused step is void the same way.
    match store.commit_step(&commits[2]) {
        Err(StoreError::Conflict(_)) => {}
        other => panic!("expected a conflict, got {other:?}"),
    }
    assert_eq!(store.run("r3").unwrap().unwrap().steps, 0);
}

#[test]
fn a_chain_keeps_its_claim_between_steps_and_a_refused_step_takes_the_ones_after_it() {
    let (_db, mut store) = setup("group-chain");
    store.create_run(&new_run("r2", 2)).unwrap();
    let claims = store.claim_many(10, "w1", 60_000, 10, false).unwrap();
    let (c1, w1) = claims.iter().find(|(c, _)| c.run.run_id == "r1").unwrap();
    let (c2, w2) = claims.iter().find(|(c, _)| c.run.run_id == "r2").unwrap();
    // r1: three chained steps; the second writes over a version of `k`
    // that another writer has moved on, so it is refused.
    let mut first = step(c1, w1.clone(), Next::Continue, vec![], 20);
    first.keep_claim = true;
    let mut second = step(c1, Wake::Resume, Next::Continue, vec![], 21);
    second.keep_claim = true;
    let put = KvOp::Put {
        key: "k".into(),
        value: "\"r1\"".into(),
        expected_version: Some(0),
    };
    second.effects.kv(&put, |_| Ok(None)).unwrap();
    let third = step(c1, Wake::Resume, Next::Continue, vec![], 22);
    // r2: two chained steps that commit.
    let mut r2_first = step(c2, w2.clone(), Next::Continue, vec![], 20);
    r2_first.keep_claim = true;
    let r2_second = step(c2, Wake::Resume, Next::Continue, vec![], 21);
    let other = KvOp::Put {
        key: "k".into(),
        value: "\"other\"".into(),
        expected_version: None,
    };
    store.kv(&other).unwrap();

    let outcomes = store
        .commit_steps(&[first, r2_first, second, r2_second, third])
        .unwrap();
    assert!(outcomes[0].is_ok() && outcomes[1].is_ok(), "{outcomes:?}");
    assert!(
        matches!(&outcomes[2], Err(StoreError::Conflict(_))),
        "{outcomes:?}"
    );
    assert!(outcomes[3].is_ok(), "{outcomes:?}");
    assert!(
        matches!(&outcomes[4], Err(StoreError::Conflict(why)) if why.contains("before this one")),
        "{outcomes:?}"
    );
    // r1 kept its first step, and its claim (for the step that was to
    // follow); r2 both, its claim given back by the last.
    let r1 = store.run("r1").unwrap().unwrap();
    assert_eq!((r1.steps, store.checkpoints("r1").unwrap().len()), (1, 1));
    assert_eq!(
        store.kv_peek("k").unwrap(),
        Some((Some("\"other\"".into()), 1))
    );
    let r2 = store.run("r2").unwrap().unwrap();
    assert_eq!((r2.steps, store.checkpoints("r2").unwrap().len()), (2, 2));
    // Both are due again (they continue); only r1 is still under the claim.
    let claimed = store.first_claimed_due(30).unwrap();
    assert_eq!(claimed.map(|c| c.run_id).as_deref(), Some("r1"));
}

#[test]
fn a_chained_step_is_written_from_the_one_before_and_a_refused_one_after_it_is_undone_alone() {
    let (_db, mut store) = setup("group-chain-follow");
    let (c1, w1) = claim(&mut store, 10).expect("r1 is due");
    // Three steps of r1 in a row, as a chain commits them: the second
    // writes nothing that can be refused (no savepoint), the third writes
    // over a version of `k` another writer has moved on.
    let mut first = step(&c1, w1, Next::Continue, vec![], 20);
    first.keep_claim = true;
    let mut second = step(&c1, Wake::Resume, Next::Continue, vec![], 21);
    second.keep_claim = true;
    // Longer than the state before it, so that it is stored as an edit
    // of that state: read back whole only if the edit was made against it.
    second.state = r#"{"at":21,"notes":["a","b","c"],"at_before":20}"#.into();
    let mut third = step(&c1, Wake::Resume, Next::Continue, vec![], 22);
    let put = KvOp::Put {
        key: "k".into(),
        value: "\"r1\"".into(),
        expected_version: Some(0),
    };
    third.effects.kv(&put, |_| Ok(None)).unwrap();
    let other = KvOp::Put {
        key: "k".into(),
        value: "\"other\"".into(),
        expected_version: None,
    };
    store.kv(&other).unwrap();

    let outcomes = store.commit_steps(&[first, second.clone(), third]).unwrap();
    assert!(outcomes[0].is_ok() && outcomes[1].is_ok(), "{outcomes:?}");
    assert!(
        matches!(&outcomes[2], Err(StoreError::Conflict(_))),
        "{outcomes:?}"
    );
    let run = store.run("r1").unwrap().unwrap();
    assert_eq!((run.steps, run.state.as_str()), (2, second.state.as_str()));
    let states: Vec<(u64, String)> = store
        .checkpoints("r1")
        .unwrap()
        .into_iter()
        .map(|c| (c.seq, c.state))
        .collect();
    assert_eq!(
        states,
        vec![(1, r#"{"at":20}"#.to_string()), (2, second.state.clone())]
    );
    assert_eq!(
        store.kv_peek("k").unwrap(),
        Some((Some("\"other\"".into()), 1))
    );
}

#[test]
fn claims_read_woken_runs_off_indexes_without_sorting_them() {
    // SQLite's plans, in the PostgreSQL pass too: PostgreSQL plans by its
    // statistics, which the bench measures instead.
    let db = TempDb::new("plans");
    let store = SqlStore::open(db.path()).unwrap();
    let conn = store.conn.as_sqlite().expect("a SQLite store");
    let any = super::super::claims::ANY_CLAIMABLE.as_str();
    for sql in super::super::claims::CLAIMABLE.into_iter().chain([any]) {
        let plan: Vec<String> = conn
            .prepare(&format!("EXPLAIN QUERY PLAN {sql}"))
            .unwrap()
            .query_map(rusqlite::params![1_000, 16], |row| row.get::<_, String>(3))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        assert!(
            !plan.iter().any(|step| step.contains("TEMP B-TREE")),
            "a claim query sorts what it reads:\n{sql}\n{plan:#?}"
        );
    }
    // Due runs under a claim are found from the claims, not from the runs
    // that are due.
    let sql = super::super::claims::DUE_BUT_CLAIMED;
    let plan: Vec<String> = conn
        .prepare(&format!("EXPLAIN QUERY PLAN {sql}"))
        .unwrap()
        .query_map(rusqlite::params![1_000], |row| row.get::<_, String>(3))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert!(
        plan[0].contains("runs_by_lease_owner") && !plan.iter().any(|s| s.contains("TEMP B-TREE")),
        "{plan:#?}"
    );
}

#[test]
fn a_chain_that_leaves_its_run_row_to_the_last_step_adds_up_every_steps_fuel() {
    let (_db, mut store) = setup("group-chain-row");
    let (c1, w1) = claim(&mut store, 10).expect("r1 is due");
    let fuel_before = store.run("r1").unwrap().unwrap().fuel_used;
    // Three steps in a row, none of which can be refused after the first:
    // only the last one's run row is written, and it must carry all three.
    let mut first = step(&c1, w1, Next::Continue, vec![], 20);
    first.keep_claim = true;
    first.fuel_used = 100;
    let mut second = step(&c1, Wake::Resume, Next::Continue, vec![], 21);
    second.keep_claim = true;
    second.fuel_used = 20;
    let mut third = step(&c1, Wake::Resume, waiting(&[]), vec![], 22);
    third.fuel_used = 3;
    third.status_text = Some("third".into());

    let outcomes = store.commit_steps(&[first, second, third]).unwrap();
    assert!(outcomes.iter().all(Result::is_ok), "{outcomes:?}");
    let run = store.run("r1").unwrap().unwrap();
    assert_eq!(run.fuel_used, fuel_before + 123);
    assert_eq!(
        (run.steps, run.state.as_str(), run.status_text.as_deref()),
        (3, r#"{"at":22}"#, Some("third"))
    );
    assert_eq!(run.status, RunStatus::Waiting);
    assert_eq!(store.checkpoints("r1").unwrap().len(), 3);
}

#[test]
fn a_step_whose_second_write_is_stale_leaves_its_first_unwritten_and_the_group_commits() {
    let (_db, mut store) = setup("group-second-write");
    store.create_run(&new_run("r2", 2)).unwrap();
    let claims = store.claim_many(10, "w1", 60_000, 10, false).unwrap();
    let (c1, w1) = claims.iter().find(|(c, _)| c.run.run_id == "r1").unwrap();
    let (c2, w2) = claims.iter().find(|(c, _)| c.run.run_id == "r2").unwrap();
    // r1 puts `a` (still as it found it), takes lease `l` (still free), and
    // puts `z` over a version another writer has moved on meanwhile.
    let mut r1 = step(c1, w1.clone(), Next::Continue, vec![], 20);
    for key in ["a", "z"] {
        let put = KvOp::Put {
            key: key.into(),
            value: "\"r1\"".into(),
            expected_version: Some(0),
        };
        r1.effects.kv(&put, |_| Ok(None)).unwrap();
    }
    let acquire = LeaseOp::Acquire {
        resource: "l".into(),
        holder: "r1".into(),
        ttl_ms: 60_000,
    };
    r1.effects.lease(&acquire, 20, |_| Ok(None)).unwrap();
    let call = LedgerWrite {
        run_id: "r1".into(),
        incarnation: c1.run.incarnation.clone(),
        epoch: c1.epoch,
        key: "put:a".into(),
        tool: "kv".into(),
        args: "{}".into(),
    };
    r1.effects.record(call, Ok("{}".into()));
    let mut r2 = step(c2, w2.clone(), Next::Continue, vec![], 20);
    let put = KvOp::Put {
        key: "b".into(),
        value: "\"r2\"".into(),
        expected_version: Some(0),
    };
    r2.effects.kv(&put, |_| Ok(None)).unwrap();
    let other = KvOp::Put {
        key: "z".into(),
        value: "\"other\"".into(),
        expected_version: None,
    };
    store.kv(&other).unwrap();

    let outcomes = store.commit_steps(&[r1, r2]).unwrap();
    assert!(
        matches!(&outcomes[0], Err(StoreError::Conflict(why)) if why.contains("`z`")),
        "{outcomes:?}"
    );
    assert!(outcomes[1].is_ok(), "{outcomes:?}");
    // Nothing of r1's step: not the key before the stale one, not its lease.
    assert_eq!(store.kv_peek("a").unwrap(), None);
    assert_eq!(
        store.kv_peek("z").unwrap(),
        Some((Some("\"other\"".into()), 1))
    );
    assert_eq!(store.lease_peek("l").unwrap(), None);
    assert_eq!(store.run("r1").unwrap().unwrap().steps, 0);
    assert!(store.checkpoints("r1").unwrap().is_empty());
    assert!(store.ledger("r1").unwrap().is_empty());
    // r2's step and its write are kept.
    assert_eq!(
        store.kv_peek("b").unwrap(),
        Some((Some("\"r2\"".into()), 1))
    );
    assert_eq!(store.run("r2").unwrap().unwrap().steps, 1);
}

#[test]
fn a_step_whose_lease_was_taken_meanwhile_leaves_its_key_unwritten() {
    let (_db, mut store) = setup("group-stale-lease");
    let (c1, w1) = claim(&mut store, 10).expect("r1 is due");
    // r1 puts `a` (still unwritten) and takes lease `l`, which it found
    // free and someone else has taken meanwhile.
    let mut r1 = step(&c1, w1, Next::Continue, vec![], 20);
    let put = KvOp::Put {
        key: "a".into(),
        value: "\"r1\"".into(),
        expected_version: Some(0),
    };
    r1.effects.kv(&put, |_| Ok(None)).unwrap();
    let acquire = |holder: &str| LeaseOp::Acquire {
        resource: "l".into(),
        holder: holder.into(),
        ttl_ms: 60_000,
    };
    r1.effects.lease(&acquire("r1"), 20, |_| Ok(None)).unwrap();
    let row = |_: &LeaseOutcome| AuditEntry {
        run_id: None,
        kind: "lease".into(),
        data: json!({}),
    };
    store.lease_audited(&acquire("other"), &row, 15).unwrap();

    let outcomes = store.commit_steps(&[r1]).unwrap();
    assert!(
        matches!(&outcomes[0], Err(StoreError::Conflict(why)) if why.contains("`l`")),
        "{outcomes:?}"
    );
    assert_eq!(store.kv_peek("a").unwrap(), None);
    assert_eq!(
        store.lease_peek("l").unwrap().map(|h| h.holder),
        Some("other".into())
    );
    assert_eq!(store.run("r1").unwrap().unwrap().steps, 0);
}

#[test]
fn a_commit_claims_its_worker_s_next_group_and_stands_whatever_that_claim_finds() {
    let (_db, mut store) = setup_four("commit-then-claim");
    let claims = store.claim_many(10, "w1", 60_000, 2, false).unwrap();
    let commit = |claims: &[(Claim, Wake)], at| -> Vec<StepCommit> {
        claims
            .iter()
            .map(|(c, wake)| {
                let waits = vec![event_wait("mail")];
                step(c, wake.clone(), waiting(&waits), waits, at)
            })
            .collect()
    };
    let next = |now| NextClaim {
        now,
        owner: "w1",
        lease_ms: 60_000,
        max: 10,
    };
    let before = store.synced_commits();
    let (outcomes, ahead) = store
        .commit_steps_then_claim(&commit(&claims, 20), next(21))
        .unwrap();
    assert!(outcomes.iter().all(Result::is_ok), "{outcomes:?}");
    assert_eq!(
        store.synced_commits(),
        before + 1,
        "the claim rides on the commit's flush"
    );
    let ids: Vec<&str> = ahead.iter().map(|(c, _)| c.run.run_id.as_str()).collect();
    assert_eq!(
        ids,
        ["r3", "r4"],
        "the runs still due, not the ones just stepped to a wait"
    );
    assert!(ahead.iter().all(|(c, _)| c.owner == "w1"));
    assert!(
        store
            .claim_many(22, "w2", 60_000, 10, true)
            .unwrap()
            .is_empty(),
        "another worker finds the next group taken"
    );
    for (run, steps) in [("r1", 1), ("r2", 1), ("r3", 0), ("r4", 0)] {
        assert_eq!(store.run(run).unwrap().unwrap().steps, steps, "{run}");
    }

    // Nothing left to claim: the commit stands, with an empty next group.
    let (outcomes, ahead) = store
        .commit_steps_then_claim(&commit(&ahead, 30), next(31))
        .unwrap();
    assert!(outcomes.iter().all(Result::is_ok), "{outcomes:?}");
    assert!(ahead.is_empty(), "{ahead:?}");
    for run in ["r3", "r4"] {
        assert_eq!(store.run(run).unwrap().unwrap().steps, 1, "{run}");
    }
}
