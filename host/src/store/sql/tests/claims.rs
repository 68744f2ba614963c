//! Claims, commits, failures, timers and kill switches.

use super::*;
use crate::store::Budgets;

fn budgets() -> Budgets {
    Budgets {
        steps: 100,
        fuel: u64::MAX,
        tokens: 1_000,
        usd: 0.0,
    }
}

#[test]
fn claim_delivers_start_once_per_lease() {
    let (_db, mut store) = setup("claim");
    let (c, wake) = store.claim(1_000, "w1", 5_000).unwrap().expect("r1 is due");
    assert_eq!(c.run.run_id, "r1");
    assert_eq!((c.epoch, c.owner.as_str()), (1, "w1"));
    assert_eq!(
        wake,
        Wake::Start {
            input: r#"{"run":"r1"}"#.into()
        }
    );

    assert!(store.claim(1_001, "w2", 5_000).unwrap().is_none());
    assert_eq!(store.due_but_claimed(1_001).unwrap(), 1);

    // The first worker died: its lease runs out and another worker takes over.
    let (c2, wake2) = store
        .claim(6_000, "w2", 5_000)
        .unwrap()
        .expect("lease expired");
    assert_eq!((c2.epoch, c2.owner.as_str()), (2, "w2"));
    assert!(matches!(wake2, Wake::Start { .. }));
    assert_eq!(store.due_but_claimed(6_000).unwrap(), 1);
    assert_eq!(store.due_but_claimed(11_000).unwrap(), 0);
}

#[test]
fn claims_the_least_recently_updated_run_first() {
    let (_db, mut store) = setup("order");
    store.create_run(&new_run("r0", 0)).unwrap();
    let (first, _) = claim(&mut store, 10).unwrap();
    let (second, _) = claim(&mut store, 10).unwrap();
    assert_eq!(first.run.run_id, "r0");
    assert_eq!(second.run.run_id, "r1");
    assert!(claim(&mut store, 10).is_none());
}

