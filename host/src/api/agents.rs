//! Deploying agent components and listing them.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::rejection::QueryRejection;
use axum::extract::{FromRequest, Query, Request, State};
use axum::http::StatusCode;
use axum::http::header::CONTENT_TYPE;
use axum::{Extension, Json};

use super::auth::Caller;
use super::{ApiError, ApiState, blocking, blocking_slow};
use crate::app::Deployed;
use crate::store::AgentVersion;

/// `POST /v1/agents?grant=kv&grant=lease` (or `?grant_all=true`) with the
/// component's bytes as the body: the same document as `wakeful deploy
/// --json`; 201 when it was new. The body must be sent as
/// `application/wasm`: a form or `text/plain`, which a web page can send
/// anywhere without asking, is refused (415) before it is read.
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

pub async fn list(State(state): State<Arc<ApiState>>) -> Result<Json<Vec<AgentVersion>>, ApiError> {
    blocking(&state, |app| Ok(Json(app.store.agents()?))).await
}
