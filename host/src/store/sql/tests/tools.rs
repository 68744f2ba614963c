//! The ledger and the built-in tools: kv and leases.

use super::*;
use crate::store::{Intent, Usage};

#[test]
fn kv_compare_and_set() {
    let (_db, mut store) = setup("kv");
    let get = |store: &mut SqlStore| match store.kv(&KvOp::Get { key: "k".into() }).unwrap() {
        KvOutcome::Read(KvEntry { value, version, .. }) => (value, version),
        other => panic!("expected a read, got {other:?}"),
    };
    let put = |store: &mut SqlStore, value: &str, expected: Option<u64>| match store
        .kv(&KvOp::Put {
            key: "k".into(),
            value: value.into(),
            expected_version: expected,
        })
        .unwrap()
    {
        KvOutcome::Wrote(w) => w,
        other => panic!("expected a write, got {other:?}"),
    };
    let delete = |store: &mut SqlStore, expected: Option<u64>| match store
        .kv(&KvOp::Delete {
            key: "k".into(),
            expected_version: expected,
        })
        .unwrap()
    {
        KvOutcome::Wrote(w) => w,
        other => panic!("expected a write, got {other:?}"),
    };

    assert_eq!(get(&mut store), (None, 0));
    assert_eq!(
        put(&mut store, "1", Some(0)),
        KvWrite {
            ok: true,
            version: 1
        }
    );
    assert_eq!(
        put(&mut store, "2", Some(0)),
        KvWrite {
            ok: false,
            version: 1
        }
    );
    assert_eq!(
        put(&mut store, "2", Some(1)),
        KvWrite {
            ok: true,
            version: 2
        }
    );
    assert_eq!(
        put(&mut store, "3", None),
        KvWrite {
            ok: true,
            version: 3
        }
    );
    assert_eq!(get(&mut store), (Some("3".to_string()), 3));
    assert_eq!(
        delete(&mut store, Some(2)),
        KvWrite {
            ok: false,
            version: 3
        }
    );
    assert_eq!(get(&mut store), (Some("3".to_string()), 3));
    assert_eq!(
        delete(&mut store, Some(3)),
        KvWrite {
            ok: true,
            version: 4
        }
    );
    // Deleted, but versioned: a writer that read version 3 cannot
    // mistake a re-created key for the one it read.
    assert_eq!(get(&mut store), (None, 4));
    assert!(!put(&mut store, "5", Some(3)).ok);
    assert_eq!(put(&mut store, "5", Some(4)).version, 5);
}

fn lease_row(_: &LeaseOutcome) -> AuditEntry {
    AuditEntry {
        run_id: None,
        kind: "lease".into(),
        data: json!({}),
    }
}

#[test]
fn leases_are_held_until_they_expire_or_are_released() {
    let (_db, mut store) = setup("leases");
    let acquire = |store: &mut SqlStore, holder: &str, now: Millis| {
        let op = LeaseOp::Acquire {
            resource: "printer".into(),
            holder: holder.into(),
            ttl_ms: 100,
        };
        store.lease_audited(&op, &lease_row, now).unwrap()
    };
    let release = |store: &mut SqlStore, holder: &str| {
        let op = LeaseOp::Release {
            resource: "printer".into(),
            holder: holder.into(),
        };
        store.lease_audited(&op, &lease_row, 0).unwrap()
    };
    let granted = |holder: &str, expires_at| LeaseOutcome::Acquire {
        granted: true,
        holder: holder.into(),
        expires_at,
    };

    assert_eq!(acquire(&mut store, "a", 0), granted("a", 100));
    assert_eq!(
        acquire(&mut store, "b", 50),
        LeaseOutcome::Acquire {
            granted: false,
            holder: "a".into(),
            expires_at: 100
        }
    );
    assert_eq!(acquire(&mut store, "a", 60), granted("a", 160), "a renews");
    assert_eq!(
        acquire(&mut store, "b", 160),
        granted("b", 260),
        "a expired"
    );
    assert_eq!(
        release(&mut store, "a"),
        LeaseOutcome::Release { released: false }
    );
    assert_eq!(
        release(&mut store, "b"),
        LeaseOutcome::Release { released: true }
    );
    assert_eq!(acquire(&mut store, "a", 170), granted("a", 270));
}

/// A step's held kv put of `k` and the call that made it.
fn held_put(effects: &mut Effects, store: &SqlStore, call: LedgerWrite, value: &str) -> KvWrite {
    let put = KvOp::Put {
        key: "k".into(),
        value: value.into(),
        expected_version: None,
    };
    let outcome = effects.kv(&put, |key| store.kv_peek(key)).unwrap();
    effects.record(call, Ok(format!("{outcome:?}")));
    match outcome {
        KvOutcome::Wrote(w) => w,
        other => panic!("expected a write, got {other:?}"),
    }
}

