//! What a guest's `step` returns, as the host checks it before storing
//! anything: any value is either refused with a reason or planned into
//! waits that are bounded, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use wakeful::model::{Next, StepResult};
use wakeful::runtime::{Limits, check_step_result};

fuzz_target!(|data: &[u8]| {
    let Ok(result) = serde_json::from_slice::<StepResult>(data) else {
        return;
    };
    let limits = Limits {
        max_state_bytes: 4096,
        ..Limits::default()
    };
    if check_step_result(&result, &limits).is_err() {
        return;
    }
    if let Next::Wait { waits } = &result.next {
        assert!(!waits.is_empty() && waits.len() <= 16);
        if let Ok(planned) = wakeful::waits::plan(waits, 1_000, &[], None, 86_400_000) {
            assert_eq!(planned.len(), waits.len());
        }
    }
});
