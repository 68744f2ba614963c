//! Schedules: saving, listing what is due, and advancing a tick once.

use super::*;
use crate::store::{Overlap, PutSchedule, Schedule};

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
    store.put_schedule(&schedule("later", 500), false).unwrap();
    store.put_schedule(&schedule("soon", 100), false).unwrap();
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

#[test]
fn an_existing_schedule_is_replaced_whole_only_when_asked() {
    let (_db, mut store) = setup("schedule-replace");
    store.put_schedule(&schedule("daily", 100), false).unwrap();
    store
        .advance_schedule("daily", 100, 200, Some("daily-1"))
        .unwrap();
    let other = Schedule {
        input: "{\"n\":2}".into(),
        cron: "0 10 * * *".into(),
        ..schedule("daily", 300)
    };
    match store.put_schedule(&other, false).unwrap() {
        PutSchedule::Exists(s) => {
            assert_eq!((s.cron.as_str(), s.input.as_str()), ("0 9 * * *", "null"))
        }
        other => panic!("expected Exists, got {other:?}"),
    }
    assert_eq!(
        store.schedules().unwrap()[0].input,
        "null",
        "nothing changed"
    );
    match store.put_schedule(&other, true).unwrap() {
        PutSchedule::Replaced(old) => assert_eq!(old.cron, "0 9 * * *"),
        other => panic!("expected Replaced, got {other:?}"),
    }
    let now = &store.schedules().unwrap()[0];
    assert_eq!(
        (now.cron.as_str(), now.input.as_str()),
        ("0 10 * * *", "{\"n\":2}")
    );
    assert_eq!(
        now.last_run_id.as_deref(),
        Some("daily-1"),
        "the last run is kept"
    );
    assert!(matches!(
        store.put_schedule(&schedule("new", 1), true).unwrap(),
        PutSchedule::Added
    ));
}
