//! Group commit through the real binary: runs due together are stepped by
//! one worker pass and committed in one transaction, and a run whose step
//! fails in the middle of the group (a panic, an error, a state over the
//! limit, memory exhausted) neither keeps the others from committing nor
//! commits anything of its own.

use serde_json::json;

use crate::harness::Env;

const LIMITS: &str = "[limits]\nmax_attempts = 1\nmemory_mib = 32\nsteps_per_commit = 16\n";

#[test]
fn failing_steps_in_a_group_leave_the_others_committed_and_write_nothing() {
    let env = Env::new("group-commit", LIMITS);
    env.deploy("hostile", &["kv"]);
    let bad = ["panic", "error", "bigstate", "membomb"];
    let mut runs = Vec::new();
    // Good and failing runs interleaved, all due at once: one group.
    for i in 0..12 {
        let mode = if i % 3 == 1 { bad[i / 3] } else { "clock" };
        let run = format!("g-{i}-{mode}");
        env.start("hostile", &run, json!({"mode": mode}));
        runs.push((run, mode));
    }
    env.work();
    for (run, mode) in &runs {
        let show = env.show(run);
        if *mode == "clock" {
            assert_eq!(show["status"], "done", "{show}");
            assert_eq!(show["steps"], 1, "{show}");
            assert_eq!(env.checkpoint_seqs(run), [1], "{run}");
            assert!(
                show["state"]["now"].is_number(),
                "the step's state was kept: {show}"
            );
        } else {
            assert_eq!(show["status"], "parked", "{mode}: {show}");
            assert_eq!(show["steps"], 0, "{mode}: {show}");
            assert!(
                env.checkpoint_seqs(run).is_empty(),
                "{mode}: a failed step writes no checkpoint"
            );
            assert!(
                show["last_error"].as_str().is_some_and(|e| !e.is_empty()),
                "{mode}: {show}"
            );
        }
    }
}
