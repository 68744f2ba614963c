//! The API as it describes itself: the OpenAPI document `wakeful serve`
//! serves at `/v1/openapi.json` against the routes it serves and the route
//! table that says who may call them (`host/src/api/auth.rs`), the
//! reference page (`docs/src/reference/http-api.md`) against the document,
//! and the host's front door: a browser opening its address is sent to the
//! console, an API client still gets a JSON 404.

use std::collections::BTreeSet;

use serde_json::{Value, json};

use crate::api::api_config;
use crate::harness::{API_TOKEN, Env, Server, repo};

/// A route as the document writes it: `(method, path)`.
type Route = (String, String);

/// The document, fetched without a token: it is public.
fn fetch_document(server: &Server) -> Value {
    let (status, doc) = server.request("GET", "/v1/openapi.json", None, None);
    assert_eq!(status, 200, "{doc}");
    assert!(
        doc["openapi"].as_str().is_some_and(|v| v.starts_with("3.")),
        "{doc}"
    );
    doc
}

/// Every `(method, path)` the document names.
fn documented(doc: &Value) -> BTreeSet<Route> {
    let mut routes = BTreeSet::new();
    for (path, item) in doc["paths"].as_object().expect("paths") {
        for method in item.as_object().unwrap().keys() {
            routes.insert((method.to_uppercase(), path.clone()));
        }
    }
    routes
}

/// The rows of the route table under `/v1`, with the scope each needs
/// (`None`: public), in the document's spelling of paths.
fn route_table() -> Vec<(Route, Option<String>)> {
    let source = std::fs::read_to_string(repo().join("host/src/api/auth.rs")).unwrap();
    let table = source
        .split_once("pub const ROUTES")
        .and_then(|(_, rest)| rest.split_once("\n];"))
        .expect("the route table in api/auth.rs")
        .0;
    // Whitespace out, so that a row is read however rustfmt wraps it.
    let flat: String = table.chars().filter(|c| !c.is_whitespace()).collect();
    let mut rows = Vec::new();
    for row in flat.split("(\"").skip(1) {
        let fields: Vec<&str> = row.split('"').collect();
        let (method, path) = (fields[0], fields[2]);
        let scope = fields[3]
            .split_once("Scope::")
            .and_then(|(_, s)| s.split(')').next())
            .map(str::to_lowercase);
        if path.starts_with("/v1/") {
            let path = path.replace("{*", "{");
            rows.push(((method.to_string(), path), scope));
        }
    }
    assert!(rows.len() > 20, "the table was not read: {rows:?}");
    rows
}

