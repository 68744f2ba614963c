//! The `http` tool kind: calls the one URL its config names.
//!
//! Arguments: `{"path": "/sub/path"?, "query": {..}?, "body": <json>?}`. The
//! operator chose what this tool reaches, the guest only chooses what it
//! sends: the path is appended to the configured URL's path under the rules
//! of [`path`] (no `..` or `.` segment however it is encoded or hidden behind
//! `;params`, no encoded `/` or `\`, no `\`, no `?`/`#`, no empty segment, no
//! other host), and a query key may not repeat one of the configured URL's
//! query. The body goes out as JSON with the call's `Idempotency-Key`; how
//! the tool connects is its [`Endpoint`](super::endpoint::Endpoint)'s.
//! Result: `{"status": N, "body": <json, or the text when not JSON>}` for
//! every HTTP status: a 4xx/5xx is a value the guest decides about. A
//! connection error, a timeout or an untrusted certificate is `failed`.

mod path;

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::{Value, json};
use ureq::http::{self, Method};

use super::endpoint::{Endpoint, idempotency_key};
use super::{CallError, parse_args};
use crate::config::{HttpToolConfig, LimitsConfig};
use crate::model::ToolError;
use crate::secrets::Secrets;
use crate::store::LedgerWrite;

/// Methods that send the guest's body.
const WITH_BODY: &[&str] = &["POST", "PUT", "PATCH"];
const METHODS: &[&str] = &["GET", "POST", "PUT", "PATCH", "DELETE"];
/// Configured headers whose values are not redacted: they describe the
/// request and hold no credential. Every other header's value is.
const PLAIN_HEADERS: &[&str] = &["accept", "content-type", "user-agent"];

/// One configured `http` tool.
#[derive(Clone, Debug)]
pub struct HttpTool {
    /// `https://host:port` or `http://host:port`: nothing a guest sends can
    /// change it.
    origin: String,
    /// The configured path without a trailing `/`.
    base_path: String,
    /// The configured query, if any; the guest's is appended to it.
    base_query: Option<String>,
    /// The configured query's keys, which a guest may not repeat.
    base_keys: Vec<Vec<u8>>,
    /// How errors name the configured URL: without its query or the path
    /// segments that hold a secret ([`crate::secrets::display_url`]).
    shown: String,
    method: Method,
    headers: Vec<(String, String)>,
    /// Whether the system reached drops repeats of an `Idempotency-Key`.
    idempotent: bool,
    endpoint: Endpoint,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Args {
    #[serde(default)]
    path: Option<String>,
    #[serde(default)]
    query: BTreeMap<String, Value>,
    #[serde(default)]
    body: Option<Value>,
}

impl HttpTool {
    /// A tool whose config names no secret.
    pub fn new(
        name: &str,
        config: &HttpToolConfig,
        limits: &LimitsConfig,
    ) -> Result<HttpTool, String> {
        HttpTool::with_secrets(name, config, limits, &Secrets::default())
    }

    /// A tool whose `url` and `headers` may name `secrets`.
    pub fn with_secrets(
        name: &str,
        config: &HttpToolConfig,
        limits: &LimitsConfig,
        secrets: &Secrets,
    ) -> Result<HttpTool, String> {
        let endpoint = Endpoint::new(
            name,
            &config.url,
            config.ca_file.as_deref(),
            config.allow_plain_http,
            config.timeout_ms,
            limits,
            secrets,
        )?;
        let uri = &endpoint.uri;
        let method = config.method.to_ascii_uppercase();
        if !METHODS.contains(&method.as_str()) {
            return Err(format!(
                "tools.{name}.method `{}` is not one of {}",
                config.method,
                METHODS.join(", ")
            ));
        }
        let headers = headers(name, &config.headers, secrets)?;
        let scheme = uri.scheme_str().unwrap_or("https");
        let authority = uri.authority().map(|a| a.as_str()).unwrap_or_default();
        let base_query = uri.query().map(str::to_string);
        Ok(HttpTool {
            origin: format!("{scheme}://{authority}"),
            base_path: uri.path().trim_end_matches('/').to_string(),
            base_keys: base_query
                .as_deref()
                .map(path::query_keys)
                .unwrap_or_default(),
            base_query,
            shown: crate::secrets::display_url(&config.url)
                .split('?')
                .next()
                .unwrap_or_default()
                .trim_end_matches('/')
                .to_string(),
            method: Method::from_bytes(method.as_bytes()).map_err(|e| e.to_string())?,
            headers,
            idempotent: config.idempotent,
            endpoint,
        })
    }

