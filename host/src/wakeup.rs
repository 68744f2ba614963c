//! Waking a process's idle workers at once when its API takes something
//! that may give a run a wake.
//!
//! A start, an event, an answer or a resume wakes them instead of letting
//! them sleep out their re-check interval. Workers still look on that
//! interval: a wake from elsewhere (another process writing the same store)
//! or a missed signal is late by at most that much, never lost.

use std::sync::{Condvar, Mutex};
use std::time::Duration;

/// A counter of signals, and the idle workers waiting for it to move.
#[derive(Debug, Default)]
pub struct Wakeup {
    generation: Mutex<u64>,
    moved: Condvar,
}

impl Wakeup {
    /// Wakes every idle worker.
    pub fn notify(&self) {
        let mut generation = self.generation.lock().unwrap_or_else(|e| e.into_inner());
        *generation = generation.wrapping_add(1);
        self.moved.notify_all();
    }

    /// The signal count now: read it before looking for work, then wait
    /// with it, so that a signal sent in between is not missed.
    pub fn generation(&self) -> u64 {
        *self.generation.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Waits until a signal after `seen`, or `timeout`; whether a signal
    /// came.
    pub fn wait(&self, seen: u64, timeout: Duration) -> bool {
        let generation = self.generation.lock().unwrap_or_else(|e| e.into_inner());
        let (generation, _) = self
            .moved
            .wait_timeout_while(generation, timeout, |g| *g == seen)
            .unwrap_or_else(|e| e.into_inner());
        *generation != seen
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn a_signal_sent_between_looking_and_waiting_is_not_missed() {
        let w = Wakeup::default();
        let seen = w.generation();
        w.notify();
        // Returns at once: the signal came after `seen`.
        let start = std::time::Instant::now();
        assert!(
            w.wait(seen, Duration::from_secs(600)),
            "not told of the signal"
        );
        assert!(start.elapsed() < Duration::from_secs(600));
        assert!(
            !w.wait(w.generation(), Duration::from_millis(1)),
            "a wait that timed out told of a signal"
        );

        let w = Arc::new(Wakeup::default());
        let seen = w.generation();
        let waker = w.clone();
        let t = std::thread::spawn(move || waker.notify());
        w.wait(seen, Duration::from_secs(600));
        t.join().unwrap();
        assert_eq!(w.generation(), seen + 1);
    }
}
