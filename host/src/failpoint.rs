//! Crash points for the crash tests, compiled only with the `failpoints`
//! feature: `WAKEFUL_FAILPOINT=after-call:<idempotency-key>` kills the
//! process with SIGKILL right after that tool call's result is durable and
//! before the step's checkpoint — the moment where a side effect has
//! happened but the run does not know it yet.

/// Kills the process if the failpoint names this call.
#[cfg(feature = "failpoints")]
pub fn after_call(idempotency_key: &str) {
    let Ok(point) = std::env::var("WAKEFUL_FAILPOINT") else {
        return;
    };
    if point.strip_prefix("after-call:") == Some(idempotency_key) {
        eprintln!("failpoint {point}: killing process {}", std::process::id());
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
pub fn after_call(_idempotency_key: &str) {}
