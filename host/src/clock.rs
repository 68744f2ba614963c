//! Time, behind a trait so that timers, cron and expiry can be tested without
//! sleeping.

use crate::model::Millis;

/// A source of the current time.
pub trait Clock: Send + Sync {
    fn now(&self) -> Millis;
}

/// The machine's wall clock (moved forward by the test hook below, in
/// builds with the `failpoints` feature).
#[derive(Clone, Copy, Debug, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> Millis {
        let wall = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_millis() as Millis)
            .unwrap_or(0);
        wall.saturating_add(test_offset::ms())
    }
}

/// A test-only shift of the wall clock, compiled only with the `failpoints`
/// feature: `WAKEFUL_TEST_CLOCK_FILE=<path>` names a file holding a number
/// of milliseconds added to [`SystemClock::now`] (missing or empty: 0). The
/// file is read again at most every [`test_offset::REREAD`], so a test moves
/// a running `serve` forward in time by writing it, without sleeping.
#[cfg(feature = "failpoints")]
pub mod test_offset {
    use std::sync::Mutex;
    use std::time::{Duration, Instant};

    /// The variable naming the offset file.
    pub const VAR: &str = "WAKEFUL_TEST_CLOCK_FILE";
    /// How stale the offset may be.
    pub const REREAD: Duration = Duration::from_millis(50);

    /// The last offset read, and when: every clock in the process shares it.
    static CACHE: Mutex<Option<(Instant, u64)>> = Mutex::new(None);

    /// The current offset in milliseconds.
    pub fn ms() -> u64 {
        let Some(path) = std::env::var_os(VAR) else {
            return 0;
        };
        let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((read_at, offset)) = *cache
            && read_at.elapsed() < REREAD
        {
            return offset;
        }
        let offset = read(&path);
        *cache = Some((Instant::now(), offset));
        offset
    }

    /// A file that cannot be read or parsed counts as 0: the clock never
    /// fails, and a test writing the file non-atomically is read again soon.
    fn read(path: &std::ffi::OsStr) -> u64 {
        std::fs::read_to_string(path)
            .ok()
            .and_then(|text| text.trim().parse().ok())
            .unwrap_or(0)
    }
}

/// Without the `failpoints` feature the wall clock is never shifted.
#[cfg(not(feature = "failpoints"))]
mod test_offset {
    #[inline]
    pub fn ms() -> u64 {
        0
    }
}

/// Formats a time as RFC 3339 UTC with seconds, e.g. `2026-11-30T09:00:00Z`.
pub fn rfc3339(ms: Millis) -> String {
    chrono::DateTime::from_timestamp_millis(ms as i64)
        .map(|t| t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true))
        .unwrap_or_else(|| format!("{ms}ms"))
}
