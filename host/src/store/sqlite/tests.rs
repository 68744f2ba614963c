//! The SQLite store against real files: schema, the step protocol, triggers
//! and the built-in tools' tables.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use serde_json::json;
use sha2::{Digest, Sha256};

use super::{SCHEMA_VERSION, SqliteStore};
use crate::model::{
    ApprovalAnswer, ApprovalRequest, Event, Millis, Next, ToolError, WaitFor, Wake,
};
use crate::store::{
    AgentVersion, AnswerRefused, AuditEntry, Claim, Delivery, KvEntry, KvOp, KvOutcome, KvWrite,
    LeaseOp, LeaseOutcome, LedgerWrite, NewRun, PutAgent, RunStatus, StepCommit, StepFailed, Store,
    StoreError, StoredWait, Switch,
};

/// A directory of its own per test, removed when the test ends.
struct TempDb {
    dir: PathBuf,
}

impl TempDb {
    fn new(name: &str) -> TempDb {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let dir = std::env::temp_dir().join(format!(
            "wakeful-store-{}-{}-{name}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        TempDb { dir }
    }

    fn path(&self) -> PathBuf {
        self.dir.join("data").join("wakeful.db")
    }
}

impl Drop for TempDb {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
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
        created_at,
    }
}

/// A store with agent `mail@1.0.0` and the run `r1`.
fn setup(name: &str) -> (TempDb, SqliteStore) {
    let db = TempDb::new(name);
    let mut store = SqliteStore::open(db.path()).unwrap();
    store
        .put_agent(&agent_version("mail", "1.0.0", "d-mail-1"), b"wasm")
        .unwrap();
    store.create_run(&new_run("r1", 1)).unwrap();
    (db, store)
}

fn claim(store: &mut SqliteStore, now: Millis) -> Option<(Claim, Wake)> {
    store.claim(now, "worker-1", 1_000).unwrap()
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
    }
}

/// Claims `r1` at `now` and commits a step that waits for `waits`.
fn step_to_wait(store: &mut SqliteStore, now: Millis, waits: Vec<StoredWait>) -> Wake {
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
        at,
        comment: Some("fine".into()),
    }
}

