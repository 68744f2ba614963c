//! Operator controls: kill switches, cancelling, upgrades and the kv store.

use std::sync::Arc;

use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::{Extension, Json};
use serde::Deserialize;
use serde_json::{Value, json};
use utoipa::{IntoParams, ToSchema};

use super::auth::Caller;
use crate::app::terms::Terms;
use crate::server::error::ErrorBody;
use crate::server::{ApiError, ApiState, JsonBody, blocking, blocking_slow};
use crate::store::{KvOp, KvOutcome, Resolution, Switch};
use crate::tools;
use crate::upgrade::{self, UpgradeOptions, Upgraded};

type Answer<T = Value> = Result<Json<T>, ApiError>;

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ScopeBody {
    /// `all`, `run:<id>`, `agent:<name>` or `tool:<name>`.
    scope: String,
    reason: Option<String>,
    /// Pause an agent or tool that is not deployed yet.
    #[serde(default)]
    preemptive: bool,
}

fn check_scope(scope: &str) -> Result<(), ApiError> {
    let named = ["run:", "agent:", "tool:"]
        .iter()
        .any(|p| scope.strip_prefix(p).is_some_and(|rest| !rest.is_empty()));
    if scope == "all" || named {
        Ok(())
    } else {
        Err(ApiError::BadRequest(format!(
            "scope `{scope}` is not valid; use all, run:<id>, agent:<name> or tool:<name>"
        )))
    }
}

#[utoipa::path(
    post,
    path = "/v1/pause",
    operation_id = "pause",
    tag = "operations",
    request_body = ScopeBody,
    responses(
        (status = 200, description = "`{\"paused\": SCOPE}`", body = Value),
        (status = 400, description = "Not a scope", body = ErrorBody),
        (status = 404, description = "An agent or tool that exists nowhere, without `preemptive`", body = ErrorBody),
        (status = 401, description = "No bearer token, or not one of the host's", body = ErrorBody),
        (status = 403, description = "The token lacks the route's scope", body = ErrorBody),
    )
)]
pub async fn pause(
    State(state): State<Arc<ApiState>>,
    Extension(Caller(by)): Extension<Caller>,
    JsonBody(body): JsonBody<ScopeBody>,
) -> Answer {
    check_scope(&body.scope)?;
    blocking(&state, move |app| {
        app.pause(&body.scope, body.reason.as_deref(), body.preemptive, &by)?;
        Ok(Json(json!({"paused": body.scope})))
    })
    .await
}

/// Lifts a switch (and resumes a parked run); `changed` is false when
/// nothing was paused.
#[utoipa::path(
    post,
    path = "/v1/resume",
    operation_id = "resume",
    tag = "operations",
    request_body = ScopeBody,
    responses(
        (status = 200, description = "`{\"resumed\": SCOPE, \"changed\": BOOL}`", body = Value),
        (status = 400, description = "Not a scope", body = ErrorBody),
        (status = 401, description = "No bearer token, or not one of the host's", body = ErrorBody),
        (status = 403, description = "The token lacks the route's scope", body = ErrorBody),
    )
)]
pub async fn resume(
    State(state): State<Arc<ApiState>>,
    Extension(Caller(by)): Extension<Caller>,
    JsonBody(body): JsonBody<ScopeBody>,
) -> Answer {
    check_scope(&body.scope)?;
    blocking(&state, move |app| {
        let changed = app.resume(&body.scope, &by)?;
        Ok(Json(json!({"resumed": body.scope, "changed": changed})))
    })
    .await
}

/// `GET /v1/hosts`: the hosts sharing the store, as `wakeful hosts --json`.
#[utoipa::path(
    get,
    path = "/v1/hosts",
    operation_id = "hosts",
    tag = "operations",
    responses(
        (status = 200, description = "The hosts sharing the store, as `wakeful hosts --json`", body = Value),
        (status = 401, description = "No bearer token, or not one of the host's", body = ErrorBody),
        (status = 403, description = "The token lacks the route's scope", body = ErrorBody),
    )
)]
pub async fn hosts(State(state): State<Arc<ApiState>>) -> Answer<Vec<crate::app::HostView>> {
    blocking(&state, |app| Ok(Json(app.hosts()?))).await
}

