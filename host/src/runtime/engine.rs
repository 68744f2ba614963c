//! The process's one wasmtime `Engine`, and the thread that turns wall-clock
//! time into epoch ticks so that a step can be stopped at its deadline.

use std::hash::{Hash, Hasher};
use std::path::Path;
use std::sync::Arc;
use std::thread;
use std::time::Duration;

use sha2::{Digest, Sha256};
use wasmtime::{Config, Engine, EngineWeak};

use super::RuntimeError;
use super::fn_cache::{self, FunctionCache};

/// How often the epoch advances: the precision of step deadlines.
pub(super) const EPOCH_TICK: Duration = Duration::from_millis(10);

/// Wasm stack per call. The guest runs on a guest thread whose native
/// stack (`GUEST_THREAD_STACK`) leaves room for the host frames below it.
const MAX_WASM_STACK: usize = 1 << 20;

/// Native stack of the thread a guest runs on.
pub(super) const GUEST_THREAD_STACK: usize = 8 << 20;

/// Builds the engine. This is the only place that configures wasmtime, so
/// that every compiled artifact and every store agree on the same settings.
/// Compiled functions are cached under `cache_dir`.
pub(super) fn build(cache_dir: &Path) -> Result<Engine, RuntimeError> {
    let mut config = Config::new();
    config
        .wasm_component_model(true)
        // Fuel bounds the guest's CPU work per step deterministically; epochs
        // bound its wall time, including time spent blocked in host calls.
        .consume_fuel(true)
        .epoch_interruption(true)
        .max_wasm_stack(MAX_WASM_STACK)
        .parallel_compilation(true)
        .enable_incremental_compilation(Arc::new(FunctionCache::new(cache_dir.join(fn_cache::DIR))))
        .map_err(|e| RuntimeError::Engine(format!("{e:#}")))?;
    Engine::new(&config).map_err(|e| RuntimeError::Engine(format!("{e:#}")))
}

/// Starts the thread that advances the engine's epoch every `EPOCH_TICK`.
///
/// It holds only a weak reference, so it ends by itself once the last user
/// of the engine (the runtime and every loaded agent) is gone.
pub(super) fn spawn_epoch_ticker(engine: &Engine) -> Result<(), RuntimeError> {
    let weak: EngineWeak = engine.weak();
    thread::Builder::new()
        .name("wakeful-epoch".into())
        .spawn(move || {
            loop {
                thread::sleep(EPOCH_TICK);
                match weak.upgrade() {
                    Some(engine) => engine.increment_epoch(),
                    None => break,
                }
            }
        })
        .map(drop)
        .map_err(|e| RuntimeError::Thread(e.to_string()))
}

/// The number of epoch ticks after which a call has surely had `deadline`.
///
/// The first tick can come at once (the ticker runs at its own phase), so
/// one tick more than the deadline covers is needed: a call is stopped
/// between `deadline` and `deadline + EPOCH_TICK` after it starts.
pub(super) fn deadline_ticks(deadline: Duration) -> u64 {
    let tick = EPOCH_TICK.as_nanos();
    let ticks = deadline.as_nanos().div_ceil(tick) + 1;
    u64::try_from(ticks).unwrap_or(u64::MAX)
}

/// A stable text form of the engine's precompile compatibility hash, used in
/// cache file names: an artifact is only ever loaded by an engine that
/// wasmtime says can run it.
///
/// The hash is fed into SHA-256 rather than `DefaultHasher`, whose algorithm
/// may change between Rust releases.
pub(super) fn compatibility_key(engine: &Engine) -> String {
    let mut hasher = Sha256Hasher(Sha256::new());
    engine.precompile_compatibility_hash().hash(&mut hasher);
    hex::encode(&hasher.0.finalize()[..16])
}

struct Sha256Hasher(Sha256);

impl Hasher for Sha256Hasher {
    fn finish(&self) -> u64 {
        let digest = self.0.clone().finalize();
        let mut first = [0u8; 8];
        first.copy_from_slice(&digest[..8]);
        u64::from_le_bytes(first)
    }

    fn write(&mut self, bytes: &[u8]) {
        self.0.update(bytes);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deadline_rounds_up_to_whole_ticks() {
        assert_eq!(deadline_ticks(Duration::from_secs(10)), 1001);
        assert_eq!(deadline_ticks(Duration::from_millis(15)), 3);
        assert_eq!(deadline_ticks(Duration::ZERO), 1);
    }

    #[test]
    fn compatibility_key_is_stable_for_one_engine() {
        let dir = std::env::temp_dir().join(format!("wakeful-engine-{}", std::process::id()));
        let engine = build(&dir).unwrap();
        let key = compatibility_key(&engine);
        assert_eq!(key.len(), 32);
        assert_eq!(key, compatibility_key(&build(&dir).unwrap()));
    }
}
