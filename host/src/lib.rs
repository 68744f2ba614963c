//! wakeful: a host for long-running AI agents compiled to WebAssembly
//! components. Every run is a durable job (id, JSON state, what it waits
//! for); the agent's `step` export is called once per wakeup in a sandbox and
//! the state is saved after every step.
//!
//! # Layout
//! - [`model`]: wakes, waits and step results, shared by everything below.
//! - [`runtime`]: the wasmtime engine, the sandbox, limits and step outcomes.
//! - [`store`]: the durable state behind one trait; [`store::sqlite`] is the
//!   embedded implementation.
//! - [`worker`]: the step protocol — claim, step, commit or fail.
//! - [`identity`]: this process's host id, the lock that proves it alive,
//!   and taking over the claims of hosts proven gone.
//! - [`tools`]: the gate every tool call takes, and the built-in tools.
//! - [`waits`]: checking waits and computing when they are due.
//! - [`schedule`]: agents started at each tick of a cron expression.
//! - [`upgrade`]: moving runs to a new agent version through `migrate`.
//! - [`app`]: the operations the CLI calls (deploy, start, send, approve…).
//! - [`terms`]: refusals worded for the CLI or the API.
//! - [`view`]: the JSON documents of runs, shared by the CLI and the API.
//! - [`server`]: what the HTTP API and the pages stand on (state, errors,
//!   tokens, connections).
//! - [`api`]: the HTTP API under `/v1` (router, handlers, route table).
//! - [`web`]: the pages: answer links and the console.
//! - [`serve`]: `wakeful serve`, the workers and the API in one process.
//! - [`logs`]: `serve`'s log events, text or JSON, and their fields.
//! - [`cli`]: the `wakeful` command line.
//! - [`config`]: the `wakeful.toml` file.
//! - [`secrets`]: `[secrets]`, `${secret:NAME}` and the redaction of every
//!   value they hold.
//! - [`bench`]: `wakeful bench`, measurements on a throwaway store.

pub mod api;
pub mod app;
pub mod bench;
pub mod check;
pub mod cli;
pub mod clock;
pub mod config;
pub mod failpoint;
pub mod identity;
pub mod logs;
pub mod model;
pub mod packer;
#[cfg(feature = "failpoints")]
pub mod power_log;
pub mod runtime;
pub mod scaffold;
pub mod schedule;
pub mod secrets;
pub mod serve;
pub mod server;
pub mod store;
pub mod terms;
pub mod tools;
pub mod upgrade;
pub mod view;
pub mod waits;
pub mod wakeup;
pub mod web;
pub mod worker;
