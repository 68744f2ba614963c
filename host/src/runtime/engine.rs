//! The process's one wasmtime `Engine`, and the thread that turns wall-clock
//! time into epoch ticks so that a step can be stopped at its deadline.

use std::hash::{Hash, Hasher};
use std::path::Path;
use std::sync::Arc;
use std::thread;
use std::time::Duration;

use sha2::{Digest, Sha256};
use wasmtime::{
    Config, Enabled, Engine, EngineWeak, InstanceAllocationStrategy, PoolingAllocationConfig,
    ProfilingStrategy,
};

use super::RuntimeError;
use super::fn_cache::{self, FunctionCache};

/// How often the epoch advances: the precision of step deadlines.
pub(super) const EPOCH_TICK: Duration = Duration::from_millis(10);

/// Wasm stack per call. The guest runs on a guest thread whose native
/// stack (`GUEST_THREAD_STACK`) leaves room for the host frames below it.
const MAX_WASM_STACK: usize = 1 << 20;

/// Native stack of the thread a guest runs on.
pub(super) const GUEST_THREAD_STACK: usize = 8 << 20;

/// Guest calls (stores) the instance pool holds at once: `serve`'s workers,
/// and the `info` and `migrate` calls of deploys and upgrades beside them.
/// A call past this fails as a [host fault](super::StepFailure::HostFault)
/// (retried like any failed step) rather than waiting.
pub(super) const POOL_CALLS: u32 = 64;

/// What one call may take from the pool. Today's components need at most 14
/// core instances (a componentize-py agent: CPython and the libraries it
/// links), 1 memory and 2 tables; the limits leave room for more, and a
/// component needing even more is refused when it is loaded.
const CORE_INSTANCES_PER_CALL: u32 = 32;
const MEMORIES_PER_CALL: u32 = 4;
const TABLES_PER_CALL: u32 = 8;

/// The pool's totals, for [`POOL_CALLS`] calls of components like today's
/// (fewer calls fit when every one takes its most).
const POOL_CORE_INSTANCES: u32 = POOL_CALLS * 16;
const POOL_MEMORIES: u32 = POOL_CALLS * 2;
const POOL_TABLES: u32 = POOL_CALLS * 4;

/// Elements of one pooled table: a table cannot grow past this (`table.grow`
/// fails as wasm says it may), and a component declaring a larger one is
/// refused when loaded. Python's and JavaScript's interpreters declare 5 674
/// and 7 692. Each pooled table reserves 8 bytes per element of address
/// space.
const TABLE_ELEMENTS: usize = 64 << 10;

/// The largest linear memory a pool slot holds: the whole 32-bit space,
/// which is also what the engine reserves per memory, so that the memory
/// limit (`StoreLimiter`) is what stops a guest, never the slot.
const POOL_MAX_MEMORY: usize = 4 << 30;

/// Pool slots last used by other agents that are kept as they are (their
/// memory image mapped, their pages resident) before being reused for
/// another agent. Bounds what agents that no longer run keep resident.
const MAX_UNUSED_WARM_SLOTS: u32 = 4;

/// The most of a memory that is reset by copying its initial image back
/// after a call and stays resident; the rest is given back to the kernel.
/// 16 MiB holds a Python or JavaScript agent's whole memory (13 and 9.5
/// MiB at their start).
const KEEP_RESIDENT: usize = 16 << 20;

/// Builds the engine. This is the only place that configures wasmtime, so
/// that every compiled artifact and every store agree on the same settings.
/// Compiled functions are cached under `cache_dir`.
///
/// Instances come from a pool (see [`pooling`]) whose memories and tables
/// are reset in place after each call instead of being mapped and unmapped;
/// where the pool cannot be had (a memory limit above what a slot holds,
/// or no room to reserve the pool's address space), every instance is
/// allocated on its own, as before.
pub(super) fn build(cache_dir: &Path, memory_bytes: usize) -> Result<Engine, RuntimeError> {
    let mut config = Config::new();
    config
        .wasm_component_model(true)
        // Fuel bounds the guest's CPU work per step deterministically; epochs
        // bound its wall time, including time spent blocked in host calls.
        .consume_fuel(true)
        .epoch_interruption(true)
        .max_wasm_stack(MAX_WASM_STACK)
        // A memory starts as a copy-on-write mapping of its initial image;
        // with the pool, the mapping stays from one instance to the next.
        .memory_init_cow(true)
        // The default, said out loud: a table's elements are made when
        // first used. A JavaScript agent's 7 692-element table made whole
        // at every instantiation doubles its call time. (Python's is filled
        // at instantiation anyway: its libraries' element segments start at
        // an imported `__table_base`, which wasmtime cannot precompute.)
        .table_lazy_init(true)
        .parallel_compilation(true)
        // `perf` names guest functions (`/tmp/perf-PID.map`) when asked.
        .profiler(profiler())
        .enable_incremental_compilation(Arc::new(FunctionCache::new(cache_dir.join(fn_cache::DIR))))
        .map_err(|e| RuntimeError::Engine(format!("{e:#}")))?;
    if memory_bytes <= POOL_MAX_MEMORY {
        let mut pooled = config.clone();
        pooled.allocation_strategy(InstanceAllocationStrategy::Pooling(pooling(memory_bytes)));
        match Engine::new(&pooled) {
            Ok(engine) => return Ok(engine),
            Err(e) => tracing::warn!(
                error = %format!("{e:#}"),
                "the instance pool could not be set up; instances are allocated one by one"
            ),
        }
    }
    Engine::new(&config).map_err(|e| RuntimeError::Engine(format!("{e:#}")))
}