    pub fn idempotent(&self) -> bool {
        self.idempotent
    }

    /// Runs one call.
    pub fn call(&self, call: &LedgerWrite, max_payload: usize) -> Result<String, CallError> {
        let tool = call.tool.as_str();
        let args: Args = parse_args(tool, &call.args)?;
        let url = self.url(tool, &args)?;
        let body = match (&args.body, WITH_BODY.contains(&self.method.as_str())) {
            (Some(body), true) => body.to_string().into_bytes(),
            (Some(_), false) => {
                return Err(ToolError::Invalid(format!(
                    "{tool}: this tool sends {} requests, which carry no body",
                    self.method
                ))
                .into());
            }
            (None, _) => vec![],
        };
        let mut request = http::Request::builder()
            .method(self.method.clone())
            .uri(&url)
            .header("Idempotency-Key", idempotency_key(call));
        if args.body.is_some() {
            request = request.header("Content-Type", "application/json");
        }
        for (k, v) in &self.headers {
            request = request.header(k, v);
        }
        let request = request
            .body(body)
            .map_err(|e| ToolError::Invalid(format!("{tool}: cannot build the request: {e}")))?;
        let what = self.named(tool, &args);
        let answered = self.endpoint.send(request, &what, max_payload)?;
        let (status, bytes) = (answered.status, answered.body);
        Ok(json!({"status": status, "body": body_value(&bytes)}).to_string())
    }

    /// How errors name a call: the method and the URL reached, with the
    /// configured query and secret path segments redacted and any query
    /// shown as `?[redacted]`.
    fn named(&self, tool: &str, args: &Args) -> String {
        let path = args.path.as_deref().unwrap_or_default();
        let query = if self.base_query.is_some() || !args.query.is_empty() {
            format!("?{}", crate::secrets::REDACTED)
        } else {
            String::new()
        };
        format!("{tool}: {} {}{path}{query}", self.method, self.shown)
    }

    /// The URL a call with these JSON arguments would reach, or why the
    /// call is refused (the fuzz target of the path rules).
    pub fn url_for(&self, args: &str) -> Result<String, ToolError> {
        let args: Args = parse_args("http", args)?;
        self.url("http", &args)
    }

