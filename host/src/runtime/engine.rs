//! The process's one wasmtime `Engine`, and the thread that turns wall-clock
//! time into epoch ticks so that a step can be stopped at its deadline.

use std::hash::{Hash, Hasher};
use std::sync::Arc;
use std::thread;
use std::time::Duration;

use sha2::{Digest, Sha256};
use wasmparser::WasmFeatures;
use wasmtime::{
    Config, Enabled, Engine, EngineWeak, InstanceAllocationStrategy, PoolingAllocationConfig,
    ProfilingStrategy,
};

use super::RuntimeError;
use super::cache_dir::CacheDir;
use super::fn_cache::{self, FunctionCache};
use super::toolchain;

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

/// Whether an engine runs guests (its instances come from a pool) or only
/// compiles (a compiler process: no pool, whose address space reservation
/// would not fit under the compiler's limit).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Purpose {
    Run,
    Compile,
}

/// Builds the engine. This is the only place that configures wasmtime, so
/// that every compiled artifact and every store agree on the same settings.
/// Compiled functions are cached in `cache`, sealed with its key.
///
/// Instances come from a pool (see [`pooling`]) whose memories and tables
/// are reset in place after each call instead of being mapped and unmapped;
/// where the pool cannot be had (a memory limit above what a slot holds,
/// or no room to reserve the pool's address space), every instance is
/// allocated on its own. The pool changes nothing of what is compiled: both
/// engines have one [`EngineTag`].
pub(super) fn build(
    cache: &CacheDir,
    memory_bytes: usize,
    purpose: Purpose,
) -> Result<(Engine, EngineTag), RuntimeError> {
    let functions = Arc::new(FunctionCache::new(
        cache.path.join(fn_cache::DIR),
        Arc::clone(&cache.seal),
    ));
    let mut config = Config::new();
    config
        .wasm_component_model(true)
        // Proposals whose runtime support this build leaves out (wasmtime's
        // `threads` and `gc` features) are refused when a module is
        // validated, so that no guest reaches code paths built without
        // them: GHSA-2674-w29h-wqvj and GHSA-rc4p-x33f-vpr2 were host
        // aborts down such paths (shared memories; subtype checks of
        // non-final function types). Said here rather than left to the
        // defaults, which follow the crate's features: a dependency that
        // turned `threads` on would turn the proposal on for every guest.
        // No agent toolchain (Rust, componentize-py, jco) emits them.
        .wasm_features(
            WasmFeatures::THREADS | WasmFeatures::GC | WasmFeatures::FUNCTION_REFERENCES,
            false,
        )
        // Fuel bounds the guest's CPU work per step deterministically; epochs
        // bound its wall time, including time spent blocked in host calls.
        .consume_fuel(true)
        .epoch_interruption(true)
        .max_wasm_stack(MAX_WASM_STACK)
        // A memory starts as a copy-on-write mapping of its initial image;
        // with the pool, the mapping stays from one instance to the next.
        .memory_init_cow(true)
        // The default, said out loud: a table's elements are made when
        // first used. A JavaScript agent's table of thousands of elements,
        // made whole at every instantiation, would double its call time.
        // (Python's is filled at instantiation anyway: its libraries'
        // element segments start at an imported `__table_base`, which
        // wasmtime cannot precompute.)
        .table_lazy_init(true)
        .parallel_compilation(true)
        // `perf` names guest functions (`/tmp/perf-PID.map`) when asked.
        .profiler(profiler())
        .enable_incremental_compilation(functions.clone())
        .map_err(|e| RuntimeError::Engine(format!("{e:#}")))?;
    let engine = pooled_or_not(&config, memory_bytes, purpose)?;
    let tag = tag(&engine);
    functions.set_engine(&tag.full);
    Ok((engine, tag))
}

