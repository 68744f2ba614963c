//! Cron expressions as guests and operators write them: never a panic, and
//! a next tick is always after now.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: (&str, u64)| {
    let (expr, now) = input;
    let now = now % 4_102_444_800_000; // before 2100
    if let Ok(next) = wakeful::waits::next_tick(expr, now) {
        assert!(next > now, "`{expr}` ticks at {next}, not after {now}");
    }
});
