//! Runs: start, list, show, history, audit, and events delivered to them.

use std::sync::Arc;

use axum::Json;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use serde::Deserialize;
use serde_json::{Value, json};

use super::{ApiError, ApiState, JsonBody, blocking};
use crate::app::Sent;
use crate::store::{Delivery, RunFilter, RunStatus, StoreError};
use crate::view::{self, AnswerLinks};

/// A page's length when the query does not say.
pub const DEFAULT_PAGE: usize = 100;
/// The longest page a query may ask for.
pub const MAX_PAGE: usize = 1000;

type Answer<T = Value> = Result<Json<T>, ApiError>;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StartRun {
    /// `name` or `name@version`.
    agent: String,
    input: Option<Value>,
    id: Option<String>,
}

pub async fn start(
    State(state): State<Arc<ApiState>>,
    JsonBody(body): JsonBody<StartRun>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let run = blocking(&state, move |app| {
        let input = body.input.map(|v| v.to_string());
        Ok(app.start(&body.agent, input.as_deref(), body.id.as_deref())?)
    })
    .await?;
    Ok((StatusCode::CREATED, Json(view::run_summary(&run))))
}

/// `?limit=N&after=CURSOR`, and filters where a list has them.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ListQuery {
    limit: Option<String>,
    after: Option<String>,
    status: Option<String>,
    agent: Option<String>,
}

/// `?limit=N&after=ID` of an audit list: no filters.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AuditQuery {
    limit: Option<String>,
    after: Option<String>,
}

fn page_limit(limit: Option<&str>) -> Result<usize, ApiError> {
    let Some(text) = limit else {
        return Ok(DEFAULT_PAGE);
    };
    match text.parse::<usize>() {
        Ok(n) if (1..=MAX_PAGE).contains(&n) => Ok(n),
        _ => Err(ApiError::BadRequest(format!(
            "limit `{text}` is not valid; use a number from 1 to {MAX_PAGE} (default {DEFAULT_PAGE})"
        ))),
    }
}

fn audit_after(after: Option<&str>) -> Result<Option<u64>, ApiError> {
    after
        .map(|text| {
            text.parse::<u64>().map_err(|_| {
                ApiError::BadRequest(format!(
                    "after `{text}` is not an audit row id; pass the `next` of the previous page"
                ))
            })
        })
        .transpose()
}

/// `GET /v1/runs?status=&agent=&limit=&after=`: summaries, newest first,
/// as `{"items": [...], "next": RUN_ID | null}`.
pub async fn list(
    State(state): State<Arc<ApiState>>,
    query: Result<Query<ListQuery>, QueryRejection>,
) -> Answer {
    let Query(q) = query?;
    let limit = page_limit(q.limit.as_deref())?;
    let status = q
        .status
        .as_deref()
        .map(|s| {
            RunStatus::parse(s).ok_or_else(|| {
                ApiError::BadRequest(format!(
                    "status `{s}` is not one of active, waiting, done, parked, cancelled"
                ))
            })
        })
        .transpose()?;
    if let Some(agent) = q.agent.as_deref()
        && agent.is_empty()
    {
        return Err(ApiError::BadRequest(
            "agent is empty; name an agent or leave it out".into(),
        ));
    }
    let filter = RunFilter {
        status,
        agent: q.agent,
    };
    blocking(&state, move |app| {
        let page = match app.store.runs_page(&filter, q.after.as_deref(), limit) {
            Err(StoreError::UnknownRun(id)) => {
                return Err(ApiError::BadRequest(format!(
                    "after `{id}` names no run (it may have been pruned); list again without after"
                )));
            }
            page => page?,
        };
        let switches = app.store.switches()?;
        Ok(Json(json!({
            "items": view::runs(&page.items, &switches, app.config.limits.max_attempts),
            "next": page.next,
        })))
    })
    .await
}

/// The same document as `wakeful show --json`, plus each pending approval's
/// answer link: operators are authenticated here.
pub async fn show(State(state): State<Arc<ApiState>>, Path(id): Path<String>) -> Answer {
    blocking(&state, move |app| {
        let record = app.run_record(&id)?;
        Ok(Json(view::show(&record.doc(), AnswerLinks::Shown)))
    })
    .await
}

pub async fn history(State(state): State<Arc<ApiState>>, Path(id): Path<String>) -> Answer {
    blocking(&state, move |app| {
        app.run(&id)?;
        Ok(Json(view::history(&app.store.checkpoints(&id)?)))
    })
    .await
}

/// `GET /v1/runs/{id}/audit?limit=&after=`: one run's rows, oldest first.
pub async fn run_audit(
    State(state): State<Arc<ApiState>>,
    Path(id): Path<String>,
    query: Result<Query<AuditQuery>, QueryRejection>,
) -> Answer {
    let Query(q) = query?;
    let limit = page_limit(q.limit.as_deref())?;
    let after = audit_after(q.after.as_deref())?;
    blocking(&state, move |app| {
        app.check_run_id(&id)?;
        Ok(Json(json!(app.store.audit_page(
            Some(&id),
            after,
            limit
        )?)))
    })
    .await
}

/// `GET /v1/audit?limit=&after=`: the whole log, oldest first, as
/// `{"items": [...], "next": ROW_ID | null}`.
pub async fn audit(
    State(state): State<Arc<ApiState>>,
    query: Result<Query<AuditQuery>, QueryRejection>,
) -> Answer {
    let Query(q) = query?;
    let limit = page_limit(q.limit.as_deref())?;
    let after = audit_after(q.after.as_deref())?;
    blocking(&state, move |app| {
        Ok(Json(json!(app.store.audit_page(None, after, limit)?)))
    })
    .await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewEvent {
    topic: String,
    id: String,
    payload: Option<Value>,
}

/// Delivers an event to one run. An ended run stores nothing: 409.
pub async fn send_to_run(
    State(state): State<Arc<ApiState>>,
    Path(run): Path<String>,
    JsonBody(event): JsonBody<NewEvent>,
) -> Answer<Vec<Sent>> {
    let sent = send(&state, Some(run), event).await?;
    if let Some(s) = sent.iter().find(|s| s.delivery == Delivery::Finished) {
        return Err(ApiError::Conflict(format!(
            "run {} has ended; the event was not stored",
            s.run_id
        )));
    }
    Ok(Json(sent))
}

/// Delivers an event to every run waiting on its topic.
pub async fn broadcast(
    State(state): State<Arc<ApiState>>,
    JsonBody(event): JsonBody<NewEvent>,
) -> Answer<Vec<Sent>> {
    Ok(Json(send(&state, None, event).await?))
}

async fn send(
    state: &Arc<ApiState>,
    run: Option<String>,
    event: NewEvent,
) -> Result<Vec<Sent>, ApiError> {
    blocking(state, move |app| {
        let payload = event.payload.map(|v| v.to_string());
        Ok(app.send(run.as_deref(), &event.topic, &event.id, payload.as_deref())?)
    })
    .await
}
