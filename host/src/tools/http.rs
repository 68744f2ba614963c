//! The `http` tool kind: calls the one URL its config names.
//!
//! Arguments: `{"path": "/sub/path"?, "query": {..}?, "body": <json>?}`. The
//! operator chose what this tool reaches, the guest only chooses what it
//! sends: the path is appended to the configured URL's path under the rules
//! of [`path`] (no `..` or `.` segment however it is encoded or hidden behind
//! `;params`, no encoded `/` or `\`, no `\`, no `?`/`#`, no empty segment, no
//! other host), and a query key may not repeat one of the configured URL's
//! query. The body goes out as JSON with `Idempotency-Key:
//! wakeful-<sha256 hex>` over (run, incarnation, key), so the system reached
//! can deduplicate a call the host repeats (DESIGN "step protocol", step 4).
//! Result: `{"status": N, "body": <json, or the text when not JSON>}` for
//! every HTTP status: a 4xx/5xx is a value the guest decides about. A
//! connection error, a timeout or an untrusted certificate is `failed`.
//!
//! `https://` is verified with rustls against the public roots built in
//! (webpki-roots), or only against the CAs of the tool's `ca_file`. Plain
//! `http://` is refused at start unless the host is loopback or the tool
//! says `allow_plain_http = true`. Redirects are not followed, since one
//! could lead to another host, and no proxy from the environment is used.

mod path;

use std::collections::BTreeMap;
use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use serde::Deserialize;
use serde_json::{Value, json};
use ureq::http::{self, Method, Uri};
use ureq::tls::{PemItem, RootCerts, TlsConfig};

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

/// Where a configured `http` or `llm` tool connects, checked at start.
pub(super) struct Endpoint {
    pub uri: Uri,
    /// A blocking client that follows no redirect, uses no proxy, verifies
    /// `https://` servers against the tool's roots, and gives every status
    /// back as a response. Tool calls run on the worker thread while the
    /// guest waits, so blocking is what is wanted.
    pub client: ureq::Agent,
}

impl Endpoint {
    /// Checks a tool's `url`, `ca_file` and `allow_plain_http` and builds its
    /// client.
    /// `url` is the configured text, `${secret:…}` references and all: what
    /// errors quote; the URL reached has them replaced by their values.
    pub(super) fn new(
        tool: &str,
        url: &str,
        ca_file: Option<&str>,
        allow_plain_http: bool,
        timeout_ms: u64,
        secrets: &Secrets,
    ) -> Result<Endpoint, String> {
        let (expanded, _) = secrets.expand(&format!("tools.{tool}.url"), url)?;
        let uri = parse_url(tool, &expanded, url, allow_plain_http)?;
        if let Some(query) = uri.query() {
            crate::secrets::register_query(query);
        }
        let roots = match (ca_file, uri.scheme_str()) {
            (None, _) => RootCerts::WebPki,
            (Some(file), Some("https")) => RootCerts::Specific(Arc::new(ca_certs(tool, file)?)),
            (Some(_), _) => {
                return Err(format!(
                    "tools.{tool}.ca_file is set but tools.{tool}.url `{url}` is not https://"
                ));
            }
        };
        let client = ureq::Agent::config_builder()
            .timeout_global(Some(Duration::from_millis(timeout_ms)))
            .http_status_as_error(false)
            .max_redirects(0)
            .proxy(None)
            .tls_config(TlsConfig::builder().root_certs(roots).build())
            .build()
            .into();
        Ok(Endpoint { uri, client })
    }
}

/// Checks a configured URL: `https://`, or `http://` to loopback unless
/// `allow_plain_http`, with a host.
/// `url` is the URL with its secrets; errors quote `shown`, the
/// configured text.
fn parse_url(tool: &str, url: &str, shown: &str, allow_plain_http: bool) -> Result<Uri, String> {
    let uri: Uri = url
        .parse()
        .map_err(|e| format!("tools.{tool}.url `{shown}` is not a URL: {e}"))?;
    let host = uri.host().unwrap_or_default();
    if host.is_empty() {
        return Err(format!("tools.{tool}.url `{shown}` has no host"));
    }
    match uri.scheme_str() {
        Some("https") => {}
        Some("http") if allow_plain_http || is_loopback(host) => {}
        Some("http") => {
            return Err(format!(
                "tools.{tool}.url `{shown}`: plain http:// to `{host}`, which is not loopback, \
                 would send every request, header and answer unencrypted and unverified; \
                 use https://, or set tools.{tool}.allow_plain_http = true for a network \
                 you trust"
            ));
        }
        _ => {
            return Err(format!(
                "tools.{tool}.url `{shown}` must start with https:// (or http:// to loopback)"
            ));
        }
    }
    Ok(uri)
}

