//! Who may call each route of the API: the route table ([`ROUTES`]), and
//! the bearer token every operator route needs, one of the API's
//! [`tokens`](crate::access). The name of the token a request
//! carries is who made it ([`Caller`]): handlers name it in the audit log.
//! What it may do travels beside it as a [`Grant`](crate::access::Grant), checked against
//! [`route_scope`] before any handler runs.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::header::AUTHORIZATION;
use axum::http::{Method, StatusCode};
use axum::middleware::Next;
use axum::response::Response;

use crate::access::Scope;
use crate::server::{ApiError, ApiState, run_agent};

/// The name of the token a request was let in with: who made it.
#[derive(Clone, Debug)]
pub struct Caller(pub String);

/// Who may call a route.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// Anyone who passes the Host and Origin checks: health, this API's
    /// description, and the answer and callback links, whose single-use
    /// token is in their path.
    Public,
    /// A bearer token with this scope.
    Token(Scope),
}

/// Every route of the API, by method and route pattern (as the router
/// spells it), and who may call it. One table for every face: the API's
/// middleware reads it, the console's acts map to the same scopes, and
/// the OpenAPI document (`GET /v1/openapi.json`) names exactly its `/v1`
/// routes (a test checks both against it).
pub const ROUTES: &[(&str, &str, Access)] = &[
    ("GET", "/v1/health", Access::Public),
    ("GET", "/v1/openapi.json", Access::Public),
    ("GET", "/v1/approve/{token}", Access::Public),
    ("POST", "/v1/approve/{token}", Access::Public),
    ("POST", "/v1/callback/{token}", Access::Public),
    ("GET", "/v1/agents", Access::Token(Scope::Read)),
    ("POST", "/v1/agents", Access::Token(Scope::Deploy)),
    ("GET", "/v1/runs", Access::Token(Scope::Read)),
    ("POST", "/v1/runs", Access::Token(Scope::Operate)),
    ("GET", "/v1/runs/{id}", Access::Token(Scope::Read)),
    ("GET", "/v1/runs/{id}/history", Access::Token(Scope::Read)),
    ("GET", "/v1/runs/{id}/audit", Access::Token(Scope::Read)),
    (
        "POST",
        "/v1/runs/{id}/events",
        Access::Token(Scope::Operate),
    ),
    (
        "POST",
        "/v1/runs/{id}/cancel",
        Access::Token(Scope::Operate),
    ),
    (
        "POST",
        "/v1/runs/{id}/resolve",
        Access::Token(Scope::Resolve),
    ),
    (
        "POST",
        "/v1/runs/{id}/approvals/{request}",
        Access::Token(Scope::Approve),
    ),
    ("POST", "/v1/events", Access::Token(Scope::Operate)),
    ("GET", "/v1/audit", Access::Token(Scope::Read)),
    ("POST", "/v1/pause", Access::Token(Scope::Operate)),
    ("POST", "/v1/resume", Access::Token(Scope::Operate)),
    ("GET", "/v1/switches", Access::Token(Scope::Read)),
    ("GET", "/v1/hosts", Access::Token(Scope::Read)),
    ("POST", "/v1/upgrade", Access::Token(Scope::Deploy)),
    ("GET", "/v1/kv", Access::Token(Scope::Operate)),
    ("GET", "/v1/kv/{*key}", Access::Token(Scope::Operate)),
    ("PUT", "/v1/kv/{*key}", Access::Token(Scope::Operate)),
    ("GET", "/metrics", Access::Token(Scope::Read)),
];

/// The scope a call to `path` with `method` needs, by the first row of
/// [`ROUTES`] that takes a token and whose pattern matches it (`{x}` one
/// segment, `{*x}` the rest): `HEAD` as `GET`; a path no row matches
/// needs `admin`, so a route added without a row is closed, not open.
pub fn route_scope(method: &Method, path: &str) -> Scope {
    let method = if method == Method::HEAD {
        "GET"
    } else {
        method.as_str()
    };
    ROUTES
        .iter()
        .filter_map(|(m, pattern, access)| match access {
            Access::Token(scope) => Some((m, pattern, scope)),
            Access::Public => None,
        })
        .find(|(m, pattern, _)| **m == method && path_matches(pattern, path))
        .map_or(Scope::Admin, |(_, _, s)| *s)
}

