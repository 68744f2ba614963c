//! What a guest sees during one call: an empty WASI world (no files, no
//! environment, no network) with clocks pinned to the step's time, randomness
//! seeded from (run, step), stdout/stderr captured into the step's log, and
//! the `wakeful:agent` imports.

use std::sync::mpsc;
use std::time::Duration;

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use sha2::{Digest, Sha256};
use wasmtime::component::{HasData, HasSelf, Linker, Resource, ResourceTable};
use wasmtime::{Engine, Result};
use wasmtime_wasi::p2::bindings::clocks::monotonic_clock;
use wasmtime_wasi::p2::{DynPollable, Pollable};
use wasmtime_wasi::{HostMonotonicClock, HostWallClock, WasiCtx, WasiCtxView, WasiView};

use super::bindings::{self, Level, ToolError, wakeful::agent};
use super::limiter::MemoryLimiter;
use super::output::{LogSink, Stream};
use super::{HostFault, ToolGate, ToolReply};

/// The largest `get-random-bytes` request a guest may make; larger ones trap
/// instead of making the host allocate them.
const MAX_RANDOM_BYTES: u64 = 1 << 20;

/// Who is calling and when: everything a sandbox is derived from.
pub(super) struct CallContext<'a> {
    pub run_id: &'a str,
    pub step_number: u64,
    pub now_ms: u64,
    /// Fuel this call may burn: the per-step limit, or less when the run's
    /// budget has less left.
    pub fuel: u64,
}

/// A tool call on its way from the guest's thread to the thread that owns
/// the [`ToolGate`](super::ToolGate).
pub(super) struct ToolRequest {
    pub name: String,
    pub args: String,
    pub idempotency_key: String,
    pub reply: mpsc::SyncSender<ToolReply>,
}

/// Where a guest's tool calls go.
pub(super) enum ToolRoute {
    /// Over a channel to the thread that owns the gate.
    Channel(mpsc::Sender<FromGuest>),
    /// To the gate this store holds for the call, on the thread the guest
    /// runs on (`here.rs`).
    Here(Box<dyn ToolGate>),
    /// Nowhere: a call made while making a spare instance, or after the
    /// gate was taken back, is a host fault.
    Closed,
}

/// What the guest's thread tells the thread that owns the gate.
pub(super) enum FromGuest {
    /// A tool call to answer.
    Tool(ToolRequest),
    /// The call returned (or failed): no tool call follows.
    Returned,
}

/// The data of one store: the WASI context, the limiter and the step's log.
pub(super) struct StoreData {
    wasi: WasiCtx,
    table: ResourceTable,
    pub(super) limiter: MemoryLimiter,
    log: LogSink,
    run_id: String,
    now_ms: u64,
    tools: ToolRoute,
}

impl StoreData {
    /// A fresh sandbox for one call into the guest.
    pub(super) fn new(
        cx: &CallContext<'_>,
        memory_bytes: usize,
        log: LogSink,
        tools: ToolRoute,
    ) -> Self {
        // One digest of (run, step) seeds a generator that deals the three
        // seeds WASI takes: a SHA-256 for each was a fifth of the work of
        // making a sandbox and instantiating the guest in it.
        let mut hash = Sha256::new();
        hash.update(b"wakeful-random\0");
        hash.update(cx.run_id.as_bytes());
        hash.update([0]);
        hash.update(cx.step_number.to_le_bytes());
        let mut seeds = StdRng::from_seed(hash.finalize().into());
        let secure: [u8; 32] = seeds.random();
        let insecure: [u8; 32] = seeds.random();
        let insecure_seed: u128 = seeds.random();

        let clock = PinnedClock {
            now: Duration::from_millis(cx.now_ms),
        };
        let mut builder = WasiCtx::builder();
        // Nothing is inherited: no args, env, preopens or stdin (closed).
        builder
            .stdout(log.stream(Stream::Stdout))
            .stderr(log.stream(Stream::Stderr))
            .wall_clock(clock)
            .monotonic_clock(clock)
            .secure_random(StdRng::from_seed(secure))
            .insecure_random(StdRng::from_seed(insecure))
            .insecure_random_seed(insecure_seed)
            .max_random_size(MAX_RANDOM_BYTES)
            .allow_tcp(false)
            .allow_udp(false)
            .allow_ip_name_lookup(false);
        StoreData {
            wasi: builder.build(),
            table: ResourceTable::new(),
            limiter: MemoryLimiter::new(memory_bytes),
            log,
            run_id: cx.run_id.to_owned(),
            now_ms: cx.now_ms,
            tools,
        }
    }

    /// Gives a store made ahead of its call (a [spare](super::spare)) the
    /// sandbox of the call that takes it. What instantiation allocated
    /// stays counted against the memory limit, and resources it made stay
    /// in the table.
    /// Takes the gate out of a store that holds one; tool calls are closed
    /// from then on.
    pub(super) fn take_gate(&mut self) -> Option<Box<dyn ToolGate>> {
        match std::mem::replace(&mut self.tools, ToolRoute::Closed) {
            ToolRoute::Here(gate) => Some(gate),
            other => {
                self.tools = other;
                None
            }
        }
    }

    pub(super) fn rebind(&mut self, call: StoreData) {
        let StoreData {
            wasi,
            table: _,
            limiter: _,
            log,
            run_id,
            now_ms,
            tools,
        } = call;
        self.wasi = wasi;
        self.log = log;
        self.run_id = run_id;
        self.now_ms = now_ms;
        self.tools = tools;
    }