#[test]
fn a_held_call_whose_key_is_recorded_keeps_the_first_result_and_one_audit_row() {
    let (_db, mut store) = setup("held-again");
    let (c, _) = claim(&mut store, 0).unwrap();
    let call = LedgerWrite {
        run_id: "r1".into(),
        incarnation: "i1".into(),
        epoch: c.epoch,
        key: "static-1".into(),
        tool: "static".into(),
        args: "{}".into(),
    };
    for (result, at) in [("first", 10), ("second", 11)] {
        let mut effects = Effects::default();
        effects.record(call.clone(), Ok(result.into()));
        store.apply_effects("r1", c.epoch, &effects, at).unwrap();
    }
    let entry = store
        .ledger_get("r1", "static-1")
        .unwrap()
        .expect("recorded");
    assert_eq!(entry.result, Ok("first".into()));
    assert_eq!(audit_kinds(&store), ["tool"], "the repeat was audited");
}

#[test]
fn a_held_call_leaves_an_unsettled_intent_under_its_key_to_the_operator() {
    let (_db, mut store) = setup("held-intent");
    let (c, _) = claim(&mut store, 0).unwrap();
    // An earlier attempt sent an external call under `k` and died.
    let intent = Intent {
        run_id: "r1".into(),
        key: "k".into(),
        tool: "http".into(),
        args: "{}".into(),
        args_digest: "d".into(),
        epoch: c.epoch,
        at: 3,
    };
    store.begin_external(&intent, &[], 3, 1_000).unwrap();
    let mut effects = Effects::default();
    effects.record(
        LedgerWrite {
            run_id: "r1".into(),
            incarnation: "i1".into(),
            epoch: c.epoch,
            key: "k".into(),
            tool: "static".into(),
            args: "{}".into(),
        },
        Ok("held".into()),
    );
    store.apply_effects("r1", c.epoch, &effects, 4).unwrap();
    let kept = store.intent("r1", "k").unwrap();
    assert_eq!(
        kept.map(|i| (i.tool, i.epoch)),
        Some((intent.tool, intent.epoch)),
        "the external call's unknown outcome was forgotten"
    );
}

#[test]
fn held_calls_are_written_under_the_claim_and_only_over_what_the_step_found() {
    let (_db, mut store) = setup("held");
    let (old, _) = claim(&mut store, 0).unwrap();
    let call = |epoch: u64, key: &str| LedgerWrite {
        run_id: "r1".into(),
        incarnation: "i1".into(),
        epoch,
        key: key.into(),
        tool: "kv".into(),
        args: r#"{"op":"put"}"#.into(),
    };

    let mut first = Effects::default();
    let wrote = held_put(&mut first, &store, call(old.epoch, "put-1"), "1");
    assert_eq!((wrote.ok, wrote.version), (true, 1));
    assert_eq!(store.kv_peek("k").unwrap(), None, "held, not written");
    store.apply_effects("r1", old.epoch, &first, 10).unwrap();
    assert_eq!(store.kv_peek("k").unwrap(), Some((Some("1".into()), 1)));
    let entry = store.ledger_get("r1", "put-1").unwrap().expect("recorded");
    assert_eq!(entry.result, Ok(format!("{:?}", KvOutcome::Wrote(wrote))));
    assert_eq!(audit_kinds(&store), ["tool"]);

    // Another step that found the key before the first wrote it: its write
    // would lose the first one's, so nothing of it is written.
    let mut stale = Effects::default();
    stale.kv.insert(
        "k".into(),
        KvEffect {
            found: 0,
            value: Some("other".into()),
            version: 1,
        },
    );
    stale.record(call(old.epoch, "put-2"), Ok("{}".into()));
    match store.apply_effects("r1", old.epoch, &stale, 11) {
        Err(StoreError::Conflict(why)) => assert!(why.contains("`k`"), "{why}"),
        other => panic!("expected a conflict, got {other:?}"),
    }
    assert_eq!(store.kv_peek("k").unwrap(), Some((Some("1".into()), 1)));
    assert!(store.ledger_get("r1", "put-2").unwrap().is_none());

    // A superseded claim writes nothing, lease or kv.
    let (new, _) = claim(&mut store, 5_000).expect("the old lease expired");
    let mut late = Effects::default();
    held_put(&mut late, &store, call(old.epoch, "put-3"), "3");
    let lease = LeaseOp::Acquire {
        resource: "res".into(),
        holder: "r1".into(),
        ttl_ms: 10,
    };
    late.lease(&lease, 5_001, |r| store.lease_peek(r)).unwrap();
    assert!(lost_claim(
        store.apply_effects("r1", old.epoch, &late, 5_001)
    ));
    assert_eq!(store.kv_peek("k").unwrap(), Some((Some("1".into()), 1)));
    assert_eq!(store.lease_peek("res").unwrap(), None);
    store.apply_effects("r1", new.epoch, &late, 5_002).unwrap();
    assert_eq!(store.kv_peek("k").unwrap(), Some((Some("3".into()), 2)));
    assert_eq!(
        store.lease_peek("res").unwrap(),
        Some(Held {
            holder: "r1".into(),
            expires_at: 5_011
        })
    );

    // Two steps granted one lease from the same free state: the second
    // to be written finds it taken and is void.
    let mut rival = Effects::default();
    rival.leases.insert(
        "res".into(),
        LeaseEffect {
            found: None,
            leaves: Some(Held {
                holder: "r2".into(),
                expires_at: 9_999,
            }),
        },
    );
    assert!(matches!(
        store.apply_effects("r1", new.epoch, &rival, 5_003),
        Err(StoreError::Conflict(_))
    ));
    assert_eq!(store.lease_peek("res").unwrap().unwrap().holder, "r1");
}