fn path_matches(pattern: &str, path: &str) -> bool {
    let mut given = path.split('/');
    for part in pattern.split('/') {
        if part.starts_with("{*") {
            return given.next().is_some_and(|g| !g.is_empty());
        }
        match given.next() {
            Some(g) if part.starts_with('{') && !g.is_empty() => {}
            Some(g) if g == part => {}
            _ => return false,
        }
    }
    given.next().is_none()
}

/// Lets a request through only with `Authorization: Bearer <token>` (the
/// scheme in any case, as HTTP defines it) naming one of the API's tokens
/// whose scopes include the one its route needs ([`route_scope`]; an
/// answer also checks the run's agent against the token's). Marks it with
/// the token's name ([`Caller`]) and [`Grant`](crate::access::Grant). There
/// is always a token: `serve` refuses to start without one.
pub async fn require_token(
    State(state): State<Arc<ApiState>>,
    mut request: Request,
    next: Next,
) -> Result<Response, ApiError> {
    let given = request
        .headers()
        .get(AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(bearer);
    let Some(given) = given else {
        return Err(ApiError::Unauthorized(
            "this call needs `Authorization: Bearer <token>` (one of [api.tokens], \
             WAKEFUL_API_TOKEN, or the token file `serve` printed the path of)"
                .into(),
        ));
    };
    let Some(token) = state.tokens.find(given).cloned() else {
        return Err(ApiError::Unauthorized(
            "the bearer token is not the configured WAKEFUL_API_TOKEN (or token file) nor one \
             of [api.tokens]"
                .into(),
        ));
    };
    let (method, path) = (request.method().clone(), request.uri().path().to_string());
    let needed = route_scope(&method, &path);
    let refused =
        |why: String| ApiError::Rejected(StatusCode::FORBIDDEN, format!("{method} {path}: {why}"));
    token.grant.require(&token.name, needed).map_err(&refused)?;
    if needed == Scope::Approve && token.grant.agents.is_some() {
        let run = path.split('/').nth(3).unwrap_or_default();
        let agent = run_agent(&state, run).await?;
        token
            .grant
            .require_agent(&token.name, &agent)
            .map_err(&refused)?;
    }
    request.extensions_mut().insert(Caller(token.name));
    request.extensions_mut().insert(token.grant);
    Ok(next.run(request).await)
}

/// The credentials of a `Bearer` authorization, the scheme matched without
/// regard to case.
fn bearer(value: &str) -> Option<&str> {
    let (scheme, credentials) = value.trim().split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then(|| credentials.trim())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bearer_scheme_is_matched_in_any_case() {
        assert_eq!(bearer("Bearer s3cret"), Some("s3cret"));
        assert_eq!(bearer("bearer s3cret"), Some("s3cret"));
        assert_eq!(bearer("BEARER  s3cret "), Some("s3cret"));
        assert_eq!(bearer("Basic s3cret"), None);
        assert_eq!(bearer("Bearers3cret"), None);
    }

    #[test]
    fn every_route_needs_its_scope_and_an_unknown_one_needs_admin() {
        assert_eq!(route_scope(&Method::GET, "/v1/runs"), Scope::Read);
        assert_eq!(route_scope(&Method::HEAD, "/v1/runs/r1"), Scope::Read);
        assert_eq!(route_scope(&Method::POST, "/v1/runs"), Scope::Operate);
        assert_eq!(route_scope(&Method::POST, "/v1/agents"), Scope::Deploy);
        assert_eq!(
            route_scope(&Method::POST, "/v1/runs/r1/resolve"),
            Scope::Resolve
        );
        assert_eq!(
            route_scope(&Method::POST, "/v1/runs/r1/approvals/q"),
            Scope::Approve
        );
        assert_eq!(route_scope(&Method::PUT, "/v1/kv/a/b/c"), Scope::Operate);
        assert_eq!(route_scope(&Method::GET, "/v1/kv"), Scope::Operate);
        assert_eq!(route_scope(&Method::GET, "/v1/runs//history"), Scope::Admin);
        assert_eq!(route_scope(&Method::GET, "/v1/runs/r1/extra"), Scope::Admin);
        assert_eq!(route_scope(&Method::DELETE, "/v1/runs"), Scope::Admin);
        assert_eq!(route_scope(&Method::GET, "/v1/secret-new"), Scope::Admin);
        assert_eq!(route_scope(&Method::GET, "/v1/health"), Scope::Admin);
    }
}
