//! The host's store, which a step lends to its gate: the gate lives in the
//! guest's wasmtime store for the step, whose data must own what it uses,
//! so the store moves into the gate and back out with it.

use std::ops::{Deref, DerefMut};

use crate::store::SqlStore;

/// The store, or nothing while a step's gate holds it.
pub struct StoreSlot(Option<Box<SqlStore>>);

impl StoreSlot {
    pub fn new(store: SqlStore) -> StoreSlot {
        StoreSlot(Some(Box::new(store)))
    }

    /// Takes the store out for a step's gate; [`give_back`](Self::give_back)
    /// puts it back. The slot is empty meanwhile: the step is the only user
    /// of the store while it runs.
    pub fn lend(&mut self) -> Box<SqlStore> {
        self.0.take().expect(LENT)
    }

    /// Puts the store a gate held back in its slot.
    pub fn give_back(&mut self, store: Box<SqlStore>) {
        debug_assert!(self.0.is_none(), "a store was given back twice");
        self.0 = Some(store);
    }
}

/// A use of the store while a step holds it is a bug in the worker: the
/// worker is the only thread using this `App`, and it waits for the step.
const LENT: &str = "the store is lent to a step's gate";

impl Deref for StoreSlot {
    type Target = SqlStore;

    fn deref(&self) -> &SqlStore {
        self.0.as_deref().expect(LENT)
    }
}

impl DerefMut for StoreSlot {
    fn deref_mut(&mut self) -> &mut SqlStore {
        self.0.as_deref_mut().expect(LENT)
    }
}
