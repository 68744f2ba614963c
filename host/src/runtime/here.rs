//! Guests run on the calling thread itself when that thread was started
//! with a guest's stack ([`spawn_worker`]): a step then costs no hand-off
//! to a guest thread and back, and a tool call is a plain function call
//! into the gate instead of a round trip over channels, each of which woke
//! a sleeping thread (a futex wake and a context switch on each side).
//!
//! A `Store`'s data must be `'static`, while the gate borrows the worker's
//! store for the step: the gate is lent to the thread for the call only
//! ([`lend`]), and the guest's tool calls find it there. Other threads
//! (the API's, a test's) still hand their guests to guest threads.

use std::cell::Cell;
use std::ptr::NonNull;

use super::{HostFault, ToolGate, ToolReply, engine};

thread_local! {
    /// Whether this thread's native stack holds a guest's.
    static GUESTS_RUN_HERE: Cell<bool> = const { Cell::new(false) };
    /// The gate of the call running on this thread, while it runs and is
    /// not in a tool call already.
    static GATE: Cell<Option<NonNull<dyn ToolGate>>> = const { Cell::new(None) };
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

/// The gate lent to this thread until the loan is dropped.
pub(super) struct Loan {
    before: Option<NonNull<dyn ToolGate>>,
}

/// Lends `gate` to the guest call about to run on this thread.
pub(super) fn lend(gate: &mut dyn ToolGate) -> Loan {
    let ptr: NonNull<dyn ToolGate + '_> = NonNull::from(gate);
    // SAFETY: only the lifetime is erased. The pointer is reachable only
    // through `GATE` on this thread, and `Loan::drop` (which runs on
    // unwinding too) takes it out before the borrow of `gate` ends.
    #[allow(unsafe_code)]
    let ptr: NonNull<dyn ToolGate> = unsafe { std::mem::transmute(ptr) };
    Loan {
        before: GATE.replace(Some(ptr)),
    }
}

impl Drop for Loan {
    fn drop(&mut self) {
        GATE.set(self.before.take());
    }
}

/// Answers a guest's tool call with the gate lent to this thread.
pub(super) fn call_gate(name: &str, args: &str, key: &str) -> ToolReply {
    // Taken out for the call: a call that came back here (it cannot) would
    // find no gate rather than a second `&mut` to it.
    let Some(mut gate) = GATE.take() else {
        return Err(HostFault(
            "no gate answers tool calls on this thread".into(),
        ));
    };
    struct PutBack(NonNull<dyn ToolGate>);
    impl Drop for PutBack {
        fn drop(&mut self) {
            GATE.set(Some(self.0));
        }
    }
    let _back = PutBack(gate);
    // SAFETY: the pointer came from a `&mut` lent by `lend` whose loan is
    // still alive (it is dropped only after the guest call returns, and
    // this runs inside that call), and it is out of `GATE` meanwhile, so
    // this is the only reference to the gate.
    #[allow(unsafe_code)]
    let gate = unsafe { gate.as_mut() };
    gate.call(name, args, key)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Answers every call with its tool's name and the gate's own label.
    struct Echo(&'static str, usize);

    impl ToolGate for Echo {
        fn call(&mut self, name: &str, _args: &str, _key: &str) -> ToolReply {
            self.1 += 1;
            Ok(Ok(format!("{} from {}", name, self.0)))
        }
    }

    #[test]
    fn a_call_reaches_the_lent_gate_and_none_once_the_loan_ends() {
        assert!(call_gate("kv", "{}", "k").is_err(), "no gate before a loan");
        let mut gate = Echo("outer", 0);
        {
            let _loan = lend(&mut gate);
            assert_eq!(
                call_gate("kv", "{}", "k").unwrap().unwrap(),
                "kv from outer"
            );
            assert_eq!(
                call_gate("llm", "{}", "k").unwrap().unwrap(),
                "llm from outer"
            );
        }
        assert_eq!(gate.1, 2);
        let fault = call_gate("kv", "{}", "k").unwrap_err();
        assert!(fault.0.contains("no gate"), "{fault}");
    }

    #[test]
    fn a_nested_loan_gives_the_outer_gate_back() {
        let mut outer = Echo("outer", 0);
        let _outer = lend(&mut outer);
        {
            let mut inner = Echo("inner", 0);
            let _inner = lend(&mut inner);
            assert_eq!(call_gate("kv", "", "k").unwrap().unwrap(), "kv from inner");
        }
        assert_eq!(call_gate("kv", "", "k").unwrap().unwrap(), "kv from outer");
    }

    #[test]
    fn a_gate_that_panics_is_put_back_and_the_loan_still_ends() {
        struct Panics;
        impl ToolGate for Panics {
            fn call(&mut self, _: &str, _: &str, _: &str) -> ToolReply {
                panic!("the gate failed");
            }
        }
        let mut gate = Panics;
        let loan = lend(&mut gate);
        let caught = std::panic::catch_unwind(|| call_gate("kv", "", "k"));
        assert!(caught.is_err());
        drop(loan);
        assert!(call_gate("kv", "", "k").is_err());
    }

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
