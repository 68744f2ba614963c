//! Answers to approval requests by an operator (answers through a
//! request's own link are [`crate::web`]'s, beside the page they share it
//! with).
//!
//! Who answered is who the host authenticated: the operator's token. A
//! name the caller gives (`by` in the body) is kept beside it as `said`,
//! never instead.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::{Extension, Json};
use serde::Deserialize;
use utoipa::ToSchema;

use super::auth::Caller;
use crate::app::Acting;
use crate::server::error::ErrorBody;
use crate::server::{ApiError, ApiState, JsonBody, blocking, said};
use crate::store::Approval;

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct OperatorAnswer {
    /// The name the caller gives: recorded as `said`.
    by: Option<String>,
    approved: bool,
    comment: Option<String>,
    /// Required: the answer is refused unless the request's details still
    /// have this digest.
    digest: Option<String>,
}

/// `POST /v1/runs/{id}/approvals/{request}`, like `wakeful approve`.
#[utoipa::path(
    post,
    path = "/v1/runs/{id}/approvals/{request}",
    operation_id = "answer_approval",
    tag = "approvals",
    params(("id" = String, Path, description = "The run's id"), ("request" = String, Path, description = "The approval request's id")),
    request_body = OperatorAnswer,
    responses(
        (status = 200, description = "The request as answered", body = serde_json::Value),
        (status = 400, description = "No digest", body = ErrorBody),
        (status = 404, description = "No such run or request", body = ErrorBody),
        (status = 409, description = "Already answered, its details changed, or the run no longer waits", body = ErrorBody),
        (status = 410, description = "The request expired", body = ErrorBody),
        (status = 401, description = "No bearer token, or not one of the host's", body = ErrorBody),
        (status = 403, description = "The token lacks the route's scope", body = ErrorBody),
    )
)]
pub async fn answer_as_operator(
    State(state): State<Arc<ApiState>>,
    Extension(Caller(caller)): Extension<Caller>,
    Path((run, request)): Path<(String, String)>,
    JsonBody(a): JsonBody<OperatorAnswer>,
) -> Result<Json<Approval>, ApiError> {
    blocking(&state, move |app| {
        let who = Acting {
            by: &caller,
            said: said(a.by.as_deref()),
        };
        Ok(Json(app.approve(
            &run,
            &request,
            who,
            a.approved,
            a.comment.as_deref(),
            a.digest.as_deref(),
        )?))
    })
    .await
}
