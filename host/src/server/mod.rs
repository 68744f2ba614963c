//! What the HTTP server's two faces stand on: the JSON API ([`crate::api`])
//! and the browser's pages ([`crate::web`]) share one state ([`ApiState`]),
//! one error type ([`ApiError`]), the tokens that let people in
//! ([`crate::access`]), and [`blocking`], which runs store and runtime work
//! (SQLite, wasmtime) on tokio's blocking pool, each operation on an app of
//! its own from the [`pool`], so a slow one never holds up the others.
//!
//! - [`error`]: the one error type and its status mapping.
//! - [`guard`]: the Host and Origin checks every request passes first.
//! - [`admission`]: who holds the connections.
//! - [`pool`]: the handlers' store connections.
//! - [`logging`]: one log event per request, capability tokens redacted.
//! - [`counters`]: the workers' step counts, for `/metrics`.
//! - [`console`]: the console's cookie settings and failed sign-ins.

pub mod admission;
pub mod console;
pub mod counters;
pub mod error;
pub mod guard;
pub mod logging;
pub mod pool;

use std::sync::Arc;

use axum::Json;
use axum::extract::{FromRequest, Request};
use serde::de::DeserializeOwned;

use crate::app::App;
pub use console::Console;
pub use counters::Counters;
pub use error::ApiError;
pub use guard::AllowedHosts;
use pool::{Pace, Pool};

/// What the handlers of both faces share.
pub struct ApiState {
    /// The handlers' apps, one per operation in flight.
    pub pool: Arc<Pool>,
    /// The bearer tokens operator calls may carry, by name.
    pub tokens: crate::access::Tokens,
    /// The `Host` names (and so the origins) this server answers to.
    pub hosts: AllowedHosts,
    /// Steps taken by this process's workers, for `/metrics`.
    pub counters: Arc<Counters>,
    /// Body limits: JSON bodies, and a deploy's component.
    pub limits: BodyLimits,
    /// Rung after every change a request makes, so that idle workers of
    /// this process look for due runs at once.
    pub wakeup: Arc<crate::wakeup::Wakeup>,
    /// The open connections and the rules on who holds them.
    pub connections: Arc<admission::Admission>,
    /// The console's cookie settings and failed sign-ins.
    pub console: Console,
}

#[derive(Clone, Copy, Debug)]
pub struct BodyLimits {
    pub json_bytes: usize,
    pub component_bytes: usize,
}

impl BodyLimits {
    pub fn of(config: &crate::config::Config) -> BodyLimits {
        let l = &config.limits;
        BodyLimits {
            json_bytes: l.max_payload_bytes + ENVELOPE_BYTES,
            component_bytes: (l.max_component_mib as usize) << 20,
        }
    }
}

/// Room for a JSON body's envelope (field names, ids, escaping) around a
/// payload of up to `limits.max_payload_bytes`.
const ENVELOPE_BYTES: usize = 16 << 10;

/// Runs one quick operation (reads, short writes) on an app of its own, on
/// the blocking pool.
pub async fn blocking<T: Send + 'static>(
    state: &Arc<ApiState>,
    op: impl FnOnce(&mut App) -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    run_on_pool(state, Pace::Quick, op).await
}

/// Runs one slow operation (a deploy, an upgrade) on an app of its own:
/// it takes one of the few slow permits, so quick ones always find an app.
pub async fn blocking_slow<T: Send + 'static>(
    state: &Arc<ApiState>,
    op: impl FnOnce(&mut App) -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    run_on_pool(state, Pace::Slow, op).await
}

async fn run_on_pool<T: Send + 'static>(
    state: &Arc<ApiState>,
    pace: Pace,
    op: impl FnOnce(&mut App) -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    let mut lent = state.pool.lend(pace).await?;
    tokio::task::spawn_blocking(move || op(lent.app()))
        .await
        .map_err(|e| ApiError::Internal(format!("the operation did not finish: {e}")))?
}

/// The agent of run `run`, for a scope limited to some agents' runs: 404
/// when there is no such run.
pub async fn run_agent(state: &Arc<ApiState>, run: &str) -> Result<String, ApiError> {
    let run = run.to_string();
    blocking(state, move |app| {
        let found = app.store.run(&run)?;
        found
            .map(|r| r.agent)
            .ok_or_else(|| ApiError::NotFound(format!("no run {run}")))
    })
    .await
}

/// A name the caller typed (an answer's `by`), trimmed; none when blank.
/// It is kept as `said`, beside who the host authenticated.
pub fn said(name: Option<&str>) -> Option<&str> {
    name.map(str::trim).filter(|n| !n.is_empty())
}

/// A JSON body whose rejections (too large, not JSON, wrong shape) are
/// [`ApiError`]s with a JSON body like every other error.
pub struct JsonBody<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for JsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, ApiError> {
        let Json(value) = Json::<T>::from_request(request, state).await?;
        Ok(JsonBody(value))
    }
}