/// A concrete path for a route: each parameter a made-up value.
fn concrete(path: &str) -> String {
    path.split('/')
        .map(|part| {
            if part.starts_with('{') {
                "nothing-here"
            } else {
                part
            }
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// Whether the router itself refused the request: no route (its fallback's
/// 404), or not this method (405). A handler's own 404 names what it did
/// not find.
fn router_refused(status: u16, body: &Value) -> bool {
    let no_route = body["error"]
        .as_str()
        .is_some_and(|e| e.starts_with("no route "));
    status == 405 || (status == 404 && no_route)
}

/// Sends `method` to a concrete path of a route, as an admin; a body that
/// every handler refuses before it changes anything, or a kv value.
fn probe(server: &Server, method: &str, path: &str) -> (u16, Value) {
    let body = match method {
        "GET" => None,
        _ => Some(("application/json", b"{}".to_vec())),
    };
    server.request(method, path, Some(API_TOKEN), body)
}

#[test]
fn the_openapi_document_names_exactly_the_routes_the_server_serves() {
    let env = Env::new("api-openapi", &api_config(""));
    let server = env.serve();
    let doc = fetch_document(&server);
    let routes = documented(&doc);

    // The document and the route table name the same routes...
    let table = route_table();
    let in_table: BTreeSet<Route> = table.iter().map(|(r, _)| r.clone()).collect();
    let only_doc: Vec<_> = routes.difference(&in_table).collect();
    let only_table: Vec<_> = in_table.difference(&routes).collect();
    assert!(
        only_doc.is_empty() && only_table.is_empty(),
        "in the document only: {only_doc:?}; in the route table only: {only_table:?}"
    );
    // ...and the same token for each: a scope, or none.
    for ((method, path), scope) in &table {
        let operation = &doc["paths"][path][method.to_lowercase()];
        let needs = operation["security"][0]["token"][0].as_str();
        assert_eq!(needs, scope.as_deref(), "{method} {path}: {operation}");
    }

    // Every route of the document is served with its method.
    for (method, path) in &routes {
        let (status, body) = probe(&server, method, &concrete(path));
        assert!(
            !router_refused(status, &body),
            "{method} {path} is in the document but not served: {status} {body}"
        );
    }
    // The probe tells the router's refusals from a handler's.
    let (status, body) = probe(&server, "GET", "/v1/nothing-here");
    assert!(router_refused(status, &body), "{status} {body}");
    let (status, body) = probe(&server, "PUT", "/v1/runs");
    assert!(router_refused(status, &body), "{status} {body}");
}

/// The status and headers of a request sent by hand, as a browser sends it.
fn head_of(
    server: &Server,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
) -> (u16, String, String) {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(server.authority()).unwrap();
    let mut request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n",
        server.authority()
    );
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str("Content-Length: 0\r\n\r\n");
    stream.write_all(request.as_bytes()).unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    let (head, body) = answer.split_once("\r\n\r\n").expect("an HTTP answer");
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    (status, head.to_ascii_lowercase(), body.to_string())
}

#[test]
fn a_browser_opening_the_hosts_address_is_sent_to_the_console() {
    let env = Env::new("api-front-door", &api_config(""));
    let server = env.serve();
    let browser = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
    let (status, head, _) = head_of(&server, "GET", "/", &[("Accept", browser)]);
    assert!(status == 303 || status == 302, "{head}");
    assert!(head.contains("\r\nlocation: /ui/\r\n"), "{head}");
    // Where it lands: the console sends a browser without a session to sign in.
    let (status, head, _) = head_of(&server, "GET", "/ui/", &[("Accept", browser)]);
    assert_eq!(status, 303, "{head}");
    assert!(head.contains("\r\nlocation: /ui/login\r\n"), "{head}");

    // An API client, or anything but a browser's GET, still gets the JSON 404.
    let no_route = json!({"error": "no route GET /; the API lives under /v1 (see the README)"});
    for accept in [Some("application/json"), None, Some("*/*")] {
        let headers: Vec<(&str, &str)> = accept.map(|a| ("Accept", a)).into_iter().collect();
        let (status, head, body) = head_of(&server, "GET", "/", &headers);
        assert_eq!(status, 404, "{accept:?}: {head}");
        assert!(head.contains("content-type: application/json"), "{head}");
        assert_eq!(serde_json::from_str::<Value>(&body).unwrap(), no_route);
    }
    let (status, _, body) = head_of(&server, "POST", "/", &[("Accept", browser)]);
    assert_eq!(status, 404, "{body}");
    assert!(body.contains("no route POST /"), "{body}");
}

/// The routes the reference page documents: its headings of the form
/// ``### `METHOD /path` ``.
fn page_routes(page: &str) -> BTreeSet<Route> {
    page.lines()
        .filter_map(|line| line.strip_prefix("### `"))
        .filter_map(|rest| rest.split_once('`'))
        .filter_map(|(route, _)| route.split_once(' '))
        .map(|(method, path)| (method.to_string(), path.to_string()))
        .collect()
}

#[test]
fn the_reference_page_names_exactly_the_routes_of_the_document() {
    let env = Env::new("api-reference-page", &api_config(""));
    let server = env.serve();
    let routes = documented(&fetch_document(&server));
    let page = std::fs::read_to_string(repo().join("docs/src/reference/http-api.md")).unwrap();
    let on_page = page_routes(&page);
    let missing: Vec<_> = routes.difference(&on_page).collect();
    let extra: Vec<_> = on_page.difference(&routes).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "not on the page: {missing:?}; on the page but not in the document: {extra:?}"
    );
}
