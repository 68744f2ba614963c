//! Deploying agent components and listing them.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::rejection::QueryRejection;
use axum::extract::{FromRequest, Query, Request, State};
use axum::http::StatusCode;
use axum::http::header::CONTENT_TYPE;
use axum::{Extension, Json};

use super::auth::Caller;
use crate::app::Deployed;
use crate::server::error::ErrorBody;
use crate::server::{ApiError, ApiState, blocking, blocking_slow};
use crate::store::AgentVersion;

/// `POST /v1/agents?grant=kv&grant=lease` (or `?grant_all=true`) with the
/// component's bytes as the body: the same document as `wakeful deploy
/// --json`; 201 when it was new. The body must be sent as
/// `application/wasm`: a form or `text/plain`, which a web page can send
/// anywhere without asking, is refused (415) before it is read.
#[utoipa::path(
    post,
    path = "/v1/agents",
    operation_id = "deploy",
    tag = "agents",
    params(("grant" = Option<Vec<String>>, Query, description = "A tool to grant; repeat for each"), ("grant_all" = Option<bool>, Query, description = "Grant every tool the component imports"), ("owner" = Option<String>, Query, description = "Who owns the agent")),
    request_body(content = Vec<u8>, content_type = "application/wasm", description = "The component's bytes"),
    responses(
        (status = 201, description = "Deployed: the same document as `wakeful deploy --json`", body = serde_json::Value),
        (status = 200, description = "Already deployed: the same document", body = serde_json::Value),
        (status = 400, description = "Not a component, an empty body, a bad parameter, or tools not granted", body = ErrorBody),
        (status = 413, description = "Larger than `limits.max_component_mib`", body = ErrorBody),
        (status = 415, description = "Not sent as `application/wasm`", body = ErrorBody),
        (status = 401, description = "No bearer token, or not one of the host's", body = ErrorBody),
        (status = 403, description = "The token lacks the route's scope", body = ErrorBody),
    )
)]
pub async fn deploy(
    State(state): State<Arc<ApiState>>,
    Extension(Caller(by)): Extension<Caller>,
    query: Result<Query<Vec<(String, String)>>, QueryRejection>,
    request: Request,
) -> Result<(StatusCode, Json<Deployed>), ApiError> {
    let Query(params) = query?;
    let content_type = request
        .headers()
        .get(CONTENT_TYPE)
        .map(|v| v.to_str().unwrap_or("<not text>").to_string());
    let essence = content_type.as_deref().map(|t| {
        t.split(';')
            .next()
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase()
    });
    if essence.as_deref() != Some("application/wasm") {
        return Err(ApiError::Rejected(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            format!(
                "a deploy's body is the component itself, sent as `Content-Type: application/wasm`, not {}",
                content_type.map_or("a body without a content type".into(), |t| format!("`{t}`"))
            ),
        ));
    }
    let bytes = Bytes::from_request(request, &()).await?;
    let mut grants = Vec::new();
    let mut grant_all = false;
    let mut owner = None;
    for (key, value) in params {
        match key.as_str() {
            "grant" => grants.push(value),
            "owner" => owner = Some(value),
            "grant_all" => {
                grant_all = value.parse().map_err(|_| {
                    ApiError::BadRequest(format!("grant_all is `{value}`; use true or false"))
                })?
            }
            _ => {
                return Err(ApiError::BadRequest(format!(
                    "unknown query parameter `{key}`; use grant=TOOL (repeatable), grant_all=true, owner=NAME"
                )));
            }
        }
    }
    if bytes.is_empty() {
        return Err(ApiError::BadRequest(
            "the body is empty; send the component's .wasm bytes".into(),
        ));
    }
    let deployed = blocking_slow(&state, move |app| {
        let size = bytes.len();
        tracing::info!(bytes = size, "deploying a component of {size} bytes");
        let deployed = app.deploy(&bytes, &grants, grant_all, owner.as_deref(), &by)?;
        tracing::info!(
            agent = %deployed.agent.name,
            version = %deployed.agent.version,
            already_deployed = deployed.already_deployed,
            "deployed"
        );
        Ok(deployed)
    })
    .await?;
    let status = if deployed.already_deployed {
        StatusCode::OK
    } else {
        StatusCode::CREATED
    };
    Ok((status, Json(deployed)))
}

#[utoipa::path(
    get,
    path = "/v1/agents",
    operation_id = "list_agents",
    tag = "agents",
    responses(
        (status = 200, description = "The deployed agent versions", body = serde_json::Value),
        (status = 401, description = "No bearer token, or not one of the host's", body = ErrorBody),
        (status = 403, description = "The token lacks the route's scope", body = ErrorBody),
    )
)]
pub async fn list(State(state): State<Arc<ApiState>>) -> Result<Json<Vec<AgentVersion>>, ApiError> {
    blocking(&state, |app| Ok(Json(app.store.agents()?))).await
}