    /// The configured URL with the guest's path and query added.
    fn url(&self, tool: &str, args: &Args) -> Result<String, ToolError> {
        let path = match args.path.as_deref() {
            None | Some("") => String::new(),
            Some(path) => path::check_path(path)
                .map_err(|why| ToolError::Invalid(format!("{tool}: path {why}")))?,
        };
        let mut query: Vec<String> = self.base_query.iter().cloned().collect();
        for (k, v) in &args.query {
            path::check_query_key(k, &self.base_keys)
                .map_err(|why| ToolError::Invalid(format!("{tool}: query {why}")))?;
            let v = match v {
                Value::String(s) => s.clone(),
                Value::Number(_) | Value::Bool(_) => v.to_string(),
                _ => {
                    return Err(ToolError::Invalid(format!(
                        "{tool}: query.{k} must be a string, number or boolean"
                    )));
                }
            };
            query.push(format!("{}={}", encode(k), encode(&v)));
        }
        let mut url = format!("{}{}{path}", self.origin, self.base_path);
        if url.len() == self.origin.len() {
            url.push('/');
        }
        if !query.is_empty() {
            url.push('?');
            url.push_str(&query.join("&"));
        }
        Ok(url)
    }
}

/// The configured headers, checked, with their secrets filled in; every
/// value but those of [`PLAIN_HEADERS`] is registered for redaction.
fn headers(
    tool: &str,
    configured: &BTreeMap<String, String>,
    secrets: &Secrets,
) -> Result<Vec<(String, String)>, String> {
    let mut headers = Vec::with_capacity(configured.len());
    for (header, value) in configured {
        http::HeaderName::from_bytes(header.as_bytes())
            .map_err(|_| format!("tools.{tool}.headers: `{header}` is not a header name"))?;
        let (value, _) = secrets.expand(&format!("tools.{tool}.headers.{header}"), value)?;
        http::HeaderValue::from_str(&value)
            .map_err(|_| format!("tools.{tool}.headers.{header}: not a valid header value"))?;
        if !PLAIN_HEADERS.contains(&header.to_ascii_lowercase().as_str()) {
            crate::secrets::register(&value);
        }
        headers.push((header.clone(), value));
    }
    Ok(headers)
}

/// Percent-encodes a query key or value.
fn encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Whether a rendered response is a 5xx: the server failed, so the call is
/// not recorded and a retried step calls again (with the same
/// `Idempotency-Key`).
pub(super) fn is_server_error(rendered: &str) -> bool {
    serde_json::from_str::<Value>(rendered)
        .ok()
        .and_then(|v| v["status"].as_u64())
        .is_some_and(|status| status >= 500)
}

/// A response body as JSON when it is JSON, else as text.
fn body_value(bytes: &[u8]) -> Value {
    serde_json::from_slice(bytes)
        .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(bytes).into_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tool(url: &str) -> HttpTool {
        with_method(url, "post").unwrap()
    }

    fn with_method(url: &str, method: &str) -> Result<HttpTool, String> {
        let config = HttpToolConfig {
            url: url.into(),
            ca_file: None,
            allow_plain_http: false,
            method: method.into(),
            timeout_ms: Some(100),
            headers: BTreeMap::new(),
            idempotent: false,
            description: None,
        };
        HttpTool::new("pager", &config, &LimitsConfig::default())
    }

    /// What `docs/src/authors/tools.md` ("Methods") says of `method`.
    #[test]
    fn the_five_documented_methods_are_accepted_in_any_case_and_no_other() {
        let url = "http://127.0.0.1:9000/page";
        for method in ["GET", "post", "Put", "PATCH", "delete"] {
            let tool = with_method(url, method).unwrap();
            assert_eq!(tool.method.as_str(), method.to_ascii_uppercase());
        }
        for method in ["HEAD", "OPTIONS", "CONNECT", "TRACE", "", "G ET"] {
            let err = with_method(url, method).unwrap_err();
            assert!(
                err.contains("tools.pager.method") && err.contains("GET, POST, PUT, PATCH, DELETE"),
                "{method}: {err}"
            );
        }
        // A tool that sends no body refuses a call that gives one, before
        // anything is sent.
        let call = LedgerWrite {
            run_id: "r".into(),
            incarnation: "i".into(),
            epoch: 1,
            key: "k".into(),
            tool: "pager".into(),
            args: r#"{"body": {"a": 1}}"#.into(),
        };
        let err = with_method(url, "get")
            .unwrap()
            .call(&call, 1 << 20)
            .unwrap_err();
        assert!(err.unsent, "refused before sending");
        let ToolError::Invalid(why) = err.error else {
            panic!("not invalid: {:?}", err.error)
        };
        assert!(
            why.contains("sends GET requests, which carry no body"),
            "{why}"
        );
    }

    #[test]
    fn guest_query_keys_may_not_repeat_the_configured_query() {
        let tool = tool("http://127.0.0.1:9000/page?token=abc&Team=sre&api%5Fkey=k");
        let args = |v: Value| serde_json::from_value::<Args>(v).unwrap();
        for key in [
            "token",
            "TOKEN",
            "team",
            "api_key",
            "api%5Fkey",
            "api%255Fkey",
        ] {
            let err = tool
                .url("pager", &args(json!({"query": {key: "mine"}})))
                .unwrap_err();
            let ToolError::Invalid(why) = err else {
                panic!("{key}: not invalid: {err}")
            };
            assert!(why.contains("configured URL's query"), "{key}: {why}");
        }
        for key in ["a&token", "b=c", "d#e"] {
            let err = tool
                .url("pager", &args(json!({"query": {key: "x"}})))
                .unwrap_err();
            assert!(matches!(err, ToolError::Invalid(_)), "{key}: {err}");
        }
        assert_eq!(
            tool.url("pager", &args(json!({"query": {"q": "token=x&y"}})))
                .unwrap(),
            "http://127.0.0.1:9000/page?token=abc&Team=sre&api%5Fkey=k&q=token%3Dx%26y"
        );
    }

    #[test]
    fn urls_join_path_and_query() {
        let tool = tool("http://127.0.0.1:9000/page/");
        let args = |v: Value| serde_json::from_value::<Args>(v).unwrap();
        assert_eq!(
            tool.url("pager", &args(json!({}))).unwrap(),
            "http://127.0.0.1:9000/page"
        );
        assert_eq!(
            tool.url(
                "pager",
                &args(json!({"path": "/sre", "query": {"q": "a b&c", "n": 2}}))
            )
            .unwrap(),
            "http://127.0.0.1:9000/page/sre?n=2&q=a%20b%26c"
        );
    }
}
