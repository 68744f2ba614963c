//! One call into a guest, start to finish: a fresh store with its limits,
//! while the calling thread answers the guest's tool calls through the
//! [`ToolGate`].
//!
//! On a worker thread started with a guest's stack the guest runs in place
//! (`here.rs`). Elsewhere it runs on a guest thread, because a `Store`'s
//! data must be `'static` and the gate is a borrowed `&mut dyn ToolGate`:
//! the gate stays on the caller's thread and tool calls reach it over a
//! channel. The guest threads (`threads.rs`) also give the guest a native
//! stack of known size whatever thread the caller is on. They outlive
//! calls, so what a call hands them is owned; nothing of one call's store
//! is left on the thread for the next.

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

/// Instantiates `agent` in a fresh store for `cx` and runs `call` on it.
pub(super) fn call<R: Send + 'static>(
    runtime: &Runtime,
    agent: &LoadedAgent,
    cx: &CallContext<'_>,
    gate: &mut dyn ToolGate,
    call: impl FnOnce(&Agent, &mut Store<StoreData>) -> wasmtime::Result<R> + Send + 'static,
) -> CallReport<R> {
    if super::here::on_this_thread() {
        return call_here(runtime, agent, cx, gate, call);
    }
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
        let run = panic::catch_unwind(AssertUnwindSafe(|| {
            run_guest(&engine, &pre, ready, data, fuel, deadline, call)
        }));
        let (run, store) = match run {
            Ok((run, store)) => (Ok(run), Some(store)),
            Err(panic) => (Err(panic), None),
        };
        // Said before the caller has its result, so that its next call
        // waits for this spare instead of instantiating beside it.
        let making = store.as_ref().map(|_| slot.making());
        // The caller waits for these; it is gone only if it panicked itself.
        let _ = done.send(run);
        let _ = returned.send(FromGuest::Returned);
        // Resetting the instance's memories and making the next one take
        // a while for a large agent: the guest thread does both once the
        // caller has its result, before its next job. A call that
        // panicked the runtime leaves no spare behind it.
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

    report(runtime, fuel, log, joined)
}

/// [`call`] on a thread started with a guest's stack: the guest runs here,
/// its tool calls reach `gate` directly, and the store is dropped before
/// returning (its pool slot is free for the next call at once): making a
/// spare would be the same work as instantiating at the next call, and
/// waking another thread for it costs more than a small agent's
/// instantiation. A large agent's store is left to a guest thread, which
/// drops it and makes the next call's instance while the worker commits.
fn call_here<R>(
    runtime: &Runtime,
    agent: &LoadedAgent,
    cx: &CallContext<'_>,
    gate: &mut dyn ToolGate,
    call: impl FnOnce(&Agent, &mut Store<StoreData>) -> wasmtime::Result<R>,
) -> CallReport<R> {
    let limits = &runtime.limits;
    let log = LogSink::new(limits.max_log_bytes);
    let data = StoreData::new(cx, limits.memory_bytes, log.clone(), ToolRoute::Here);
    let deadline = engine::deadline_ticks(limits.step_deadline);
    let ready = spare::take(&agent.spare);
    let run = {
        let _loan = super::here::lend(gate);
        panic::catch_unwind(AssertUnwindSafe(|| {
            run_guest(
                &runtime.engine,
                &agent.pre,
                ready,
                data,
                cx.fuel,
                deadline,
                call,
            )
        }))
    };
    let joined = match run {
        Ok((run, store)) => {
            if agent.large {
                leave_to_a_guest_thread(runtime, agent, store);
            } else {
                drop(store);
            }
            Ok(run)
        }
        Err(panic) => Err(format!("the runtime panicked: {}", panic_message(&*panic))),
    };
    report(runtime, cx.fuel, log, joined)
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

/// Runs one call in the spare instance if there is one, else in a new
/// store, and hands the store back to be dropped once the caller has the
/// result.
fn run_guest<R>(
    engine: &Engine,
    pre: &AgentPre<StoreData>,
    ready: Option<Spare>,
    data: StoreData,
    fuel: u64,
    deadline_ticks: u64,
    call: impl FnOnce(&Agent, &mut Store<StoreData>) -> wasmtime::Result<R>,
) -> (GuestRun<R>, Store<StoreData>) {
    let start = Instant::now();
    // A spare is used only if the call could have paid for instantiating
    // it; otherwise the call instantiates and runs out of fuel doing so,
    // as it would have without spares.
    let (mut store, instance) = match ready.filter(|spare| spare.fuel_used <= fuel) {
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
            (store, fuel_set.map(|()| agent))
        }
        None => {
            let mut store = Store::new(engine, data);
            store.limiter(|data| &mut data.limiter);
            let instance = store.set_fuel(fuel).and_then(|()| {
                store.set_epoch_deadline(deadline_ticks);
                store.epoch_deadline_trap();
                pre.instantiate(&mut store)
            });
            (store, instance)
        }
    };
    let result = instance.and_then(|agent| call(&agent, &mut store));
    let wall = start.elapsed();
    let fuel_left = store.get_fuel().unwrap_or(0);
    let run = GuestRun {
        result,
        fuel_used: fuel.saturating_sub(fuel_left),
        memory_refused: store.data().limiter.refused(),
        wall,
    };
    (run, store)
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
