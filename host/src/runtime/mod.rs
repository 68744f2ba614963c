//! Runs agent components: loads and compiles them once per digest, and calls
//! their exports (`info`, `step`, `migrate`) each in a fresh sandboxed store
//! with fuel, memory, wall-time and output limits.
//!
//! Layout:
//! - `engine.rs`: the one wasmtime `Config`, and the epoch ticker thread
//! - `inspect.rs`: a component's imports and exports, read before compiling
//! - `compile.rs`: compiling in a child process, within the compile limits
//! - `cache.rs`: digests, compiled agents in memory and on disk
//! - `cache_dir.rs`: the cache directory's owner and mode, checked
//! - `seal.rs`: the key and MAC every cached file of code carries
//! - `toolchain.rs`: the build of the compiler, part of every cache key
//! - `fn_cache.rs`: compiled functions on disk, shared between versions
//! - `prune.rs`: keeping the cache directory under its size bound
//! - `sandbox.rs`: the WASI context and the host side of `wit/agent.wit`
//! - `output.rs`: the step's bounded log (`host.log`, stdout, stderr)
//! - `limiter.rs`: the per-store memory limit
//! - `exec.rs`: one call into a guest, on a guest thread
//! - `threads.rs`: the guest threads, kept from one call to the next
//! - `spare.rs`: instances made ahead of their call
//! - `outcome.rs`: classifying failures, checking results
//! - `bindings.rs`: the generated bindings and their conversions

mod artifact;
mod bindings;
mod cache;
mod cache_dir;
pub mod compile;
mod engine;
mod error;
mod exec;
mod fn_cache;
mod here;
pub mod inspect;
mod limiter;
mod outcome;
mod output;
pub mod prune;
mod sandbox;
mod seal;
mod spare;
mod threads;
mod toolchain;

use std::borrow::Cow;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use wasmtime::Engine;
use wasmtime::component::Linker;

pub use self::cache::{check_header, digest, trim_heap};
pub use self::compile::CompileLimits;
pub use self::error::{LoadError, RuntimeError};
pub use self::here::{run_on_worker, spawn_worker, spawn_worker_scoped};
pub use self::outcome::{MAX_STATUS_BYTES, StepFailure, check_step_result};
use self::sandbox::{CallContext, StoreData};
use crate::model::{self, AgentInfo, LogLine};

/// The longest error message a guest's `step` or `migrate` may return; the
/// rest is cut off.
const MAX_GUEST_ERROR_BYTES: usize = 4096;

/// How long a compile may take: room for a debug build of the host to
/// compile a Python or JavaScript agent on two cores busy stepping runs.
pub const DEFAULT_COMPILE_TIMEOUT: Duration = Duration::from_secs(300);

/// The compiler process's address space: room for a Python or JavaScript
/// agent's compile, twice over.
pub const DEFAULT_COMPILE_MEMORY_BYTES: u64 = 2 << 30;

/// One compile at a time: each uses every core, and its memory.
pub const DEFAULT_COMPILES_AT_ONCE: usize = 1;

/// The largest function body compiled: twice the largest of today's
/// agents (CPython's interpreter loop).
pub const DEFAULT_MAX_FUNCTION_BYTES: usize = 1 << 20;

