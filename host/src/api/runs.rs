//! Runs: start, list, show, history, audit, and events delivered to them.

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::{Extension, Json};
use serde::Deserialize;
use serde_json::{Value, json};
use utoipa::ToSchema;

use super::auth::Caller;
use crate::app::Sent;
use crate::server::error::ErrorBody;
use crate::server::{ApiError, ApiState, JsonBody, blocking};
use crate::store::{Delivery, RunFilter, RunStatus, StoreError, WaitingOn};
use crate::view;

/// A page's length when the query does not say.
pub const DEFAULT_PAGE: usize = 100;
/// The longest page a query may ask for.
pub const MAX_PAGE: usize = 1000;

type Answer<T = Value> = Result<Json<T>, ApiError>;

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct StartRun {
    /// `name` or `name@version`.
    agent: String,
    input: Option<Value>,
    id: Option<String>,
}

#[utoipa::path(
    post,
    path = "/v1/runs",
    operation_id = "start_run",
    tag = "runs",
    request_body = StartRun,
    responses(
        (status = 201, description = "The run, started: its summary", body = Value),
        (status = 400, description = "Bad input: an unknown agent version, input not JSON", body = ErrorBody),
        (status = 404, description = "No such agent", body = ErrorBody),
        (status = 409, description = "A run with this id exists, or had it", body = ErrorBody),
        (status = 401, description = "No bearer token, or not one of the host's", body = ErrorBody),
        (status = 403, description = "The token lacks the route's scope", body = ErrorBody),
    )
)]
pub async fn start(
    State(state): State<Arc<ApiState>>,
    Extension(Caller(by)): Extension<Caller>,
    JsonBody(body): JsonBody<StartRun>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let run = blocking(&state, move |app| {
        let input = body.input.map(|v| v.to_string());
        Ok(app.start(&body.agent, input.as_deref(), body.id.as_deref(), &by)?)
    })
    .await?;
    Ok((StatusCode::CREATED, Json(view::run_summary(&run))))
}

/// The parameters of a list of runs.
const RUN_LIST_PARAMS: &[&str] = &["status", "agent", "version", "waiting_on", "limit", "after"];
/// The parameters of an audit list: no filters.
const AUDIT_PARAMS: &[&str] = &["limit", "after"];

/// A query's parameters by name. A parameter the list does not take is
/// refused, not ignored: a misspelt filter must not list everything.
fn params(
    query: Result<Query<Vec<(String, String)>>, QueryRejection>,
    known: &[&str],
) -> Result<BTreeMap<String, String>, ApiError> {
    let Query(pairs) = query?;
    let mut params = BTreeMap::new();
    for (key, value) in pairs {
        if !known.contains(&key.as_str()) {
            return Err(ApiError::BadRequest(format!(
                "unknown query parameter `{key}`; this list takes {}",
                known.join(", ")
            )));
        }
        if params.contains_key(&key) {
            return Err(ApiError::BadRequest(format!(
                "query parameter `{key}` is given twice"
            )));
        }
        params.insert(key, value);
    }
    Ok(params)
}

