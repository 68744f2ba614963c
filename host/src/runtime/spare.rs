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
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::{Duration, Instant};

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
pub(super) type SpareSlot = Slot<Spare>;

/// The longest a call waits for a spare being made before it
/// instantiates on its own: making one takes well under a millisecond
/// (resetting the last call's memory, then instantiating), so this bound
/// only matters when the guest thread is stuck behind other work.
const MAX_WAIT: Duration = Duration::from_millis(5);

/// One thing made ahead of its use, and whether one is being made: a
/// call that finds the slot empty while a guest thread is making its
/// spare waits for it rather than instantiating too. Instantiating in
/// place would cost the call the whole instantiation (a Python agent's
/// thousands of table elements), on a core the spare's maker is using,
/// while the wait costs only what is left of it.
pub(super) struct Slot<T> {
    inner: Arc<SlotInner<T>>,
}

struct SlotInner<T> {
    state: Mutex<SlotState<T>>,
    made: Condvar,
}

struct SlotState<T> {
    ready: Option<T>,
    /// Makers at work ([`Making`] guards alive).
    making: usize,
}

impl<T> Default for Slot<T> {
    fn default() -> Self {
        Slot {
            inner: Arc::new(SlotInner {
                state: Mutex::new(SlotState {
                    ready: None,
                    making: 0,
                }),
                made: Condvar::new(),
            }),
        }
    }
}

impl<T> Clone for Slot<T> {
    fn clone(&self) -> Self {
        Slot {
            inner: Arc::clone(&self.inner),
        }
    }
}

/// Says that a spare for a slot is being made, until it is dropped (made,
/// given up on, or its job dropped unrun); then its waiters look again.
pub(super) struct Making<T> {
    slot: Slot<T>,
}

impl<T> Drop for Making<T> {
    fn drop(&mut self) {
        let mut state = self.slot.lock();
        state.making = state.making.saturating_sub(1);
        drop(state);
        self.slot.inner.made.notify_all();
    }
}

impl<T> Slot<T> {
    fn lock(&self) -> std::sync::MutexGuard<'_, SlotState<T>> {
        self.inner
            .state
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// Marks a spare as being made for this slot, until the guard drops.
    pub(super) fn making(&self) -> Making<T> {
        self.lock().making += 1;
        Making { slot: self.clone() }
    }

    /// Whether the slot holds a spare.
    fn is_full(&self) -> bool {
        self.lock().ready.is_some()
    }

    /// Keeps `spare` unless the slot has one already.
    fn put(&self, spare: T) {
        let mut state = self.lock();
        if state.ready.is_none() {
            state.ready = Some(spare);
        }
    }

    /// Takes the slot's spare; when it has none but one is being made,
    /// waits for it (at most `max_wait`).
    pub(super) fn take_waiting(&self, max_wait: Duration) -> Option<T> {
        let deadline = Instant::now() + max_wait;
        let mut state = self.lock();
        loop {
            if let Some(spare) = state.ready.take() {
                return Some(spare);
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if state.making == 0 || left.is_zero() {
                return None;
            }
            state = self
                .inner
                .made
                .wait_timeout(state, left)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
    }
}

/// Takes the slot's spare, waiting for one being made.
pub(super) fn take(slot: &SpareSlot) -> Option<Spare> {
    slot.take_waiting(MAX_WAIT)
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
    if slot.is_full() {
        return;
    }
    let Some(counted) = count.reserve() else {
        return;
    };
    let Some(spare) = instantiate(engine, pre, budget, counted) else {
        return;
    };
    // Another thread may have refilled it meanwhile: one spare is kept.
    slot.put(spare);
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
    let data = StoreData::new(&cx, budget.memory_bytes, LogSink::new(0), ToolRoute::Closed);
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

    #[test]
    fn a_take_waits_for_the_spare_being_made_and_not_when_none_is() {
        let slot: Slot<u32> = Slot::default();
        assert_eq!(
            slot.take_waiting(Duration::from_secs(60)),
            None,
            "nothing is being made"
        );
        let making = slot.making();
        let maker = {
            let slot = slot.clone();
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(20));
                slot.put(7);
                drop(making);
            })
        };
        assert_eq!(slot.take_waiting(Duration::from_secs(60)), Some(7));
        maker.join().unwrap();
        assert_eq!(
            slot.take_waiting(Duration::from_secs(60)),
            None,
            "taken once"
        );
    }

    #[test]
    fn a_maker_that_gives_up_wakes_its_waiter_empty_handed() {
        let slot: Slot<u32> = Slot::default();
        let making = slot.making();
        let quitter = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(20));
            drop(making);
        });
        // Would wait a minute if giving up did not wake it.
        let t = Instant::now();
        assert_eq!(slot.take_waiting(Duration::from_secs(60)), None);
        assert!(
            t.elapsed() < Duration::from_secs(30),
            "woken by the maker giving up"
        );
        quitter.join().unwrap();
    }

    #[test]
    fn a_take_gives_up_on_a_maker_past_its_bound() {
        let slot: Slot<u32> = Slot::default();
        let _making = slot.making();
        assert_eq!(slot.take_waiting(Duration::from_millis(10)), None);
    }
}