/// Limits of every call into a guest, and of the compile cache.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// Fuel (roughly, wasm instructions) one call may use.
    pub fuel_per_step: u64,
    /// Bytes of linear memory and tables one call's instance may use.
    pub memory_bytes: usize,
    /// Wall-clock time of one call, including instantiation and the time
    /// its tool calls take; enforced to within 10 ms (never early).
    pub step_deadline: Duration,
    /// The largest state a step or migration may return.
    pub max_state_bytes: usize,
    /// Bytes of `host.log` lines, stdout and stderr kept per call; the rest
    /// is dropped and counted in a last line.
    pub max_log_bytes: usize,
    /// The largest component `load` accepts.
    pub max_component_bytes: usize,
    /// The largest function body a component may have; a larger one is
    /// refused before anything is compiled.
    pub max_function_bytes: usize,
    /// Time, memory and concurrency of compiles.
    pub compile: CompileLimits,
    /// Bytes on disk of precompiled agents and compiled functions the cache
    /// directory is pruned to, least recently used first, after each
    /// compile.
    pub cache_max_bytes: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            fuel_per_step: 2_000_000_000,
            memory_bytes: 64 << 20,
            step_deadline: Duration::from_secs(10),
            max_state_bytes: 1 << 20,
            max_log_bytes: 64 << 10,
            // Components built from Python or JavaScript are 10-40 MiB.
            max_component_bytes: 128 << 20,
            max_function_bytes: DEFAULT_MAX_FUNCTION_BYTES,
            compile: CompileLimits {
                timeout: DEFAULT_COMPILE_TIMEOUT,
                memory_bytes: DEFAULT_COMPILE_MEMORY_BYTES,
                at_once: DEFAULT_COMPILES_AT_ONCE,
            },
            cache_max_bytes: prune::DEFAULT_MAX_BYTES,
        }
    }
}

/// The process's WebAssembly runtime. `Send + Sync`; share it with an `Arc`.
pub struct Runtime {
    engine: Engine,
    /// WASI p2 and `wakeful:agent`: everything a guest may import.
    linker: Linker<StoreData>,
    cache: cache::Cache,
    limits: Limits,
    /// The threads guests run on.
    guests: threads::GuestThreads,
    /// Bounds the instances kept ready for the next call of each agent.
    spares: spare::SpareCount,
}

/// A compiled, pre-linked agent version, ready to be instantiated.
pub struct LoadedAgent {
    /// Lowercase hex SHA-256 of the component's bytes.
    pub digest: String,
    pre: bindings::AgentPre<StoreData>,
    /// An instance ready for this agent's next call.
    spare: spare::SpareSlot,
    /// Whether its compiled code is large (an interpreter: Python,
    /// JavaScript): a call on a worker thread then leaves making the next
    /// instance to a guest thread (`exec.rs`).
    large: bool,
}

impl std::fmt::Debug for LoadedAgent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LoadedAgent")
            .field("digest", &self.digest)
            .finish_non_exhaustive()
    }
}

/// What a step is called with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StepInput {
    pub run_id: String,
    pub step_number: u64,
    /// The step's logical time: what the guest's clocks and `host.now` say.
    pub now_ms: u64,
    /// The run's current state (JSON).
    pub state: String,
    pub wake: model::Wake,
    /// Fuel the run has left in its budget; the step gets at most this, and
    /// never more than [`Limits::fuel_per_step`].
    pub fuel_left: Option<u64>,
}

/// What the gate answers to one tool call.
pub type ToolReply = Result<Result<String, model::ToolError>, HostFault>;

/// The guest's only path to the world, implemented by the worker (grants,
/// ledger, budgets).
///
/// Policy failures (not granted, a budget spent, bad arguments, the tool
/// failed) are `Ok(Err(tool_error))`: values the guest sees and may handle.
/// Host faults (the ledger could not be written, the lease was lost) are
/// `Err(HostFault)`: they trap the step, which is then classified
/// [`StepFailure::HostFault`] so that nothing of the run changes.
///
/// A gate is `Send` and owns what it uses (`Any` is `'static`): for a
/// guest run in place it lives in the guest's wasmtime store for the call.
pub trait ToolGate: std::any::Any + Send {
    /// Executes (or replays from the ledger) one tool call.
    fn call(&mut self, name: &str, args: &str, idempotency_key: &str) -> ToolReply;
}

/// A failure of the host while serving a guest; it aborts the step.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct HostFault(pub String);

/// Everything a step produced, whether or not it succeeded.
#[derive(Debug, Clone)]
pub struct StepReport {
    /// The checked result, or why there is none.
    pub result: Result<model::StepResult, StepFailure>,
    /// Fuel the step used (all of it if it ran out). After a deadline trap
    /// it misses what the interrupted wasm function burnt since its last
    /// call (wasmtime writes fuel back only at calls and returns).
    pub fuel_used: u64,
    /// What the guest logged, also when it failed: operators debug with it.
    pub logs: Vec<LogLine>,
    /// Wall-clock time of instantiation and the call.
    pub wall: Duration,
}

