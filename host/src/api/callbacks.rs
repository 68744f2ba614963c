//! `POST /v1/callback/{token}`: another system answers a run through the
//! link the run's `callback` tool call made. The link's unguessable token
//! is the authorisation (no bearer token; Host and Origin are checked); its
//! JSON body becomes an event on the link's topic, once.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::{ConnectInfo, Path, State};
use axum::http::StatusCode;
use axum::{Extension, Json};
use serde_json::{Value, json};

use crate::server::error::ErrorBody;
use crate::server::{ApiError, ApiState, JsonBody, blocking};
use crate::store::CallbackRefused;

fn refused(e: CallbackRefused) -> ApiError {
    let message = e.to_string();
    match e {
        CallbackRefused::Unknown => ApiError::NotFound(message),
        CallbackRefused::Used { .. } | CallbackRefused::RunEnded { .. } => {
            ApiError::Conflict(message)
        }
        CallbackRefused::Expired { .. } => ApiError::Rejected(StatusCode::GONE, message),
    }
}

/// Delivers the body (any JSON, at most `limits.max_payload_bytes`) to the
/// link's run: 404 for an unknown token, 409 once used (saying when) or
/// when the run ended, 410 after expiry.
#[utoipa::path(
    post,
    path = "/v1/callback/{token}",
    operation_id = "deliver_callback",
    tag = "runs",
    params(("token" = String, Path, description = "The callback link's token")),
    request_body = Value,
    responses(
        (status = 200, description = "`{\"delivered\": true, \"run_id\": RUN_ID, \"topic\": TOPIC}`", body = Value),
        (status = 404, description = "No callback link has this token", body = ErrorBody),
        (status = 409, description = "The link was used already, or its run has ended", body = ErrorBody),
        (status = 410, description = "The link expired", body = ErrorBody),
        (status = 413, description = "The body is larger than `limits.max_payload_bytes`", body = ErrorBody),
    )
)]
pub async fn deliver(
    State(state): State<Arc<ApiState>>,
    Path(token): Path<String>,
    peer: Option<Extension<ConnectInfo<SocketAddr>>>,
    JsonBody(body): JsonBody<Value>,
) -> Result<Json<Value>, ApiError> {
    let from = peer.map(|Extension(ConnectInfo(addr))| addr.to_string());
    blocking(&state, move |app| {
        let payload = body.to_string();
        let max = app.config.limits.max_payload_bytes;
        if payload.len() > max {
            return Err(ApiError::Rejected(
                StatusCode::PAYLOAD_TOO_LARGE,
                format!(
                    "the callback body is {} bytes of JSON; the limit is {max} \
                     (limits.max_payload_bytes)",
                    payload.len()
                ),
            ));
        }
        let now = app.now();
        let callback = app
            .store
            .use_callback(&token, &payload, from.as_deref(), now)?
            .map_err(refused)?;
        Ok(Json(json!({
            "delivered": true,
            "run_id": callback.run_id,
            "topic": callback.topic,
        })))
    })
    .await
}
