//! The `http` tool kind: calls the one URL its config names.
//!
//! Arguments: `{"path": "/sub/path"?, "query": {..}?, "body": <json>?}`. The
//! path is appended to the configured URL's path and may not climb out of it
//! or name another scheme, host or port: the operator chose what this tool
//! reaches, the guest only chooses what it sends. The body goes out as JSON
//! with an `Idempotency-Key` derived from (run, incarnation, key), so the system reached can
//! deduplicate a call the host repeats (DESIGN "step protocol", step 4).
//! Result: `{"status": N, "body": <json, or the text when not JSON>}` for
//! every HTTP status: a 4xx/5xx is a value the guest decides about. A
//! connection error or a timeout is `failed`.
//!
//! Plain `http://` only: this build has no TLS (ureq's `rustls` feature adds
//! it). Redirects are not followed, since one could lead to another host, and
//! no proxy from the environment is used.

use std::collections::BTreeMap;
use std::time::Duration;

use serde::Deserialize;
use serde_json::{Value, json};
use ureq::http::{self, Method, Uri};

use super::parse_args;
use crate::config::{HttpToolConfig, LimitsConfig};
use crate::model::ToolError;
use crate::store::LedgerWrite;

/// Methods that send the guest's body.
const WITH_BODY: &[&str] = &["POST", "PUT", "PATCH"];
const METHODS: &[&str] = &["GET", "POST", "PUT", "PATCH", "DELETE"];

/// One configured `http` tool.
#[derive(Clone, Debug)]
pub struct HttpTool {
    /// `http://host:port`: nothing a guest sends can change it.
    origin: String,
    /// The configured path without a trailing `/`.
    base_path: String,
    /// The configured query, if any; the guest's is appended to it.
    base_query: Option<String>,
    method: Method,
    headers: Vec<(String, String)>,
    timeout_ms: u64,
    /// Whether the system reached drops repeats of an `Idempotency-Key`.
    idempotent: bool,
    client: ureq::Agent,
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

/// A blocking client that follows no redirect, uses no proxy, and gives
/// every status back as a response. Tool calls run on the worker thread
/// while the guest waits, so blocking is what is wanted.
pub(super) fn client(timeout_ms: u64) -> ureq::Agent {
    ureq::Agent::config_builder()
        .timeout_global(Some(Duration::from_millis(timeout_ms)))
        .http_status_as_error(false)
        .max_redirects(0)
        .proxy(None)
        .build()
        .into()
}

/// Checks a configured URL: `http://` with a host.
pub(super) fn parse_url(tool: &str, url: &str) -> Result<Uri, String> {
    let uri: Uri = url
        .parse()
        .map_err(|e| format!("tools.{tool}.url `{url}` is not a URL: {e}"))?;
    match uri.scheme_str() {
        Some("http") => {}
        Some("https") => {
            return Err(format!(
                "tools.{tool}.url `{url}`: https needs a TLS feature this build does not have \
                 (add ureq's `rustls` feature); use http:// on a trusted network or a local proxy"
            ));
        }
        _ => return Err(format!("tools.{tool}.url `{url}` must start with http://")),
    }
    if uri.host().is_none_or(str::is_empty) {
        return Err(format!("tools.{tool}.url `{url}` has no host"));
    }
    Ok(uri)
}

impl HttpTool {
    pub fn new(
        name: &str,
        config: &HttpToolConfig,
        limits: &LimitsConfig,
    ) -> Result<HttpTool, String> {
        let timeout_ms = super::timeout_ms(config.timeout_ms, limits);
        let uri = parse_url(name, &config.url)?;
        let method = config.method.to_ascii_uppercase();
        if !METHODS.contains(&method.as_str()) {
            return Err(format!(
                "tools.{name}.method `{}` is not one of {}",
                config.method,
                METHODS.join(", ")
            ));
        }
        for (header, value) in &config.headers {
            http::HeaderName::from_bytes(header.as_bytes())
                .map_err(|_| format!("tools.{name}.headers: `{header}` is not a header name"))?;
            http::HeaderValue::from_str(value)
                .map_err(|_| format!("tools.{name}.headers.{header}: not a valid header value"))?;
        }
        let authority = uri.authority().map(|a| a.as_str()).unwrap_or_default();
        Ok(HttpTool {
            origin: format!("http://{authority}"),
            base_path: uri.path().trim_end_matches('/').to_string(),
            base_query: uri.query().map(str::to_string),
            method: Method::from_bytes(method.as_bytes()).map_err(|e| e.to_string())?,
            headers: config
                .headers
                .iter()
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
            timeout_ms,
            idempotent: config.idempotent,
            client: client(timeout_ms),
        })
    }

    pub fn idempotent(&self) -> bool {
        self.idempotent
    }