impl Runtime {
    /// Sets up the process's engine (component model, fuel, epoch
    /// interruption) and its epoch ticker; compiled agents are kept in
    /// `cache_dir`, which is created (0700) if missing, and refused unless
    /// it is this user's and no one else may write it (`cache_dir.rs`).
    pub fn new(cache_dir: &Path, limits: Limits) -> Result<Runtime, RuntimeError> {
        let dir = cache_dir::open(cache_dir)?;
        let (engine, tag) = engine::build(&dir, limits.memory_bytes, engine::Purpose::Run)?;
        let linker =
            sandbox::linker(&engine).map_err(|e| RuntimeError::Engine(format!("{e:#}")))?;
        let cache = cache::Cache::new(dir, tag, &limits);
        engine::spawn_epoch_ticker(&engine)?;
        Ok(Runtime {
            engine,
            linker,
            cache,
            limits,
            guests: threads::GuestThreads::new("wakeful-guest", engine::GUEST_THREAD_STACK),
            spares: spare::SpareCount::default(),
        })
    }

    /// The limits every call runs under.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Checks that `bytes` are a component of acceptable size whose every
    /// import the host provides, compiles it (or loads its precompiled
    /// artifact) and pre-links it. Loading the same bytes again is cheap.
    pub fn load(&self, bytes: &[u8]) -> Result<Arc<LoadedAgent>, LoadError> {
        cache::check_header(bytes, self.limits.max_component_bytes)?;
        let digest = digest(bytes);
        self.cache.load(
            &self.linker,
            &digest,
            self.limits.max_component_bytes,
            || Ok(Cow::Borrowed(bytes)),
        )
    }

    /// Like [`load`](Self::load) for a stored version whose digest is known:
    /// `bytes` is called only if the agent is compiled neither in this
    /// process nor on disk, given the most bytes a component may have;
    /// the bytes must then hash to `digest`.
    pub fn load_stored(
        &self,
        digest: &str,
        bytes: impl FnOnce(usize) -> Result<Vec<u8>, String>,
    ) -> Result<Arc<LoadedAgent>, LoadError> {
        self.cache.load(
            &self.linker,
            digest,
            self.limits.max_component_bytes,
            || {
                let bytes =
                    bytes(self.limits.max_component_bytes).map_err(LoadError::Unavailable)?;
                // Compiling dwarfs hashing; a wrong digest would file the
                // artifact under another version's name.
                let actual = self::digest(&bytes);
                if actual != digest {
                    return Err(LoadError::Invalid(format!(
                        "the stored bytes of {digest} hash to {actual}; the stored agent version is corrupt"
                    )));
                }
                Ok(Cow::Owned(bytes))
            },
        )
    }

    /// Calls the agent's `info` export. The sandbox is the same as a step's,
    /// with the clock at 0 and every tool call denied.
    pub fn info(&self, agent: &LoadedAgent) -> Result<AgentInfo, StepFailure> {
        let cx = CallContext {
            run_id: "",
            step_number: 0,
            now_ms: 0,
            fuel: self.limits.fuel_per_step,
        };
        let gate = exec::NoTools("no tools during info");
        let (report, _) = exec::call(self, agent, &cx, gate, |guest, store| {
            guest.call_info(store)
        });
        report.result.map(AgentInfo::from)
    }

