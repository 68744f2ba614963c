//! Answers to approval requests: by an operator, or through the request's
//! own answer link, whose unguessable token is the authorisation.

use std::sync::Arc;

use axum::Extension;
use axum::Json;
use axum::extract::{Path, State};
use serde::Deserialize;

use super::auth::Caller;
use super::{ApiError, ApiState, JsonBody, blocking};
use crate::store::Approval;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OperatorAnswer {
    by: String,
    approved: bool,
    comment: Option<String>,
    /// Refuse the answer unless the request's details still have this digest.
    digest: Option<String>,
}

/// `POST /v1/runs/{id}/approvals/{request}`, like `wakeful approve`.
pub async fn answer_as_operator(
    State(state): State<Arc<ApiState>>,
    Extension(Caller(principal)): Extension<Caller>,
    Path((run, request)): Path<(String, String)>,
    JsonBody(a): JsonBody<OperatorAnswer>,
) -> Result<Json<Approval>, ApiError> {
    blocking(&state, move |app| {
        Ok(Json(app.approve_as(
            &principal,
            &run,
            &request,
            &a.by,
            a.approved,
            a.comment.as_deref(),
            a.digest.as_deref(),
        )?))
    })
    .await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct LinkAnswer {
    by: String,
    approved: bool,
    comment: Option<String>,
}

/// `POST /v1/approve/{token}`: no bearer token. The answer is bound to the
/// details the request had when the link was made, refused after expiry
/// (410), and taken once (409 afterwards).
pub async fn answer_by_token(
    State(state): State<Arc<ApiState>>,
    Path(token): Path<String>,
    JsonBody(a): JsonBody<LinkAnswer>,
) -> Result<Json<Approval>, ApiError> {
    blocking(&state, move |app| {
        let request = app
            .store
            .approval_by_token(&token)?
            .ok_or_else(|| ApiError::NotFound("no approval request has this answer link".into()))?;
        app.check_link_may_answer(&request)?;
        Ok(Json(app.approve(
            &request.run_id,
            &request.id,
            &a.by,
            a.approved,
            a.comment.as_deref(),
            Some(&request.details_digest),
        )?))
    })
    .await
}
