//! wakeful: a host for long-running AI agents compiled to WebAssembly
//! components. Every run is a durable job (id, JSON state, what it waits
//! for); the agent's `step` export is called once per wakeup in a sandbox and
//! the state is saved after every step.
//!
//! A step's road: the [`worker`] claims a run that is due, the [`runtime`]
//! calls the guest in its sandbox, every tool call the guest makes passes
//! the gate in [`tools`], and the step's result is written to the [`store`]
//! (SQLite or PostgreSQL). The command line ([`cli`]), the HTTP API
//! ([`api`]) and the console ([`web`]) act through [`app`]. Each module's
//! opening line says what it holds.

// Every function fits on a screen (the threshold is in clippy.toml).
#![warn(clippy::too_many_lines)]

pub mod access;
pub mod api;
pub mod app;
pub mod cassette;
pub mod check;
pub mod cli;
pub mod clock;
pub mod config;
pub mod failpoint;
pub mod identity;
#[cfg(test)]
mod layers;
pub mod logs;
pub mod measure;
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
pub mod tools;
pub mod upgrade;
pub mod view;
pub mod waits;
pub mod wakeup;
pub mod web;
pub mod worker;
