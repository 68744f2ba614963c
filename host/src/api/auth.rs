//! Operator authentication: a bearer token, compared in constant time.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::header::AUTHORIZATION;
use axum::middleware::Next;
use axum::response::Response;
use sha2::{Digest, Sha256};

use super::ApiState;
use super::error::ApiError;

/// Lets a request through only with `Authorization: Bearer <token>`; with
/// no token configured (loopback only, see `serve`), everything passes.
pub async fn require_token(
    State(state): State<Arc<ApiState>>,
    request: Request,
    next: Next,
) -> Result<Response, ApiError> {
    let Some(expected) = &state.token else {
        return Ok(next.run(request).await);
    };
    let given = request
        .headers()
        .get(AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::trim);
    match given {
        None => Err(ApiError::Unauthorized(
            "this call needs `Authorization: Bearer <token>` (the [api] token or WAKEFUL_API_TOKEN)"
                .into(),
        )),
        Some(given) if tokens_equal(given, expected) => Ok(next.run(request).await),
        Some(_) => Err(ApiError::Unauthorized(
            "the bearer token is not the configured API token".into(),
        )),
    }
}

/// Compares the tokens' digests byte by byte without stopping early, so the
/// time taken says nothing about how much of a guess was right (hashing
/// first also hides the token's length).
pub fn tokens_equal(given: &str, expected: &str) -> bool {
    let a = Sha256::digest(given.as_bytes());
    let b = Sha256::digest(expected.as_bytes());
    a.iter()
        .zip(b.iter())
        .fold(0u8, |acc, (x, y)| acc | (x ^ y))
        == 0
}

#[cfg(test)]
mod tests {
    use super::tokens_equal;

    #[test]
    fn tokens_compare_by_value() {
        assert!(tokens_equal("s3cret", "s3cret"));
        assert!(!tokens_equal("s3cret", "s3creT"));
        assert!(!tokens_equal("", "s3cret"));
    }
}