fn pooled_or_not(
    config: &Config,
    memory_bytes: usize,
    purpose: Purpose,
) -> Result<Engine, RuntimeError> {
    if purpose == Purpose::Run && memory_bytes <= POOL_MAX_MEMORY {
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
    Engine::new(config).map_err(|e| RuntimeError::Engine(format!("{e:#}")))
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
/// costs more than the copy. The copy runs on the guest thread after the
/// caller has its result (see `exec.rs`). Where Linux has `PAGEMAP_SCAN`
/// (6.7 and later), only the pages the call wrote are copied back: a Rust
/// agent writes a few runs of pages of its 1 to 2 MiB, and copying all of
/// it would be most of a step's work on the guest thread.
/// The scan goes on past a full buffer of regions until the end of memory
/// or `KEEP_RESIDENT` (a Python agent writes a few hundred runs of pages),
/// and it takes pages the kernel swapped out as well as those in memory:
/// a written page is never left for the next instance. Without the scan,
/// the first `KEEP_RESIDENT` bytes are copied whole.
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

/// What compiled code depends on besides its input: the engine's settings
/// (wasmtime's precompile compatibility hash: target, compiler flags,
/// tunables, features, wasmtime's version) and the toolchain
/// (`toolchain.rs`). Part of every cache key, so that code is only ever
/// taken by an engine of the same settings and build.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct EngineTag {
    /// Part of artifact file names: a digest of [`full`](Self::full).
    pub(super) name: String,
    /// `engine <SHA-256 of the compatibility hash>; <toolchain identity>`.
    pub(super) full: String,
}

pub(super) fn tag(engine: &Engine) -> EngineTag {
    let mut hasher = Sha256Hasher(Sha256::new());
    engine.precompile_compatibility_hash().hash(&mut hasher);
    let full = format!(
        "engine {}; {}",
        hex::encode(hasher.0.finalize()),
        toolchain::identity()
    );
    EngineTag {
        name: hex::encode(&Sha256::digest(full.as_bytes())[..16]),
        full,
    }
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

    /// A checked cache directory of its own for one test.
    fn cache(name: &str) -> CacheDir {
        let dir =
            std::env::temp_dir().join(format!("wakeful-engine-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        super::super::cache_dir::open(&dir).unwrap()
    }

    #[test]
    fn instances_come_from_the_pool_unless_a_memory_may_outgrow_a_slot() {
        let cache = cache("pool");
        let (pooled, _) = build(&cache, 64 << 20, Purpose::Run).unwrap();
        assert!(pooled.pooling_allocator_metrics().is_some());
        let (unpooled, _) = build(&cache, POOL_MAX_MEMORY + 1, Purpose::Run).unwrap();
        assert!(unpooled.pooling_allocator_metrics().is_none());
        let (compiler, _) = build(&cache, 64 << 20, Purpose::Compile).unwrap();
        assert!(compiler.pooling_allocator_metrics().is_none());
        std::fs::remove_dir_all(&cache.path).unwrap();
    }

    /// A compiler process builds its engine without the pool: what it
    /// compiles must be what the host's pooled engine would compile.
    #[test]
    fn the_tag_is_stable_and_the_same_with_or_without_the_pool() {
        let cache = cache("tag");
        let (engine, tag) = build(&cache, 64 << 20, Purpose::Run).unwrap();
        assert_eq!(tag.name.len(), 32);
        assert_eq!(tag, super::tag(&engine));
        assert!(tag.full.contains("wasmtime 48."), "{}", tag.full);
        let (_, again) = build(&cache, 64 << 20, Purpose::Run).unwrap();
        assert_eq!(tag, again);
        let (_, compiling) = build(&cache, 64 << 20, Purpose::Compile).unwrap();
        assert_eq!(tag, compiling);
        std::fs::remove_dir_all(&cache.path).unwrap();
    }

    /// A core module: the header, then `sections` as (id, contents).
    fn module(sections: &[(u8, &[u8])]) -> Vec<u8> {
        let mut bytes = b"\0asm\x01\0\0\0".to_vec();
        for (id, contents) in sections {
            bytes.push(*id);
            bytes.push(u8::try_from(contents.len()).unwrap());
            bytes.extend_from_slice(contents);
        }
        bytes
    }

    /// What this build has no runtime for is refused by validation: a
    /// shared memory (`threads`), a non-final function type and a typed
    /// function reference (`gc`, `function-references`). An MVP module
    /// passes.
    #[test]
    fn threads_gc_and_typed_function_references_are_refused_when_validated() {
        let cache = cache("proposals");
        let (engine, _) = build(&cache, 64 << 20, Purpose::Compile).unwrap();
        let refused = |bytes: &[u8]| {
            let error = wasmtime::Module::validate(&engine, bytes).unwrap_err();
            format!("{error:#}")
        };
        // (memory 1 1 shared)
        let shared = refused(&module(&[(5, &[1, 3, 1, 1])]));
        assert!(shared.contains("threads must be enabled"), "{shared}");
        // (type (sub (func)))
        let non_final = refused(&module(&[(1, &[1, 0x50, 0, 0x60, 0, 0])]));
        assert!(non_final.contains("gc proposal"), "{non_final}");
        // (type (func)) (type (func (param (ref null 0))))
        let typed = refused(&module(&[(1, &[2, 0x60, 0, 0, 0x60, 1, 0x63, 0, 0])]));
        assert!(typed.contains("function references"), "{typed}");
        // (type (func)) (memory 1 1)
        wasmtime::Module::validate(
            &engine,
            &module(&[(1, &[1, 0x60, 0, 0]), (5, &[1, 1, 1, 1])]),
        )
        .unwrap();
        std::fs::remove_dir_all(&cache.path).unwrap();
    }
}
