//! The HTTP API under `/v1` (DESIGN.md, "Interfaces"): the CLI's operations
//! as JSON over HTTP, described by the OpenAPI document it serves at
//! `GET /v1/openapi.json` ([`openapi`]), made from the handlers
//! themselves. [`router`] builds the routes from a state, with the
//! browser's pages ([`crate::web`]) beside them; [`serve`] runs them on a
//! listener until a shutdown signal, so tests and `wakeful serve` both pass
//! in their own listener and signal.
//!
//! Every request passes, in order: the `Host` and `Origin` checks
//! ([`guard`](crate::server::guard), every route); the bearer token
//! ([`auth`], every route but health, the OpenAPI document, answer links
//! and callback links, whose token is in their path); the content type
//! (`application/wasm` for a deploy, `application/json` for JSON bodies);
//! then its handler. Whatever refuses it, the answer is a JSON error
//! ([`json_errors`](crate::server::error::json_errors) catches the
//! framework's own).
//!
//! Connections are shared by the rules of
//! [`admission`](crate::server::admission) ([`listener`] runs them). What
//! the handlers stand on (the state, the store pool, the errors, running
//! store work off the async runtime) is [`crate::server`]'s, shared with
//! the pages.
//!
//! - [`auth`]: the route table and who may call each route.
//! - [`listener`]: the accept loop and each connection's task.
//! - [`openapi`]: the document, and who may call what in it.
//! - [`runs`], [`agents`], [`approvals`], [`callbacks`], [`ops`],
//!   [`metrics`]: the handlers.

mod agents;
mod approvals;
pub mod auth;
mod callbacks;
mod listener;
pub mod metrics;
pub mod openapi;
mod ops;
mod runs;

use std::sync::Arc;

use axum::extract::{DefaultBodyLimit, Request};
use axum::http::StatusCode;
use axum::routing::get;
use axum::{Json, Router, middleware};
use serde_json::{Value, json};
use utoipa_axum::router::{OpenApiRouter, UtoipaMethodRouterExt};
use utoipa_axum::routes;

pub use listener::{bind, serve};

use crate::server::{ApiError, ApiState, BodyLimits, error, guard, logging};
use crate::web;

/// The routes, each with its place in the OpenAPI document: those anyone
/// may call, and the operator routes (metrics included) [`router`] puts
/// behind the bearer token.
struct Routes {
    public: OpenApiRouter<Arc<ApiState>>,
    operator: OpenApiRouter<Arc<ApiState>>,
}

/// Every route under `/v1` is added with `routes!`, which takes its method
/// and path from the handler's `#[utoipa::path]`, so the router and the
/// document cannot differ; only `/v1/kv/{*key}` is added by hand (see
/// [`openapi::ApiDoc`]).
fn routes(limits: BodyLimits) -> Routes {
    let deadline = || middleware::from_fn(within_deadline);
    let operator = OpenApiRouter::new()
        .routes(
            routes!(agents::list, agents::deploy)
                .layer(DefaultBodyLimit::max(limits.component_bytes)),
        )
        .routes(routes!(runs::list, runs::start))
        .routes(routes!(runs::show))
        .routes(routes!(runs::history))
        .routes(routes!(runs::run_audit))
        .routes(routes!(runs::send_to_run))
        .routes(routes!(ops::cancel))
        .routes(routes!(ops::resolve))
        .routes(routes!(approvals::answer_as_operator))
        .routes(routes!(runs::broadcast))
        .routes(routes!(runs::audit))
        .routes(routes!(ops::pause))
        .routes(routes!(ops::resume))
        .routes(routes!(ops::switches))
        .routes(routes!(ops::hosts))
        .routes(routes!(ops::upgrade))
        .routes(routes!(ops::kv_list))
        .route("/v1/kv/{*key}", get(ops::kv_get).put(ops::kv_put))
        .route("/metrics", get(metrics::metrics));
    let public = OpenApiRouter::with_openapi(openapi::base())
        .routes(routes!(health))
        .routes(routes!(openapi::document))
        .merge(web::answer_links().layer(deadline()))
        .routes(routes!(callbacks::deliver).layer(deadline()));
    Routes { public, operator }
}

/// Every route: the API's, the answer links, and the console. Operator
/// routes need the bearer token ([`auth::require_token`]); the rest do
/// not. The Host and Origin checks cover everything, unknown routes too.
pub fn router(state: Arc<ApiState>) -> Router {
    let Routes { public, operator } = routes(state.limits);
    let operator = operator.route_layer(middleware::from_fn_with_state(
        state.clone(),
        auth::require_token,
    ));
    let (api, _) = public.merge(operator).split_for_parts();
    api.merge(web::routes(state.clone()).layer(middleware::from_fn(within_deadline)))
        .fallback(not_found)
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
        .layer(DefaultBodyLimit::max(state.limits.json_bytes))
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

/// No route: a browser opening the host's address goes to the console
/// ([`web::front_door`]); anything else is a JSON 404.
async fn not_found(request: Request) -> axum::response::Response {
    use axum::response::IntoResponse;
    if let Some(redirect) = web::front_door(&request) {
        return redirect.into_response();
    }
    ApiError::NotFound(format!(
        "no route {} {}; the API lives under /v1 (see the README)",
        request.method(),
        request.uri().path()
    ))
    .into_response()
}

/// `GET /v1/health`.
#[utoipa::path(
    get,
    path = "/v1/health",
    operation_id = "health",
    tag = "host",
    responses((status = 200, description = "The host answers: `{\"ok\": true}`", body = Value))
)]
async fn health() -> Json<Value> {
    Json(json!({"ok": true}))
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