#[utoipa::path(
    get,
    path = "/v1/switches",
    operation_id = "switches",
    tag = "operations",
    responses(
        (status = 200, description = "The kill switches that are on", body = Value),
        (status = 401, description = "No bearer token, or not one of the host's", body = ErrorBody),
        (status = 403, description = "The token lacks the route's scope", body = ErrorBody),
    )
)]
pub async fn switches(State(state): State<Arc<ApiState>>) -> Answer<Vec<Switch>> {
    blocking(&state, |app| Ok(Json(app.store.switches()?))).await
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CancelBody {
    reason: String,
}

/// Ends a run for good; 409 when it had already ended.
#[utoipa::path(
    post,
    path = "/v1/runs/{id}/cancel",
    operation_id = "cancel_run",
    tag = "operations",
    params(("id" = String, Path, description = "The run's id")),
    request_body = CancelBody,
    responses(
        (status = 200, description = "`{\"cancelled\": RUN_ID}`", body = Value),
        (status = 400, description = "An empty reason", body = ErrorBody),
        (status = 404, description = "No such run", body = ErrorBody),
        (status = 409, description = "The run had already ended", body = ErrorBody),
        (status = 401, description = "No bearer token, or not one of the host's", body = ErrorBody),
        (status = 403, description = "The token lacks the route's scope", body = ErrorBody),
    )
)]
pub async fn cancel(
    State(state): State<Arc<ApiState>>,
    Extension(Caller(by)): Extension<Caller>,
    Path(run): Path<String>,
    JsonBody(body): JsonBody<CancelBody>,
) -> Answer {
    if body.reason.trim().is_empty() {
        return Err(ApiError::BadRequest(
            "`reason` is empty: say why the run is cancelled".into(),
        ));
    }
    blocking(&state, move |app| {
        app.run(&run)?;
        if app.cancel(&run, &body.reason, &by)? {
            Ok(Json(json!({"cancelled": run})))
        } else {
            Err(ApiError::Conflict(format!(
                "run {run} has already ended; nothing changed"
            )))
        }
    })
    .await
}

/// How an operator settles a call of unknown outcome: exactly one of
/// `result` (JSON), `retry: true` or `fail` (a reason). The audit row's
/// `by` is the request's token; a `by` given here is kept as `said`.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ResolveBody {
    key: String,
    by: Option<String>,
    result: Option<Value>,
    #[serde(default)]
    retry: bool,
    fail: Option<String>,
}

#[utoipa::path(
    post,
    path = "/v1/runs/{id}/resolve",
    operation_id = "resolve_call",
    tag = "operations",
    params(("id" = String, Path, description = "The run's id")),
    request_body = ResolveBody,
    responses(
        (status = 200, description = "`{\"resolved\": KEY, \"run\": RUN_ID}`", body = Value),
        (status = 400, description = "Not exactly one of result, retry, fail", body = ErrorBody),
        (status = 404, description = "No such run, or no call of unknown outcome with this key", body = ErrorBody),
        (status = 409, description = "The run is not parked on a call of unknown outcome", body = ErrorBody),
        (status = 401, description = "No bearer token, or not one of the host's", body = ErrorBody),
        (status = 403, description = "The token lacks the route's scope", body = ErrorBody),
    )
)]
pub async fn resolve(
    State(state): State<Arc<ApiState>>,
    Extension(Caller(caller)): Extension<Caller>,
    Path(run): Path<String>,
    JsonBody(body): JsonBody<ResolveBody>,
) -> Answer {
    let resolution = match (body.result, body.retry, body.fail) {
        (Some(result), false, None) => Resolution::Result(result.to_string()),
        (None, true, None) => Resolution::Retry,
        (None, false, Some(reason)) => Resolution::Fail(reason),
        _ => {
            return Err(ApiError::BadRequest(
                "say how the call ended with exactly one of `result`, `retry: true` or `fail`"
                    .into(),
            ));
        }
    };
    blocking(&state, move |app| {
        let who = crate::app::Acting {
            by: &caller,
            said: body.by.as_deref(),
        };
        app.resolve(&run, &body.key, &resolution, who)?;
        Ok(Json(json!({"resolved": body.key, "run": run})))
    })
    .await
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct UpgradeBody {
    run: Option<String>,
    agent: Option<String>,
    to: String,
    #[serde(default)]
    dry_run: bool,
    #[serde(default)]
    allow_new_tools: bool,
}

/// Moves one run, or every live run of an agent, to version `to`. Runs that
/// were not upgraded are reported in the answer, not as an error.
#[utoipa::path(
    post,
    path = "/v1/upgrade",
    operation_id = "upgrade",
    tag = "operations",
    request_body = UpgradeBody,
    responses(
        (status = 200, description = "One row per run: upgraded, or why not", body = Value),
        (status = 400, description = "Neither or both of run and agent", body = ErrorBody),
        (status = 404, description = "No such run, agent or version", body = ErrorBody),
        (status = 401, description = "No bearer token, or not one of the host's", body = ErrorBody),
        (status = 403, description = "The token lacks the route's scope", body = ErrorBody),
    )
)]
pub async fn upgrade(
    State(state): State<Arc<ApiState>>,
    Extension(Caller(by)): Extension<Caller>,
    JsonBody(body): JsonBody<UpgradeBody>,
) -> Answer<Vec<Upgraded>> {
    blocking_slow(&state, move |app| {
        let runs = match (body.run, body.agent) {
            (Some(run), None) => vec![run],
            (None, Some(agent)) => {
                app.resolve_agent(&agent)?;
                upgrade::live_runs(app, &agent)?
            }
            _ => {
                return Err(ApiError::BadRequest(
                    "name either `run` or `agent`, not both or neither".into(),
                ));
            }
        };
        let options = UpgradeOptions {
            dry_run: body.dry_run,
            allow_new_tools: body.allow_new_tools,
            terms: Terms::Api,
        };
        Ok(Json(upgrade::upgrade_runs(
            app, &runs, &body.to, options, &by,
        )?))
    })
    .await
}