#[test]
fn events_wake_a_run_waiting_on_their_topic() {
    let (_db, mut store) = setup("events");
    step_to_wait(&mut store, 10, vec![event_wait("mail")]);
    let run = store.run("r1").unwrap().unwrap();
    assert_eq!(run.status, RunStatus::Waiting);
    assert_eq!(run.steps, 1);
    assert_eq!(run.state, r#"{"at":10}"#);
    assert_eq!(run.waits, vec![event_wait("mail").wait]);
    assert!(claim(&mut store, 20).is_none());
    assert_eq!(store.due_but_claimed(20).unwrap(), 0);

    // Stored, but not a wake while the run does not wait on that topic.
    let other = event("e0", "other", 25);
    assert_eq!(
        store.deliver_event("r1", &other).unwrap(),
        Delivery::Accepted
    );
    assert!(claim(&mut store, 26).is_none());

    let mail = event("e1", "mail", 30);
    assert_eq!(
        store.deliver_event("r1", &mail).unwrap(),
        Delivery::Accepted
    );
    assert_eq!(
        store.deliver_event("r1", &mail).unwrap(),
        Delivery::Duplicate
    );
    let (c, wake) = claim(&mut store, 40).expect("the event wakes r1");
    assert_eq!(wake, Wake::Event(mail.clone()));

    let done = Next::Done {
        outcome: r#""ok""#.into(),
    };
    store
        .commit_step(&step(&c, wake, done, vec![event_wait("ignored")], 50))
        .unwrap();
    let inbox = store.inbox("r1").unwrap();
    assert_eq!(inbox.len(), 2);
    assert_eq!(inbox[0].consumed_at_step, None);
    assert_eq!(inbox[1].event, mail);
    assert_eq!(inbox[1].consumed_at_step, Some(2));
    let run = store.run("r1").unwrap().unwrap();
    assert_eq!(run.status, RunStatus::Done);
    assert_eq!(run.outcome.as_deref(), Some(r#""ok""#));
    assert!(run.waits.is_empty(), "a finished run waits for nothing");
    assert_eq!(run.fuel_used, 20);
    assert_eq!(store.checkpoints("r1").unwrap().len(), 2);
    assert!(claim(&mut store, 60).is_none());

    assert_eq!(
        store.deliver_event("r1", &event("e2", "mail", 70)).unwrap(),
        Delivery::Finished
    );
    assert!(matches!(
        store.deliver_event("ghost", &mail),
        Err(StoreError::UnknownRun(_))
    ));
}

/// Runs r1 and r2 waiting on topic `alerts`, r3 on `other`.
fn three_waiting(store: &mut SqlStore) {
    store.create_run(&new_run("r2", 2)).unwrap();
    store.create_run(&new_run("r3", 3)).unwrap();
    for topic in ["alerts", "alerts", "other"] {
        let (c, wake) = claim(store, 10).unwrap();
        let waits = vec![event_wait(topic)];
        store
            .commit_step(&step(&c, wake, waiting(&waits), waits, 10))
            .unwrap();
    }
}

#[test]
fn broadcast_reaches_every_live_run_waiting_on_the_topic() {
    let (_db, mut store) = setup("broadcast");
    three_waiting(&mut store);
    let alert = event("a1", "alerts", 20);
    let delivered = store
        .broadcast_event(&alert, u64::MAX / 2, &sent_by())
        .unwrap();
    assert_eq!(
        delivered,
        vec![
            ("r1".to_string(), Delivery::Accepted),
            ("r2".to_string(), Delivery::Accepted)
        ]
    );
    let again = store
        .broadcast_event(&alert, u64::MAX / 2, &sent_by())
        .unwrap();
    assert!(again.iter().all(|(_, d)| *d == Delivery::Duplicate));
    assert!(store.inbox("r3").unwrap().is_empty());
}

#[test]
fn a_broadcast_appends_one_audit_row_per_run_that_took_it_in_its_one_commit() {
    let (_db, mut store) = setup("broadcast-audit");
    three_waiting(&mut store);
    let sent_by = sent_by();
    let events = |store: &SqlStore, run: &str| -> Vec<serde_json::Value> {
        let rows = store.audit(Some(run)).unwrap();
        rows.into_iter()
            .filter(|r| r.kind == "event")
            .map(|r| r.data)
            .collect()
    };
    let alert = event("a1", "alerts", 20);
    let synced = store.synced_commits();
    let sent = store
        .broadcast_event(&alert, u64::MAX / 2, &sent_by)
        .unwrap();
    assert_eq!(sent.len(), 2);
    assert_eq!(
        store.synced_commits(),
        synced + 1,
        "the deliveries and their audit rows are one commit"
    );
    for run in ["r1", "r2"] {
        assert_eq!(events(&store, run), vec![sent_by.data.clone()], "{run}");
    }
    assert!(events(&store, "r3").is_empty());

    // A duplicate delivers nothing, so it appends nothing.
    let again = store
        .broadcast_event(&alert, u64::MAX / 2, &sent_by)
        .unwrap();
    assert!(again.iter().all(|(_, d)| *d == Delivery::Duplicate));
    assert_eq!(events(&store, "r1").len(), 1);
}

#[test]
fn live_run_ids_are_an_agents_live_runs_newest_first() {
    let (_db, mut store) = setup("live-ids");
    // r1 waits, r2 and r3 are active (due to start), r4 ended.
    let (c, wake) = claim(&mut store, 10).unwrap();
    let waits = vec![event_wait("mail")];
    store
        .commit_step(&step(&c, wake, waiting(&waits), waits, 10))
        .unwrap();
    store
        .put_agent(&agent_version("other", "1.0.0", "d-other-1"), b"wasm")
        .unwrap();
    for (id, at) in [("r2", 5), ("r3", 3), ("r4", 4)] {
        store.create_run(&new_run(id, at)).unwrap();
    }
    store
        .create_run(&NewRun {
            agent: "other".into(),
            digest: "d-other-1".into(),
            ..new_run("o1", 9)
        })
        .unwrap();
    assert!(store.cancel_run("r4", "done with it", "op", 10).unwrap());
    assert_eq!(store.live_run_ids("mail").unwrap(), ["r2", "r3", "r1"]);
    assert_eq!(store.live_run_ids("other").unwrap(), ["o1"]);
    assert!(store.live_run_ids("nobody").unwrap().is_empty());
}

#[test]
fn a_stale_epoch_changes_nothing() {
    let (_db, mut store) = setup("stale");
    let (old, wake) = claim(&mut store, 0).unwrap();
    let (new, _) = claim(&mut store, 2_000).expect("the old lease expired");
    assert_eq!(new.epoch, old.epoch + 1);
    let before = store.run("r1").unwrap().unwrap();

    let waits = vec![event_wait("mail")];
    let commit = step(&old, wake.clone(), waiting(&waits), waits, 2_100);
    assert!(lost_claim(store.commit_step(&commit)));
    let failed = StepFailed {
        run_id: "r1".into(),
        epoch: old.epoch,
        error: "trap".into(),
        fuel_used: 5,
        retry_at: None,
        audit: vec![],
        at: 2_100,
    };
    assert!(lost_claim(store.fail_step(&failed)));
    assert!(lost_claim(store.park(
        "r1",
        old.epoch,
        "budget",
        &[],
        2_100
    )));
    assert!(lost_claim(store.release("r1", old.epoch)));

    let after = store.run("r1").unwrap().unwrap();
    assert_eq!(after.steps, before.steps);
    assert_eq!(after.status, RunStatus::Active);
    assert_eq!(after.fuel_used, 0);
    assert!(store.checkpoints("r1").unwrap().is_empty());
    assert!(audit_kinds(&store).is_empty());

    let current = StepCommit {
        epoch: new.epoch,
        ..commit
    };
    store.commit_step(&current).unwrap();
    assert_eq!(store.run("r1").unwrap().unwrap().steps, 1);
    // The commit gave the lease back: the same claim cannot write again.
    assert!(lost_claim(store.commit_step(&current)));
    assert_eq!(store.checkpoints("r1").unwrap().len(), 1);
}

#[test]
fn wakes_come_in_the_documented_order() {
    let (_db, mut store) = setup("priority");
    let waits = || {
        vec![
            until_wait(50),
            approval_wait("soon", "{}", 100),
            event_wait("t"),
            approval_wait("later", "{}", 100_000),
        ]
    };
    step_to_wait(&mut store, 10, waits());
    store.deliver_event("r1", &event("e1", "t", 20)).unwrap();
    store
        .answer_approval("r1", &answer("later", false, 30), None)
        .unwrap()
        .unwrap();

    let mut order = Vec::new();
    for now in [1_000, 1_001, 1_002, 1_003] {
        order.push(step_to_wait(&mut store, now, waits()));
    }
    assert!(matches!(&order[0], Wake::Approval(a) if a.request_id == "later"));
    assert!(matches!(&order[1], Wake::Event(e) if e.id == "e1"));
    assert_eq!(
        order[2],
        Wake::Expired {
            request_id: "soon".into()
        }
    );
    assert_eq!(order[3], Wake::Timer { due: 50 });
}

#[test]
fn timers_fire_when_due() {
    let (_db, mut store) = setup("timers");
    let cron = StoredWait {
        wait: WaitFor::Cron {
            expr: "0 9 * * *".into(),
        },
        due_at: Some(9_000),
    };
    step_to_wait(&mut store, 10, vec![cron, until_wait(5_000)]);
    assert!(claim(&mut store, 4_999).is_none());
    let (c, wake) = claim(&mut store, 5_000).expect("the until wait is due");
    assert_eq!(wake, Wake::Timer { due: 5_000 });
    store
        .commit_step(&step(&c, wake, Next::Continue, vec![], 5_001))
        .unwrap();
    let (_, wake) = claim(&mut store, 5_002).expect("continue is due at once");
    assert_eq!(wake, Wake::Resume);
}

#[test]
fn failed_steps_retry_then_park_until_resumed() {
    let (_db, mut store) = setup("failures");
    let (c, _) = claim(&mut store, 1_000).unwrap();
    let failed = StepFailed {
        run_id: "r1".into(),
        epoch: c.epoch,
        error: "out of fuel".into(),
        fuel_used: 7,
        retry_at: Some(5_000),
        audit: vec![AuditEntry {
            run_id: Some("r1".into()),
            kind: "step failed".into(),
            data: json!({}),
        }],
        at: 1_000,
    };
    store.fail_step(&failed).unwrap();
    let run = store.run("r1").unwrap().unwrap();
    assert_eq!((run.attempts, run.fuel_used), (1, 7));
    assert_eq!(run.retry_at, Some(5_000));
    assert_eq!(run.last_error.as_deref(), Some("out of fuel"));
    assert!(claim(&mut store, 4_999).is_none());

    let (c, wake) = claim(&mut store, 5_000).expect("retry time reached");
    assert!(matches!(wake, Wake::Start { .. }), "the same wake again");
    store
        .fail_step(&StepFailed {
            epoch: c.epoch,
            retry_at: None,
            ..failed
        })
        .unwrap();
    let run = store.run("r1").unwrap().unwrap();
    assert_eq!(run.status, RunStatus::Parked);
    assert_eq!(run.status_text.as_deref(), Some("parked: out of fuel"));
    assert_eq!(run.attempts, 2);
    assert!(claim(&mut store, 10_000).is_none());

    assert!(store.resume_parked("r1", &budgets(), "op", 11_000).unwrap());
    assert!(!store.resume_parked("r1", &budgets(), "op", 11_000).unwrap());
    assert!(matches!(
        store.resume_parked("ghost", &budgets(), "op", 11_000),
        Err(StoreError::UnknownRun(_))
    ));
    let run = store.run("r1").unwrap().unwrap();
    assert_eq!(
        (run.status, run.attempts, run.retry_at),
        (RunStatus::Active, 0, None)
    );
    // Never stepped: it still needs its start input.
    let (c, wake) = claim(&mut store, 11_001).unwrap();
    assert!(matches!(wake, Wake::Start { .. }));

    store
        .commit_step(&step(&c, wake, Next::Continue, vec![], 11_002))
        .unwrap();
    let (c, _) = claim(&mut store, 11_003).unwrap();
    store
        .park("r1", c.epoch, "step budget spent", &[], 11_004)
        .unwrap();
    let run = store.run("r1").unwrap().unwrap();
    assert_eq!(run.status, RunStatus::Parked);
    assert_eq!(
        run.status_text.as_deref(),
        Some("parked: step budget spent")
    );
    assert!(store.resume_parked("r1", &budgets(), "op", 11_005).unwrap());
    assert_eq!(claim(&mut store, 11_006).unwrap().1, Wake::Resume);
    assert_eq!(
        audit_kinds(&store),
        [
            "step failed",
            "step failed",
            "resume",
            "step",
            "parked",
            "resume"
        ]
    );
}

#[test]
fn kill_switches_stop_claims_until_cleared() {
    let (_db, mut store) = setup("switches");
    for scope in ["all", "agent:mail", "run:r1"] {
        let switch = Switch {
            scope: scope.into(),
            reason: Some("incident".into()),
            at: 5,
        };
        store.set_switch(&switch).unwrap();
        assert!(claim(&mut store, 10).is_none(), "{scope} must block r1");
        assert_eq!(store.due_but_claimed(10).unwrap(), 0);
        assert_eq!(store.switches().unwrap().len(), 1);
        assert!(store.clear_switch(scope).unwrap());
        assert!(!store.clear_switch(scope).unwrap());
    }
    let elsewhere = Switch {
        scope: "run:r2".into(),
        reason: None,
        at: 6,
    };
    store.set_switch(&elsewhere).unwrap();
    assert!(claim(&mut store, 10).is_some());
}

#[test]
fn a_tool_call_is_stopped_by_the_oldest_switch_over_its_run_or_its_tool() {
    let (_db, mut store) = setup("switch-covering");
    let none = store.switch_covering("mail", "r1", Some("kv")).unwrap();
    assert!(none.is_none());
    // The oldest in neither the table's order (by scope) nor its reverse.
    for (scope, at) in [
        ("agent:mail", 4),
        ("run:r1", 1),
        ("tool:kv", 3),
        ("tool:http", 2),
        ("run:r2", 1),
        ("agent:other", 0),
    ] {
        let switch = Switch {
            scope: scope.into(),
            reason: None,
            at,
        };
        store.set_switch(&switch).unwrap();
    }
    let covering = |store: &SqlStore, agent: &str, run: &str, tool: Option<&str>| {
        store
            .switch_covering(agent, run, tool)
            .unwrap()
            .map(|s| s.scope)
    };
    let scope = |agent: &str, run: &str, tool: Option<&str>| covering(&store, agent, run, tool);
    assert_eq!(scope("mail", "r1", Some("kv")).as_deref(), Some("run:r1"));
    assert_eq!(scope("mail", "r5", Some("kv")).as_deref(), Some("tool:kv"));
    assert_eq!(
        scope("mail", "r5", Some("lease")).as_deref(),
        Some("agent:mail")
    );
    // Without a tool, only the run's own scopes count.
    assert_eq!(scope("mail", "r5", None).as_deref(), Some("agent:mail"));
    assert_eq!(scope("fax", "r2", None).as_deref(), Some("run:r2"));
    assert_eq!(scope("fax", "r3", Some("lease")), None);
    assert_eq!(
        scope("fax", "r3", Some("http")).as_deref(),
        Some("tool:http")
    );
    // `all` covers every run and every call; at the same time as
    // `tool:http`, the scopes' order decides.
    store
        .set_switch(&Switch {
            scope: "all".into(),
            reason: None,
            at: 2,
        })
        .unwrap();
    let scope = |agent: &str, run: &str, tool: Option<&str>| covering(&store, agent, run, tool);
    assert_eq!(scope("fax", "r3", Some("http")).as_deref(), Some("all"));
    assert_eq!(scope("fax", "r3", None).as_deref(), Some("all"));
}

#[test]
fn cancelling_fences_a_step_in_flight() {
    let (_db, mut store) = setup("cancel");
    let (c, wake) = claim(&mut store, 10).unwrap();
    assert!(
        store
            .cancel_run("r1", "operator said so", "op", 11)
            .unwrap()
    );
    let commit = store.commit_step(&step(&c, wake, Next::Continue, vec![], 12));
    assert!(lost_claim(commit), "the in-flight step's commit is refused");
    let run = store.run("r1").unwrap().unwrap();
    assert_eq!(run.status, RunStatus::Cancelled);
    assert_eq!(run.steps, 0);
    assert!(claim(&mut store, 13).is_none());
    assert!(!store.cancel_run("r1", "again", "op", 14).unwrap());
    assert!(matches!(
        store.cancel_run("ghost", "x", "op", 14),
        Err(StoreError::UnknownRun(_))
    ));
}

#[test]
fn a_run_due_with_nothing_to_deliver_is_parked_and_blocks_nobody() {
    let (db, mut store) = setup("undeliverable");
    // Twenty runs that look due (a consumed approval, its expiry passed,
    // before r1 was created, so that a claim looks at them first) but have
    // no wake, more than one claim examines.
    for i in 0..20 {
        store
            .create_run(&new_run(&format!("stuck{i:02}"), 0))
            .unwrap();
    }
    db.execute_batch(
        "UPDATE runs SET status = 'waiting', pending_wake = NULL WHERE run_id LIKE 'stuck%';
         INSERT INTO waits (run_id, pos, kind, key, due_at, wait)
             SELECT run_id, 0, 'approval', 'a', 0, '{}' FROM runs WHERE run_id LIKE 'stuck%';
         INSERT INTO approvals (run_id, id, question, details, details_digest, token,
             requested_at, expires_at, answered, consumed)
             SELECT run_id, 'a', 'q', '{}', 'd', 'tok-' || run_id, 0, 0, 0, 1
             FROM runs WHERE run_id LIKE 'stuck%';",
    );
    let (c, wake) = claim(&mut store, 10).expect("the ordinary run is claimed");
    assert_eq!(c.run.run_id, "r1");
    assert!(matches!(wake, Wake::Start { .. }));
    let parked = store
        .runs()
        .unwrap()
        .into_iter()
        .filter(|r| r.status == RunStatus::Parked)
        .count();
    assert!(
        parked >= 16,
        "the candidates examined were parked: {parked}"
    );
    let stuck = store.run("stuck00").unwrap().unwrap();
    assert!(
        stuck
            .last_error
            .unwrap()
            .contains("none of its waits can be delivered"),
        "the reason is given"
    );
}