fn audit_kinds(store: &SqliteStore) -> Vec<String> {
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

#[test]
fn migrates_a_new_file_and_reopens_it() {
    let db = TempDb::new("migrate");
    {
        let mut store = SqliteStore::open(db.path()).unwrap();
        store
            .put_agent(&agent_version("mail", "1.0.0", "d-mail-1"), b"wasm")
            .unwrap();
        store.create_run(&new_run("r1", 1)).unwrap();
    }
    let conn = raw(&db.path());
    let version: i64 = conn
        .pragma_query_value(None, "user_version", |r| r.get(0))
        .unwrap();
    assert_eq!(version, SCHEMA_VERSION);
    let mode: String = conn
        .pragma_query_value(None, "journal_mode", |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "wal");
    drop(conn);

    let store = SqliteStore::open(db.path()).unwrap();
    let run = store.run("r1").unwrap().expect("the run survives a reopen");
    assert_eq!(run.status, RunStatus::Active);
    assert_eq!(run.state, "null");
    assert_eq!(run.fuel_budget, u64::MAX);
    assert_eq!(store.agents().unwrap().len(), 1);
    assert_eq!(store.path(), db.path());
}

#[test]
fn refuses_a_file_from_a_newer_schema() {
    let db = TempDb::new("too-new");
    drop(SqliteStore::open(db.path()).unwrap());
    raw(&db.path())
        .pragma_update(None, "user_version", 999)
        .unwrap();
    match SqliteStore::open(db.path()) {
        Err(StoreError::TooNew {
            path,
            found,
            supported,
        }) => {
            assert_eq!(path, db.path().display().to_string());
            assert_eq!(found, 999);
            assert_eq!(supported, SCHEMA_VERSION);
        }
        Err(other) => panic!("expected TooNew, got {other}"),
        Ok(_) => panic!("a newer file was opened"),
    }
    let version: i64 = raw(&db.path())
        .pragma_query_value(None, "user_version", |r| r.get(0))
        .unwrap();
    assert_eq!(version, 999, "the refused file is left as it was");
}

#[test]
fn agent_versions_are_immutable_and_latest_is_highest_semver() {
    let db = TempDb::new("agents");
    let mut store = SqliteStore::open(db.path()).unwrap();
    for (version, digest) in [("1.9.0", "d9"), ("1.10.0", "d10"), ("1.2.0", "d2")] {
        let put = store.put_agent(&agent_version("mail", version, digest), digest.as_bytes());
        assert_eq!(put.unwrap(), PutAgent::Inserted);
    }
    let again = store.put_agent(&agent_version("mail", "1.9.0", "d9"), b"d9");
    assert_eq!(again.unwrap(), PutAgent::AlreadyDeployed);
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

    assert_eq!(store.agent_bytes("d10").unwrap(), b"d10");
    assert!(matches!(
        store.agent_bytes("nope"),
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

#[test]
fn broadcast_reaches_every_live_run_waiting_on_the_topic() {
    let (_db, mut store) = setup("broadcast");
    store.create_run(&new_run("r2", 2)).unwrap();
    store.create_run(&new_run("r3", 3)).unwrap();
    for topic in ["alerts", "alerts", "other"] {
        let (c, wake) = claim(&mut store, 10).unwrap();
        let waits = vec![event_wait(topic)];
        store
            .commit_step(&step(&c, wake, waiting(&waits), waits, 10))
            .unwrap();
    }
    let alert = event("a1", "alerts", 20);
    let delivered = store.broadcast_event(&alert).unwrap();
    assert_eq!(
        delivered,
        vec![
            ("r1".to_string(), Delivery::Accepted),
            ("r2".to_string(), Delivery::Accepted)
        ]
    );
    let again = store.broadcast_event(&alert).unwrap();
    assert!(again.iter().all(|(_, d)| *d == Delivery::Duplicate));
    assert!(store.inbox("r3").unwrap().is_empty());
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
    assert!(lost_claim(store.park("r1", old.epoch, "budget", 2_100)));
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
fn an_answered_approval_wakes_the_run_once() {
    let (_db, mut store) = setup("approval");
    let details = r#"{"refund":42}"#;
    step_to_wait(
        &mut store,
        100,
        vec![approval_wait("apr_1", details, 10_000)],
    );

    let approvals = store.approvals("r1").unwrap();
    assert_eq!(approvals.len(), 1);
    let request = &approvals[0];
    let digest = hex::encode(Sha256::digest(details.as_bytes()));
    assert_eq!(request.details_digest, digest);
    assert_eq!(request.token.len(), 64);
    assert!(request.token.chars().all(|c| c.is_ascii_hexdigit()));
    assert_eq!((request.requested_at, request.expires_at), (100, 10_100));
    assert!(request.answer.is_none());
    assert!(claim(&mut store, 200).is_none());

    let yes = answer("apr_1", true, 300);
    assert_eq!(
        store
            .answer_approval("r1", &yes, Some("00ff"))
            .unwrap()
            .unwrap_err(),
        AnswerRefused::DetailsChanged {
            run: "r1".into(),
            request: "apr_1".into()
        }
    );
    assert!(matches!(
        store
            .answer_approval("r1", &answer("apr_9", true, 300), None)
            .unwrap(),
        Err(AnswerRefused::UnknownRequest { .. })
    ));
    assert!(matches!(
        store.answer_approval("ghost", &yes, None).unwrap(),
        Err(AnswerRefused::UnknownRun(_))
    ));
    assert!(claim(&mut store, 301).is_none(), "refusals change nothing");

    let stored = store
        .answer_approval("r1", &yes, Some(&digest))
        .unwrap()
        .unwrap();
    assert_eq!(stored.answer.as_ref(), Some(&yes));
    assert_eq!(
        store
            .answer_approval("r1", &answer("apr_1", false, 310), None)
            .unwrap()
            .unwrap_err(),
        AnswerRefused::AlreadyAnswered {
            run: "r1".into(),
            request: "apr_1".into(),
            by: "alice".into()
        }
    );

    let (c, wake) = claim(&mut store, 400).expect("the answer wakes r1");
    assert_eq!(wake, Wake::Approval(yes));
    let waits = vec![event_wait("later")];
    store
        .commit_step(&step(&c, wake, waiting(&waits), waits, 500))
        .unwrap();
    assert!(store.approvals("r1").unwrap()[0].consumed);
    assert!(claim(&mut store, 600).is_none());
    assert_eq!(audit_kinds(&store), ["step", "approval", "step"]);
}

#[test]
fn an_unanswered_approval_expires_and_late_answers_are_refused() {
    let (_db, mut store) = setup("expiry");
    step_to_wait(&mut store, 500, vec![approval_wait("apr_2", "{}", 1_000)]);
    assert!(claim(&mut store, 1_499).is_none());

    let late = answer("apr_2", true, 1_600);
    match store.answer_approval("r1", &late, None).unwrap() {
        Err(AnswerRefused::Expired {
            expires_at,
            expires_at_text,
            ..
        }) => {
            assert_eq!(expires_at, 1_500);
            assert_eq!(expires_at_text, "1970-01-01T00:00:01.500Z");
        }
        other => panic!("expected Expired, got {other:?}"),
    }
    assert!(store.approvals("r1").unwrap()[0].answer.is_none());
    assert_eq!(audit_kinds(&store), ["step", "approval refused"]);

    let (c, wake) = claim(&mut store, 1_500).expect("the expiry wakes r1");
    assert_eq!(
        wake,
        Wake::Expired {
            request_id: "apr_2".into()
        }
    );
    // A clock that lags behind still cannot answer a request that was
    // delivered as expired.
    let skewed = answer("apr_2", true, 1_400);
    assert!(matches!(
        store.answer_approval("r1", &skewed, None).unwrap(),
        Err(AnswerRefused::Expired { .. })
    ));
    let waits = vec![event_wait("x")];
    store
        .commit_step(&step(&c, wake, waiting(&waits), waits, 1_600))
        .unwrap();
    assert!(store.approvals("r1").unwrap()[0].consumed);
    assert!(claim(&mut store, 1_700).is_none());
}

#[test]
fn asking_again_keeps_the_expiry_and_dropped_requests_refuse_answers() {
    let (_db, mut store) = setup("reask");
    step_to_wait(
        &mut store,
        100,
        vec![approval_wait("apr_3", "{}", 1_000), event_wait("x")],
    );
    store.deliver_event("r1", &event("e1", "x", 150)).unwrap();
    let wake = step_to_wait(
        &mut store,
        200,
        vec![approval_wait("apr_3", "{}", 50_000), event_wait("y")],
    );
    assert!(matches!(wake, Wake::Event(_)));
    let request = &store.approvals("r1").unwrap()[0];
    assert_eq!(request.expires_at, 1_100, "the first expiry stands");

    store.deliver_event("r1", &event("e2", "y", 250)).unwrap();
    step_to_wait(&mut store, 300, vec![event_wait("z")]);
    assert_eq!(
        store
            .answer_approval("r1", &answer("apr_3", true, 400), None)
            .unwrap()
            .unwrap_err(),
        AnswerRefused::NotWaiting {
            run: "r1".into(),
            request: "apr_3".into()
        }
    );
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

    assert!(store.resume_parked("r1", 100, u64::MAX, 11_000).unwrap());
    assert!(!store.resume_parked("r1", 100, u64::MAX, 11_000).unwrap());
    assert!(matches!(
        store.resume_parked("ghost", 100, u64::MAX, 11_000),
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
        .park("r1", c.epoch, "step budget spent", 11_004)
        .unwrap();
    let run = store.run("r1").unwrap().unwrap();
    assert_eq!(run.status, RunStatus::Parked);
    assert_eq!(
        run.status_text.as_deref(),
        Some("parked: step budget spent")
    );
    assert!(store.resume_parked("r1", 100, u64::MAX, 11_005).unwrap());
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
fn kv_compare_and_set() {
    let (_db, mut store) = setup("kv");
    let get = |store: &mut SqliteStore| match store
        .kv(&KvOp::Get { key: "k".into() }, None, 1)
        .unwrap()
    {
        KvOutcome::Read(KvEntry { value, version, .. }) => (value, version),
        other => panic!("expected a read, got {other:?}"),
    };
    let put = |store: &mut SqliteStore, value: &str, expected: Option<u64>| match store
        .kv(
            &KvOp::Put {
                key: "k".into(),
                value: value.into(),
                expected_version: expected,
            },
            None,
            1,
        )
        .unwrap()
    {
        KvOutcome::Wrote(w) => w,
        other => panic!("expected a write, got {other:?}"),
    };
    let delete = |store: &mut SqliteStore, expected: Option<u64>| match store
        .kv(
            &KvOp::Delete {
                key: "k".into(),
                expected_version: expected,
            },
            None,
            1,
        )
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

#[test]
fn leases_are_held_until_they_expire_or_are_released() {
    let (_db, mut store) = setup("leases");
    let acquire = |store: &mut SqliteStore, holder: &str, now: Millis| {
        let op = LeaseOp::Acquire {
            resource: "printer".into(),
            holder: holder.into(),
            ttl_ms: 100,
        };
        store.lease(&op, None, now).unwrap()
    };
    let release = |store: &mut SqliteStore, holder: &str| {
        let op = LeaseOp::Release {
            resource: "printer".into(),
            holder: holder.into(),
        };
        store.lease(&op, None, 0).unwrap()
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

fn render_kv(outcome: &KvOutcome) -> String {
    format!("{outcome:?}")
}

fn render_lease(outcome: &LeaseOutcome) -> String {
    serde_json::to_string(outcome).unwrap()
}

#[test]
fn kv_with_a_ledger_row_is_fenced_by_the_epoch() {
    let (_db, mut store) = setup("ledger-kv");
    let (old, _) = claim(&mut store, 0).unwrap();
    let call = |epoch: u64, key: &str| LedgerWrite {
        run_id: "r1".into(),
        epoch,
        key: key.into(),
        tool: "kv".into(),
        args: r#"{"op":"put"}"#.into(),
    };
    let put = |value: &str| KvOp::Put {
        key: "k".into(),
        value: value.into(),
        expected_version: None,
    };

    let first = call(old.epoch, "put-1");
    let outcome = store.kv(&put("1"), Some((&first, &render_kv)), 10).unwrap();
    let entry = store.ledger_get("r1", "put-1").unwrap().expect("recorded");
    assert_eq!(entry.result, Ok(render_kv(&outcome)));
    assert_eq!(entry.tool, "kv");
    assert_eq!(audit_kinds(&store), ["tool"]);

    // The same key again must not run the effect a second time.
    assert!(matches!(
        store.kv(&put("again"), Some((&first, &render_kv)), 11),
        Err(StoreError::Db(_))
    ));

    let (new, _) = claim(&mut store, 5_000).expect("the old lease expired");
    let stale = call(old.epoch, "put-2");
    assert!(lost_claim(store.kv(
        &put("2"),
        Some((&stale, &render_kv)),
        5_001
    )));
    assert!(store.ledger_get("r1", "put-2").unwrap().is_none());
    let lease = LeaseOp::Acquire {
        resource: "res".into(),
        holder: "r1".into(),
        ttl_ms: 10,
    };
    assert!(lost_claim(store.lease(
        &lease,
        Some((&stale, &render_lease)),
        5_001
    )));
    match store
        .kv(&KvOp::Get { key: "k".into() }, None, 5_002)
        .unwrap()
    {
        KvOutcome::Read(entry) => {
            assert_eq!((entry.value.as_deref(), entry.version), (Some("1"), 1));
        }
        other => panic!("expected a read, got {other:?}"),
    }

    let current = call(new.epoch, "lease-1");
    let granted = store
        .lease(&lease, Some((&current, &render_lease)), 5_003)
        .unwrap();
    let entry = store.ledger_get("r1", "lease-1").unwrap().unwrap();
    assert_eq!(entry.result, Ok(render_lease(&granted)));
    assert_eq!(audit_kinds(&store), ["tool", "tool"]);
}

#[test]
fn the_first_ledger_result_is_the_truth() {
    let (_db, mut store) = setup("ledger");
    let (c, _) = claim(&mut store, 0).unwrap();
    let call = LedgerWrite {
        run_id: "r1".into(),
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
fn processes_opening_a_new_file_at_once_migrate_it_once() {
    let db = TempDb::new("open-race");
    let path = db.path();
    let barrier = std::sync::Arc::new(std::sync::Barrier::new(4));
    let openers: Vec<_> = (0..4)
        .map(|_| {
            let (path, barrier) = (path.clone(), barrier.clone());
            std::thread::spawn(move || {
                barrier.wait();
                SqliteStore::open(&path).map(drop)
            })
        })
        .collect();
    for opener in openers {
        opener.join().unwrap().expect("every opener succeeds");
    }
    let version: i64 = raw(&path)
        .pragma_query_value(None, "user_version", |r| r.get(0))
        .unwrap();
    assert_eq!(version, SCHEMA_VERSION);
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
            let path = db.path();
            std::thread::spawn(move || {
                // One connection per worker, as separate processes would have.
                let mut store = SqliteStore::open(&path).unwrap();
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
    let store = SqliteStore::open(db.path()).unwrap();
    for run in store.runs().unwrap() {
        assert_eq!(
            (run.status, run.steps),
            (RunStatus::Done, 1),
            "{}",
            run.run_id
        );
    }
}
