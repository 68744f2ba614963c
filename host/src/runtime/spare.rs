//! Instances made ahead of their call. Once a call of an agent has
//! returned, its guest thread instantiates the agent again and keeps the
//! instance beside the compiled agent, so that the next call of that agent
//! starts at its export instead of paying for instantiation: for a Python
//! agent, linking 14 core instances and filling thousands of table
//! elements, a third of its guest thread's time.
//!
//! A spare has never been called: it holds exactly what instantiation
//! makes, so taking one is the same as instantiating at the call. It was
//! made in a sandbox of no run (clock at 0, a fixed seed, output kept
//! apart), which the call replaces with its own before the guest runs
//! ([`StoreData::rebind`]); what instantiation charged (fuel, memory)
//! stays charged to the call. At most [`MAX_SPARES`] exist in a process,
//! each holding one slot of the instance pool.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError, mpsc};

use wasmtime::{Engine, Store};

use super::bindings::{Agent, AgentPre};
use super::output::LogSink;
use super::sandbox::{CallContext, StoreData, ToolRoute};

/// Spares a process keeps at once: the agents stepped most recently each
/// have one, and the instance pool keeps its other slots for calls.
pub(super) const MAX_SPARES: usize = 8;

/// An instantiated agent that no call has used yet.
pub(super) struct Spare {
    pub store: Store<StoreData>,
    pub agent: Agent,
    /// Fuel instantiation burned: the call is charged for it.
    pub fuel_used: u64,
    _counted: Counted,
}

/// Where one loaded agent keeps its spare.
pub(super) type SpareSlot = Arc<Mutex<Option<Spare>>>;

/// Takes the slot's spare, if it has one.
pub(super) fn take(slot: &SpareSlot) -> Option<Spare> {
    slot.lock().unwrap_or_else(PoisonError::into_inner).take()
}

/// The process's count of spares, bounded by [`MAX_SPARES`].
#[derive(Clone, Default)]
pub(super) struct SpareCount(Arc<AtomicUsize>);

/// One spare counted until it is dropped.
struct Counted(Arc<AtomicUsize>);

impl Drop for Counted {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

impl SpareCount {
    fn reserve(&self) -> Option<Counted> {
        self.0
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                (n < MAX_SPARES).then_some(n + 1)
            })
            .ok()
            .map(|_| Counted(Arc::clone(&self.0)))
    }

    /// Spares alive now (for tests).
    #[cfg(test)]
    pub(super) fn live(&self) -> usize {
        self.0.load(Ordering::Acquire)
    }
}

/// What instantiating a spare may use.
pub(super) struct Budget {
    pub fuel: u64,
    pub memory_bytes: usize,
    pub deadline_ticks: u64,
}

impl Budget {
    /// What a call under `limits` may use.
    pub(super) fn of(limits: &super::Limits) -> Budget {
        Budget {
            fuel: limits.fuel_per_step,
            memory_bytes: limits.memory_bytes,
            deadline_ticks: super::engine::deadline_ticks(limits.step_deadline),
        }
    }
}

/// Puts a new spare in `slot` unless it has one or the process has its
/// most. An agent whose instantiation fails (a start function that traps
/// or calls out) gets none: each of its calls instantiates, and fails, as
/// it would have without spares.
pub(super) fn refill(
    slot: &SpareSlot,
    count: &SpareCount,
    engine: &Engine,
    pre: &AgentPre<StoreData>,
    budget: &Budget,
) {
    if slot
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .is_some()
    {
        return;
    }
    let Some(counted) = count.reserve() else {
        return;
    };
    let Some(spare) = instantiate(engine, pre, budget, counted) else {
        return;
    };
    let mut kept = slot.lock().unwrap_or_else(PoisonError::into_inner);
    // Another thread may have refilled it meanwhile: one spare is kept.
    if kept.is_none() {
        *kept = Some(spare);
    }
}

fn instantiate(
    engine: &Engine,
    pre: &AgentPre<StoreData>,
    budget: &Budget,
    counted: Counted,
) -> Option<Spare> {
    let cx = CallContext {
        run_id: "",
        step_number: 0,
        now_ms: 0,
        fuel: budget.fuel,
    };
    // Nobody answers tool calls: one made while instantiating fails it.
    let (tools, _) = mpsc::channel();
    let data = StoreData::new(
        &cx,
        budget.memory_bytes,
        LogSink::new(0),
        ToolRoute::Channel(tools),
    );
    let mut store = Store::new(engine, data);
    store.limiter(|data| &mut data.limiter);
    store.set_fuel(budget.fuel).ok()?;
    store.set_epoch_deadline(budget.deadline_ticks);
    store.epoch_deadline_trap();
    let agent = pre.instantiate(&mut store).ok()?;
    let fuel_left = store.get_fuel().ok()?;
    Some(Spare {
        store,
        agent,
        fuel_used: budget.fuel.saturating_sub(fuel_left),
        _counted: counted,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_count_stops_at_its_most_and_frees_a_place_per_drop() {
        let count = SpareCount::default();
        let mut held: Vec<Counted> = (0..MAX_SPARES).map_while(|_| count.reserve()).collect();
        assert_eq!(held.len(), MAX_SPARES);
        assert!(count.reserve().is_none());
        held.pop();
        assert_eq!(count.live(), MAX_SPARES - 1);
        assert!(count.reserve().is_some());
    }
}
