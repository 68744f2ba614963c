//! One event per request: method, path (capability tokens redacted),
//! status and time taken. Debug level, so that a busy API does not drown
//! the steps; a server error (status 500 and up) at error level with its
//! message. The query string, headers and body are never logged: they can
//! hold the bearer token or an agent's data.

use axum::extract::Request;
use axum::middleware::Next;
use axum::response::Response;

/// The message of a server error, left on its response by
/// [`super::ApiError`] for this log.
#[derive(Clone, Debug)]
pub struct ServerError(pub String);

/// Paths whose next segment is a bearer capability: an answer link's or a
/// callback link's token.
const CAPABILITY_PREFIXES: &[&str] = &["/v1/approve/", "/v1/callback/"];

pub async fn log_request(request: Request, next: Next) -> Response {
    let started = std::time::Instant::now();
    let method = request.method().clone();
    let path = redact(request.uri().path());
    let response = next.run(request).await;
    let status = response.status().as_u16();
    let ms = started.elapsed().as_millis() as u64;
    if response.status().is_server_error() {
        let error = response
            .extensions()
            .get::<ServerError>()
            .map(|e| e.0.as_str());
        tracing::error!(method = %method, path, status, ms, error, "request failed");
    } else {
        tracing::debug!(method = %method, path, status, ms, "request");
    }
    response
}

/// `path` with the segment after a capability prefix replaced by `…`
/// (and anything after it dropped: it could repeat the token).
pub fn redact(path: &str) -> String {
    for prefix in CAPABILITY_PREFIXES {
        if let Some(rest) = path.strip_prefix(prefix)
            && !rest.is_empty()
        {
            return format!("{prefix}…");
        }
    }
    path.to_string()
}

#[cfg(test)]
mod tests {
    use super::redact;

    #[test]
    fn capability_tokens_are_redacted() {
        assert_eq!(redact("/v1/approve/abc123"), "/v1/approve/…");
        assert_eq!(redact("/v1/approve/abc123/more"), "/v1/approve/…");
        assert_eq!(redact("/v1/callback/s3cr3t"), "/v1/callback/…");
        assert_eq!(redact("/v1/runs/r1/history"), "/v1/runs/r1/history");
        assert_eq!(redact("/v1/approve/"), "/v1/approve/");
    }
}
