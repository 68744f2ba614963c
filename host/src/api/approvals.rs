//! Answers to approval requests: by an operator, or through the request's
//! own answer link, whose unguessable token is the authorisation.
//!
//! Who answered is who the host authenticated: the operator's token, or
//! for a link `link:<request>`. A name the caller gives (`by` in the body)
//! is kept beside it as `said`, never instead.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::{Extension, Json};
use serde::Deserialize;

use super::auth::Caller;
use super::{ApiError, ApiState, JsonBody, blocking};
use crate::app::Acting;
use crate::store::Approval;

#[derive(Deserialize)]
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

/// A typed name, trimmed; none when blank.
pub(crate) fn said(name: Option<&str>) -> Option<&str> {
    name.map(str::trim).filter(|n| !n.is_empty())
}

/// The principal of an answer made through a request's link: the link
/// itself (its holder is not known). The `:` keeps it apart from every
/// token name.
pub(crate) fn link_principal(request_id: &str) -> String {
    format!("link:{request_id}")
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
        let by = link_principal(&request.id);
        let who = Acting {
            by: &by,
            said: said(Some(&a.by)),
        };
        Ok(Json(app.approve(
            &request.run_id,
            &request.id,
            who,
            a.approved,
            a.comment.as_deref(),
            Some(&request.details_digest),
        )?))
    })
    .await
}
