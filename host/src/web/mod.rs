//! The pages people open in a browser, served by `wakeful serve` itself:
//! the approval page behind each request's answer link ([`approval`]) and
//! the operator's console under `/ui/` ([`console`], signed in through
//! [`session`]).
//!
//! Pages are rendered on the server with `maud` (HTML checked at compile
//! time, every interpolated value escaped); a page works without
//! JavaScript, and the little script there is (a countdown) is served from
//! here too. Every page forbids the browser to load anything from
//! elsewhere, to run inline script, or to be framed.

mod approval;
mod console;
mod diff;
mod json_html;
mod page;
mod session;

pub use session::Console;

use std::sync::Arc;

use axum::Router;
use axum::extract::{Path, Request};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

use crate::api::ApiState;

/// The browser's routes: answer links (`GET` shows the page; `POST` takes
/// the page's form or the API's JSON), the console, and the static files
/// pages use.
pub fn routes(state: Arc<ApiState>) -> Router<Arc<ApiState>> {
    Router::new()
        .merge(console::routes(state))
        .route(
            "/v1/approve/{token}",
            get(approval::show).post(approval::answer),
        )
        .route("/ui/static/{file}", get(static_file))
        .layer(middleware::from_fn(page_headers))
}

/// Headers on every page and file: nothing from elsewhere, no inline
/// script, no framing, no sniffing, no caching of a capability's page.
async fn page_headers(request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    let h = response.headers_mut();
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; \
             connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
        ),
    );
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    // Not `no-referrer`: under it a browser sends `Origin: null` with the
    // page's own form post, which the Origin check refuses. `same-origin`
    // still keeps the link from other sites.
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("same-origin"),
    );
    if !h.contains_key(header::CACHE_CONTROL) {
        h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    response
}

const STYLE: &str = include_str!("static/style.css");
const SCRIPT: &str = include_str!("static/app.js");

async fn static_file(Path(file): Path<String>) -> Response {
    let (body, kind) = match file.as_str() {
        "style.css" => (STYLE, "text/css; charset=utf-8"),
        "app.js" => (SCRIPT, "text/javascript; charset=utf-8"),
        _ => return (StatusCode::NOT_FOUND, "no such file").into_response(),
    };
    (
        [
            (header::CONTENT_TYPE, kind),
            (header::CACHE_CONTROL, "max-age=300"),
        ],
        body,
    )
        .into_response()
}
