//! Where a configured `http` or `llm` tool connects (and the URL and CA
//! checks an `mcp` tool's server shares), and how it sends one
//! request: the config both kinds share, checked at start, and the client.
//!
//! `https://` is verified with rustls against the public roots built in
//! (webpki-roots), or only against the CAs of the tool's `ca_file`. Plain
//! `http://` is refused at start unless the host is loopback or the tool
//! says `allow_plain_http = true`. Redirects are not followed, since one
//! could lead to another host, and no proxy from the environment is used.
//! Every request carries `Idempotency-Key: wakeful-<sha256 hex>` over (run,
//! incarnation, key), so the system reached can deduplicate a call the host
//! repeats (DESIGN "step protocol", step 4).

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use ureq::http::{self, Uri};
use ureq::tls::{PemItem, RootCerts, TlsConfig};

use super::CallError;
use crate::config::LimitsConfig;
use crate::model::ToolError;
use crate::secrets::Secrets;
use crate::store::LedgerWrite;

/// A server's answer: its status, its body, and when a server that
/// refused for its rate limit says to call again (`retry-after`).
pub(super) struct Answered {
    pub status: u16,
    pub body: Vec<u8>,
    pub retry_after: Option<String>,
}

/// Where a configured `http` or `llm` tool connects, checked at start.
#[derive(Clone, Debug)]
pub(super) struct Endpoint {
    /// The configured URL with its secrets: never quoted.
    pub uri: Uri,
    /// How long a call may take, connecting and reading included.
    pub timeout_ms: u64,
    /// A blocking client that follows no redirect, uses no proxy, verifies
    /// `https://` servers against the tool's roots, and gives every status
    /// back as a response. Tool calls run on the worker thread while the
    /// guest waits, so blocking is what is wanted.
    client: ureq::Agent,
}

impl Endpoint {
    /// Checks a tool's `url`, `ca_file`, `allow_plain_http` and `timeout_ms`
    /// (`given`) and builds its client. `url` is the configured text,
    /// `${secret:…}` references and all: what errors quote; the URL reached
    /// has them replaced by their values.
    pub(super) fn new(
        tool: &str,
        url: &str,
        ca_file: Option<&str>,
        allow_plain_http: bool,
        given: Option<u64>,
        limits: &LimitsConfig,
        secrets: &Secrets,
    ) -> Result<Endpoint, String> {
        let timeout_ms = timeout_ms(given, limits);
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
        Ok(Endpoint {
            uri,
            timeout_ms,
            client,
        })
    }

    /// Sends a request and reads the whole response body, refusing one over
    /// `max_payload` bytes. Failures name `what` was called and what went
    /// wrong.
    pub(super) fn send(
        &self,
        request: http::Request<Vec<u8>>,
        what: &str,
        max_payload: usize,
    ) -> Result<Answered, CallError> {
        let failed = |e: ureq::Error| CallError {
            unsent: unsent(&e),
            error: describe(e, what, self.timeout_ms, max_payload),
        };
        let mut response = self.client.run(request).map_err(failed)?;
        let status = response.status().as_u16();
        let retry_after = (response.headers().get("retry-after"))
            .and_then(|v| v.to_str().ok())
            .map(str::to_string);
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
        Ok(Answered {
            status,
            body: bytes,
            retry_after,
        })
    }
}

/// A configured tool's timeout: the one given, else 10 s, or a second less
/// than the step deadline when that is shorter.
pub(crate) fn timeout_ms(given: Option<u64>, limits: &LimitsConfig) -> u64 {
    given.unwrap_or_else(|| 10_000.min(limits.step_deadline_ms.saturating_sub(1_000).max(1)))
}

/// Checks a configured URL: `https://`, or `http://` to loopback unless
/// `allow_plain_http`, with a host.
/// `url` is the URL with its secrets; errors quote `shown`, the
/// configured text.
pub(super) fn parse_url(
    tool: &str,
    url: &str,
    shown: &str,
    allow_plain_http: bool,
) -> Result<Uri, String> {
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
pub(super) fn ca_certs(
    tool: &str,
    file: &str,
) -> Result<Vec<ureq::tls::Certificate<'static>>, String> {
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

/// The header the reached system deduplicates on: unique per run
/// incarnation and key.
pub(super) fn idempotency_key(call: &LedgerWrite) -> String {
    crate::model::sent_key(&call.run_id, &call.incarnation, &call.key)
}

/// A failed request as the guest sees it: what was called and what went
/// wrong.
fn describe(e: ureq::Error, what: &str, timeout_ms: u64, max_payload: usize) -> ToolError {
    match (untrusted(&e), e) {
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
    }
}

/// Whether a request failed before it left the host: no connection, no
/// trusted server.
fn unsent(e: &ureq::Error) -> bool {
    untrusted(e).is_some()
        || matches!(e, ureq::Error::ConnectionFailed | ureq::Error::HostNotFound)
        || matches!(e, ureq::Error::Io(io) if io.kind() == std::io::ErrorKind::ConnectionRefused)
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
