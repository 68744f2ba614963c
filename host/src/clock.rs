//! Time, behind a trait so that timers, cron and expiry can be tested without
//! sleeping.

use crate::model::Millis;

/// A source of the current time.
pub trait Clock: Send + Sync {
    fn now(&self) -> Millis;
}

/// The machine's wall clock.
#[derive(Clone, Copy, Debug, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> Millis {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_millis() as Millis)
            .unwrap_or(0)
    }
}

/// Formats a time as RFC 3339 UTC with seconds, e.g. `2026-11-30T09:00:00Z`.
pub fn rfc3339(ms: Millis) -> String {
    chrono::DateTime::from_timestamp_millis(ms as i64)
        .map(|t| t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true))
        .unwrap_or_else(|| format!("{ms}ms"))
}
