//! One call into a guest, start to finish: a fresh store with its limits,
//! while the guest's tool calls are answered by the call's [`ToolGate`].
//!
//! On a worker thread started with a guest's stack the guest runs in place
//! (`here.rs`), and the gate goes into the wasmtime store's data for the
//! call: the store owns it, the guest's tool calls reach it there, and it
//! comes back out when the call returns (or panics: the store is made
//! outside `catch_unwind`). Elsewhere the guest runs on a guest thread
//! (`threads.rs`), which gives it a native stack of known size whatever
//! thread the caller is on; the gate stays on the caller's thread and tool
//! calls reach it over a channel. Guest threads outlive calls, so what a
//! call hands them is owned; nothing of one call's store is left on the
//! thread for the next.

use std::panic::{self, AssertUnwindSafe};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use wasmtime::{Engine, Store};

use super::bindings::{Agent, AgentPre};
use super::engine;
use super::outcome::{self, StepFailure, TrapContext};
use super::output::LogSink;
use super::sandbox::{CallContext, FromGuest, StoreData, ToolRoute};
use super::spare::{self, Spare};
use super::{LoadedAgent, Runtime, ToolGate, ToolReply};
use crate::model::{LogLevel, LogLine, ToolError};

/// What one call produced, whether or not it succeeded.
pub(super) struct CallReport<R> {
    pub result: Result<R, StepFailure>,
    pub fuel_used: u64,
    pub logs: Vec<LogLine>,
    pub wall: Duration,
}

/// What the guest thread hands back.
struct GuestRun<R> {
    result: wasmtime::Result<R>,
    fuel_used: u64,
    memory_refused: bool,
    wall: Duration,
}

/// Instantiates `agent` in a fresh store for `cx` and runs `call` on it,
/// its tool calls answered by `gate`, which comes back with the report.
pub(super) fn call<R: Send + 'static, G: ToolGate>(
    runtime: &Runtime,
    agent: &LoadedAgent,
    cx: &CallContext<'_>,
    gate: G,
    call: impl FnOnce(&Agent, &mut Store<StoreData>) -> wasmtime::Result<R> + Send + 'static,
) -> (CallReport<R>, G) {
    if super::here::on_this_thread() {
        return call_here(runtime, agent, cx, gate, call);
    }
    let mut gate = gate;
    let limits = &runtime.limits;
    let log = LogSink::new(limits.max_log_bytes);
    let (tools, requests) = mpsc::channel();
    let returned = tools.clone();
    let data = StoreData::new(
        cx,
        limits.memory_bytes,
        log.clone(),
        ToolRoute::Channel(tools),
    );
    let engine = runtime.engine.clone();
    let pre = agent.pre.clone();
    let slot = agent.spare.clone();
    let spares = runtime.spares.clone();
    let fuel = cx.fuel;
    let deadline = engine::deadline_ticks(limits.step_deadline);
    let budget = spare::Budget::of(limits);

    let (done, finished) = mpsc::sync_channel(1);
    let job = Box::new(move || {
        let ready = spare::take(&slot);
        let start = Instant::now();
        let (mut store, ready) = store_for(&engine, ready, data, fuel, deadline);
        let run = panic::catch_unwind(AssertUnwindSafe(|| {
            run_guest(&pre, &mut store, ready, fuel, start, call)
        }));
        // A call that panicked the runtime leaves no spare behind it.
        let store = run.is_ok().then_some(store);
        // Said before the caller has its result, so that its next call
        // waits for this spare instead of instantiating beside it.
        let making = store.as_ref().map(|_| slot.making());
        // The caller waits for these; it is gone only if it panicked itself.
        let _ = done.send(run);
        let _ = returned.send(FromGuest::Returned);
        // Resetting the instance's memories and making the next one take
        // a while for a large agent: the guest thread does both once the
        // caller has its result, before its next job.
        store.map(|store| {
            Box::new(move || {
                drop(store);
                spare::refill(&slot, &spares, &engine, &pre, &budget);
                drop(making);
            }) as Box<dyn FnOnce() + Send>
        })
    });
    let joined = match runtime.guests.run(job) {
        Err(e) => Err(format!("could not start a thread for the guest: {e}")),
        Ok(()) => {
            // Ends when the guest returned, or when its thread dropped every
            // sender without saying so (it cannot).
            for message in requests {
                let request = match message {
                    FromGuest::Tool(request) => request,
                    FromGuest::Returned => break,
                };
                let reply = gate.call(&request.name, &request.args, &request.idempotency_key);
                // The guest may be gone already if it trapped meanwhile.
                let _ = request.reply.send(reply);
            }
            match finished.recv() {
                Ok(Ok(run)) => Ok(run),
                Ok(Err(panic)) => Err(format!("the runtime panicked: {}", panic_message(&*panic))),
                Err(mpsc::RecvError) => Err("the guest thread ended without a result".into()),
            }
        }
    };
    (report(runtime, fuel, log, joined), gate)
}

