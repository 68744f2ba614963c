//! The approval page: what an approver sees when they open a request's
//! answer link, and the form that answers it.
//!
//! The link's token is the only authorisation, so the page shows nothing
//! beyond the request and its run's name. The form carries the digest of
//! the question and details the page showed; the answer is refused unless
//! the request still has that digest, so an approver never approves a plan
//! they did not see. A request whose question or details change gets a new
//! link, and the old one then answers nothing.

use std::sync::Arc;

use axum::extract::{FromRequest, Path, Request, State};
use axum::http::{StatusCode, header};
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::{Form, Json};
use maud::{Markup, html};
use serde::Deserialize;
use serde_json::Value;

use super::json_html;
use super::page::{page, relative, time_from_now};
use crate::app::Acting;
use crate::model::Millis;
use crate::server::error::ErrorBody;
use crate::server::{ApiError, ApiState, JsonBody, blocking, said};
use crate::store::{Approval, Run};

/// Everything the page shows, read in one go.
struct Shown {
    approval: Approval,
    run: Run,
    /// The other requests of the run and how each stands.
    others: Vec<Approval>,
    now: Millis,
}

/// `GET /v1/approve/{token}`.
#[utoipa::path(
    get,
    path = "/v1/approve/{token}",
    operation_id = "approval_page",
    tag = "approvals",
    params(("token" = String, Path, description = "The request's answer link token")),
    responses(
        (status = 200, description = "The approval page", content_type = "text/html", body = String),
        (status = 404, description = "No request has this link", content_type = "text/html", body = String),
    )
)]
pub async fn show(State(state): State<Arc<ApiState>>, Path(token): Path<String>) -> Response {
    match read(&state, token).await {
        Ok(Some(shown)) => html_page(StatusCode::OK, &shown, None),
        Ok(None) => unknown_link(false),
        Err(e) => failed(&e),
    }
}

/// The page's form.
#[derive(Deserialize, utoipa::ToSchema)]
pub struct PageAnswer {
    decision: String,
    by: String,
    #[serde(default)]
    comment: String,
    /// The digest of what the page showed.
    digest: String,
}

/// An answer through a link, as JSON.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct LinkAnswer {
    /// Who answers: kept as the answer's `said`.
    by: String,
    approved: bool,
    comment: Option<String>,
}

/// `POST /v1/approve/{token}`: the page's form
/// (`application/x-www-form-urlencoded`), or the API's JSON answer.
#[utoipa::path(
    post,
    path = "/v1/approve/{token}",
    operation_id = "answer_by_link",
    tag = "approvals",
    params(("token" = String, Path, description = "The request's answer link token")),
    request_body(content(
        (LinkAnswer = "application/json"),
        (PageAnswer = "application/x-www-form-urlencoded"),
    )),
    responses(
        (status = 200, description = "JSON: the request as answered", body = serde_json::Value),
        (status = 303, description = "A form: back to the page, which shows the answer"),
        (status = 400, description = "Not an answer", body = ErrorBody),
        (status = 404, description = "No request has this link", body = ErrorBody),
        (status = 409, description = "Already answered, or its details changed", body = ErrorBody),
        (status = 410, description = "The request expired", body = ErrorBody),
    )
)]
pub async fn answer(
    State(state): State<Arc<ApiState>>,
    Path(token): Path<String>,
    request: Request,
) -> Response {
    let is_form = request
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|t| t.starts_with("application/x-www-form-urlencoded"));
    if !is_form {
        let body = match JsonBody::from_request(request, &state).await {
            Ok(body) => body,
            Err(e) => return e.into_response(),
        };
        return answer_json(&state, token, body).await.into_response();
    }
    let form = match Form::<PageAnswer>::from_request(request, &state).await {
        Ok(Form(form)) => form,
        Err(e) => {
            return problem(
                StatusCode::BAD_REQUEST,
                &format!("the form was not complete: {e}"),
            );
        }
    };
    let approved = match form.decision.as_str() {
        "approve" => true,
        "reject" => false,
        other => {
            return problem(
                StatusCode::BAD_REQUEST,
                &format!("`{other}` is not a decision: approve or reject"),
            );
        }
    };
    let by = form.by.trim().to_string();
    let comment = Some(form.comment.trim().to_string()).filter(|c| !c.is_empty());
    let link = format!("/v1/approve/{token}");
    let result = blocking(&state, move |app| {
        let Some(request) = app.store.approval_by_token(&token)? else {
            return Ok(Err(None));
        };
        if by.is_empty() {
            return Ok(Err(Some((
                StatusCode::CONFLICT,
                "say who you are: your name is kept with the answer".into(),
            ))));
        }
        if let Err(e) = app.check_link_may_answer(&request) {
            return Ok(Err(Some((StatusCode::FORBIDDEN, e.to_string()))));
        }
        let principal = link_principal(&request.id);
        let who = Acting {
            by: &principal,
            said: Some(&by),
        };
        match app.approve(
            &request.run_id,
            &request.id,
            who,
            approved,
            comment.as_deref(),
            Some(&form.digest),
        ) {
            Ok(_) => Ok(Ok(())),
            Err(e) => Ok(Err(Some((
                StatusCode::CONFLICT,
                ApiError::from(e).to_string(),
            )))),
        }
    })
    .await;
    match result {
        // Shown again by a GET, so that a reload does not post twice.
        Ok(Ok(())) => Redirect::to(&link).into_response(),
        Ok(Err(None)) => unknown_link(true),
        Ok(Err(Some((status, why)))) => {
            let token = link.trim_start_matches("/v1/approve/").to_string();
            match read(&state, token).await {
                Ok(Some(shown)) => html_page(status, &shown, Some(&why)),
                Ok(None) => unknown_link(true),
                Err(e) => failed(&e),
            }
        }
        Err(e) => failed(&e),
    }
}