/// A filter's value: left out, or not empty.
fn filter_value(
    params: &mut BTreeMap<String, String>,
    key: &str,
) -> Result<Option<String>, ApiError> {
    match params.remove(key) {
        Some(value) if value.is_empty() => Err(ApiError::BadRequest(format!(
            "{key} is empty; give it a value or leave it out"
        ))),
        value => Ok(value),
    }
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

/// `GET /v1/runs?status=&agent=&version=&waiting_on=&limit=&after=`:
/// summaries, newest first, as `{"items": [...], "next": RUN_ID | null}`.
#[utoipa::path(
    get,
    path = "/v1/runs",
    operation_id = "list_runs",
    tag = "runs",
    params(("status" = Option<String>, Query, description = "active, waiting, done, parked or cancelled"), ("agent" = Option<String>, Query, description = "Only this agent's runs"), ("version" = Option<String>, Query, description = "Only runs of this agent version"), ("waiting_on" = Option<String>, Query, description = "Only runs waiting on this topic, or `approval` or `timer`"), ("limit" = Option<usize>, Query, description = "Items per page, 1 to 1000 (default 100)"), ("after" = Option<String>, Query, description = "The `next` of the previous page")),
    responses(
        (status = 200, description = "`{\"items\": [run summaries, newest first], \"next\": RUN_ID | null}`", body = Value),
        (status = 400, description = "An unknown or repeated parameter, or a bad value", body = ErrorBody),
        (status = 401, description = "No bearer token, or not one of the host's", body = ErrorBody),
        (status = 403, description = "The token lacks the route's scope", body = ErrorBody),
    )
)]
pub async fn list(
    State(state): State<Arc<ApiState>>,
    query: Result<Query<Vec<(String, String)>>, QueryRejection>,
) -> Answer {
    let mut q = params(query, RUN_LIST_PARAMS)?;
    let limit = page_limit(q.get("limit").map(String::as_str))?;
    let status = filter_value(&mut q, "status")?
        .map(|s| {
            RunStatus::parse(&s).ok_or_else(|| {
                ApiError::BadRequest(format!(
                    "status `{s}` is not one of active, waiting, done, parked, cancelled"
                ))
            })
        })
        .transpose()?;
    let filter = RunFilter {
        status,
        agent: filter_value(&mut q, "agent")?,
        version: filter_value(&mut q, "version")?,
        // Not empty, so always a topic or one of the two words.
        waiting_on: filter_value(&mut q, "waiting_on")?.and_then(|w| WaitingOn::parse(&w)),
    };
    let after = q.remove("after");
    blocking(&state, move |app| {
        let page = match app.store.runs_page(&filter, after.as_deref(), limit) {
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
#[utoipa::path(
    get,
    path = "/v1/runs/{id}",
    operation_id = "show_run",
    tag = "runs",
    params(("id" = String, Path, description = "The run's id")),
    responses(
        (status = 200, description = "The run, as `wakeful show --json`, with each pending approval's answer link", body = Value),
        (status = 404, description = "No such run", body = ErrorBody),
        (status = 401, description = "No bearer token, or not one of the host's", body = ErrorBody),
        (status = 403, description = "The token lacks the route's scope", body = ErrorBody),
    )
)]
pub async fn show(State(state): State<Arc<ApiState>>, Path(id): Path<String>) -> Answer {
    blocking(&state, move |app| {
        let record = app.run_record(&id)?;
        Ok(Json(view::show(&record.doc())))
    })
    .await
}

#[utoipa::path(
    get,
    path = "/v1/runs/{id}/history",
    operation_id = "run_history",
    tag = "runs",
    params(("id" = String, Path, description = "The run's id")),
    responses(
        (status = 200, description = "The run's checkpoints, oldest first", body = Value),
        (status = 404, description = "No such run", body = ErrorBody),
        (status = 401, description = "No bearer token, or not one of the host's", body = ErrorBody),
        (status = 403, description = "The token lacks the route's scope", body = ErrorBody),
    )
)]
pub async fn history(State(state): State<Arc<ApiState>>, Path(id): Path<String>) -> Answer {
    blocking(&state, move |app| {
        app.run(&id)?;
        Ok(Json(view::history(&app.store.checkpoints(&id)?)))
    })
    .await
}

