//! Runs: start, list, show, history, audit, and events delivered to them.

use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde::Deserialize;
use serde_json::{Value, json};

use super::{ApiError, ApiState, JsonBody, blocking};
use crate::app::Sent;
use crate::store::Delivery;
use crate::view::{self, AnswerLinks};

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

pub async fn list(State(state): State<Arc<ApiState>>) -> Answer {
    blocking(&state, |app| {
        Ok(Json(view::runs(&app.store.runs()?, &app.store.switches()?)))
    })
    .await
}

/// The same document as `wakeful show --json`, plus each pending approval's
/// answer link: operators are authenticated here.
pub async fn show(State(state): State<Arc<ApiState>>, Path(id): Path<String>) -> Answer {
    blocking(&state, move |app| {
        let run = app.run(&id)?;
        let approvals = app.store.approvals(&id)?;
        let switches = app.store.switches()?;
        let intents = app.store.intents(&id)?;
        Ok(Json(view::show(
            &run,
            &approvals,
            &switches,
            &intents,
            AnswerLinks::Shown,
        )))
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

pub async fn run_audit(State(state): State<Arc<ApiState>>, Path(id): Path<String>) -> Answer {
    blocking(&state, move |app| {
        app.run(&id)?;
        Ok(Json(json!(app.store.audit(Some(&id))?)))
    })
    .await
}

pub async fn audit(State(state): State<Arc<ApiState>>) -> Answer {
    blocking(&state, |app| Ok(Json(json!(app.store.audit(None)?)))).await
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