    fn monotonic_now(&self) -> u64 {
        self.now_ms.saturating_mul(1_000_000)
    }
}

/// Builds the linker every agent is instantiated with: WASI p2 and the
/// `wakeful:agent` imports, nothing else.
pub(super) fn linker(engine: &Engine) -> Result<Linker<StoreData>> {
    let mut linker = Linker::new(engine);
    wasmtime_wasi::p2::add_to_linker_sync(&mut linker)?;
    // Replace WASI's monotonic clock so that sleeping cannot outlast the
    // step's deadline (see `PinnedMonotonicClock`).
    linker.allow_shadowing(true);
    monotonic_clock::add_to_linker::<StoreData, PinnedMonotonicClock>(&mut linker, |data| {
        PinnedMonotonicClockView {
            now: data.monotonic_now(),
            table: &mut data.table,
        }
    })?;
    linker.allow_shadowing(false);
    bindings::Agent::add_to_linker::<StoreData, HasSelf<StoreData>>(&mut linker, |data| data)?;
    Ok(linker)
}

impl WasiView for StoreData {
    fn ctx(&mut self) -> WasiCtxView<'_> {
        WasiCtxView {
            ctx: &mut self.wasi,
            table: &mut self.table,
        }
    }
}

impl agent::types::Host for StoreData {}

impl agent::host::Host for StoreData {
    fn now(&mut self) -> u64 {
        self.now_ms
    }

    fn run_id(&mut self) -> String {
        self.run_id.clone()
    }

    fn log(&mut self, level: Level, message: String) {
        self.log.log(level.into(), &message);
    }
}

impl agent::tools::Host for StoreData {
    fn call(
        &mut self,
        name: String,
        args: String,
        idempotency_key: String,
    ) -> Result<Result<String, ToolError>> {
        let reply = match &mut self.tools {
            ToolRoute::Here(gate) => gate.call(&name, &args, &idempotency_key),
            ToolRoute::Closed => Err(HostFault("no gate answers tool calls here".into())),
            ToolRoute::Channel(tools) => {
                let (reply, answer) = mpsc::sync_channel(1);
                let request = ToolRequest {
                    name,
                    args,
                    idempotency_key,
                    reply,
                };
                let gone = || HostFault("the worker stopped answering tool calls".into());
                tools.send(FromGuest::Tool(request)).map_err(|_| gone())?;
                answer.recv().map_err(|_| gone())?
            }
        };
        match reply {
            Ok(Ok(result)) => Ok(Ok(result)),
            Ok(Err(error)) => Ok(Err(error.into())),
            Err(fault) => Err(fault.into()),
        }
    }
}

/// Wall and monotonic time fixed at the step's `now_ms`, so that a step
/// computes the same thing when it is retried.
#[derive(Clone, Copy)]
struct PinnedClock {
    now: Duration,
}

impl HostWallClock for PinnedClock {
    fn resolution(&self) -> Duration {
        Duration::from_millis(1)
    }

    fn now(&self) -> Duration {
        self.now
    }
}

impl HostMonotonicClock for PinnedClock {
    fn resolution(&self) -> u64 {
        1_000_000
    }

    fn now(&self) -> u64 {
        u64::try_from(self.now.as_nanos()).unwrap_or(u64::MAX)
    }
}

/// `wasi:clocks/monotonic-clock` with time standing still.
///
/// WASI's own implementation sleeps for real inside the host call, where
/// epoch interruption cannot reach, so `sleep(1 hour)` would hold a worker
/// for an hour. Here every timer is ready at once: time does not pass
/// during a step, so a guest waiting for it to pass runs out of fuel.
struct PinnedMonotonicClock;

impl HasData for PinnedMonotonicClock {
    type Data<'a> = PinnedMonotonicClockView<'a>;
}

struct PinnedMonotonicClockView<'a> {
    now: u64,
    table: &'a mut ResourceTable,
}

/// A pollable that is always ready.
struct Ready;

#[wasmtime_wasi::async_trait]
impl Pollable for Ready {
    async fn ready(&mut self) {}
}

impl PinnedMonotonicClockView<'_> {
    fn ready(&mut self) -> Result<Resource<DynPollable>> {
        let ready = self.table.push(Ready)?;
        wasmtime_wasi::p2::subscribe(self.table, ready)
    }
}

impl monotonic_clock::Host for PinnedMonotonicClockView<'_> {
    fn now(&mut self) -> Result<monotonic_clock::Instant> {
        Ok(self.now)
    }

    fn resolution(&mut self) -> Result<monotonic_clock::Duration> {
        Ok(1_000_000)
    }

    fn subscribe_instant(
        &mut self,
        _when: monotonic_clock::Instant,
    ) -> Result<Resource<DynPollable>> {
        self.ready()
    }

    fn subscribe_duration(
        &mut self,
        _duration: monotonic_clock::Duration,
    ) -> Result<Resource<DynPollable>> {
        self.ready()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_linker_builds() {
        use super::super::{cache_dir, engine};
        let dir = std::env::temp_dir().join(format!("wakeful-linker-{}", std::process::id()));
        let cache = cache_dir::open(&dir).unwrap();
        let (engine, _) = engine::build(&cache, 64 << 20, engine::Purpose::Run).unwrap();
        linker(&engine).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
