//! The operator's console under `/ui/`: runs and what each waits for, a
//! run's timeline and the acts an operator takes on it, agents, schedules,
//! kill switches and the audit log. Every page needs a session
//! ([`super::session`]); every act goes through a confirmation page and is
//! done by the app as the signed-in token's name.
//!
//! Pages refresh themselves while open: a small script asks the page's
//! stamp URL every two seconds and reloads when it changed (polling, not
//! server-sent events: it works the same behind any proxy and with several
//! hosts on one store, holds no connection open per tab, and a page that
//! misses a beat just reloads on the next one).

mod acts;
mod lists;
mod run;

use std::sync::Arc;

use axum::Router;
use axum::middleware;
use axum::routing::{get, post};
use maud::{Markup, html};

use super::session::{self, Operator};
use crate::server::ApiState;

/// The console's routes, all behind a session but the sign-in itself.
pub fn routes(state: Arc<ApiState>) -> Router<Arc<ApiState>> {
    let signed_in = Router::new()
        .route("/ui/", get(lists::runs))
        .route("/ui/runs/{id}", get(run::page))
        .route("/ui/runs/{id}/stamp", get(run::stamp))
        .route("/ui/act", post(acts::act))
        .route("/ui/agents", get(lists::agents))
        .route("/ui/schedules", get(lists::schedules))
        .route("/ui/switches", get(lists::switches))
        .route("/ui/audit", get(lists::audit))
        .route("/ui/stamp", get(lists::stamp))
        .route("/ui/logout", post(session::logout))
        .route_layer(middleware::from_fn_with_state(
            state,
            session::require_session,
        ));
    Router::new()
        .route(
            "/ui",
            get(|| async { axum::response::Redirect::to("/ui/") }),
        )
        .route("/ui/login", get(session::login_page).post(session::login))
        .merge(signed_in)
}

/// The console's frame: navigation, who is signed in, and for a live page
/// its stamp URL and the stamp of what it shows, read with it (a change
/// made between this read and the script's first look at the URL still
/// reloads the page).
pub fn frame(title: &str, operator: &Operator, live: Option<(&str, &str)>, body: Markup) -> Markup {
    let nav = html! {
        nav aria-label="Console" {
            ul.nav {
                li { a href="/ui/" { "Runs" } }
                li { a href="/ui/agents" { "Agents" } }
                li { a href="/ui/schedules" { "Schedules" } }
                li { a href="/ui/switches" { "Kill switches" } }
                li { a href="/ui/audit" { "Audit" } }
                li.who {
                    "Signed in as " strong { (operator.name) }
                    form.inline method="post" action="/ui/logout" {
                        input type="hidden" name="csrf" value=(operator.csrf);
                        button.link type="submit" { "Sign out" }
                    }
                }
            }
        }
        @if let Some((url, stamp)) = live {
            div #live data-stamp-url=(url) data-stamp=(stamp) hidden {}
        }
        (body)
    };
    super::page::wide_page(title, nav)
}

/// A hidden CSRF field for a console form.
pub fn csrf_field(operator: &Operator) -> Markup {
    html! { input type="hidden" name="csrf" value=(operator.csrf); }
}
