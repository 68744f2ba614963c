//! Checkpoint states stored as edits of the one before (`delta.rs`): the
//! history gives back every state exactly as its step wrote it, takes less
//! room than whole states, survives its oldest checkpoints being trimmed,
//! and names a damaged edit as damage.

use super::*;

/// A state that grows by one fact a step, with text outside ASCII.
fn state(step: u64) -> String {
    let facts: Vec<String> = (1..=step)
        .map(|i| format!("fact {i}: la mémoire du service est à 97 %"))
        .collect();
    json!({"phase": format!("step-{step}"), "facts": facts, "owner": "équipe on-call"}).to_string()
}

/// Commits `steps` steps of `r1`, each writing [`state`], keeping `keep`
/// checkpoints; returns the states written.
fn step_through(store: &mut SqlStore, steps: u64, keep: Option<u64>) -> Vec<String> {
    (1..=steps)
        .map(|i| {
            let (c, wake) = claim(store, i * 10).expect("a due run");
            let mut commit = step(&c, wake, Next::Continue, vec![], i * 10);
            commit.state = state(i);
            commit.keep_checkpoints = keep;
            // As a worker does: the edit can be prepared before the lock.
            commit.state_before = Some(c.run.state.clone());
            store.commit_step(&commit).unwrap();
            commit.state
        })
        .collect()
}

fn states(store: &SqlStore) -> Vec<(u64, String)> {
    let checkpoints = store.checkpoints("r1").unwrap();
    checkpoints.into_iter().map(|c| (c.seq, c.state)).collect()
}

/// Bytes of the `state` column of `r1`'s checkpoints as stored.
fn stored_bytes(store: &SqlStore) -> i64 {
    store
        .conn
        .query_row(
            "SELECT SUM(LENGTH(state)) FROM checkpoints WHERE run_id = ?1",
            ["r1"],
            |row| row.get(0),
        )
        .unwrap()
}

#[test]
fn history_gives_back_every_state_as_its_step_wrote_it_in_less_room() {
    let (_db, mut store) = setup("history-edits");
    let written = step_through(&mut store, 8, None);
    let read = states(&store);
    assert_eq!(
        read.iter().map(|(_, s)| s).collect::<Vec<_>>(),
        written.iter().collect::<Vec<_>>()
    );
    let whole: usize = written.iter().map(String::len).sum();
    let stored = stored_bytes(&store) as usize;
    assert!(
        stored * 2 < whole,
        "{stored} bytes stored for {whole} bytes of states"
    );
    // The run's current state stays whole, and is the last checkpoint's.
    let run = store.run("r1").unwrap().unwrap();
    assert_eq!(run.state, written[7]);
}

#[test]
fn an_edit_prepared_from_a_state_the_run_no_longer_has_is_not_stored() {
    let (_db, mut store) = setup("history-stale-base");
    let mut written = step_through(&mut store, 3, None);
    // The caller thinks the run is at step 1's state; it is at step 3's.
    // An edit of step 1's state would read back as something else.
    let (c, wake) = claim(&mut store, 40).expect("a due run");
    let mut commit = step(&c, wake, Next::Continue, vec![], 40);
    commit.state = state(4);
    commit.state_before = Some(written[0].clone());
    store.commit_step(&commit).unwrap();
    written.push(commit.state);
    let read: Vec<String> = states(&store).into_iter().map(|(_, s)| s).collect();
    assert_eq!(read, written);
}

#[test]
fn a_history_bounded_after_edits_were_written_keeps_its_oldest_state_whole() {
    let (_db, mut store) = setup("history-trim");
    let mut written = step_through(&mut store, 5, None);
    // Bounded from step 6 on: checkpoints 1 to 4 go, and 5 (an edit of 4)
    // must be written whole first.
    let (c, wake) = claim(&mut store, 60).expect("a due run");
    let mut commit = step(&c, wake, Next::Continue, vec![], 60);
    commit.state = state(6);
    commit.keep_checkpoints = Some(2);
    store.commit_step(&commit).unwrap();
    written.push(commit.state);
    assert_eq!(
        states(&store),
        vec![(5, written[4].clone()), (6, written[5].clone())]
    );
}

#[test]
fn an_edit_that_no_longer_fits_is_named_as_damage() {
    let (_db, mut store) = setup("history-damage");
    step_through(&mut store, 3, None);
    store
        .conn
        .prepare_cached("UPDATE checkpoints SET state = ?2 WHERE run_id = 'r1' AND seq = ?1")
        .and_then(|mut stmt| stmt.execute(crate::store::sql::db::params![2, "[0, 99999]"]))
        .unwrap();
    let err = store.checkpoints("r1").unwrap_err().to_string();
    assert!(
        err.contains("checkpoint 2 of run r1") && err.contains("backup"),
        "{err}"
    );
}

#[test]
fn an_edit_that_would_rebuild_a_state_past_its_bound_is_refused_by_name() {
    let (_db, mut store) = setup("history-bomb");
    let written = step_through(&mut store, 3, None);
    // An edit copies ranges of the state before it: 4,096 copies of
    // checkpoint 1's whole state, in 40 KB. Edits built on edits multiply
    // again at each checkpoint; the host never stores an edit of a state
    // over 64 KiB.
    let copy = format!("0,{}", written[0].len());
    let edit = format!("[{}]", vec![copy; 4096].join(","));
    store
        .conn
        .prepare_cached(
            "UPDATE checkpoints SET state = ?2, state_is_edit = 1 WHERE run_id = 'r1' AND seq = ?1",
        )
        .and_then(|mut stmt| stmt.execute(crate::store::sql::db::params![2, edit]))
        .unwrap();
    let err = store.checkpoints("r1").unwrap_err().to_string();
    assert!(
        err.contains("checkpoint 2 of run r1") && err.contains("more than 64 KiB"),
        "{err}"
    );
    // The run itself, its current state whole, reads as before.
    assert_eq!(store.run("r1").unwrap().unwrap().state, written[2]);
}
