//! What went wrong in a call into a guest, and the checks a step's result
//! must pass before the host stores it.

use wasmtime::{Trap, WasmBacktrace};
use wasmtime_wasi::I32Exit;

use super::limiter::MemoryLimitExceeded;
use super::{HostFault, Limits};
use crate::model::{Next, StepResult, WaitFor};

/// The longest `status` a step may return.
pub const MAX_STATUS_BYTES: usize = 1024;
/// The longest `done` outcome.
pub const MAX_OUTCOME_BYTES: usize = 16 << 10;
/// The most things one step may wait for.
pub const MAX_WAITS: usize = 16;
/// The longest event topic, cron expression or approval request id.
pub const MAX_NAME_BYTES: usize = 256;
/// The longest approval question.
pub const MAX_QUESTION_BYTES: usize = 4 << 10;
/// The longest approval details (JSON shown to the approver).
pub const MAX_DETAILS_BYTES: usize = 64 << 10;

/// Why a call into a guest (`step`, `info`, `migrate`) did not produce a
/// usable result. Whatever the variant, nothing of the run changes.
///
/// Serialized as `{"kind": "out_of_fuel", "detail": {"limit": 2000000000}}`,
/// `{"kind": "guest_error", "detail": "..."}` or `{"kind": "stack_overflow"}`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, serde::Serialize, serde::Deserialize)]
#[serde(tag = "kind", content = "detail", rename_all = "snake_case")]
pub enum StepFailure {
    /// The guest returned an error of its own.
    #[error("the agent returned an error: {0}")]
    GuestError(String),
    /// The guest used up its fuel (CPU work) for the call.
    #[error("the agent ran out of fuel: it may execute {limit} units per step (an endless loop?)")]
    OutOfFuel { limit: u64 },
    /// The guest tried to use more memory than allowed.
    #[error("the agent hit its memory limit of {limit} bytes")]
    MemoryLimit { limit: usize },
    /// The call did not finish within its wall-clock deadline.
    #[error("the agent did not finish within the step deadline of {limit_ms} ms")]
    Deadline { limit_ms: u64 },
    /// The guest recursed too deeply.
    #[error("the agent overflowed its call stack (runaway recursion?)")]
    StackOverflow,
    /// Any other trap, with wasmtime's description. A guest panic shows as
    /// `unreachable`, with the panic message on stderr in the step's logs.
    #[error("the agent trapped: {0}")]
    Trap(String),
    /// The guest returned something the host refuses to store.
    #[error("the agent returned an invalid result: {0}")]
    InvalidOutput(String),
    /// The host could not serve the guest (a tool call could not be
    /// recorded, a thread could not be started).
    #[error("host fault: {0}")]
    HostFault(String),
}

/// Facts about the call that a trap alone does not tell.
pub(super) struct TrapContext<'a> {
    pub limits: &'a Limits,
    /// The fuel the call was given.
    pub fuel: u64,
    /// The memory limiter refused a grow during the call.
    pub memory_refused: bool,
}

/// Classifies an error from instantiating or calling a guest, by the types
/// in its chain rather than by its message.
pub(super) fn classify(error: &wasmtime::Error, cx: &TrapContext<'_>) -> StepFailure {
    let limits = cx.limits;
    if let Some(fault) = error.downcast_ref::<HostFault>() {
        return StepFailure::HostFault(fault.0.clone());
    }
    if let Some(full) = error.downcast_ref::<wasmtime::PoolConcurrencyLimitError>() {
        return StepFailure::HostFault(format!(
            "no sandbox free for the call ({full}): this host runs at most {} guest calls at \
             once; the step is retried",
            super::engine::POOL_CALLS
        ));
    }
    if error.downcast_ref::<MemoryLimitExceeded>().is_some() {
        return StepFailure::MemoryLimit {
            limit: limits.memory_bytes,
        };
    }
    if let Some(exit) = error.downcast_ref::<I32Exit>() {
        return StepFailure::Trap(format!(
            "the agent called exit({}) instead of returning",
            exit.0
        ));
    }
    match error.downcast_ref::<Trap>() {
        Some(Trap::OutOfFuel) => StepFailure::OutOfFuel { limit: cx.fuel },
        Some(Trap::Interrupt) => StepFailure::Deadline {
            limit_ms: u64::try_from(limits.step_deadline.as_millis()).unwrap_or(u64::MAX),
        },
        Some(Trap::StackOverflow) => StepFailure::StackOverflow,
        // A guest allocator aborts with `unreachable` when the memory it
        // asked for was refused.
        Some(Trap::UnreachableCodeReached) if cx.memory_refused => StepFailure::MemoryLimit {
            limit: limits.memory_bytes,
        },
        Some(Trap::UnreachableCodeReached) => StepFailure::Trap(format!(
            "{} (a panic or abort in the agent: its stderr is in the step's logs)",
            Trap::UnreachableCodeReached,
        )),
        _ => StepFailure::Trap(describe(error)),
    }
}

