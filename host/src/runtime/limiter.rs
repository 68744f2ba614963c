//! The memory limit of one store: all linear memories and tables of the
//! guest's instances count against one budget.

use wasmtime::ResourceLimiter;

/// Bytes charged per table element (a pointer on 64-bit hosts).
const TABLE_ELEMENT_BYTES: usize = 8;

/// Instances, memories and tables one store may create. Components compiled
/// from Python or JavaScript have dozens of core instances but few memories;
/// each memory reserves address space, so their number is kept small.
const MAX_INSTANCES: usize = 10_000;
const MAX_MEMORIES: usize = 100;
const MAX_TABLES: usize = 10_000;

/// The error a refused grow traps with, so that the failure is classified by
/// type rather than by message.
#[derive(Debug, thiserror::Error)]
#[error("the guest tried to use {desired} bytes of memory; the limit is {limit} bytes")]
pub(super) struct MemoryLimitExceeded {
    pub desired: usize,
    pub limit: usize,
}

/// Tracks the bytes a store's memories and tables use and refuses growth
/// beyond `limit` by trapping.
pub(super) struct MemoryLimiter {
    limit: usize,
    /// Sum of the sizes granted so far to every memory and table.
    used: usize,
    /// Set when a grow was refused; a guest allocator that aborts after a
    /// failed grow shows up as `unreachable`, and this tells them apart.
    refused: bool,
}

impl MemoryLimiter {
    pub(super) fn new(limit: usize) -> Self {
        Self {
            limit,
            used: 0,
            refused: false,
        }
    }

    /// Whether any grow was refused during the step.
    pub(super) fn refused(&self) -> bool {
        self.refused
    }

    fn grow(&mut self, current: usize, desired: usize) -> wasmtime::Result<bool> {
        let extra = desired.saturating_sub(current);
        match self.used.checked_add(extra) {
            Some(total) if total <= self.limit => {
                self.used = total;
                Ok(true)
            }
            _ => {
                self.refused = true;
                Err(MemoryLimitExceeded {
                    desired: self.used.saturating_add(extra),
                    limit: self.limit,
                }
                .into())
            }
        }
    }
}

impl ResourceLimiter for MemoryLimiter {
    fn memory_growing(
        &mut self,
        current: usize,
        desired: usize,
        maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        // Growing past the memory's own declared maximum is ordinary guest
        // behaviour (`memory.grow` returns -1), not a host limit.
        if maximum.is_some_and(|max| desired > max) {
            return Ok(false);
        }
        self.grow(current, desired)
    }

    fn table_growing(
        &mut self,
        current: usize,
        desired: usize,
        maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        if maximum.is_some_and(|max| desired > max) {
            return Ok(false);
        }
        self.grow(
            current.saturating_mul(TABLE_ELEMENT_BYTES),
            desired.saturating_mul(TABLE_ELEMENT_BYTES),
        )
    }

    fn instances(&self) -> usize {
        MAX_INSTANCES
    }

    fn memories(&self) -> usize {
        MAX_MEMORIES
    }

    fn tables(&self) -> usize {
        MAX_TABLES
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memories_and_tables_share_one_budget() {
        let mut limiter = MemoryLimiter::new(1000);
        assert!(limiter.memory_growing(0, 600, None).unwrap());
        assert!(limiter.table_growing(0, 50, None).unwrap()); // 400 bytes
        let err = limiter.memory_growing(600, 601, None).unwrap_err();
        assert!(err.downcast_ref::<MemoryLimitExceeded>().is_some());
        assert!(limiter.refused());
    }

    #[test]
    fn a_declared_maximum_is_not_a_host_limit() {
        let mut limiter = MemoryLimiter::new(1000);
        assert!(!limiter.memory_growing(0, 600, Some(500)).unwrap());
        assert!(!limiter.refused());
    }
}
