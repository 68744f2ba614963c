//! The HTTP API under `/v1` (DESIGN.md, "Interfaces"): the CLI's operations
//! as JSON over HTTP. [`router`] builds the routes from a state; [`serve`]
//! runs them on a listener until a shutdown signal, so tests and `wakeful
//! serve` both pass in their own listener and signal.
//!
//! Store and runtime work is blocking (SQLite, wasmtime): handlers run it on
//! tokio's blocking pool through [`blocking`], one operation at a time on
//! the API's own [`App`].
//!
//! - [`error`]: the one error type and its status mapping.
//! - [`auth`]: the bearer-token check.
//! - [`runs`], [`agents`], [`approvals`], [`ops`], [`metrics`]: the handlers.

mod agents;
mod approvals;
pub mod auth;
pub mod error;
pub mod metrics;
mod ops;
mod runs;

use std::future::Future;
use std::sync::{Arc, Mutex};

use axum::extract::{DefaultBodyLimit, FromRequest, Request};
use axum::routing::{get, post};
use axum::{Json, Router, middleware};
use serde::de::DeserializeOwned;
use tokio::net::TcpListener;

use crate::app::App;
pub use error::ApiError;
pub use metrics::Counters;

/// What the handlers share.
pub struct ApiState {
    /// The API's own connection to the store. The mutex serialises the
    /// API's operations; SQLite serialises writes across processes anyway.
    pub app: Mutex<App>,
    /// The bearer token operator calls must carry; `None` disables the check
    /// (allowed on loopback addresses only).
    pub token: Option<String>,
    /// Steps taken by this process's workers, for `/metrics`.
    pub counters: Arc<Counters>,
}

/// Room for a JSON body's envelope (field names, ids, escaping) around a
/// payload of up to `limits.max_payload_bytes`.
const ENVELOPE_BYTES: usize = 16 << 10;

/// Every route. Operator routes need the bearer token; health, metrics and
/// answer links (which carry their own single-use token) do not.
pub fn router(state: Arc<ApiState>) -> Router {
    let (json_limit, component_limit) = {
        let app = state.app.lock().unwrap_or_else(|p| p.into_inner());
        let l = &app.config.limits;
        (
            l.max_payload_bytes + ENVELOPE_BYTES,
            (l.max_component_mib as usize) << 20,
        )
    };
    let operator = Router::new()
        .route(
            "/v1/agents",
            get(agents::list)
                .post(agents::deploy)
                .layer(DefaultBodyLimit::max(component_limit)),
        )
        .route("/v1/runs", get(runs::list).post(runs::start))
        .route("/v1/runs/{id}", get(runs::show))
        .route("/v1/runs/{id}/history", get(runs::history))
        .route("/v1/runs/{id}/audit", get(runs::run_audit))
        .route("/v1/runs/{id}/events", post(runs::send_to_run))
        .route("/v1/runs/{id}/cancel", post(ops::cancel))
        .route(
            "/v1/runs/{id}/approvals/{request}",
            post(approvals::answer_as_operator),
        )
        .route("/v1/events", post(runs::broadcast))
        .route("/v1/audit", get(runs::audit))
        .route("/v1/pause", post(ops::pause))
        .route("/v1/resume", post(ops::resume))
        .route("/v1/switches", get(ops::switches))
        .route("/v1/upgrade", post(ops::upgrade))
        .route("/v1/kv/{*key}", get(ops::kv_get).put(ops::kv_put))
        .route_layer(middleware::from_fn_with_state(
            state.clone(),
            auth::require_token,
        ));
    Router::new()
        .route(
            "/v1/health",
            get(|| async { Json(serde_json::json!({"ok": true})) }),
        )
        .route("/metrics", get(metrics::metrics))
        .route("/v1/approve/{token}", post(approvals::answer_by_token))
        .merge(operator)
        .fallback(|request: Request| async move {
            ApiError::NotFound(format!(
                "no route {} {}; the API lives under /v1 (see the README)",
                request.method(),
                request.uri().path()
            ))
        })
        .layer(DefaultBodyLimit::max(json_limit))
        .with_state(state)
}

/// Serves the API on `listener` until `shutdown` completes, then lets the
/// requests in flight finish.
pub async fn serve(
    listener: TcpListener,
    shutdown: impl Future<Output = ()> + Send + 'static,
    state: Arc<ApiState>,
) -> std::io::Result<()> {
    axum::serve(listener, router(state))
        .with_graceful_shutdown(shutdown)
        .await
}

/// Runs one operation on the API's app on the blocking pool.
pub async fn blocking<T: Send + 'static>(
    state: &Arc<ApiState>,
    op: impl FnOnce(&mut App) -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    let state = state.clone();
    tokio::task::spawn_blocking(move || {
        // A panic in an earlier operation left no half-written state: every
        // store write is one transaction. Keep serving.
        let mut app = state.app.lock().unwrap_or_else(|p| p.into_inner());
        op(&mut app)
    })
    .await
    .map_err(|e| ApiError::Internal(format!("the operation did not finish: {e}")))?
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
