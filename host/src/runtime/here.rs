//! Guests run on the calling thread itself when that thread was started
//! with a guest's stack ([`spawn_worker`]): a step then costs no hand-off
//! to a guest thread and back, and a tool call is a plain function call
//! into the gate instead of a round trip over channels, each of which woke
//! a sleeping thread (a futex wake and a context switch on each side).
//!
//! The gate of the call goes into the guest's store for the call
//! (`exec.rs`); other threads (the API's, a test's) still hand their
//! guests to guest threads.

use std::cell::Cell;

use super::engine;

thread_local! {
    /// Whether this thread's native stack holds a guest's.
    static GUESTS_RUN_HERE: Cell<bool> = const { Cell::new(false) };
}

/// Starts a worker thread named `name` running `f`: a thread with a
/// guest's native stack, whose steps run their guest in place.
pub fn spawn_worker<T: Send + 'static>(
    name: String,
    f: impl FnOnce() -> T + Send + 'static,
) -> std::io::Result<std::thread::JoinHandle<T>> {
    with_guest_stack(name).spawn(move || {
        GUESTS_RUN_HERE.set(true);
        f()
    })
}

/// [`spawn_worker`] within `scope`, for a worker that borrows.
pub fn spawn_worker_scoped<'scope, T: Send + 'scope>(
    scope: &'scope std::thread::Scope<'scope, '_>,
    name: String,
    f: impl FnOnce() -> T + Send + 'scope,
) -> std::io::Result<std::thread::ScopedJoinHandle<'scope, T>> {
    with_guest_stack(name).spawn_scoped(scope, move || {
        GUESTS_RUN_HERE.set(true);
        f()
    })
}

/// Runs `f` on a worker thread named `name` and returns what it returns
/// (a panic in `f` goes on in the caller).
pub fn run_on_worker<T: Send>(name: String, f: impl FnOnce() -> T + Send) -> std::io::Result<T> {
    std::thread::scope(|scope| {
        let worker = spawn_worker_scoped(scope, name, f)?;
        Ok(worker
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
    })
}

fn with_guest_stack(name: String) -> std::thread::Builder {
    std::thread::Builder::new()
        .name(name)
        .stack_size(engine::GUEST_THREAD_STACK)
}

pub(super) fn on_this_thread() -> bool {
    GUESTS_RUN_HERE.get()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_worker_threads_run_guests_in_place() {
        assert!(!on_this_thread());
        let spawned = spawn_worker("test-worker".into(), on_this_thread)
            .unwrap()
            .join()
            .unwrap();
        assert!(spawned);
        assert!(run_on_worker("test-worker".into(), on_this_thread).unwrap());
        assert!(!on_this_thread());
    }
}
