//! What the host tells the guest about the step it runs.

use crate::bindings::wakeful::agent::host as wit;

/// The step's logical time (ms since the Unix epoch, UTC), the same for the
/// whole step.
pub fn now() -> u64 {
    wit::now()
}

/// The id of the run being stepped.
pub fn run_id() -> String {
    wit::run_id()
}

/// Lines in the run's log, which operators read with its history. The log is
/// bounded: excess lines are dropped.
pub mod log {
    use super::wit::{Level, log};

    /// Logs a detail useful when debugging the agent.
    pub fn debug(message: impl AsRef<str>) {
        log(Level::Debug, message.as_ref());
    }

    /// Logs what the agent decided or did.
    pub fn info(message: impl AsRef<str>) {
        log(Level::Info, message.as_ref());
    }

    /// Logs something unexpected that the agent handled.
    pub fn warn(message: impl AsRef<str>) {
        log(Level::Warn, message.as_ref());
    }

    /// Logs a failure.
    pub fn error(message: impl AsRef<str>) {
        log(Level::Error, message.as_ref());
    }
}
