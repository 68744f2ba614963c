//! The hosts sharing a store: the lock that proves each alive, held by one
//! holder at a time and free once it is gone, and taking over the claims
//! of a host that is gone.

use super::*;
use crate::store::sql::host_locks::HostLocks;

impl TempDb {
    /// The locks of this test's store, as a new process would open them.
    fn host_locks(&self) -> HostLocks {
        std::fs::create_dir_all(self.dir.join("data")).unwrap();
        let url = match &self.postgres {
            Some((url, _)) => url.clone(),
            None => format!("sqlite:{}", self.path().display()),
        };
        HostLocks::open(Some(&url), &self.dir).unwrap()
    }
}

#[test]
fn a_host_id_has_one_holder_and_is_free_once_it_is_gone() {
    let db = TempDb::new("host-locks");
    let _store = db.open();
    let mut first = db.host_locks();
    assert!(first.take("box:h1").unwrap());
    let mut second = db.host_locks();
    assert!(!second.take("box:h1").unwrap(), "two holders of one id");
    let gone = |locks: &mut HostLocks, id: &str| locks.while_gone(id, || Ok(())).unwrap();
    assert_eq!(gone(&mut second, "box:h1"), None, "its holder lives");
    // While one looks at a gone host's id, nobody can take it.
    let mut third = db.host_locks();
    drop(first);
    let seen = second.while_gone("box:h1", || Ok(third.take("box:h1").unwrap()));
    assert_eq!(seen.unwrap(), Some(false));
    assert!(
        second.take("box:h1").unwrap(),
        "free once its holder is gone"
    );
    assert_eq!(gone(&mut third, "box:h1"), None);
}

#[test]
fn taking_over_a_gone_hosts_claims_ends_its_own_only_with_a_row_on_each() {
    let (_db, mut store) = setup("host-takeover");
    store.create_run(&new_run("r2", 2)).unwrap();
    let (c1, _) = store.claim(10, "box:h1:worker-0", 60_000).unwrap().unwrap();
    let (c2, _) = store
        .claim(10, "box:h10:worker-0", 60_000)
        .unwrap()
        .unwrap();
    assert_eq!(
        (c1.run.run_id.as_str(), c2.run.run_id.as_str()),
        ("r1", "r2")
    );
    let runs = store
        .release_claims_of("box:h1", "box:h2", "its process is gone", 20)
        .unwrap();
    assert_eq!(runs, ["r1"]);
    assert!(store.live_claim("r1", 20).unwrap().is_none());
    let held = store
        .live_claim("r2", 20)
        .unwrap()
        .expect("r2 stays claimed");
    assert_eq!(held.owner, "box:h10:worker-0");
    // The claim taken over is void; the run is claimable at once.
    assert!(lost_claim(store.release("r1", c1.epoch)));
    let (again, _) = claim(&mut store, 22).expect("r1 is claimable");
    assert_eq!(again.run.run_id, "r1");
    let rows = store.audit(Some("r1")).unwrap();
    let row = rows.iter().find(|r| r.kind == "takeover").expect("a row");
    assert_eq!(row.data["from"], "box:h1");
    assert_eq!(row.data["by"], "box:h2");
    assert_eq!(claim_owners(&store), ["box:h10:worker-0", "worker-1"]);
}

fn claim_owners(store: &SqlStore) -> Vec<String> {
    let mut owners = store.claim_owners(30).unwrap();
    owners.sort();
    owners
}