/// [`call`] on a thread started with a guest's stack: the guest runs here,
/// its tool calls reach `gate` in the store's data, and the store is
/// dropped before returning (its pool slot is free for the next call at
/// once): making a spare would be the same work as instantiating at the
/// next call, and waking another thread for it costs more than a small
/// agent's instantiation. A large agent's store is left to a guest thread,
/// which drops it and makes the next call's instance while the worker
/// commits.
fn call_here<R, G: ToolGate>(
    runtime: &Runtime,
    agent: &LoadedAgent,
    cx: &CallContext<'_>,
    gate: G,
    call: impl FnOnce(&Agent, &mut Store<StoreData>) -> wasmtime::Result<R>,
) -> (CallReport<R>, G) {
    let limits = &runtime.limits;
    let log = LogSink::new(limits.max_log_bytes);
    let route = ToolRoute::Here(Box::new(gate));
    let data = StoreData::new(cx, limits.memory_bytes, log.clone(), route);
    let deadline = engine::deadline_ticks(limits.step_deadline);
    let ready = spare::take(&agent.spare);
    let start = Instant::now();
    // Outside `catch_unwind`: whatever the call does, the store and the
    // gate in it are still here after it.
    let (mut store, ready) = store_for(&runtime.engine, ready, data, cx.fuel, deadline);
    let run = panic::catch_unwind(AssertUnwindSafe(|| {
        run_guest(&agent.pre, &mut store, ready, cx.fuel, start, call)
    }));
    let gate = take_gate(&mut store);
    let joined = match run {
        Ok(run) => {
            if agent.large {
                leave_to_a_guest_thread(runtime, agent, store);
            } else {
                drop(store);
            }
            Ok(run)
        }
        Err(panic) => Err(format!("the runtime panicked: {}", panic_message(&*panic))),
    };
    (report(runtime, cx.fuel, log, joined), gate)
}

/// Takes the gate [`call_here`] put in `store` back out of it; tool calls
/// are closed from then on.
fn take_gate<G: ToolGate>(store: &mut Store<StoreData>) -> G {
    let gate: Box<dyn std::any::Any> = store
        .data_mut()
        .take_gate()
        .expect("the store holds the gate it was given until it is taken out");
    *gate
        .downcast::<G>()
        .expect("the gate taken out is the one put in")
}

/// Drops `store` and makes `agent`'s next spare on a guest thread, while
/// the caller goes on with the step's result.
fn leave_to_a_guest_thread(runtime: &Runtime, agent: &LoadedAgent, store: Store<StoreData>) {
    let (slot, spares) = (agent.spare.clone(), runtime.spares.clone());
    let (engine, pre) = (runtime.engine.clone(), agent.pre.clone());
    let budget = spare::Budget::of(&runtime.limits);
    // Said now, so that the next call waits for this spare instead of
    // instantiating beside it.
    let making = slot.making();
    // When no thread can be started the job is dropped unrun: the store
    // is dropped with it, no spare is made, and `making` says so.
    let _ = runtime.guests.run(Box::new(move || {
        drop(store);
        spare::refill(&slot, &spares, &engine, &pre, &budget);
        drop(making);
        None
    }));
}