/// The most lines of a guest's stderr an error message carries.
const STDERR_TAIL_LINES: usize = 12;
/// The most bytes of a guest's stderr an error message carries.
const STDERR_TAIL_BYTES: usize = 2048;
/// The most bytes of one stderr line an error message carries.
const STDERR_LINE_BYTES: usize = 512;

/// What a trapped guest said about it on stderr, to put in its failure
/// instead of the bare trap: a Rust panic as `panic: message (at
/// file:line:col)`, and the last lines written before it (a Python or
/// JavaScript traceback), with their last line (the exception) first.
/// `trap` is the trap's own description, kept when there is no panic.
/// The whole stderr and the backtrace stay in the step's logs.
pub(super) fn trap_message(trap: &str, logs: &[crate::model::LogLine]) -> Option<String> {
    let stderr: Vec<&str> = logs
        .iter()
        .filter(|l| l.source == "stderr" && !l.message.trim().is_empty())
        .map(|l| {
            let line = l.message.trim_end();
            &line[..line.floor_char_boundary(STDERR_LINE_BYTES)]
        })
        .collect();
    let at = stderr.iter().position(|l| l.contains("panicked at "));
    let panic = at.and_then(|at| {
        let location = stderr[at]
            .split("panicked at ")
            .nth(1)?
            .trim_end_matches(':');
        let message = stderr.get(at + 1).copied().unwrap_or("").trim();
        Some(format!("panic: {message} (at {location})"))
    });
    let before = &stderr[..at.unwrap_or(stderr.len())];
    let Some(last) = before.last() else {
        return panic;
    };
    let cause = panic.unwrap_or_else(|| trap.to_owned());
    Some(format!("{} ({cause})\n{}", last.trim(), tail(before)))
}

/// The last lines of `lines`, within the line and byte bounds.
fn tail(lines: &[&str]) -> String {
    let mut kept: Vec<&str> = Vec::new();
    let mut bytes = 0;
    for line in lines.iter().rev().take(STDERR_TAIL_LINES) {
        bytes += line.len() + 1;
        if bytes > STDERR_TAIL_BYTES {
            break;
        }
        kept.push(line);
    }
    kept.reverse();
    let mut text = String::new();
    if kept.len() < lines.len() {
        text.push_str("…\n");
    }
    text.push_str(&kept.join("\n"));
    text
}

/// What went wrong at the bottom of the error: the trap, or the host error
/// that became one. (The layers above it are the backtrace.)
fn describe(error: &wasmtime::Error) -> String {
    error.root_cause().to_string()
}

/// The wasm backtrace of a trap, if there is one.
pub(super) fn backtrace(error: &wasmtime::Error) -> Option<String> {
    error
        .downcast_ref::<WasmBacktrace>()
        .map(|bt| bt.to_string())
}

/// Checks a state before the host stores it: valid JSON, not too large.
pub(super) fn check_state(state: &str, limits: &Limits) -> Result<(), StepFailure> {
    if state.len() > limits.max_state_bytes {
        return Err(StepFailure::InvalidOutput(format!(
            "the state is {} bytes; the limit is {} bytes (keep large data in a tool, not in state)",
            state.len(),
            limits.max_state_bytes
        )));
    }
    serde_json::from_str::<serde::de::IgnoredAny>(state)
        .map(drop)
        .map_err(|e| StepFailure::InvalidOutput(format!("the state is not valid JSON: {e}")))
}