    /// The context of a step or migration of `input`'s run.
    fn call_context<'a>(&self, input: &'a StepInput) -> CallContext<'a> {
        let per_step = self.limits.fuel_per_step;
        CallContext {
            run_id: &input.run_id,
            step_number: input.step_number,
            now_ms: input.now_ms,
            fuel: input.fuel_left.map_or(per_step, |left| left.min(per_step)),
        }
    }

    /// Runs one step in a fresh store, and checks its result. The step's
    /// tool calls go to `gate`, which comes back with the report.
    pub fn step<G: ToolGate>(
        &self,
        agent: &LoadedAgent,
        input: &StepInput,
        gate: G,
    ) -> (StepReport, G) {
        let cx = self.call_context(input);
        let wake = bindings::Wake::from(&input.wake);
        // The guest thread outlives this call, so it gets a copy.
        let state = input.state.clone();
        let (report, gate) = exec::call(self, agent, &cx, gate, move |guest, store| {
            guest.call_step(store, &state, &wake)
        });
        let result = report.result.and_then(|returned| match returned {
            Ok(result) => {
                let result = model::StepResult::from(result);
                outcome::check_step_result(&result, &self.limits).map(|()| result)
            }
            Err(message) => Err(StepFailure::GuestError(exec::truncate_message(
                message,
                MAX_GUEST_ERROR_BYTES,
            ))),
        });
        let report = StepReport {
            result,
            fuel_used: report.fuel_used,
            logs: report.logs,
            wall: report.wall,
        };
        (report, gate)
    }

    /// Calls `migrate(from_version, input.state)` under the same limits as
    /// a step, without tools, and checks the new state. `input.wake` is
    /// not used.
    pub fn migrate(
        &self,
        agent: &LoadedAgent,
        input: &StepInput,
        from_version: &str,
    ) -> Result<String, StepFailure> {
        let cx = self.call_context(input);
        let state = input.state.clone();
        let from_version = from_version.to_owned();
        let gate = exec::NoTools("no tools during migrate");
        let (report, _) = exec::call(self, agent, &cx, gate, move |guest, store| {
            guest.call_migrate(store, &from_version, &state)
        });
        let returned = report.result?;
        let state = returned.map_err(|message| {
            StepFailure::GuestError(exec::truncate_message(message, MAX_GUEST_ERROR_BYTES))
        })?;
        outcome::check_state(&state, &self.limits)?;
        Ok(state)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn runtime() -> (Runtime, std::path::PathBuf) {
        let dir = std::env::temp_dir().join(format!(
            "wakeful-runtime-test-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        (Runtime::new(&dir, Limits::default()).unwrap(), dir)
    }

    #[test]
    fn runtime_and_agents_can_be_shared_across_threads() {
        fn shared<T: Send + Sync>() {}
        shared::<Runtime>();
        shared::<LoadedAgent>();
    }

    #[test]
    fn bad_bytes_are_refused_before_compiling() {
        let (rt, dir) = runtime();
        assert_eq!(
            rt.load(b"#!/bin/sh\necho hi\n").unwrap_err(),
            LoadError::NotWasm
        );
        assert_eq!(
            rt.load(b"\0asm\x01\0\0\0").unwrap_err(),
            LoadError::CoreModule
        );
        let big = vec![0u8; rt.limits().max_component_bytes + 1];
        assert!(matches!(
            rt.load(&big).unwrap_err(),
            LoadError::TooLarge { .. }
        ));
        // A component header with nothing valid after it.
        assert!(matches!(
            rt.load(b"\0asm\x0d\0\x01\0\xff\xff").unwrap_err(),
            LoadError::Invalid(_)
        ));
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_stored_version_needs_a_real_digest() {
        let (rt, dir) = runtime();
        let err = rt
            .load_stored("../../etc/passwd", |_| Ok(vec![]))
            .unwrap_err();
        assert!(matches!(err, LoadError::Invalid(_)), "{err}");
        let missing = digest(b"gone");
        let err = rt
            .load_stored(&missing, |_| Err("not in the store".into()))
            .unwrap_err();
        assert_eq!(err, LoadError::Unavailable("not in the store".into()));
        let err = rt
            .load_stored(&missing, |_| Ok(b"\0asm\x0d\0\x01\0".to_vec()))
            .unwrap_err();
        assert!(
            matches!(&err, LoadError::Invalid(m) if m.contains("corrupt")),
            "{err}"
        );
        std::fs::remove_dir_all(dir).unwrap();
    }
}
