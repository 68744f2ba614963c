//! The step counts of this process's workers, kept in the shared state
//! for `GET /metrics`.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::worker::{PassTimes, StepEnd};

/// Steps taken by this process's workers since it started, and where
/// their passes spent their time.
#[derive(Debug, Default)]
pub struct Counters {
    pub committed: AtomicU64,
    pub failed: AtomicU64,
    pub parked: AtomicU64,
    pub lost_claim: AtomicU64,
    pub held: AtomicU64,
    /// Nanoseconds of the workers' passes: claiming, stepping, committing
    /// ([`PassTimes`]).
    pub claim_ns: AtomicU64,
    pub step_ns: AtomicU64,
    pub commit_ns: AtomicU64,
}

impl Counters {
    pub fn record(&self, end: &StepEnd) {
        let counter = match end {
            StepEnd::Committed { .. } => &self.committed,
            StepEnd::Failed { .. } => &self.failed,
            StepEnd::Parked { .. } => &self.parked,
            StepEnd::LostClaim => &self.lost_claim,
            StepEnd::Held { .. } => &self.held,
        };
        counter.fetch_add(1, Ordering::Relaxed);
    }

    /// Adds a worker's pass times.
    pub fn add_times(&self, times: PassTimes) {
        for (counter, time) in [
            (&self.claim_ns, times.claim),
            (&self.step_ns, times.step),
            (&self.commit_ns, times.commit),
        ] {
            let ns = u64::try_from(time.as_nanos()).unwrap_or(u64::MAX);
            counter.fetch_add(ns, Ordering::Relaxed);
        }
    }
}
