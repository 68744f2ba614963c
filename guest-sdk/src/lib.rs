//! Write wakeful agents in plain Rust.
//!
//! An agent is a step function over a typed state: the host loads the run's
//! state, calls [`Agent::step`] with the reason it woke ([`Wake`]), saves the
//! new state and puts the run to sleep until what the returned [`Step`] waits
//! for happens. Side effects go through [`tools`], each call with an
//! idempotency key. The SDK hides the WebAssembly plumbing: agents depend on
//! this crate and `serde`, build as a `cdylib` for `wasm32-wasip2`, and end
//! with [`export_agent!`].
//!
//! # A complete agent
//!
//! ```no_run
//! use wakeful_sdk::prelude::*;
//!
//! #[derive(Default, Serialize, Deserialize)]
//! struct State {
//!     filed: Option<String>,
//! }
//!
//! struct InvoiceMail;
//!
//! impl Agent for InvoiceMail {
//!     type State = State;
//!     const TOOLS: &'static [&'static str] = &["kv"];
//!     const DESCRIPTION: &'static str = "Files the invoice email once it arrives.";
//!
//!     fn step(state: &mut State, wake: Wake) -> Result<Step, String> {
//!         match wake {
//!             Wake::Event(mail) if mail.topic == "mail:invoice" => {
//!                 let key = format!("invoices/{}", mail.id);
//!                 // Keyed by the mail, so a retried step files it once.
//!                 kv::put(&key, &mail.payload, None, &format!("file:{}", mail.id))
//!                     .map_err(|e| format!("kv put {key}: {e}"))?;
//!                 log::info(format!("filed {key}"));
//!                 state.filed = Some(mail.id.clone());
//!                 Ok(Step::done(format!("filed invoice mail {}", mail.id)).status("invoice filed"))
//!             }
//!             // The start, and anything else while waiting: keep waiting.
//!             _ => Ok(Step::wait_event("mail:invoice").status("waiting on the invoice email")),
//!         }
//!     }
//! }
//!
//! wakeful_sdk::export_agent!(InvoiceMail);
//! ```
//!
//! This is `agents/invoice-mail`. Its `Cargo.toml`:
//!
//! ```toml
//! [package]
//! name = "invoice-mail"        # the agent's name in the host
//! version = "0.1.0"            # the agent version's semver
//! edition = "2024"
//!
//! [lib]
//! crate-type = ["cdylib"]
//!
//! [dependencies]
//! wakeful-sdk = { path = "../guest-sdk" }
//! serde = { version = "1", features = ["derive"] }
//! ```
//!
//! Build it with `cargo build --release --target wasm32-wasip2`: the
//! `.wasm` file is a component, ready to deploy.
//!
//! # Layout
//!
//! | concept | module |
//! |---|---|
//! | the trait an agent implements | `agent.rs`: [`Agent`] |
//! | why a step is called | `wake.rs`: [`Wake`], [`Event`], [`Approval`] |
//! | approvals and links the SDK re-waits on | `waits.rs`: [`waits::ask`], [`waits::link`], [`Wake::answer_to`] |
//! | what a step returns | `step.rs`: [`Step`], [`Next`], [`Wait`] |
//! | tool calls | `tools.rs`: [`tools::call`], [`ToolError`]; `kv.rs`, `lease.rs`, `callback.rs`; a model conversation: `llm.rs`; a model-driven loop: `agent_loop.rs` |
//! | time, run id, log | `host.rs`: [`now`], [`run_id`], [`log`] |
//! | exports and JSON state | `export.rs`: [`export_agent!`] |
//! | a fake host for native tests | `testing.rs`: `testing` (not in WebAssembly builds) |
//! | generated WIT bindings | `bindings.rs` (hidden) |
//!
//! # Rules of a step
//!
//! - A step never blocks: it returns what to wait for.
//! - A step is retried after a crash or an error, so everything it does
//!   outside its state goes through a tool call whose idempotency key names
//!   what the call means. The host runs each key once per run.
//! - Use [`now`] rather than the system clock: it is the step's logical time.
//! - Keep the state small (the host limits its size); put bulk data in `kv`.
//!
//! # Testing
//!
//! The SDK also builds natively, where the `testing` module stands in for
//! the host: `cargo test` on an agent crate can call `Agent::step` directly
//! with fake tools and a set clock.
#![warn(missing_docs)]

mod agent;
pub mod agent_loop;
#[doc(hidden)]
pub mod bindings;
pub mod callback;
mod export;
pub mod gated;
mod host;
pub mod kv;
pub mod lease;
pub mod llm;
mod step;
#[cfg(not(target_arch = "wasm32"))]
pub mod testing;
pub mod tools;
pub mod waits;
mod wake;

pub use agent::Agent;
pub use host::{log, now, run_id};
pub use step::{ApprovalRequest, Next, Step, Wait, approval_digest};
pub use tools::ToolError;
pub use waits::Answer;
pub use wake::{Approval, Event, Wake};

pub use serde;
pub use serde_json;

/// What an agent needs, in one import: `use wakeful_sdk::prelude::*;`.
pub mod prelude {
    pub use crate::{
        Agent, Answer, Approval, ApprovalRequest, Event, Next, Step, ToolError, Wait, Wake,
        agent_loop, callback, gated, kv, lease, llm, log, now, run_id, tools, waits,
    };
    pub use serde::{Deserialize, Serialize};
    pub use serde_json::{Value, json};
}

/// What [`export_agent!`] expands to needs; not part of the API.
#[doc(hidden)]
pub mod __private {
    pub use crate::bindings::{self, Guest, wit};
    pub use crate::export::{info, migrate, step};
    pub use wit_bindgen;
}
