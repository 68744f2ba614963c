//! The acts an operator takes from the console. Each form posts here; the
//! first post shows what will happen and asks to confirm, the confirmed one
//! does it through the app, as the signed-in token's name, and goes back to
//! the page the act came from.

use std::sync::Arc;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use axum::{Extension, Form};
use maud::{Markup, html};
use serde::Deserialize;

use super::lists::html_response;
use super::{csrf_field, frame};
use crate::access::Scope;
use crate::app::Acting;
use crate::app::terms::Terms;
use crate::server::{ApiError, ApiState, blocking, blocking_slow, run_agent};
use crate::store::Resolution;
use crate::upgrade::{UpgradeOptions, UpgradeResult, upgrade_runs};
use crate::web::session::{Operator, check_csrf, forbidden};

/// Every field an act's form may carry.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct ActForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    action: String,
    #[serde(default)]
    run: String,
    #[serde(default)]
    scope: String,
    #[serde(default)]
    reason: String,
    #[serde(default)]
    request: String,
    #[serde(default)]
    digest: String,
    #[serde(default)]
    comment: String,
    #[serde(default)]
    topic: String,
    #[serde(default)]
    event: String,
    #[serde(default)]
    payload: String,
    #[serde(default)]
    to: String,
    #[serde(default)]
    key: String,
    #[serde(default)]
    result: String,
    #[serde(default)]
    confirmed: String,
}

impl ActForm {
    /// The page the act came from, to go back to.
    fn back(&self) -> String {
        if self.run.is_empty() {
            "/ui/switches".into()
        } else {
            format!("/ui/runs/{}", self.run)
        }
    }

    /// What the act will do, in words, before it is confirmed.
    fn describe(&self) -> Result<String, String> {
        let run = &self.run;
        let reason = || {
            Some(self.reason.trim())
                .filter(|r| !r.is_empty())
                .map(|r| format!(" Reason: “{r}”."))
                .unwrap_or_default()
        };
        Ok(match self.action.as_str() {
            "pause" if self.scope == "all" => format!(
                "Pause everything: no run takes a step (a step in flight stops at its next tool \
                 call, unchanged) until the switch is lifted. Nothing is lost.{}",
                reason()
            ),
            "pause" => format!(
                "Pause `{}`: the runs it covers take no step until it is lifted. Nothing is lost.{}",
                self.scope,
                reason()
            ),
            "resume" => format!(
                "Lift the kill switch `{}` (and resume the run if it is parked).",
                self.scope
            ),
            "cancel" => format!(
                "Cancel run {run} for good: it takes no further step and cannot be resumed.{}",
                reason()
            ),
            "send" => format!(
                "Send event `{}` on topic `{}` to run {run}, with payload {}.",
                self.event, self.topic, self.payload
            ),
            "approve" | "reject" => format!(
                "{} request `{}` of run {run}, as shown (digest {}).",
                if self.action == "approve" {
                    "Approve"
                } else {
                    "Reject"
                },
                self.request,
                &self.digest[..self.digest.len().min(12)]
            ),
            "upgrade" => format!(
                "Move run {run} to version {} through its `migrate` export; if the migration \
                 fails the run stays as it is.",
                self.to
            ),
            "resolve-result" => format!(
                "Record that call `{}` of run {run} took effect and returned {}; the run retries \
                 its step and sees that result.",
                self.key, self.result
            ),
            "resolve-retry" => format!(
                "Record that call `{}` of run {run} did not take effect: the run retries its \
                 step and sends it again.",
                self.key
            ),
            "resolve-fail" => format!(
                "Record that call `{}` of run {run} failed ({}); the run retries its step and \
                 sees the failure.",
                self.key, self.reason
            ),
            other => return Err(format!("`{other}` is not an act the console knows")),
        })
    }
}

/// `POST /ui/act`.
pub async fn act(
    State(state): State<Arc<ApiState>>,
    Extension(op): Extension<Operator>,
    Form(form): Form<ActForm>,
) -> Response {
    if let Err(refused) = check_csrf(&op, &form.csrf) {
        return *refused;
    }
    let what = match form.describe() {
        Ok(w) => w,
        Err(e) => return refusal(&op, &e),
    };
    if let Err(refused) = check_scope(&state, &op, &form).await {
        return *refused;
    }
    if form.confirmed != "yes" {
        return confirm(&op, &form, &what);
    }
    let back = form.back();
    let by = op.name.clone();
    let done = if form.action == "upgrade" {
        blocking_slow(&state, move |app| upgrade(app, &form, &by)).await
    } else {
        blocking(&state, move |app| perform(app, &form, &by)).await
    };
    match done {
        Ok(()) => Redirect::to(&back).into_response(),
        Err(e) => refusal_back(&op, &e.to_string(), &back, e.status()),
    }
}

/// The scope a console act (the `action` of its form) needs: the same as
/// the API route doing the same thing (its row of `api::auth::ROUTES`). An
/// unknown act needs `admin`.
pub fn act_scope(action: &str) -> Scope {
    match action {
        "pause" | "resume" | "cancel" | "send" => Scope::Operate,
        "approve" | "reject" => Scope::Approve,
        "resolve-result" | "resolve-retry" | "resolve-fail" => Scope::Resolve,
        "upgrade" => Scope::Deploy,
        _ => Scope::Admin,
    }
}