/// The report of a call that ran (or could not), with the guest's logs.
fn report<R>(
    runtime: &Runtime,
    fuel: u64,
    log: LogSink,
    joined: Result<GuestRun<R>, String>,
) -> CallReport<R> {
    let limits = &runtime.limits;
    let mut logs = log.lines();
    let run = match joined {
        Ok(run) => run,
        Err(message) => {
            return CallReport {
                result: Err(StepFailure::HostFault(message)),
                fuel_used: 0,
                logs,
                wall: Duration::ZERO,
            };
        }
    };
    let result = run.result.map_err(|error| {
        let failure = outcome::classify(
            &error,
            &TrapContext {
                limits,
                fuel,
                memory_refused: run.memory_refused,
            },
        );
        if let Some(trace) = outcome::backtrace(&error) {
            logs.push(LogLine {
                level: LogLevel::Error,
                source: "trap".into(),
                message: trace,
            });
        }
        match failure {
            StepFailure::Trap(trap) => {
                StepFailure::Trap(outcome::trap_message(&trap, &logs).unwrap_or(trap))
            }
            other => other,
        }
    });
    CallReport {
        result,
        fuel_used: run.fuel_used,
        logs,
        wall: run.wall,
    }
}

/// The store of one call: the spare's, with its instance, if the call
/// could have paid for instantiating it; else a new one, to instantiate in.
/// A call that cannot pay for the spare instantiates and runs out of fuel
/// doing so, as it would have without spares.
fn store_for(
    engine: &Engine,
    ready: Option<Spare>,
    data: StoreData,
    fuel: u64,
    deadline_ticks: u64,
) -> (Store<StoreData>, wasmtime::Result<Option<Agent>>) {
    match ready.filter(|spare| spare.fuel_used <= fuel) {
        Some(spare) => {
            let Spare {
                mut store,
                agent,
                fuel_used,
                ..
            } = spare;
            store.data_mut().rebind(data);
            store.set_epoch_deadline(deadline_ticks);
            let fuel_set = store.set_fuel(fuel - fuel_used);
            (store, fuel_set.map(|()| Some(agent)))
        }
        None => {
            let mut store = Store::new(engine, data);
            store.limiter(|data| &mut data.limiter);
            let fuel_set = store.set_fuel(fuel).map(|()| {
                store.set_epoch_deadline(deadline_ticks);
                store.epoch_deadline_trap();
                None
            });
            (store, fuel_set)
        }
    }
}

/// Runs one call in `store`, instantiating the agent first unless the
/// store is a spare's that holds its instance.
fn run_guest<R>(
    pre: &AgentPre<StoreData>,
    store: &mut Store<StoreData>,
    ready: wasmtime::Result<Option<Agent>>,
    fuel: u64,
    start: Instant,
    call: impl FnOnce(&Agent, &mut Store<StoreData>) -> wasmtime::Result<R>,
) -> GuestRun<R> {
    let instance = ready.and_then(|agent| match agent {
        Some(agent) => Ok(agent),
        None => pre.instantiate(&mut *store),
    });
    let result = instance.and_then(|agent| call(&agent, store));
    let wall = start.elapsed();
    let fuel_left = store.get_fuel().unwrap_or(0);
    GuestRun {
        result,
        fuel_used: fuel.saturating_sub(fuel_left),
        memory_refused: store.data().limiter.refused(),
        wall,
    }
}

fn panic_message(panic: &(dyn std::any::Any + Send)) -> &str {
    panic
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| panic.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("(no message)")
}

