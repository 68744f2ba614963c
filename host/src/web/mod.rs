//! The pages people open in a browser, served by `wakeful serve` itself:
//! the approval page behind each request's answer link ([`approval`]) and
//! the operator's console under `/ui/` ([`console`], signed in through
//! [`session`]), where a browser opening the host's address is sent
//! ([`front_door`]).
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

use std::sync::Arc;

use axum::Router;
use axum::extract::{Path, Request};
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::get;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::server::ApiState;

/// The console and the static files pages use: no route under `/v1`.
pub fn routes(state: Arc<ApiState>) -> Router<Arc<ApiState>> {
    Router::new()
        .merge(console::routes(state))
        .route("/ui/static/{file}", get(static_file))
        .layer(middleware::from_fn(page_headers))
}

/// The answer links, under `/v1` and so in the API's OpenAPI document:
/// `GET` shows the page, `POST` takes the page's form or the API's JSON.
pub fn answer_links() -> OpenApiRouter<Arc<ApiState>> {
    OpenApiRouter::new()
        .routes(routes!(approval::show, approval::answer))
        .layer(middleware::from_fn(page_headers))
}

/// The console's start page: where a browser that opens the host's
/// address is sent.
const START: &str = "/ui/";

/// A browser opening the host's address (`GET /` asking for HTML) is sent
/// to the console; anything else at `/` is left to the API, whose answer
/// there is a JSON 404.
pub fn front_door(request: &Request) -> Option<Redirect> {
    let wants_html = request
        .headers()
        .get_all(header::ACCEPT)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(accepts_html);
    (request.method() == Method::GET && request.uri().path() == "/" && wants_html)
        .then(|| Redirect::to(START))
}

/// One media range of an `Accept` header names HTML, not refused (`q=0`).
fn accepts_html(range: &str) -> bool {
    let mut parts = range.split(';').map(str::trim);
    let is_html = parts
        .next()
        .is_some_and(|t| t.eq_ignore_ascii_case("text/html"));
    let refused = parts.any(|p| {
        p.strip_prefix("q=")
            .and_then(|q| q.parse::<f32>().ok())
            .is_some_and(|q| q == 0.0)
    });
    is_html && !refused
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

#[cfg(test)]
mod tests {
    use super::*;

    fn get(path: &str, accept: Option<&str>) -> Request {
        let mut builder = Request::builder().uri(path);
        if let Some(accept) = accept {
            builder = builder.header(header::ACCEPT, accept);
        }
        builder.body(axum::body::Body::empty()).unwrap()
    }

    #[test]
    fn only_a_browser_asking_for_the_root_is_sent_to_the_console() {
        let browser = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
        assert!(front_door(&get("/", Some(browser))).is_some());
        assert!(front_door(&get("/", Some("TEXT/HTML"))).is_some());
        assert!(front_door(&get("/", Some("application/json"))).is_none());
        assert!(front_door(&get("/", Some("*/*"))).is_none());
        assert!(front_door(&get("/", Some("text/html;q=0"))).is_none());
        assert!(front_door(&get("/", None)).is_none());
        assert!(front_door(&get("/elsewhere", Some(browser))).is_none());
    }
}
