//! Deploying agent components and listing them.

use std::sync::Arc;

use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, QueryRejection};
use axum::extract::{Query, State};
use axum::http::StatusCode;

use super::{ApiError, ApiState, blocking};
use crate::app::Deployed;
use crate::store::AgentVersion;

/// `POST /v1/agents?grant=kv&grant=lease` (or `?grant_all=true`) with the
/// component's bytes as the body: the same document as `wakeful deploy
/// --json`; 201 when it was new.
pub async fn deploy(
    State(state): State<Arc<ApiState>>,
    query: Result<Query<Vec<(String, String)>>, QueryRejection>,
    body: Result<Bytes, BytesRejection>,
) -> Result<(StatusCode, Json<Deployed>), ApiError> {
    let Query(params) = query?;
    let bytes = body?;
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
    let deployed = blocking(&state, move |app| {
        Ok(app.deploy(&bytes, &grants, grant_all, owner.as_deref())?)
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
