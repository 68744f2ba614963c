//! Schedules: saving, listing what is due, and advancing a tick once.

use super::*;
use crate::store::{Overlap, Schedule};

fn schedule(id: &str, next_at: Millis) -> Schedule {
    Schedule {
        id: id.into(),
        agent: "mail".into(),
        cron: "0 9 * * *".into(),
        input: "null".into(),
        overlap: Overlap::Skip,
        next_at,
        last_run_id: None,
        created_at: 1,
    }
}

#[test]
fn a_tick_is_advanced_once_even_when_two_workers_fire_it() {
    let (_db, mut store) = setup("schedules");
    store.put_schedule(&schedule("later", 500)).unwrap();
    store.put_schedule(&schedule("soon", 100)).unwrap();
    let due: Vec<String> = store
        .due_schedules(200)
        .unwrap()
        .into_iter()
        .map(|s| s.id)
        .collect();
    assert_eq!(due, ["soon"]);
    assert!(
        store
            .advance_schedule("soon", 100, 1_000, Some("soon-1"))
            .unwrap()
    );
    assert!(
        !store
            .advance_schedule("soon", 100, 1_000, Some("soon-1"))
            .unwrap(),
        "the second worker finds the tick already moved"
    );
    let all = store.schedules().unwrap();
    assert_eq!(
        all.iter().map(|s| s.id.as_str()).collect::<Vec<_>>(),
        ["later", "soon"]
    );
    assert_eq!(all[1].last_run_id.as_deref(), Some("soon-1"));
    assert!(store.remove_schedule("soon").unwrap());
    assert!(!store.remove_schedule("soon").unwrap());
    assert!(!store.advance_schedule("soon", 1_000, 2_000, None).unwrap());
}