/// Checks a step's result before the host stores it.
pub fn check_step_result(result: &StepResult, limits: &Limits) -> Result<(), StepFailure> {
    let invalid = |message: String| Err(StepFailure::InvalidOutput(message));
    check_state(&result.state, limits)?;
    if let Some(status) = &result.status
        && status.len() > MAX_STATUS_BYTES
    {
        return invalid(format!(
            "the status is {} bytes; the limit is {MAX_STATUS_BYTES} bytes",
            status.len()
        ));
    }
    match &result.next {
        Next::Continue => Ok(()),
        Next::Done { outcome } if outcome.len() > MAX_OUTCOME_BYTES => invalid(format!(
            "the `done` outcome is {} bytes; the limit is {MAX_OUTCOME_BYTES} bytes",
            outcome.len(),
        )),
        Next::Done { .. } => Ok(()),
        Next::Wait { waits } if waits.is_empty() => invalid(
            "`wait` with an empty list would sleep forever; wait for at least one thing or return `done`"
                .into(),
        ),
        Next::Wait { waits } if waits.len() > MAX_WAITS => invalid(format!(
            "the step waits for {} things; the limit is {MAX_WAITS}",
            waits.len()
        )),
        Next::Wait { waits } => waits.iter().try_for_each(check_wait),
    }
}

/// Refuses a text field of a step's output that is longer than `max`.
fn bounded(what: &str, text: &str, max: usize) -> Result<(), StepFailure> {
    if text.len() > max {
        return Err(StepFailure::InvalidOutput(format!(
            "{what} is {} bytes; the limit is {max} bytes",
            text.len()
        )));
    }
    Ok(())
}

