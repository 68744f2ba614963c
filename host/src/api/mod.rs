//! The HTTP API under `/v1` (DESIGN.md, "Interfaces"): the CLI's operations
//! as JSON over HTTP. [`router`] builds the routes from a state; [`serve`]
//! runs them on a listener until a shutdown signal, so tests and `wakeful
//! serve` both pass in their own listener and signal.
//!
//! Every request passes, in order: the `Host` and `Origin` checks
//! ([`guard`], every route); the bearer token ([`auth`], every route but
//! health, answer links and callback links, whose token is in their path);
//! the content type (`application/wasm` for a deploy, `application/json`
//! for JSON bodies); then its handler. Whatever refuses it, the answer is
//! a JSON error ([`error::json_errors`] catches the framework's own).
//!
//! Connections are shared by the rules of [`admission`]: a minimum data
//! rate, a cap per client, and a reserve for each kind of request, so that
//! no client starves the others ([`listener`] runs them).
//!
//! Store and runtime work is blocking (SQLite, wasmtime): handlers run it on
//! tokio's blocking pool through [`blocking`], each operation on an app of
//! its own from the [`pool`], so a slow one never holds up the others.
//!
//! - [`error`]: the one error type and its status mapping.
//! - [`guard`]: the Host and Origin checks; [`auth`]: the bearer tokens and
//!   who each names.
//! - [`admission`]: who holds the connections; [`listener`]: the accept
//!   loop and each connection's task.
//! - [`pool`]: the handlers' store connections.
//! - [`logging`]: one log event per request, capability tokens redacted.
//! - [`runs`], [`agents`], [`approvals`], [`callbacks`], [`ops`],
//!   [`metrics`]: the handlers.

pub mod admission;
mod agents;
pub(crate) mod approvals;
pub mod auth;
mod callbacks;
pub mod error;
pub mod guard;
mod listener;
pub mod logging;
pub mod metrics;
mod ops;
pub mod pool;
mod runs;

use std::sync::Arc;

use axum::extract::{DefaultBodyLimit, FromRequest, Request};
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router, middleware};
use serde::de::DeserializeOwned;

use crate::app::App;
pub use error::ApiError;
pub use guard::AllowedHosts;
pub use listener::{bind, serve};
pub use metrics::Counters;
use pool::{Pace, Pool};

/// What the handlers share.
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
    /// Rung after every change the API makes, so that idle workers of this
    /// process look for due runs at once.
    pub wakeup: Arc<crate::wakeup::Wakeup>,
    /// The open connections and the rules on who holds them.
    pub connections: Arc<admission::Admission>,
    /// The console's cookie settings and failed sign-ins.
    pub console: crate::web::Console,
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

/// Every route. Operator routes (metrics included) need the bearer token;
/// health, answer links and callback links (which carry their own
/// single-use token) do not.
/// The Host and Origin checks cover everything, unknown routes too.
pub fn router(state: Arc<ApiState>) -> Router {
    let limits = state.limits;
    let operator = Router::new()
        .route(
            "/v1/agents",
            get(agents::list)
                .post(agents::deploy)
                .layer(DefaultBodyLimit::max(limits.component_bytes)),
        )
        .route("/v1/runs", get(runs::list).post(runs::start))
        .route("/v1/runs/{id}", get(runs::show))
        .route("/v1/runs/{id}/history", get(runs::history))
        .route("/v1/runs/{id}/audit", get(runs::run_audit))
        .route("/v1/runs/{id}/events", post(runs::send_to_run))
        .route("/v1/runs/{id}/cancel", post(ops::cancel))
        .route("/v1/runs/{id}/resolve", post(ops::resolve))
        .route(
            "/v1/runs/{id}/approvals/{request}",
            post(approvals::answer_as_operator),
        )
        .route("/v1/events", post(runs::broadcast))
        .route("/v1/audit", get(runs::audit))
        .route("/v1/pause", post(ops::pause))
        .route("/v1/resume", post(ops::resume))
        .route("/v1/switches", get(ops::switches))
        .route("/v1/hosts", get(ops::hosts))
        .route("/v1/upgrade", post(ops::upgrade))
        .route("/v1/kv", get(ops::kv_list))
        .route("/v1/kv/{*key}", get(ops::kv_get).put(ops::kv_put))
        .route("/metrics", get(metrics::metrics))
        .route_layer(middleware::from_fn_with_state(
            state.clone(),
            auth::require_token,
        ));
    Router::new()
        .route(
            "/v1/health",
            get(|| async { Json(serde_json::json!({"ok": true})) }),
        )
        .merge(crate::web::routes(state.clone()).layer(middleware::from_fn(within_deadline)))
        .route(
            "/v1/callback/{token}",
            post(callbacks::deliver).layer(middleware::from_fn(within_deadline)),
        )
        .merge(operator)
        .fallback(|request: Request| async move {
            ApiError::NotFound(format!(
                "no route {} {}; the API lives under /v1 (see docs/src/reference/http-api.md)",
                request.method(),
                request.uri().path()
            ))
        })
        .method_not_allowed_fallback(|request: Request| async move {
            ApiError::Rejected(
                StatusCode::METHOD_NOT_ALLOWED,
                format!(
                    "{} is not allowed on {} (see docs/src/reference/http-api.md for its methods)",
                    request.method(),
                    request.uri().path()
                ),
            )
        })
        .layer(DefaultBodyLimit::max(limits.json_bytes))
        .layer(middleware::from_fn_with_state(state.clone(), wake_workers))
        .layer(middleware::from_fn_with_state(
            state.clone(),
            guard::check_host_and_origin,
        ))
        .layer(middleware::map_response(error::json_errors))
        // Outermost, so that refusals by the guard are logged too.
        .layer(middleware::from_fn(logging::log_request))
        .with_state(state)
}

/// How long an answer or callback link's request may take, body included:
/// the routes a client without a token can send a body to.
const PUBLIC_REQUEST_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(30);

/// Cuts a public request that takes too long (a client trickling its body).
async fn within_deadline(request: Request, next: middleware::Next) -> axum::response::Response {
    use axum::response::IntoResponse;
    match tokio::time::timeout(PUBLIC_REQUEST_TIMEOUT, next.run(request)).await {
        Ok(response) => response,
        Err(_) => ApiError::Rejected(
            StatusCode::REQUEST_TIMEOUT,
            format!(
                "the request took longer than {} s to arrive",
                PUBLIC_REQUEST_TIMEOUT.as_secs()
            ),
        )
        .into_response(),
    }
}

/// Wakes the idle workers after a request that may have changed something
/// (any method but GET and HEAD) went through: a start, an event, an
/// answer or a resume gives a run a wake, and a signal too many costs one
/// look.
async fn wake_workers(
    axum::extract::State(state): axum::extract::State<Arc<ApiState>>,
    request: Request,
    next: middleware::Next,
) -> axum::response::Response {
    let changes = !matches!(
        *request.method(),
        axum::http::Method::GET | axum::http::Method::HEAD
    );
    let response = next.run(request).await;
    let status = response.status();
    if changes && (status.is_success() || status.is_redirection()) {
        state.wakeup.notify();
    }
    response
}

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