/// Refuses an act outside the operator's scopes (the API's scope for the
/// same change, [`act_scope`]), and an answer for an agent their `approve`
/// does not cover.
async fn check_scope(
    state: &Arc<ApiState>,
    op: &Operator,
    f: &ActForm,
) -> Result<(), Box<Response>> {
    let needed = act_scope(&f.action);
    let refused = |why: String| Box::new(forbidden(&why));
    op.grant.require(&op.name, needed).map_err(refused)?;
    if needed == Scope::Approve && op.grant.agents.is_some() {
        let agent = run_agent(state, &f.run)
            .await
            .map_err(|e| Box::new(refusal(op, &e.to_string())))?;
        op.grant.require_agent(&op.name, &agent).map_err(refused)?;
    }
    Ok(())
}

fn perform(app: &mut crate::app::App, f: &ActForm, by: &str) -> Result<(), ApiError> {
    let reason = Some(f.reason.trim()).filter(|r| !r.is_empty());
    match f.action.as_str() {
        "pause" => app.pause(&f.scope, reason, false, by)?,
        "resume" => {
            app.resume(&f.scope, by)?;
        }
        "cancel" => {
            let reason = reason
                .ok_or_else(|| ApiError::BadRequest("say why the run is cancelled".into()))?;
            app.cancel(&f.run, reason, by)?;
        }
        "send" => {
            let payload = Some(f.payload.trim()).filter(|p| !p.is_empty());
            app.send(Some(&f.run), f.topic.trim(), f.event.trim(), payload, by)?;
        }
        "approve" | "reject" => {
            let comment = Some(f.comment.trim()).filter(|c| !c.is_empty());
            app.approve(
                &f.run,
                &f.request,
                Acting { by, said: None },
                f.action == "approve",
                comment,
                Some(&f.digest),
            )?;
        }
        "resolve-result" | "resolve-retry" | "resolve-fail" => {
            let how = match f.action.as_str() {
                "resolve-result" => Resolution::Result(f.result.trim().to_string()),
                "resolve-retry" => Resolution::Retry,
                _ => Resolution::Fail(f.reason.trim().to_string()),
            };
            app.resolve(&f.run, &f.key, &how, Acting { by, said: None })?;
        }
        other => {
            return Err(ApiError::BadRequest(format!(
                "`{other}` is not an act the console knows"
            )));
        }
    }
    Ok(())
}

fn upgrade(app: &mut crate::app::App, f: &ActForm, by: &str) -> Result<(), ApiError> {
    let options = UpgradeOptions {
        dry_run: false,
        allow_new_tools: false,
        terms: Terms::Api,
    };
    let results = upgrade_runs(app, std::slice::from_ref(&f.run), &f.to, options, by)?;
    for r in results {
        let why = match r.result {
            UpgradeResult::Failed(why) => why,
            UpgradeResult::Busy => "a worker is stepping it; try again in a moment".into(),
            UpgradeResult::Ended => "it has ended".into(),
            _ => continue,
        };
        return Err(ApiError::Conflict(format!(
            "run {} stays on {}: {why}",
            r.run_id, r.from
        )));
    }
    Ok(())
}

/// The page that asks to confirm an act, carrying its fields.
fn confirm(op: &Operator, f: &ActForm, what: &str) -> Response {
    let fields = [
        ("action", &f.action),
        ("run", &f.run),
        ("scope", &f.scope),
        ("reason", &f.reason),
        ("request", &f.request),
        ("digest", &f.digest),
        ("comment", &f.comment),
        ("topic", &f.topic),
        ("event", &f.event),
        ("payload", &f.payload),
        ("to", &f.to),
        ("key", &f.key),
        ("result", &f.result),
    ];
    let body = html! {
        p.question { (what) }
        form method="post" action="/ui/act" {
            (csrf_field(op))
            @for (name, value) in fields {
                @if !value.is_empty() { input type="hidden" name=(name) value=(value); }
            }
            input type="hidden" name="confirmed" value="yes";
            p.buttons {
                button.reject type="submit" autofocus { "Yes, do it" }
                a href=(f.back()) { "No, go back" }
            }
        }
    };
    html_response(frame("Confirm", op, None, body))
}

/// A refusal shown in the console's frame.
pub fn refusal(op: &Operator, why: &str) -> Response {
    refusal_back(op, why, "/ui/", StatusCode::BAD_REQUEST)
}

fn refusal_back(op: &Operator, why: &str, back: &str, status: StatusCode) -> Response {
    let body: Markup = html! {
        p.refused role="alert" { strong { "Not done: " } (why) }
        p { a href=(back) { "Back" } }
    };
    (status, html_response(frame("Not done", op, None, body))).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_act_needs_the_scope_of_its_api_route_and_an_unknown_one_admin() {
        assert_eq!(act_scope("approve"), Scope::Approve);
        assert_eq!(act_scope("resolve-result"), Scope::Resolve);
        assert_eq!(act_scope("upgrade"), Scope::Deploy);
        assert_eq!(act_scope("nuke"), Scope::Admin);
    }
}