/// The gate of calls that may not use tools (`info`, `migrate`).
pub(super) struct NoTools(pub &'static str);

impl ToolGate for NoTools {
    fn call(&mut self, _name: &str, _args: &str, _key: &str) -> ToolReply {
        Ok(Err(ToolError::Denied(self.0.into())))
    }
}

/// Keeps a guest's error message to a size an operator can read.
pub(super) fn truncate_message(mut message: String, limit: usize) -> String {
    if message.len() > limit {
        let cut = message.len() - limit;
        message.truncate(message.floor_char_boundary(limit));
        message.push_str(&format!("… ({cut} more bytes)"));
    }
    message
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::super::{Limits, Runtime, StepFailure, StepInput};
    use super::*;
    use crate::model::Wake;

    /// The hostile test agent, built by `scripts/build-agents.sh`: its
    /// `toolflood` mode makes 200 tool calls in one step.
    fn hostile(runtime: &Runtime) -> Arc<LoadedAgent> {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../agents/target/wasm32-wasip2/release/hostile.wasm"
        );
        let bytes = std::fs::read(path)
            .unwrap_or_else(|e| panic!("{path}: {e}; build it with scripts/build-agents.sh"));
        runtime.load(&bytes).unwrap()
    }

    fn runtime() -> (Runtime, std::path::PathBuf) {
        let dir = std::env::temp_dir().join(format!(
            "wakeful-exec-test-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        (Runtime::new(&dir, Limits::default()).unwrap(), dir)
    }

    fn flood(run: &str) -> StepInput {
        StepInput {
            run_id: run.into(),
            step_number: 1,
            now_ms: 0,
            state: "null".into(),
            wake: Wake::Start {
                input: r#"{"mode": "toolflood", "tool": "kv"}"#.into(),
            },
            fuel_left: None,
        }
    }

    /// The outcome of a step that finished, else why not.
    fn outcome(result: Result<crate::model::StepResult, StepFailure>) -> String {
        match result.map(|r| r.next) {
            Ok(crate::model::Next::Done { outcome }) => outcome,
            other => format!("{other:?}"),
        }
    }

    /// Counts the calls it answers, and refuses each.
    struct Counting(u32);

    impl ToolGate for Counting {
        fn call(&mut self, _: &str, _: &str, _: &str) -> ToolReply {
            self.0 += 1;
            Ok(Err(ToolError::Denied("counted".into())))
        }
    }

    #[test]
    fn the_gate_comes_back_from_a_guest_thread_and_from_a_call_in_place() {
        let (runtime, dir) = runtime();
        let agent = hostile(&runtime);
        // This thread was not started as a worker: the guest runs on a
        // guest thread and its calls come back over a channel.
        let (report, gate) = runtime.step(&agent, &flood("away"), Counting(0));
        assert_eq!(outcome(report.result), "200 calls refused");
        assert_eq!(gate.0, 200);
        // On a worker thread the gate goes into the store and back out.
        let (ended, calls) = super::super::run_on_worker("test-worker".into(), || {
            let (report, gate) = runtime.step(&agent, &flood("here"), Counting(0));
            (outcome(report.result), gate.0)
        })
        .unwrap();
        assert_eq!(ended, "200 calls refused");
        assert_eq!(calls, 200);
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_gate_that_panics_in_place_comes_back_and_the_step_is_a_host_fault() {
        /// Panics on its third call, counting the calls it was given.
        struct Panics(u32);
        impl ToolGate for Panics {
            fn call(&mut self, _: &str, _: &str, _: &str) -> ToolReply {
                self.0 += 1;
                assert!(self.0 < 3, "the gate failed");
                Ok(Err(ToolError::Denied("counted".into())))
            }
        }
        let (runtime, dir) = runtime();
        let agent = hostile(&runtime);
        let (result, calls) = super::super::run_on_worker("test-worker".into(), || {
            let (report, gate) = runtime.step(&agent, &flood("here"), Panics(0));
            (report.result, gate.0)
        })
        .unwrap();
        assert_eq!(calls, 3, "the gate that panicked is the one given back");
        match result {
            Err(StepFailure::HostFault(message)) => {
                assert!(message.contains("the gate failed"), "{message}");
            }
            other => panic!("expected a host fault, got {other:?}"),
        }
        std::fs::remove_dir_all(dir).unwrap();
    }
}
