//! Who may reach the server at all, before any token is looked at. A web page
//! in the operator's browser can send requests to loopback, so every
//! request, on every route, is checked in this order:
//!
//! 1. its `Host` must name this server (its listen address, `localhost` on
//!    loopback, or an `[api] allowed_hosts` entry), or it is refused with
//!    421: a page that rebound its own name to 127.0.0.1 sends its own name;
//! 2. an `Origin`, when there is one, must be this server's own
//!    (`http://<an allowed host>`), or it is refused with 403: browsers add
//!    `Origin` to cross-site requests, so a foreign page's request is
//!    refused whatever its content type. Requests without `Origin` (the
//!    CLI, curl, scrapers) pass.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::http::header::{HOST, ORIGIN};
use axum::middleware::Next;
use axum::response::Response;

use super::ApiState;
use super::error::ApiError;

/// The `Host` values this server answers to, lowercase `name:port`.
#[derive(Clone, Debug)]
pub struct AllowedHosts {
    hosts: Vec<String>,
}

impl AllowedHosts {
    /// The listen address itself; `localhost` (and the other loopback
    /// spellings) when it is on loopback; and each configured name, with
    /// the listen port unless it names its own.
    pub fn new(addr: SocketAddr, configured: &[String]) -> AllowedHosts {
        let port = addr.port();
        let mut names: Vec<String> = vec![addr.to_string()];
        if addr.ip().is_loopback() {
            for name in ["localhost", "127.0.0.1", "[::1]"] {
                names.push(format!("{name}:{port}"));
            }
        }
        for name in configured {
            let name = name.trim();
            if name.is_empty() {
                continue;
            }
            if has_port(name) {
                names.push(name.to_string());
            } else {
                names.push(format!("{name}:{port}"));
            }
        }
        let mut hosts: Vec<String> = names.into_iter().map(|h| h.to_ascii_lowercase()).collect();
        // A client leaves the port out of `Host` when it is the scheme's
        // default.
        if port == 80 {
            let bare: Vec<String> = hosts
                .iter()
                .filter_map(|h| h.strip_suffix(":80").map(str::to_string))
                .collect();
            hosts.extend(bare);
        }
        hosts.sort();
        hosts.dedup();
        AllowedHosts { hosts }
    }

    pub fn allows(&self, host: &str) -> bool {
        let host = host.to_ascii_lowercase();
        self.hosts.contains(&host)
    }

    /// Whether `origin` is `http://<an allowed host>`.
    pub fn allows_origin(&self, origin: &str) -> bool {
        origin
            .strip_prefix("http://")
            .is_some_and(|host| self.allows(host))
    }

    pub fn list(&self) -> String {
        self.hosts.join(", ")
    }
}

/// `name:port` or `[v6]:port`, as opposed to a bare name or `[v6]`.
fn has_port(host: &str) -> bool {
    match host.rsplit_once(':') {
        Some((name, port)) => {
            !port.is_empty()
                && port.bytes().all(|b| b.is_ascii_digit())
                && (!name.contains(':') || name.ends_with(']'))
        }
        None => false,
    }
}

pub async fn check_host_and_origin(
    State(state): State<Arc<ApiState>>,
    request: Request,
    next: Next,
) -> Result<Response, ApiError> {
    let headers = request.headers();
    let host = headers
        .get(HOST)
        .map(|v| v.to_str().unwrap_or("<not text>"));
    match host {
        None => {
            return Err(ApiError::Rejected(
                StatusCode::MISDIRECTED_REQUEST,
                "the request has no Host header; send the server's address as its Host".into(),
            ));
        }
        Some(host) if !state.hosts.allows(host) => {
            return Err(ApiError::Rejected(
                StatusCode::MISDIRECTED_REQUEST,
                format!(
                    "this server does not answer to Host `{host}`; it answers to {} (add a name to [api] allowed_hosts)",
                    state.hosts.list()
                ),
            ));
        }
        Some(_) => {}
    }
    if let Some(origin) = headers.get(ORIGIN) {
        let origin = origin.to_str().unwrap_or("<not text>");
        if !state.hosts.allows_origin(origin) {
            return Err(ApiError::Rejected(
                StatusCode::FORBIDDEN,
                format!(
                    "requests from Origin `{origin}` are refused: the API takes no calls from web pages of other sites"
                ),
            ));
        }
    }
    Ok(next.run(request).await)
}

#[cfg(test)]
mod tests {
    use super::AllowedHosts;

    #[test]
    fn hosts_on_loopback_include_localhost_and_configured_names() {
        let hosts = AllowedHosts::new(
            "127.0.0.1:7070".parse().unwrap(),
            &["Ops.Example".into(), "proxy.example:8443".into()],
        );
        for ok in [
            "127.0.0.1:7070",
            "localhost:7070",
            "LOCALHOST:7070",
            "ops.example:7070",
            "proxy.example:8443",
        ] {
            assert!(hosts.allows(ok), "{ok}");
        }
        for refused in [
            "evil.example:7070",
            "127.0.0.1:7071",
            "localhost",
            "ops.example:8443",
            "127.0.0.1:7070.evil.example",
            "",
        ] {
            assert!(!hosts.allows(refused), "{refused}");
        }
        assert!(hosts.allows_origin("http://localhost:7070"));
        assert!(!hosts.allows_origin("https://localhost:7070"));
        assert!(!hosts.allows_origin("http://evil.example:7070"));
        assert!(!hosts.allows_origin("null"));
    }

    #[test]
    fn a_public_listen_address_answers_only_to_its_own_names() {
        let hosts = AllowedHosts::new("0.0.0.0:80".parse().unwrap(), &["ops.example".into()]);
        assert!(hosts.allows("ops.example"));
        assert!(hosts.allows("ops.example:80"));
        assert!(!hosts.allows("localhost:80"));
        assert!(!hosts.allows("evil.example"));
    }
}