    /// Runs one call.
    pub fn call(&self, call: &LedgerWrite, max_payload: usize) -> Result<String, ToolError> {
        let tool = call.tool.as_str();
        let args: Args = parse_args(tool, &call.args)?;
        let url = self.url(tool, &args)?;
        let body = match (&args.body, WITH_BODY.contains(&self.method.as_str())) {
            (Some(body), true) => body.to_string().into_bytes(),
            (Some(_), false) => {
                return Err(ToolError::Invalid(format!(
                    "{tool}: this tool sends {} requests, which carry no body",
                    self.method
                )));
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
        let request = request.body(body).map_err(|e| {
            ToolError::Invalid(format!(
                "{tool}: cannot build the request (is the idempotency key printable ASCII?): {e}"
            ))
        })?;
        let what = format!("{tool}: {} {url}", self.method);
        let (status, bytes) = send(&self.client, request, &what, self.timeout_ms, max_payload)?;
        Ok(json!({"status": status, "body": body_value(&bytes)}).to_string())
    }

    /// The configured URL with the guest's path and query added.
    fn url(&self, tool: &str, args: &Args) -> Result<String, ToolError> {
        let path = match args.path.as_deref() {
            None | Some("") => String::new(),
            Some(path) => {
                check_path(path).map_err(|why| ToolError::Invalid(format!("{tool}: path {why}")))?
            }
        };
        let mut query: Vec<String> = self.base_query.iter().cloned().collect();
        for (k, v) in &args.query {
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

/// The header the reached system deduplicates on: unique per run and key.
pub(super) fn idempotency_key(call: &LedgerWrite) -> String {
    use sha2::{Digest, Sha256};
    // Length-prefixed fields, so that no two (run, key) pairs hash the same
    // input (`a:b` + `c` vs `a` + `b:c`); the incarnation keeps a reused run
    // id from repeating the keys of the run that had it before.
    let mut hash = Sha256::new();
    for part in [&call.run_id, &call.incarnation, &call.key] {
        hash.update((part.len() as u64).to_be_bytes());
        hash.update(part.as_bytes());
    }
    format!("wakeful-{}", hex::encode(hash.finalize()))
}

/// A guest's sub-path: absolute, plain segments only. Anything that could
/// leave the configured path (`..`, encoded dots or slashes) or end it
/// (`?`, `#`, a scheme, a `//` authority) is refused rather than cleaned up.
fn check_path(path: &str) -> Result<String, String> {
    if path.starts_with("//") || path.contains("://") {
        return Err(format!(
            "`{path}` names another host; this tool calls only its configured URL"
        ));
    }
    if !path.starts_with('/') {
        return Err(format!("`{path}` must start with `/`"));
    }
    let allowed = |c: char| c.is_ascii_alphanumeric() || "-._~/%!$&'()*+,;=:@".contains(c);
    if let Some(bad) = path.chars().find(|c| !allowed(*c)) {
        return Err(format!("`{path}` contains `{bad}`; percent-encode it"));
    }
    let lower = path.to_ascii_lowercase();
    if lower.contains("%2e") || lower.contains("%2f") || lower.contains("%5c") {
        return Err(format!("`{path}` contains an encoded dot or slash"));
    }
    if path
        .split('/')
        .any(|segment| segment == "." || segment == "..")
    {
        return Err(format!("`{path}` contains `.` or `..`"));
    }
    Ok(path.to_string())
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

/// A response body as JSON when it is JSON, else as text.
/// Whether a rendered response is a 5xx: the server failed, so the call is
/// not recorded and a retried step calls again (with the same
/// `Idempotency-Key`).
pub(super) fn is_server_error(rendered: &str) -> bool {
    serde_json::from_str::<Value>(rendered)
        .ok()
        .and_then(|v| v["status"].as_u64())
        .is_some_and(|status| status >= 500)
}

fn body_value(bytes: &[u8]) -> Value {
    serde_json::from_slice(bytes)
        .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(bytes).into_owned()))
}

/// Sends a request and reads the whole response body, refusing one over
/// `max_payload` bytes. Failures name what was called and what went wrong.
pub(super) fn send(
    client: &ureq::Agent,
    request: http::Request<Vec<u8>>,
    what: &str,
    timeout_ms: u64,
    max_payload: usize,
) -> Result<(u16, Vec<u8>), ToolError> {
    let failed = |e: ureq::Error| match e {
        ureq::Error::Timeout(_) => {
            ToolError::Failed(format!("{what} timed out after {timeout_ms} ms"))
        }
        ureq::Error::ConnectionFailed => ToolError::Failed(format!("{what}: connection failed")),
        ureq::Error::HostNotFound => ToolError::Failed(format!("{what}: host not found")),
        ureq::Error::Io(e) => ToolError::Failed(format!("{what}: {e}")),
        ureq::Error::BodyExceedsLimit(_) => ToolError::Failed(format!(
            "{what}: the response body is larger than the limit of {max_payload} bytes \
             (limits.max_payload_bytes)"
        )),
        other => ToolError::Failed(format!("{what}: {other}")),
    };
    let mut response = client.run(request).map_err(failed)?;
    let status = response.status().as_u16();
    if let Some(length) = response
        .headers()
        .get("content-length")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok())
        .filter(|length| *length > max_payload as u64)
    {
        return Err(ToolError::Failed(format!(
            "{what}: the response body is {length} bytes; the limit is {max_payload} \
             (limits.max_payload_bytes)"
        )));
    }
    let bytes = response
        .body_mut()
        .with_config()
        .limit(max_payload as u64)
        .read_to_vec()
        .map_err(failed)?;
    Ok((status, bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_stay_below_the_configured_url() {
        assert_eq!(check_path("/a/b-c_d.json").unwrap(), "/a/b-c_d.json");
        for bad in [
            "a",
            "/../admin",
            "/a/..",
            "/./a",
            "//evil.example/x",
            "/x?admin=1",
            "/x#f",
            "/%2e%2e/admin",
            "/a%2Fb",
            "http://evil",
            "/a/http://evil",
            "/a b",
        ] {
            assert!(check_path(bad).is_err(), "{bad} was accepted");
        }
    }

    #[test]
    fn urls_join_path_and_query() {
        let config = HttpToolConfig {
            url: "http://127.0.0.1:9000/page/".into(),
            method: "post".into(),
            timeout_ms: Some(100),
            headers: BTreeMap::new(),
            idempotent: false,
            description: None,
        };
        let tool = HttpTool::new("pager", &config, &LimitsConfig::default()).unwrap();
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
