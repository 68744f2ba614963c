//! How figures are given: durations in milliseconds to the microsecond,
//! rates per second, ratios to the hundredth.

use std::time::Duration;

pub fn ms(d: Duration) -> f64 {
    (d.as_secs_f64() * 1000.0 * 1000.0).round() / 1000.0
}

pub fn per_sec(n: usize, d: Duration) -> f64 {
    (n as f64 / d.as_secs_f64().max(1e-9)).round()
}

pub fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

pub fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

pub fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

/// The `q` quantile of `sorted` (nearest rank), in ms; 0 when it is empty.
pub fn pick_ms(sorted: &[Duration], q: f64) -> f64 {
    sorted
        .get(((sorted.len() as f64 - 1.0) * q).round() as usize)
        .copied()
        .map_or(0.0, ms)
}
