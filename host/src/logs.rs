//! `serve`'s log: `tracing` events on standard error, as text or as one JSON
//! object a line, filtered by `WAKEFUL_LOG` (`RUST_LOG` syntax, default
//! `info`). Every event about a run carries `run`, `step`, `agent` and
//! `version`, so that one run's story is one filter away.
//!
//! No event carries a secret: the API token, answer-link and callback
//! tokens (paths are redacted, see [`crate::server::logging`]), tool
//! credentials or request bodies; and every line goes through the
//! redaction of [`crate::secrets`] on its way out.

use crate::worker::{StepEnd, Stepped};

/// The environment variable holding the filter.
pub const FILTER_ENV: &str = "WAKEFUL_LOG";

/// How log lines are written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    /// `<time> <LEVEL> <target>: <message> key=value…`, for people.
    #[default]
    Text,
    /// One JSON object a line, the fields at its top level, for machines.
    Json,
}

/// Installs the process's subscriber. Fails on a filter that does not
/// parse, naming it, rather than logging less than the operator asked for.
pub fn init(format: LogFormat) -> Result<(), String> {
    use tracing_subscriber::EnvFilter;
    let filter = match std::env::var(FILTER_ENV) {
        Ok(text) => EnvFilter::builder().parse(&text).map_err(|e| {
            format!(
                "{FILTER_ENV}={text:?} is not a log filter ({e}); try `info` or `wakeful=debug`"
            )
        })?,
        Err(_) => EnvFilter::new("info"),
    };
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(|| Redacted(std::io::stderr()))
        // `worker-N` says which worker took a step.
        .with_thread_names(true);
    let installed = match format {
        LogFormat::Text => builder.try_init(),
        LogFormat::Json => builder
            .json()
            .flatten_event(true)
            .with_current_span(false)
            .with_span_list(false)
            .try_init(),
    };
    installed.map_err(|e| format!("cannot install the logger: {e}"))?;
    log_panics();
    Ok(())
}

/// Standard error with every secret redacted ([`crate::secrets::redact`]):
/// an event is formatted whole, then written in one call, so a secret is
/// never split across two writes.
struct Redacted(std::io::Stderr);

impl std::io::Write for Redacted {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let text = String::from_utf8_lossy(buf);
        self.0.write_all(crate::secrets::redact(&text).as_bytes())?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()
    }
}

/// A panicking worker thread is logged as an event like any other, so that
/// a JSON log stays JSON; the default hook would print free text.
fn log_panics() {
    std::panic::set_hook(Box::new(|info| {
        let thread = std::thread::current();
        let payload = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_default();
        tracing::error!(
            thread = thread.name().unwrap_or("?"),
            location = info.location().map(|l| l.to_string()),
            panic = payload,
            "a thread panicked"
        );
    }));
}

/// The fields every event about a step carries, then its own; under the
/// worker's target, so that `WAKEFUL_LOG=wakeful::worker=warn` keeps the
/// steps that need looking at.
macro_rules! step_event {
    ($level:ident, $s:expr, $result:literal, $($rest:tt)*) => {
        tracing::$level!(
            target: "wakeful::worker",
            run = %$s.run_id,
            step = $s.step,
            agent = %$s.agent,
            version = %$s.version,
            wake = $s.wake.as_str(),
            result = %$result,
            $($rest)*
        )
    };
}

/// The one event for a step a worker ended: info when it went as planned,
/// warn when the run needs looking at (failed, parked, held).
pub fn step(s: &Stepped) {
    match &s.what {
        StepEnd::Committed {
            next,
            status,
            fuel,
            wall_ms,
            ..
        } => step_event!(
            info,
            s,
            "committed",
            next = next.as_str(),
            status = status.as_deref(),
            fuel,
            wall_ms,
            "step committed"
        ),
        StepEnd::Failed {
            error,
            retry_at,
            fuel,
        } => step_event!(
            warn,
            s,
            "failed",
            error = error.as_str(),
            retry_at = retry_at.as_str(),
            fuel,
            "step failed; retried later"
        ),
        StepEnd::Parked { reason } => step_event!(
            warn,
            s,
            "parked",
            error = reason.as_str(),
            "run parked; it waits for an operator"
        ),
        StepEnd::LostClaim => step_event!(
            info,
            s,
            "lost_claim",
            "step discarded: another worker took the run over"
        ),
        StepEnd::Held { switch, reason } => step_event!(
            warn,
            s,
            "held",
            switch = switch.as_str(),
            reason = reason.as_deref(),
            "step held by a kill switch; retried when it lifts"
        ),
    }
}