#[utoipa::path(
    get,
    path = "/v1/kv/{key}",
    operation_id = "kv_get",
    tag = "operations",
    params(("key" = String, Path, description = "The key; it may hold `/`")),
    responses(
        (status = 200, description = "The entry: key, value, version; or absent", body = Value),
        (status = 401, description = "No bearer token, or not one of the host's", body = ErrorBody),
        (status = 403, description = "The token lacks the route's scope", body = ErrorBody),
    )
)]
pub async fn kv_get(
    State(state): State<Arc<ApiState>>,
    Extension(Caller(by)): Extension<Caller>,
    Path(key): Path<String>,
) -> Answer {
    blocking(&state, move |app| {
        let outcome = app.kv(&KvOp::Get { key }, &by)?;
        Ok(Json(rendered(&outcome)))
    })
    .await
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct KvQuery {
    /// Write only if the key is at this version (0: absent).
    expected_version: Option<u64>,
}

/// The body is the value. A write refused for its version is a 409 that
/// names the current version.
#[utoipa::path(
    put,
    path = "/v1/kv/{key}",
    operation_id = "kv_put",
    tag = "operations",
    params(("key" = String, Path, description = "The key; it may hold `/`"), KvQuery),
    request_body = Value,
    responses(
        (status = 200, description = "The write: ok, version", body = Value),
        (status = 400, description = "The value is not JSON, or too large", body = ErrorBody),
        (status = 409, description = "The key is not at the expected version; nothing was written", body = ErrorBody),
        (status = 401, description = "No bearer token, or not one of the host's", body = ErrorBody),
        (status = 403, description = "The token lacks the route's scope", body = ErrorBody),
    )
)]
pub async fn kv_put(
    State(state): State<Arc<ApiState>>,
    Extension(Caller(by)): Extension<Caller>,
    Path(key): Path<String>,
    query: Result<Query<KvQuery>, QueryRejection>,
    JsonBody(value): JsonBody<Value>,
) -> Answer {
    let Query(q) = query?;
    blocking(&state, move |app| {
        let value = value.to_string();
        app.check_json("the value", &value)?;
        let op = KvOp::Put {
            key: key.clone(),
            value,
            expected_version: q.expected_version,
        };
        let outcome = app.kv(&op, &by)?;
        if let KvOutcome::Wrote(w) = &outcome
            && !w.ok
        {
            return Err(ApiError::Conflict(format!(
                "key {key} is at version {}, not the expected one; nothing was written",
                w.version
            )));
        }
        Ok(Json(rendered(&outcome)))
    })
    .await
}

/// `GET /v1/kv?prefix=P&limit=N&after=KEY`.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct KvListQuery {
    prefix: Option<String>,
    limit: Option<String>,
    after: Option<String>,
}

/// A page of the keys that start with `prefix`, in key order, each as
/// `GET /v1/kv/{key}` shows it; `next` is the last key, for `after`.
#[utoipa::path(
    get,
    path = "/v1/kv",
    operation_id = "kv_list",
    tag = "operations",
    params(KvListQuery),
    responses(
        (status = 200, description = "`{\"items\": [entries in key order], \"next\": KEY | null}`", body = Value),
        (status = 400, description = "A bad parameter", body = ErrorBody),
        (status = 401, description = "No bearer token, or not one of the host's", body = ErrorBody),
        (status = 403, description = "The token lacks the route's scope", body = ErrorBody),
    )
)]
pub async fn kv_list(
    State(state): State<Arc<ApiState>>,
    query: Result<Query<KvListQuery>, QueryRejection>,
) -> Answer {
    use super::runs::{DEFAULT_PAGE, MAX_PAGE};
    let Query(q) = query?;
    let limit = match q.limit.as_deref() {
        None => DEFAULT_PAGE,
        Some(text) => match text.parse::<usize>() {
            Ok(n) if (1..=MAX_PAGE).contains(&n) => n,
            _ => {
                return Err(ApiError::BadRequest(format!(
                    "limit `{text}` is not valid; use a number from 1 to {MAX_PAGE} \
                     (default {DEFAULT_PAGE})"
                )));
            }
        },
    };
    blocking(&state, move |app| {
        let prefix = q.prefix.unwrap_or_default();
        let page = app.store.kv_page(&prefix, q.after.as_deref(), limit)?;
        let items: Vec<Value> = page
            .items
            .into_iter()
            .map(|entry| rendered(&KvOutcome::Read(entry)))
            .collect();
        Ok(Json(json!({"items": items, "next": page.next})))
    })
    .await
}

fn rendered(outcome: &KvOutcome) -> Value {
    serde_json::from_str(&tools::kv::render_for_operator(outcome)).unwrap_or(Value::Null)
}
