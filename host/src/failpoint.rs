//! Crash points for the crash tests, compiled only with the `failpoints`
//! feature. `WAKEFUL_FAILPOINT=<point>` kills the process with SIGKILL the
//! first time it reaches that point; `<point>:<key>` only when it reaches it
//! for that idempotency key (or run id, for points not about a tool call).
//! Each point is a boundary where a crash must lose nothing but the step in
//! flight: [`POINTS`] lists them, and the failpoint sweep crashes at each.

/// Every crash point, in the order a step meets them.
pub const POINTS: &[&str] = &[
    // A run was claimed (the claim is committed), nothing else happened.
    "claim",
    // A call that leaves the host: before its intent is durable, after it
    // (nothing sent yet), after it was sent but before its result is
    // recorded, and after the result is durable.
    "before-intent",
    "after-intent",
    "before-result",
    "after-call",
    // The step's checkpoint: about to commit; committed, and the run it
    // ended not yet packed into its archive; committed.
    "before-commit",
    "before-pack",
    "after-commit",
    // An upgrade's checkpoint is about to commit.
    "upgrade",
    // An approval answer is about to be recorded.
    "approval-answer",
    // A schedule tick is about to start its run.
    "schedule-fire",
];

/// Crash points outside a step, which the failpoint sweep does not visit.
pub const OTHER_POINTS: &[&str] = &[
    // A child process compiling a component is about to compile it.
    "compile",
    // An event sent to a topic is offered to every waiting run, with the
    // audit rows of those that took it, and that transaction is about to
    // commit (keyed by the event's id).
    "broadcast",
];

/// Kills the process if `WAKEFUL_FAILPOINT` names this point (and key).
#[cfg(feature = "failpoints")]
pub fn hit(point: &str, key: &str) {
    debug_assert!(
        POINTS.contains(&point) || OTHER_POINTS.contains(&point),
        "unknown failpoint {point}"
    );
    let Ok(wanted) = std::env::var("WAKEFUL_FAILPOINT") else {
        return;
    };
    let matches = match wanted.split_once(':') {
        Some((p, k)) => p == point && k == key,
        None => wanted == point,
    };
    if matches {
        // A power cut simulated here keeps what was flushed before this
        // mark (`power_log`).
        crate::power_log::mark(&format!("failpoint {point}"));
        eprintln!(
            "failpoint {point}:{key}: killing process {}",
            std::process::id()
        );
        // A real SIGKILL: no destructor, no flush, no rollback runs.
        let _ = std::process::Command::new("kill")
            .args(["-KILL", &std::process::id().to_string()])
            .status();
        loop {
            std::thread::sleep(std::time::Duration::from_secs(1));
        }
    }
}

/// Without the `failpoints` feature there are no crash points.
#[cfg(not(feature = "failpoints"))]
#[inline]
pub fn hit(_point: &str, _key: &str) {}

/// Holds the calling thread while the file that `WAKEFUL_HOLD=<point>:<path>`
/// names exists, so that a test can keep a moment that is usually brief
/// (`integrity`: `serve`'s check of the store) going for as long as it
/// needs to look at what happens meanwhile. While it holds, a file of the
/// same name with `.holding` added exists: the test knows the moment is
/// reached, not only that it may be.
#[cfg(feature = "failpoints")]
pub fn hold(point: &str) {
    let Ok(wanted) = std::env::var("WAKEFUL_HOLD") else {
        return;
    };
    if let Some((p, path)) = wanted.split_once(':')
        && p == point
    {
        let holding = format!("{path}.holding");
        if std::path::Path::new(path).exists() {
            let _ = std::fs::write(&holding, "");
        }
        while std::path::Path::new(path).exists() {
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        let _ = std::fs::remove_file(&holding);
    }
}

/// Without the `failpoints` feature nothing is held.
#[cfg(not(feature = "failpoints"))]
#[inline]
pub fn hold(_point: &str) {}