/// The JSON answer: no bearer token. It is bound to the details the
/// request had when the link was made, refused after expiry (410), and
/// taken once (409 afterwards).
async fn answer_json(
    state: &Arc<ApiState>,
    token: String,
    JsonBody(a): JsonBody<LinkAnswer>,
) -> Result<Json<Approval>, ApiError> {
    blocking(state, move |app| {
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

/// The principal of an answer made through a request's link: the link
/// itself (its holder is not known). The `:` keeps it apart from every
/// token name.
fn link_principal(request_id: &str) -> String {
    format!("link:{request_id}")
}

async fn read(state: &Arc<ApiState>, token: String) -> Result<Option<Shown>, ApiError> {
    blocking(state, move |app| {
        let Some(approval) = app.store.approval_by_token(&token)? else {
            return Ok(None);
        };
        let run = app.run(&approval.run_id)?;
        let others = app
            .store
            .approvals(&run.run_id)?
            .into_iter()
            .filter(|a| a.id != approval.id)
            .collect();
        let now = app.now();
        Ok(Some(Shown {
            approval,
            run,
            others,
            now,
        }))
    })
    .await
}

/// Where a request stands, as the page says it.
enum Standing<'a> {
    Open,
    Answered(&'a crate::model::ApprovalAnswer),
    Expired,
    NotWaited(String),
}

fn standing(shown: &Shown) -> Standing<'_> {
    let a = &shown.approval;
    if let Some(answer) = &a.answer {
        return Standing::Answered(answer);
    }
    if shown.now >= a.expires_at {
        return Standing::Expired;
    }
    let waited = shown
        .run
        .waits
        .iter()
        .any(|w| matches!(w, crate::model::WaitFor::Approval(r) if r.id == a.id));
    if a.consumed || !waited || shown.run.status.is_ended() {
        return Standing::NotWaited(format!(
            "run {} no longer waits for this answer (it is {})",
            shown.run.run_id,
            shown.run.status.as_str()
        ));
    }
    Standing::Open
}

fn html_page(status: StatusCode, shown: &Shown, refusal: Option<&str>) -> Response {
    let a = &shown.approval;
    let details: Value =
        serde_json::from_str(&a.details).unwrap_or_else(|_| Value::String(a.details.clone()));
    let body = html! {
        @if let Some(why) = refusal {
            p.refused role="alert" { strong { "Not answered: " } (why) }
        }
        (state_banner(shown))
        section aria-labelledby="asked" {
            h2 #asked { "What you are asked" }
            p.question { (a.question) }
            (json_html::render(&details))
            (json_html::raw(&details))
        }
        section aria-labelledby="context" {
            h2 #context { "Where it comes from" }
            dl.facts {
                dt { "Agent" } dd { (shown.run.agent) "@" (shown.run.version) }
                dt { "Run" } dd { code { (shown.run.run_id) } " (" (shown.run.status.as_str()) ")" }
                dt { "Asked" } dd { (time_from_now(a.requested_at, shown.now)) }
                @if let Some(facts) = based_on(&details, shown.now) {
                    dt { "Based on" } dd { (facts) }
                }
                dt { "Expires" } dd {
                    (time_from_now(a.expires_at, shown.now))
                    @if matches!(standing(shown), Standing::Open) {
                        " " span.countdown data-expires-ms=(a.expires_at) data-now-ms=(shown.now) {}
                    }
                }
                dt { "Request" } dd { code { (a.id) } " · digest " code.digest { (short(&a.details_digest)) } }
                @if !shown.others.is_empty() {
                    dt { "Other requests of this run" }
                    dd {
                        ul {
                            @for o in &shown.others {
                                li { code { (o.id) } ": " (other_standing(o, shown.now)) }
                            }
                        }
                    }
                }
            }
        }
        @if matches!(standing(shown), Standing::Open) {
            (form(shown))
        }
    };
    let title = match standing(shown) {
        Standing::Open => "Approval requested",
        Standing::Answered(answer) if answer.approved => "Approved",
        Standing::Answered(_) => "Rejected",
        Standing::Expired => "Expired",
        Standing::NotWaited(_) => "No longer needed",
    };
    (status, Html(page(title, body).into_string())).into_response()
}

fn state_banner(shown: &Shown) -> Markup {
    match standing(shown) {
        Standing::Open => html! {},
        Standing::Answered(answer) => html! {
            p.done role="status" {
                strong { (if answer.approved { "Approved" } else { "Rejected" }) }
                " by " (answered_by(answer)) " at " (time_from_now(answer.at, shown.now))
                @if let Some(c) = &answer.comment { ": “" (c) "”" }
                ". This link cannot answer again."
            }
        },
        Standing::Expired => html! {
            p.expired role="status" {
                strong { "Expired" } " at "
                (time_from_now(shown.approval.expires_at, shown.now))
                " without an answer; the run was woken with `expired`. This link cannot answer."
            }
        },
        Standing::NotWaited(why) => html! {
            p.expired role="status" { (why) "; this link cannot answer." }
        },
    }
}

fn form(shown: &Shown) -> Markup {
    let a = &shown.approval;
    html! {
        form method="post" action={ "/v1/approve/" (a.token.as_deref().unwrap_or_default()) } {
            input type="hidden" name="digest" value=(a.details_digest);
            p {
                label for="by" { "Your name" }
                input #by name="by" type="text" required autocomplete="name" maxlength="200";
            }
            p {
                label for="comment" { "Comment (optional)" }
                textarea #comment name="comment" rows="3" maxlength="2000" {}
            }
            p.buttons {
                button.approve type="submit" name="decision" value="approve" { "Approve" }
                button.reject type="submit" name="decision" value="reject" { "Reject" }
            }
            p.small {
                "Your answer is bound to exactly what this page shows (digest "
                code { (short(&a.details_digest)) } "). If the agent changes its plan before you "
                "answer, the answer is refused."
            }
        }
    }
}

/// Who answered, as the page says it: the authenticated principal, and
/// the name they gave when there is one.
fn answered_by(answer: &crate::model::ApprovalAnswer) -> String {
    match &answer.said {
        Some(said) => format!("{} (said: {said})", answer.by),
        None => answer.by.clone(),
    }
}

fn other_standing(a: &Approval, now: Millis) -> String {
    match &a.answer {
        Some(ans) => format!(
            "{} by {} {}",
            if ans.approved { "approved" } else { "rejected" },
            answered_by(ans),
            relative(ans.at, now)
        ),
        None if now >= a.expires_at => "expired".into(),
        None => "waiting for an answer".into(),
    }
}

/// The facts a plan was based on, when its details name them: a
/// `based_on` object (its `observed_at`, in ms, said as when and how long
/// ago), or a `based_on_version`.
fn based_on(details: &Value, now: Millis) -> Option<Markup> {
    if let Some(facts) = details.get("based_on").and_then(Value::as_object) {
        let observed = facts.get("observed_at").and_then(Value::as_u64);
        let mut rest = facts.clone();
        rest.remove("observed_at");
        return Some(html! {
            @if let Some(at) = observed {
                p.observed { "Observed " (time_from_now(at, now)) }
            }
            (json_html::render(&Value::Object(rest)))
        });
    }
    let version = details.get("based_on_version")?;
    Some(html! { "version " (version.to_string()) " of what the agent observed" })
}

fn short(digest: &str) -> &str {
    &digest[..digest.len().min(12)]
}

fn unknown_link(after_post: bool) -> Response {
    let body = html! {
        p.refused role="alert" {
            @if after_post { strong { "Nothing was answered. " } }
            "This link answers no request. Either the request changed after the link was made "
            "(the agent's plan is not what the link showed, and a changed request gets a new "
            "link), or the link is mistyped."
        }
    };
    (
        StatusCode::NOT_FOUND,
        Html(page("Link not valid", body).into_string()),
    )
        .into_response()
}

fn problem(status: StatusCode, why: &str) -> Response {
    let body = html! { p.refused role="alert" { (why) } };
    (status, Html(page("Not answered", body).into_string())).into_response()
}

fn failed(e: &ApiError) -> Response {
    problem(e.status(), &e.to_string())
}
