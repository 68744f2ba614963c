//! Upgrades: the claim of a run to upgrade, and the commit that ends a
//! group of upgrades.

use super::*;
use crate::store::Migrated;

/// `run` moved to `mail@2.0.0` with state `{"v":2}`.
fn moved(run: &str, epoch: u64, at: Millis) -> UpgradeCommit {
    UpgradeCommit {
        run_id: run.into(),
        epoch,
        to: Some(Migrated {
            version: "2.0.0".into(),
            digest: "d-mail-1".into(),
            state: r#"{"v":2}"#.into(),
        }),
        audit: vec![AuditEntry {
            run_id: Some(run.into()),
            kind: "upgrade".into(),
            data: json!({"to": "2.0.0"}),
        }],
        at,
    }
}

/// `run`'s migration failed.
fn failed(run: &str, epoch: u64, at: Millis) -> UpgradeCommit {
    UpgradeCommit {
        run_id: run.into(),
        epoch,
        to: None,
        audit: vec![AuditEntry {
            run_id: Some(run.into()),
            kind: "upgrade failed".into(),
            data: json!({"error": "migrate trapped"}),
        }],
        at,
    }
}

/// The outcome of a group of one.
fn only(outcomes: crate::store::Result<Vec<crate::store::Result<()>>>) -> crate::store::Result<()> {
    let mut outcomes = outcomes.unwrap();
    assert_eq!(outcomes.len(), 1);
    outcomes.remove(0)
}

fn audit_of(store: &SqlStore, run: &str) -> Vec<String> {
    store
        .audit(Some(run))
        .unwrap()
        .into_iter()
        .map(|r| r.kind)
        .collect()
}

#[test]
fn an_upgrade_claim_waits_for_a_step_in_flight_and_fences_like_one() {
    let (_db, mut store) = setup("upgrade-claim");
    let (c, _) = claim(&mut store, 10).unwrap();
    assert!(
        store
            .claim_run("r1", 11, "upgrader", 1_000)
            .unwrap()
            .is_none(),
        "a run being stepped is not upgraded under the worker's feet"
    );
    store.release("r1", c.epoch).unwrap();
    let synced = store.synced_commits();
    let u = store
        .claim_run("r1", 12, "upgrader", 1_000)
        .unwrap()
        .unwrap();
    assert_eq!(
        store.synced_commits(),
        synced,
        "the claim waits for no flush"
    );
    assert!(
        claim(&mut store, 13).is_none(),
        "nor stepped while upgrading"
    );
    let commit = |epoch| moved("r1", epoch, 14);
    assert!(lost_claim(only(
        store.commit_upgrades(&[commit(u.epoch - 1)])
    )));
    let synced = store.synced_commits();
    only(store.commit_upgrades(&[commit(u.epoch)])).unwrap();
    assert_eq!(
        store.synced_commits(),
        synced + 1,
        "the upgrade is one flush"
    );
    let run = store.run("r1").unwrap().unwrap();
    assert_eq!(
        (run.version.as_str(), run.state.as_str(), run.steps),
        ("2.0.0", r#"{"v":2}"#, 1)
    );
    let cps = store.checkpoints("r1").unwrap();
    assert_eq!(
        (cps[0].wake.clone(), cps[0].upgraded_from.as_deref()),
        (None, Some("1.0.0"))
    );
    assert!(
        matches!(claim(&mut store, 15).unwrap().1, Wake::Start { .. }),
        "the start wake is still there"
    );
}

#[test]
fn a_group_of_upgrades_is_one_flush_and_a_lost_claim_is_left_out_alone() {
    let (_db, mut store) = setup("upgrade-group");
    for (run, at) in [("r2", 2), ("r3", 3)] {
        store.create_run(&new_run(run, at)).unwrap();
    }
    let claims: Vec<Claim> = ["r1", "r2", "r3"]
        .iter()
        .map(|run| {
            store
                .claim_run(run, 10, "upgrader", 1_000)
                .unwrap()
                .unwrap()
        })
        .collect();
    let synced = store.synced_commits();
    let outcomes = store
        .commit_upgrades(&[
            moved("r1", claims[0].epoch, 11),
            // A claim another holder has since replaced.
            moved("r2", claims[1].epoch - 1, 11),
            failed("r3", claims[2].epoch, 11),
        ])
        .unwrap();
    assert_eq!(
        store.synced_commits(),
        synced + 1,
        "one flush for the group"
    );
    assert!(outcomes[0].is_ok() && outcomes[2].is_ok(), "{outcomes:?}");
    assert!(lost_claim(outcomes.into_iter().nth(1).unwrap()));

    let r1 = store.run("r1").unwrap().unwrap();
    assert_eq!(
        (r1.version.as_str(), r1.state.as_str()),
        ("2.0.0", r#"{"v":2}"#)
    );
    assert_eq!(audit_of(&store, "r1").last().unwrap(), "upgrade");
    for run in ["r2", "r3"] {
        let r = store.run(run).unwrap().unwrap();
        assert_eq!(
            (
                r.version.as_str(),
                r.steps,
                store.checkpoints(run).unwrap().len()
            ),
            ("1.0.0", 0, 0),
            "{run} is left as it was"
        );
    }
    assert!(
        !audit_of(&store, "r2")
            .iter()
            .any(|k| k.starts_with("upgrade"))
    );
    assert_eq!(audit_of(&store, "r3").last().unwrap(), "upgrade failed");

    // r1 and r3 were given back; r2 is still held by its claim.
    let mut due = vec![];
    while let Some((c, _)) = claim(&mut store, 12) {
        due.push(c.run.run_id);
    }
    due.sort();
    assert_eq!(due, ["r1", "r3"]);
}

#[test]
fn a_failed_migration_is_audited_even_when_its_claim_was_lost_meanwhile() {
    let (_db, mut store) = setup("upgrade-failed-late");
    let u = store
        .claim_run("r1", 10, "upgrader", 1_000)
        .unwrap()
        .unwrap();
    // The upgrade's claim runs out while it migrates; a worker takes the run.
    let (worker, _) = claim(&mut store, 1_011).expect("the lapsed claim is taken");
    only(store.commit_upgrades(&[failed("r1", u.epoch, 1_012)])).unwrap();
    assert_eq!(audit_of(&store, "r1").last().unwrap(), "upgrade failed");
    assert!(
        claim(&mut store, 1_013).is_none(),
        "the worker's claim is not given back by the upgrade"
    );
    store.release("r1", worker.epoch).unwrap();
    assert_eq!(store.run("r1").unwrap().unwrap().version, "1.0.0");
}
