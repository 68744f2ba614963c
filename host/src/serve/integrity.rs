//! The store's integrity check, run beside `serve`'s start rather than
//! before it: reading every page of a large SQLite file takes seconds (2.4 s
//! for a million sleeping runs), during which the API can already answer.
//! No worker steps a run before the check has passed, and a damaged store
//! stops `serve` with the damage named, as a check before listening did.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex, PoisonError};
use std::time::Duration;

/// How often a worker waiting for the verdict looks whether `serve` is
/// stopping.
const STOP_CHECK: Duration = Duration::from_millis(100);

/// The check's verdict, once there is one.
#[derive(Default)]
pub(super) struct Integrity {
    verdict: Mutex<Option<Result<(), String>>>,
    known: Condvar,
}

impl Integrity {
    pub(super) fn set(&self, verdict: Result<(), String>) {
        *self.lock() = Some(verdict);
        self.known.notify_all();
    }

    /// Waits for the verdict: whether the store passed.
    pub(super) fn passed(&self) -> bool {
        let mut verdict = self.lock();
        loop {
            if let Some(v) = verdict.as_ref() {
                return v.is_ok();
            }
            verdict = self
                .known
                .wait(verdict)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }

    /// Like [`passed`](Self::passed), but gives up (false) once `stop` is
    /// set, so that a worker does not hold up a shutdown during the check.
    pub(super) fn passed_unless(&self, stop: &AtomicBool) -> bool {
        let mut verdict = self.lock();
        loop {
            if let Some(v) = verdict.as_ref() {
                return v.is_ok();
            }
            if stop.load(Ordering::SeqCst) {
                return false;
            }
            verdict = self
                .known
                .wait_timeout(verdict, STOP_CHECK)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
    }

    /// The check's failure, if it failed.
    pub(super) fn failure(&self) -> Option<String> {
        self.lock().as_ref().and_then(|v| v.as_ref().err().cloned())
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Option<Result<(), String>>> {
        self.verdict.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn waiters_hear_the_verdict_once_it_is_set() {
        let integrity = Arc::new(Integrity::default());
        let waiter = {
            let integrity = Arc::clone(&integrity);
            std::thread::spawn(move || integrity.passed())
        };
        integrity.set(Err("page 7 is damaged".into()));
        assert!(!waiter.join().unwrap());
        assert_eq!(integrity.failure().as_deref(), Some("page 7 is damaged"));
    }

    #[test]
    fn a_stop_ends_the_wait_without_a_verdict() {
        let integrity = Integrity::default();
        let stop = AtomicBool::new(true);
        assert!(!integrity.passed_unless(&stop));
        integrity.set(Ok(()));
        assert!(integrity.passed_unless(&stop));
        assert_eq!(integrity.failure(), None);
    }
}