/// `localhost`, 127.0.0.0/8 or `::1`: traffic that never leaves the machine.
fn is_loopback(host: &str) -> bool {
    let host = host.trim_start_matches('[').trim_end_matches(']');
    host.eq_ignore_ascii_case("localhost")
        || host.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

/// The certificates of a CA bundle.
fn ca_certs(tool: &str, file: &str) -> Result<Vec<ureq::tls::Certificate<'static>>, String> {
    let what = format!("tools.{tool}.ca_file `{file}`");
    let pem = std::fs::read(file).map_err(|e| format!("{what}: cannot read it: {e}"))?;
    let mut certs = vec![];
    for item in ureq::tls::parse_pem(&pem) {
        match item.map_err(|e| format!("{what}: not PEM: {e}"))? {
            PemItem::Certificate(cert) => certs.push(cert),
            _ => return Err(format!("{what} holds something other than certificates")),
        }
    }
    if certs.is_empty() {
        return Err(format!("{what} holds no PEM certificate"));
    }
    Ok(certs)
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
        let timeout_ms = super::timeout_ms(config.timeout_ms, limits);
        let Endpoint { uri, client } = Endpoint::new(
            name,
            &config.url,
            config.ca_file.as_deref(),
            config.allow_plain_http,
            timeout_ms,
            secrets,
        )?;
        let method = config.method.to_ascii_uppercase();
        if !METHODS.contains(&method.as_str()) {
            return Err(format!(
                "tools.{name}.method `{}` is not one of {}",
                config.method,
                METHODS.join(", ")
            ));
        }
        let mut headers = Vec::with_capacity(config.headers.len());
        for (header, value) in &config.headers {
            http::HeaderName::from_bytes(header.as_bytes())
                .map_err(|_| format!("tools.{name}.headers: `{header}` is not a header name"))?;
            let (value, _) = secrets.expand(&format!("tools.{name}.headers.{header}"), value)?;
            http::HeaderValue::from_str(&value)
                .map_err(|_| format!("tools.{name}.headers.{header}: not a valid header value"))?;
            if !PLAIN_HEADERS.contains(&header.to_ascii_lowercase().as_str()) {
                crate::secrets::register(&value);
            }
            headers.push((header.clone(), value));
        }
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
            timeout_ms,
            idempotent: config.idempotent,
            client,
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
        let (status, bytes) = send(&self.client, request, &what, self.timeout_ms, max_payload)?;
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

/// The header the reached system deduplicates on: unique per run
/// incarnation and key.
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

/// Why rustls refused the server's certificate, if that is what failed:
/// the handshake's error reaches ureq inside an I/O error.
fn untrusted(e: &ureq::Error) -> Option<String> {
    let tls = match e {
        ureq::Error::Rustls(e) => e,
        ureq::Error::Io(e) => e.get_ref()?.downcast_ref::<rustls::Error>()?,
        _ => return None,
    };
    match tls {
        rustls::Error::InvalidCertificate(why) => Some(why.to_string()),
        _ => None,
    }
}

/// Sends a request and reads the whole response body, refusing one over
/// `max_payload` bytes. Failures name what was called and what went wrong.
pub(super) fn send(
    client: &ureq::Agent,
    request: http::Request<Vec<u8>>,
    what: &str,
    timeout_ms: u64,
    max_payload: usize,
) -> Result<(u16, Vec<u8>), CallError> {
    let describe = |e: ureq::Error| match (untrusted(&e), e) {
        (Some(why), _) => ToolError::Failed(format!(
            "{what}: the server's certificate was not trusted ({why}); a server with a \
             private CA needs that CA in the tool's ca_file"
        )),
        (None, ureq::Error::Timeout(_)) => {
            ToolError::Failed(format!("{what} timed out after {timeout_ms} ms"))
        }
        (None, ureq::Error::ConnectionFailed) => {
            ToolError::Failed(format!("{what}: connection failed"))
        }
        (None, ureq::Error::HostNotFound) => ToolError::Failed(format!("{what}: host not found")),
        (None, ureq::Error::Io(e)) => ToolError::Failed(format!("{what}: {e}")),
        (None, ureq::Error::BodyExceedsLimit(_)) => ToolError::Failed(format!(
            "{what}: the response body is larger than the limit of {max_payload} bytes \
             (limits.max_payload_bytes)"
        )),
        (None, other) => ToolError::Failed(format!("{what}: {other}")),
    };
    // No connection, no trusted server: the request never left the host.
    let unsent = |e: &ureq::Error| {
        untrusted(e).is_some()
            || matches!(e, ureq::Error::ConnectionFailed | ureq::Error::HostNotFound)
            || matches!(e, ureq::Error::Io(io) if io.kind() == std::io::ErrorKind::ConnectionRefused)
    };
    let failed = |e: ureq::Error| CallError {
        unsent: unsent(&e),
        error: describe(e),
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
        return Err(CallError {
            error: ToolError::Failed(format!(
                "{what}: the response body is {length} bytes; the limit is {max_payload} \
                 (limits.max_payload_bytes)"
            )),
            unsent: false,
        });
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
    use super::path::check_path;
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

    fn tool(url: &str) -> HttpTool {
        let config = HttpToolConfig {
            url: url.into(),
            ca_file: None,
            allow_plain_http: false,
            method: "post".into(),
            timeout_ms: Some(100),
            headers: BTreeMap::new(),
            idempotent: false,
            description: None,
        };
        HttpTool::new("pager", &config, &LimitsConfig::default()).unwrap()
    }

    /// The refusal of `path`, which must name `what`.
    fn refused(path: &str, what: &str) {
        match check_path(path) {
            Ok(sent) => panic!("`{path}` was accepted (as `{sent}`)"),
            Err(why) => assert!(why.contains(what), "`{path}`: {why} (expected `{what}`)"),
        }
    }

    #[test]
    fn dot_segments_hidden_behind_parameters_are_refused() {
        for path in [
            "/..;/admin",
            "/a/..;x=1/b",
            "/.;/a",
            "/a/..;",
            "/a;x/..;y/../b",
        ] {
            refused(path, "`..` or `.` segment");
        }
        assert_eq!(check_path("/a;v=1/b").unwrap(), "/a;v=1/b");
    }

    #[test]
    fn percent_encoded_dots_are_decoded_until_stable_before_the_check() {
        for path in [
            "/%2e%2e/admin",
            "/%2E./admin",
            "/.%2e/admin",
            "/a/%2e",
            "/%252e%252e/admin",
            "/%25252e%25252E/admin",
            "/%252e./admin",
            "/%2e%2e;x/admin",
        ] {
            refused(path, "`..` or `.` segment");
        }
        // A dot that forms no dot segment is just a character.
        assert_eq!(check_path("/a%2eb/c.json").unwrap(), "/a%2eb/c.json");
        assert_eq!(check_path("/caf%C3%A9").unwrap(), "/caf%C3%A9");
        assert_eq!(check_path("/100%2525").unwrap(), "/100%2525");
    }

    #[test]
    fn encoded_slashes_and_backslashes_are_refused() {
        for path in ["/a%2fb", "/a%2Fb", "/a%252fb", "/a%5cb", "/a%255Cb"] {
            refused(path, "encoded `/` or `\\`");
        }
        refused("/a\\b", "`\\`");
        refused("/..%2fadmin", "`..` or `.` segment");
        refused("/a\\..\\admin", "`..` or `.` segment");
        refused("/a%5c..%5cadmin", "`..` or `.` segment");
        refused("/\\evil.example/x", "another host");
        refused("/%2f%2fevil.example/x", "another host");
        refused("/a/http:%2f%2fevil", "another host");
    }

    #[test]
    fn ambiguous_paths_are_refused() {
        refused("/a//b", "empty segment");
        refused("/a%3fadmin=1", "`?` or `#`");
        refused("/a%23frag", "`?` or `#`");
        refused("/a%00b", "control character");
        refused("/a%0d%0aX-Injected: 1", "control character");
        refused("/a%zz", "two hex digits");
        refused("/a%2", "two hex digits");
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
    fn idempotency_keys_are_unambiguous_per_run_incarnation_and_key() {
        let key = |run: &str, incarnation: &str, key: &str| {
            idempotency_key(&LedgerWrite {
                run_id: run.into(),
                incarnation: incarnation.into(),
                epoch: 1,
                key: key.into(),
                tool: "pager".into(),
                args: "{}".into(),
            })
        };
        let k = key("a:b", "i1", "c");
        assert!(k.starts_with("wakeful-") && k.len() == 8 + 64, "{k}");
        assert_eq!(k, key("a:b", "i1", "c"));
        assert_ne!(k, key("a", "i1", "b:c"));
        assert_ne!(k, key("a:b", "i2", "c"));
        assert_ne!(key("a", "bc", "d"), key("ab", "c", "d"));
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