#[test]
fn the_first_ledger_result_is_the_truth() {
    let (_db, mut store) = setup("ledger");
    let (c, _) = claim(&mut store, 0).unwrap();
    let call = LedgerWrite {
        run_id: "r1".into(),
        incarnation: "i1".into(),
        epoch: c.epoch,
        key: "send-1".into(),
        tool: "http".into(),
        args: "é".repeat(1_000),
    };
    store.ledger_put(&call, &Ok("sent".into()), 10).unwrap();
    let failed = Err(ToolError::Failed("timeout".into()));
    store.ledger_put(&call, &failed, 20).unwrap();
    let entry = store.ledger_get("r1", "send-1").unwrap().unwrap();
    assert_eq!((entry.result, entry.at), (Ok("sent".to_string()), 10));
    assert_eq!(
        entry.args, call.args,
        "the ledger keeps the whole arguments"
    );

    let audit = store.audit(Some("r1")).unwrap();
    assert_eq!(audit.len(), 1, "a dropped repeat is not audited");
    assert_eq!(audit[0].data["ok"], json!(true));
    let args = audit[0].data["args"].as_str().unwrap();
    assert!(args.len() <= 1_024 + '…'.len_utf8() && args.ends_with('…'));

    let other = LedgerWrite {
        key: "send-2".into(),
        ..call.clone()
    };
    store.ledger_put(&other, &failed, 30).unwrap();
    let entry = store.ledger_get("r1", "send-2").unwrap().unwrap();
    assert_eq!(entry.result, failed);
    let audit = store.audit(None).unwrap();
    assert_eq!(audit[1].data["ok"], json!(false));
    assert_eq!(audit[1].data["error"]["kind"], json!("failed"));

    store.release("r1", c.epoch).unwrap();
    let after = LedgerWrite {
        key: "send-3".into(),
        ..call
    };
    assert!(lost_claim(store.ledger_put(&after, &Ok("x".into()), 40)));
    assert!(store.ledger_get("r1", "send-3").unwrap().is_none());
}

#[test]
fn a_metered_call_is_charged_once_with_its_ledger_row() {
    let (_db, mut store) = setup("metered");
    let (c, _) = claim(&mut store, 0).unwrap();
    let call = LedgerWrite {
        run_id: "r1".into(),
        incarnation: "i1".into(),
        epoch: c.epoch,
        key: "ask".into(),
        tool: "llm".into(),
        args: "{}".into(),
    };
    let usage = Usage {
        tokens: 120,
        usd: 0.25,
    };
    store
        .ledger_put_metered(&call, &Ok("{}".into()), &usage, 10)
        .unwrap();
    // A repeat of the key (a retried step) records nothing and charges nothing.
    store
        .ledger_put_metered(&call, &Ok("{}".into()), &usage, 20)
        .unwrap();
    let run = store.run("r1").unwrap().unwrap();
    assert_eq!((run.tokens_used, run.usd_used), (120, 0.25));

    store.release("r1", c.epoch).unwrap();
    let late = LedgerWrite {
        key: "ask-2".into(),
        ..call
    };
    assert!(lost_claim(store.ledger_put_metered(
        &late,
        &Ok("{}".into()),
        &usage,
        30
    )));
    assert_eq!(store.run("r1").unwrap().unwrap().tokens_used, 120);
}
