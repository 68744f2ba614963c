//! The API's OpenAPI 3.1 document, served at `GET /v1/openapi.json`: its
//! paths come from the handlers' `#[utoipa::path]` as the router adds
//! them, and who may call each from the route table ([`ROUTES`]), so
//! neither can drift from what the server does. It is public, like
//! health: it says what the routes are, not what they hold.

use std::sync::OnceLock;

use axum::http::header::CONTENT_TYPE;
use axum::response::IntoResponse;
use utoipa::OpenApi;
use utoipa::openapi::path::Operation;
use utoipa::openapi::security::{Http, HttpAuthScheme, SecurityRequirement, SecurityScheme};

use super::auth::{Access, ROUTES};
use crate::server::BodyLimits;

/// The name of the bearer token's security scheme in the document.
const TOKEN_SCHEME: &str = "token";

/// What the handlers do not say: the title, the tags, and the kv routes,
/// whose axum path `/v1/kv/{*key}` (the rest of the path) the document
/// writes `/v1/kv/{key}`, so the router takes them by hand.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "wakeful",
        description = "The HTTP API of `wakeful serve`: the CLI's operations as JSON. \
                       Operator routes take `Authorization: Bearer <token>`; the scopes \
                       a route's token needs are its security requirement's."
    ),
    paths(super::ops::kv_get, super::ops::kv_put),
    tags(
        (name = "host", description = "The host itself"),
        (name = "runs", description = "Runs: start, read, send events"),
        (name = "agents", description = "Deployed agents"),
        (name = "approvals", description = "Answers to approval requests"),
        (name = "operations", description = "Kill switches, cancel, resolve, upgrade, kv")
    )
)]
pub struct ApiDoc;

/// The document the router starts from.
pub fn base() -> utoipa::openapi::OpenApi {
    ApiDoc::openapi()
}

/// The whole document: the routes as the router adds them, each operator
/// route with the scope [`ROUTES`] gives it.
pub fn doc() -> utoipa::openapi::OpenApi {
    // The body limits change layers, not paths.
    let limits = BodyLimits {
        json_bytes: 0,
        component_bytes: 0,
    };
    let super::Routes { public, operator } = super::routes(limits);
    let mut doc = public.merge(operator).into_openapi();
    doc.components
        .get_or_insert_with(Default::default)
        .add_security_scheme(
            TOKEN_SCHEME,
            SecurityScheme::Http(Http::new(HttpAuthScheme::Bearer)),
        );
    for (path, item) in &mut doc.paths.paths {
        let operations = [
            ("GET", &mut item.get),
            ("POST", &mut item.post),
            ("PUT", &mut item.put),
        ];
        for (method, operation) in operations {
            if let Some(operation) = operation {
                secure(operation, method, path);
            }
        }
    }
    doc
}

/// Gives an operator route's operation its scope; a public one none.
fn secure(operation: &mut Operation, method: &str, path: &str) {
    let access = ROUTES
        .iter()
        .find(|(m, p, _)| *m == method && document_path(p) == path)
        .map(|(_, _, access)| *access);
    if let Some(Access::Token(scope)) = access {
        operation.security = Some(vec![SecurityRequirement::new(TOKEN_SCHEME, [scope.name()])]);
    }
}

/// A route pattern as the document writes it: axum's catch-all `{*x}` is
/// `{x}`.
pub fn document_path(pattern: &str) -> String {
    pattern.replace("{*", "{")
}

/// `GET /v1/openapi.json`.
#[utoipa::path(
    get,
    path = "/v1/openapi.json",
    operation_id = "openapi",
    tag = "host",
    responses((status = 200, description = "This document", body = serde_json::Value))
)]
pub async fn document() -> impl IntoResponse {
    static JSON: OnceLock<String> = OnceLock::new();
    let json = JSON.get_or_init(|| doc().to_pretty_json().expect("the document is JSON"));
    ([(CONTENT_TYPE, "application/json")], json.as_str())
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    /// Every `(method, path)` of the document.
    fn documented() -> BTreeSet<(String, String)> {
        let doc = doc();
        let mut found = BTreeSet::new();
        for (path, item) in &doc.paths.paths {
            let operations = [("GET", &item.get), ("POST", &item.post), ("PUT", &item.put)];
            for (method, operation) in operations {
                if operation.is_some() {
                    found.insert((method.to_string(), path.clone()));
                }
            }
            let others = [
                &item.delete,
                &item.patch,
                &item.head,
                &item.options,
                &item.trace,
            ];
            assert!(
                others.iter().all(|o| o.is_none()),
                "{path}: a method the table has no row for"
            );
        }
        found
    }

    #[test]
    fn the_document_names_exactly_the_v1_routes_of_the_table() {
        let table: BTreeSet<(String, String)> = ROUTES
            .iter()
            .filter(|(_, p, _)| p.starts_with("/v1/"))
            .map(|(m, p, _)| (m.to_string(), document_path(p)))
            .collect();
        assert_eq!(documented(), table);
    }

    #[test]
    fn every_operator_route_in_the_document_names_its_scope() {
        let doc = serde_json::to_value(doc()).unwrap();
        for (method, path, access) in ROUTES.iter().filter(|(_, p, _)| p.starts_with("/v1/")) {
            let operation = &doc["paths"][document_path(path)][method.to_lowercase()];
            let security = &operation["security"];
            match access {
                Access::Public => assert!(security.is_null(), "{method} {path}: {security}"),
                Access::Token(scope) => {
                    assert_eq!(
                        security[0][TOKEN_SCHEME][0],
                        scope.name(),
                        "{method} {path}"
                    )
                }
            }
        }
    }
}