/// The environment variable that makes wasmtime write a perf map of every
/// compiled guest function, for profiling guests with `perf`.
pub const PERF_MAP_VAR: &str = "WAKEFUL_PERF_MAP";

fn profiler() -> ProfilingStrategy {
    if std::env::var_os(PERF_MAP_VAR).is_some_and(|v| v == "1") {
        ProfilingStrategy::PerfMap
    } else {
        ProfilingStrategy::None
    }
}

/// The instance pool for calls whose memories may grow to `memory_bytes`
/// together.
///
/// After a call, the first [`KEEP_RESIDENT`] bytes of each memory are
/// reset by copying the initial image back over them (and tables by
/// zeroing them), so they stay resident and writable: the next call of the
/// same agent in that slot takes no page faults there. A Python agent
/// writes a few hundred pages scattered over its 13 MiB heap per step;
/// faulting them in again (a copy and a TLB flush on every core each)
/// cost more than the copy. The copy runs on the guest thread after the
/// caller has its result (see `exec.rs`). Where Linux has `PAGEMAP_SCAN`
/// (6.7 and later), only the pages the call wrote are copied back: a Rust
/// agent writes a few runs of pages of its 1 to 2 MiB, and copying its
/// whole memory was the largest cost of a step on the guest thread
/// (`wakeful bench --record` (c), instantiate + step: p50 55 → 35 µs).
/// The scan reaches every written page (the vendored wasmtime's first
/// patch, `vendor/wasmtime/PATCHES.md`): a Python agent writes a few
/// hundred runs of pages, and when only the first 32 were copied back it
/// took ~250 page faults per step. Without the scan, the first
/// `KEEP_RESIDENT` bytes are copied whole.
///
/// Whichever way, the next instance sees exactly the initial image:
/// nothing of a call survives it.
fn pooling(memory_bytes: usize) -> PoolingAllocationConfig {
    let mut pool = PoolingAllocationConfig::new();
    pool.total_component_instances(POOL_CALLS)
        .total_core_instances(POOL_CORE_INSTANCES)
        .total_memories(POOL_MEMORIES)
        .total_tables(POOL_TABLES)
        // Calls are synchronous: no fiber stacks.
        .total_stacks(0)
        .max_core_instances_per_component(CORE_INSTANCES_PER_CALL)
        .max_memories_per_component(MEMORIES_PER_CALL)
        .max_tables_per_component(TABLES_PER_CALL)
        .max_memories_per_module(MEMORIES_PER_CALL)
        .max_tables_per_module(TABLES_PER_CALL)
        // Instance metadata is allocated per instance at its real size;
        // these only refuse absurd components.
        .max_core_instance_size(16 << 20)
        .max_component_instance_size(64 << 20)
        .table_elements(TABLE_ELEMENTS)
        .max_memory_size(POOL_MAX_MEMORY)
        .max_unused_warm_slots(MAX_UNUSED_WARM_SLOTS)
        .pagemap_scan(Enabled::Auto)
        .linear_memory_keep_resident(KEEP_RESIDENT.min(memory_bytes))
        .table_keep_resident(TABLE_ELEMENTS * 8);
    pool
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
    fn instances_come_from_the_pool_unless_a_memory_may_outgrow_a_slot() {
        let dir = std::env::temp_dir().join(format!("wakeful-engine-{}", std::process::id()));
        let pooled = build(&dir, 64 << 20).unwrap();
        assert!(pooled.pooling_allocator_metrics().is_some());
        let unpooled = build(&dir, POOL_MAX_MEMORY + 1).unwrap();
        assert!(unpooled.pooling_allocator_metrics().is_none());
    }

    /// A core module whose function `f` returns its immutable global,
    /// initialised to `global`, beside a memory whose one data segment
    /// holds `data`.
    fn module_returning(global: u8, data: [u8; 3]) -> Vec<u8> {
        let mut wasm = b"\0asm\x01\0\0\0".to_vec();
        wasm.extend([1, 5, 1, 0x60, 0, 1, 0x7f]); // type: () -> i32
        wasm.extend([3, 2, 1, 0]); // function 0 has type 0
        wasm.extend([5, 3, 1, 0, 1]); // one memory of one page
        wasm.extend([6, 6, 1, 0x7f, 0, 0x41, global, 0x0b]); // const i32 global
        wasm.extend([7, 5, 1, 1, b'f', 0, 0]); // export "f"
        wasm.extend([10, 6, 1, 4, 0, 0x23, 0, 0x0b]); // global.get 0
        wasm.extend([11, 9, 1, 0, 0x41, 0, 0x0b, 3]); // data at 0:
        wasm.extend(data);
        wasm
    }

    /// The entries kept by a function's input, with when each was used.
    fn input_entries(dir: &Path) -> Vec<(std::path::PathBuf, std::time::SystemTime)> {
        let mut found = Vec::new();
        for shard in std::fs::read_dir(dir.join(fn_cache::DIR)).unwrap() {
            for entry in std::fs::read_dir(shard.unwrap().path()).unwrap() {
                let path = entry.unwrap().path();
                if path.to_string_lossy().ends_with("-input") {
                    let used = std::fs::metadata(&path).unwrap().modified().unwrap();
                    found.push((path, used));
                }
            }
        }
        found
    }

    /// The compiler takes a function's code from the cache by its input,
    /// without translating it, only when everything it was compiled from
    /// is the same: a constant global folded into the code is part of the
    /// key, the bytes of the data segments are not.
    #[test]
    fn a_function_is_taken_by_its_input_only_from_a_module_that_matches() {
        let dir = std::env::temp_dir().join(format!("wakeful-engine-input-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let engine = build(&dir, 64 << 20).unwrap();
        let call = |wasm: &[u8]| -> i32 {
            let module = wasmtime::Module::new(&engine, wasm).unwrap();
            let mut store = wasmtime::Store::new(&engine, ());
            store.set_fuel(10_000).unwrap();
            store.set_epoch_deadline(1);
            let instance = wasmtime::Instance::new(&mut store, &module, &[]).unwrap();
            let f = instance.get_typed_func::<(), i32>(&mut store, "f").unwrap();
            f.call(&mut store, ()).unwrap()
        };

        assert_eq!(call(&module_returning(7, *b"abc")), 7);
        let seven = input_entries(&dir);
        assert_eq!(seven.len(), 1, "one function, one entry: {seven:?}");
        // The same body, another constant: compiled anew.
        assert_eq!(call(&module_returning(8, *b"abc")), 8);
        assert_eq!(input_entries(&dir).len(), 2);

        // Other data only: the code compiled for 7 is taken by its input.
        let day_ago = std::time::SystemTime::now() - Duration::from_secs(86_400);
        std::fs::File::options()
            .write(true)
            .open(&seven[0].0)
            .unwrap()
            .set_modified(day_ago)
            .unwrap();
        assert_eq!(call(&module_returning(7, *b"xyz")), 7);
        let after = input_entries(&dir);
        assert_eq!(after.len(), 2, "{after:?}");
        let used = after
            .iter()
            .find(|(path, _)| *path == seven[0].0)
            .unwrap()
            .1;
        assert!(
            used > day_ago + Duration::from_secs(3_600),
            "the entry was not used"
        );

        // An entry by input whose code is gone (pruned, or lost in a crash
        // between the two writes) falls back to translating the function.
        let mut removed = 0;
        for shard in std::fs::read_dir(dir.join(fn_cache::DIR)).unwrap() {
            for entry in std::fs::read_dir(shard.unwrap().path()).unwrap() {
                let path = entry.unwrap().path();
                if !path.to_string_lossy().ends_with("-input") {
                    std::fs::remove_file(&path).unwrap();
                    removed += 1;
                }
            }
        }
        assert!(removed > 0, "the code was in entries of its own");
        assert_eq!(call(&module_returning(7, *b"xyz")), 7);
        assert_eq!(call(&module_returning(8, *b"xyz")), 8);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn compatibility_key_is_stable_for_one_engine() {
        let dir = std::env::temp_dir().join(format!("wakeful-engine-{}", std::process::id()));
        let engine = build(&dir, 64 << 20).unwrap();
        let key = compatibility_key(&engine);
        assert_eq!(key.len(), 32);
        assert_eq!(key, compatibility_key(&build(&dir, 64 << 20).unwrap()));
    }
}
