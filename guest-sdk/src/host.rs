//! What the host tells the guest about the step it runs. Outside WebAssembly
//! these answer from the fake host of the `testing` module.

#[cfg(target_arch = "wasm32")]
use crate::bindings::wakeful::agent::host as wit;

/// The step's logical time (ms since the Unix epoch, UTC), the same for the
/// whole step.
pub fn now() -> u64 {
    #[cfg(target_arch = "wasm32")]
    return wit::now();
    #[cfg(not(target_arch = "wasm32"))]
    return crate::testing::now();
}

/// The id of the run being stepped.
pub fn run_id() -> String {
    #[cfg(target_arch = "wasm32")]
    return wit::run_id();
    #[cfg(not(target_arch = "wasm32"))]
    return crate::testing::run_id();
}

/// Lines in the run's log, which operators read with its history. The log is
/// bounded: excess lines are dropped.
pub mod log {
    /// Logs a detail useful when debugging the agent.
    pub fn debug(message: impl AsRef<str>) {
        emit(Level::Debug, message.as_ref());
    }

    /// Logs what the agent decided or did.
    pub fn info(message: impl AsRef<str>) {
        emit(Level::Info, message.as_ref());
    }

    /// Logs something unexpected that the agent handled.
    pub fn warn(message: impl AsRef<str>) {
        emit(Level::Warn, message.as_ref());
    }

    /// Logs a failure.
    pub fn error(message: impl AsRef<str>) {
        emit(Level::Error, message.as_ref());
    }

    use crate::bindings::wakeful::agent::host::Level;

    fn emit(level: Level, message: &str) {
        #[cfg(target_arch = "wasm32")]
        crate::bindings::wakeful::agent::host::log(level, message);
        #[cfg(not(target_arch = "wasm32"))]
        crate::testing::log(
            match level {
                Level::Debug => "debug",
                Level::Info => "info",
                Level::Warn => "warn",
                Level::Error => "error",
            },
            message,
        );
    }
}