fn check_wait(wait: &WaitFor) -> Result<(), StepFailure> {
    let invalid = |message: String| Err(StepFailure::InvalidOutput(message));
    match wait {
        WaitFor::Event { topic } if topic.is_empty() => {
            invalid("an event wait has an empty topic".into())
        }
        WaitFor::Event { topic } => bounded("an event wait's topic", topic, MAX_NAME_BYTES),
        WaitFor::Cron { expr } => bounded("a cron expression", expr, MAX_NAME_BYTES),
        WaitFor::Approval(request) if request.id.is_empty() => {
            invalid("an approval request has an empty id".into())
        }
        WaitFor::Approval(request) => {
            bounded("an approval request's id", &request.id, MAX_NAME_BYTES)?;
            bounded(
                &format!("the question of approval request `{}`", request.id),
                &request.question,
                MAX_QUESTION_BYTES,
            )?;
            bounded(
                &format!("the details of approval request `{}`", request.id),
                &request.details,
                MAX_DETAILS_BYTES,
            )?;
            serde_json::from_str::<serde::de::IgnoredAny>(&request.details)
                .map(drop)
                .map_err(|e| {
                    StepFailure::InvalidOutput(format!(
                        "the details of approval request `{}` are not valid JSON: {e}",
                        request.id
                    ))
                })
        }
        WaitFor::Until { .. } => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ApprovalRequest;

    fn result(state: &str, next: Next) -> StepResult {
        StepResult {
            state: state.into(),
            next,
            status: None,
        }
    }

    #[test]
    fn a_rust_panic_is_read_back_from_stderr() {
        let line = |source: &str, message: &str| crate::model::LogLine {
            level: crate::model::LogLevel::Warn,
            source: source.into(),
            message: message.into(),
        };
        let logs = [
            line("stdout", "panicked at nothing"),
            line(
                "stderr",
                "thread '<unnamed>' (1) panicked at src/lib.rs:5:9:",
            ),
            line("stderr", "boom"),
        ];
        assert_eq!(
            trap_message("unreachable", &logs).as_deref(),
            Some("panic: boom (at src/lib.rs:5:9)")
        );
        assert_eq!(trap_message("unreachable", &logs[..1]), None);
    }

    #[test]
    fn a_traceback_before_the_trap_leads_the_message() {
        let line = |message: &str| crate::model::LogLine {
            level: crate::model::LogLevel::Warn,
            source: "stderr".into(),
            message: message.into(),
        };
        let mut logs = vec![line("Traceback (most recent call last):")];
        for n in 0..20 {
            logs.push(line(&format!("  File \"app.py\", line {n}, in step")));
        }
        logs.push(line("ValueError: no plan"));
        logs.push(line(
            "thread '<unnamed>' panicked at runtime/src/lib.rs:9:5:",
        ));
        logs.push(line("Python function threw an unexpected exception"));
        let message = trap_message("unreachable", &logs).unwrap();
        let lines: Vec<&str> = message.lines().collect();
        assert_eq!(
            lines[0],
            "ValueError: no plan (panic: Python function threw an unexpected exception (at runtime/src/lib.rs:9:5))"
        );
        assert_eq!(lines[1], "…");
        assert_eq!(lines.len(), 2 + STDERR_TAIL_LINES, "{message}");
        assert_eq!(lines.last(), Some(&"ValueError: no plan"));

        // No panic: the trap's own description stays.
        let message = trap_message("wasm trap: unreachable", &logs[19..22]).unwrap();
        assert!(
            message.starts_with("ValueError: no plan (wasm trap: unreachable)\n"),
            "{message}"
        );
    }

    #[test]
    fn results_are_checked() {
        let limits = Limits {
            max_state_bytes: 16,
            ..Limits::default()
        };
        let ok = |r: &StepResult| check_step_result(r, &limits);
        assert_eq!(ok(&result("{}", Next::Continue)), Ok(()));
        assert!(ok(&result("{", Next::Continue)).is_err());
        assert!(ok(&result("[1,2,3,4,5,6,7,8,9]", Next::Continue)).is_err());
        assert!(ok(&result("{}", Next::Wait { waits: vec![] })).is_err());
        let mut long_status = result("{}", Next::Continue);
        long_status.status = Some("x".repeat(MAX_STATUS_BYTES + 1));
        assert!(ok(&long_status).is_err());
        let approval = |details: &str| {
            result(
                "{}",
                Next::Wait {
                    waits: vec![WaitFor::Approval(ApprovalRequest {
                        id: "a1".into(),
                        question: "ok?".into(),
                        details: details.into(),
                        valid_for_ms: 1000,
                    })],
                },
            )
        };
        assert_eq!(ok(&approval("{\"plan\":1}")), Ok(()));
        assert!(ok(&approval("plan")).is_err());
    }

    #[test]
    fn failures_serialize_with_their_kind() {
        let json = |f: StepFailure| serde_json::to_string(&f).unwrap();
        assert_eq!(
            json(StepFailure::OutOfFuel { limit: 5 }),
            r#"{"kind":"out_of_fuel","detail":{"limit":5}}"#
        );
        assert_eq!(
            json(StepFailure::GuestError("no".into())),
            r#"{"kind":"guest_error","detail":"no"}"#
        );
        assert_eq!(
            json(StepFailure::StackOverflow),
            r#"{"kind":"stack_overflow"}"#
        );
        let back: StepFailure =
            serde_json::from_str(r#"{"kind":"deadline","detail":{"limit_ms":10}}"#).unwrap();
        assert_eq!(back, StepFailure::Deadline { limit_ms: 10 });
    }

    #[test]
    fn traps_are_classified_by_type() {
        let limits = Limits::default();
        let cx = |memory_refused| TrapContext {
            limits: &limits,
            fuel: limits.fuel_per_step,
            memory_refused,
        };
        let trap = |t: Trap| wasmtime::Error::new(t).context("error while executing");
        assert_eq!(
            classify(&trap(Trap::OutOfFuel), &cx(false)),
            StepFailure::OutOfFuel {
                limit: limits.fuel_per_step
            }
        );
        assert_eq!(
            classify(&trap(Trap::Interrupt), &cx(false)),
            StepFailure::Deadline { limit_ms: 10_000 }
        );
        assert_eq!(
            classify(&trap(Trap::StackOverflow), &cx(false)),
            StepFailure::StackOverflow
        );
        assert!(matches!(
            classify(&trap(Trap::UnreachableCodeReached), &cx(false)),
            StepFailure::Trap(_)
        ));
        assert!(matches!(
            classify(&trap(Trap::UnreachableCodeReached), &cx(true)),
            StepFailure::MemoryLimit { .. }
        ));
        let fault = wasmtime::Error::new(HostFault("disk full".into()));
        assert_eq!(
            classify(&fault, &cx(false)),
            StepFailure::HostFault("disk full".into())
        );
    }
}
