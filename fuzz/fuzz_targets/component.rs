//! Bytes offered as an agent component: refused with a reason or loaded,
//! never a panic or a crash of the host.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use wakeful::runtime::{Limits, Runtime};

fn runtime() -> &'static Runtime {
    static RUNTIME: OnceLock<Runtime> = OnceLock::new();
    RUNTIME.get_or_init(|| {
        let cache = std::env::temp_dir().join(format!("wakeful-fuzz-cache-{}", std::process::id()));
        Runtime::new(&cache, Limits::default()).expect("a runtime")
    })
}

fuzz_target!(|data: &[u8]| {
    let _ = runtime().load(data);
});