/// `GET /v1/runs/{id}/audit?limit=&after=`: one run's rows, oldest first.
#[utoipa::path(
    get,
    path = "/v1/runs/{id}/audit",
    operation_id = "run_audit",
    tag = "runs",
    params(("id" = String, Path, description = "The run's id"), ("limit" = Option<usize>, Query, description = "Items per page, 1 to 1000 (default 100)"), ("after" = Option<u64>, Query, description = "The `next` of the previous page")),
    responses(
        (status = 200, description = "`{\"items\": [audit rows, oldest first], \"next\": ROW_ID | null}`", body = Value),
        (status = 400, description = "A bad parameter", body = ErrorBody),
        (status = 404, description = "No such run", body = ErrorBody),
        (status = 401, description = "No bearer token, or not one of the host's", body = ErrorBody),
        (status = 403, description = "The token lacks the route's scope", body = ErrorBody),
    )
)]
pub async fn run_audit(
    State(state): State<Arc<ApiState>>,
    Path(id): Path<String>,
    query: Result<Query<Vec<(String, String)>>, QueryRejection>,
) -> Answer {
    let q = params(query, AUDIT_PARAMS)?;
    let limit = page_limit(q.get("limit").map(String::as_str))?;
    let after = audit_after(q.get("after").map(String::as_str))?;
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
#[utoipa::path(
    get,
    path = "/v1/audit",
    operation_id = "audit",
    tag = "runs",
    params(("limit" = Option<usize>, Query, description = "Items per page, 1 to 1000 (default 100)"), ("after" = Option<u64>, Query, description = "The `next` of the previous page")),
    responses(
        (status = 200, description = "`{\"items\": [audit rows, oldest first], \"next\": ROW_ID | null}`", body = Value),
        (status = 400, description = "A bad parameter", body = ErrorBody),
        (status = 401, description = "No bearer token, or not one of the host's", body = ErrorBody),
        (status = 403, description = "The token lacks the route's scope", body = ErrorBody),
    )
)]
pub async fn audit(
    State(state): State<Arc<ApiState>>,
    query: Result<Query<Vec<(String, String)>>, QueryRejection>,
) -> Answer {
    let q = params(query, AUDIT_PARAMS)?;
    let limit = page_limit(q.get("limit").map(String::as_str))?;
    let after = audit_after(q.get("after").map(String::as_str))?;
    blocking(&state, move |app| {
        Ok(Json(json!(app.store.audit_page(None, after, limit)?)))
    })
    .await
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewEvent {
    topic: String,
    id: String,
    payload: Option<Value>,
}

/// Delivers an event to one run. An ended run stores nothing: 409.
#[utoipa::path(
    post,
    path = "/v1/runs/{id}/events",
    operation_id = "send_event",
    tag = "runs",
    params(("id" = String, Path, description = "The run's id")),
    request_body = NewEvent,
    responses(
        (status = 200, description = "Where the event went: `[{run_id, delivery}]`", body = Value),
        (status = 400, description = "An empty topic, a payload not JSON or too large", body = ErrorBody),
        (status = 404, description = "No such run", body = ErrorBody),
        (status = 409, description = "The run has ended; nothing was stored", body = ErrorBody),
        (status = 401, description = "No bearer token, or not one of the host's", body = ErrorBody),
        (status = 403, description = "The token lacks the route's scope", body = ErrorBody),
    )
)]
pub async fn send_to_run(
    State(state): State<Arc<ApiState>>,
    Extension(Caller(by)): Extension<Caller>,
    Path(run): Path<String>,
    JsonBody(event): JsonBody<NewEvent>,
) -> Answer<Vec<Sent>> {
    let sent = send(&state, Some(run), event, by).await?;
    if let Some(s) = sent.iter().find(|s| s.delivery == Delivery::Finished) {
        return Err(ApiError::Conflict(format!(
            "run {} has ended; the event was not stored",
            s.run_id
        )));
    }
    Ok(Json(sent))
}

/// Delivers an event to every run waiting on its topic.
#[utoipa::path(
    post,
    path = "/v1/events",
    operation_id = "broadcast_event",
    tag = "runs",
    request_body = NewEvent,
    responses(
        (status = 200, description = "Where the event went: `[{run_id, delivery}]`, one per run waiting on the topic", body = Value),
        (status = 400, description = "An empty topic, a payload not JSON or too large", body = ErrorBody),
        (status = 401, description = "No bearer token, or not one of the host's", body = ErrorBody),
        (status = 403, description = "The token lacks the route's scope", body = ErrorBody),
    )
)]
pub async fn broadcast(
    State(state): State<Arc<ApiState>>,
    Extension(Caller(by)): Extension<Caller>,
    JsonBody(event): JsonBody<NewEvent>,
) -> Answer<Vec<Sent>> {
    Ok(Json(send(&state, None, event, by).await?))
}

/// The fields are checked here first, so that a refusal names them as the
/// API does.
async fn send(
    state: &Arc<ApiState>,
    run: Option<String>,
    event: NewEvent,
    by: String,
) -> Result<Vec<Sent>, ApiError> {
    if event.topic.trim().is_empty() {
        return Err(ApiError::BadRequest(
            "`topic` is empty: name the topic of the event".into(),
        ));
    }
    blocking(state, move |app| {
        let payload = event.payload.map(|v| v.to_string());
        if let Some(payload) = &payload {
            app.check_input("payload", payload)?;
        }
        Ok(app.send(
            run.as_deref(),
            &event.topic,
            &event.id,
            payload.as_deref(),
            &by,
        )?)
    })
    .await
}
