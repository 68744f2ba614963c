//! Operator authentication: a bearer token, compared in constant time, and
//! the token file `serve` creates when no token is configured.

use std::io::Write;
use std::path::Path;
use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::header::AUTHORIZATION;
use axum::middleware::Next;
use axum::response::Response;
use sha2::{Digest, Sha256};

use super::ApiState;
use super::error::ApiError;

/// Lets a request through only with `Authorization: Bearer <token>` (the
/// scheme in any case, as HTTP defines it). There is always a token: `serve`
/// refuses to start without one.
pub async fn require_token(
    State(state): State<Arc<ApiState>>,
    request: Request,
    next: Next,
) -> Result<Response, ApiError> {
    let given = request
        .headers()
        .get(AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(bearer);
    match given {
        None => Err(ApiError::Unauthorized(
            "this call needs `Authorization: Bearer <token>` (the [api] token, WAKEFUL_API_TOKEN, or the token file `serve` printed the path of)"
                .into(),
        )),
        Some(given) if tokens_equal(given, &state.token) => Ok(next.run(request).await),
        Some(_) => Err(ApiError::Unauthorized(
            "the bearer token is not the configured API token".into(),
        )),
    }
}

/// The credentials of a `Bearer` authorization, the scheme matched without
/// regard to case.
fn bearer(value: &str) -> Option<&str> {
    let (scheme, credentials) = value.trim().split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then(|| credentials.trim())
}

/// The API token kept in `path` (`<data>/api-token`): read when the file
/// exists, else 32 random bytes in hex written there first, readable by
/// its owner only. The file appears whole or not at all (written aside,
/// then linked into place), and of two processes creating it at once both
/// end up with the one that was linked first.
pub fn token_file(path: &Path) -> Result<String, String> {
    if !path.exists() {
        create_token_file(path)?;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?
            .permissions()
            .mode();
        if mode & 0o077 != 0 {
            return Err(format!(
                "the API token file {} can be read by other users (mode {:o}); `chmod 600` it, or delete it for a new token",
                path.display(),
                mode & 0o777
            ));
        }
    }
    let token = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read the API token file {}: {e}", path.display()))?;
    let token = token.trim().to_string();
    if token.is_empty() {
        return Err(format!(
            "the API token file {} is empty; delete it and `serve` writes a new token",
            path.display()
        ));
    }
    Ok(token)
}

fn create_token_file(path: &Path) -> Result<(), String> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(|e| format!("the OS random source failed: {e}"))?;
    let token = hex::encode(bytes);
    let aside = path.with_extension(format!("new-{}", std::process::id()));
    let written = (|| {
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        let mut file = options.open(&aside)?;
        file.write_all(token.as_bytes())?;
        file.write_all(b"\n")?;
        file.sync_all()?;
        match std::fs::hard_link(&aside, path) {
            Err(e) if e.kind() != std::io::ErrorKind::AlreadyExists => Err(e),
            _ => Ok(()),
        }
    })();
    let _ = std::fs::remove_file(&aside);
    written.map_err(|e| format!("cannot write the API token file {}: {e}", path.display()))
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
    use super::{bearer, tokens_equal};

    #[test]
    fn the_bearer_scheme_is_matched_in_any_case() {
        assert_eq!(bearer("Bearer s3cret"), Some("s3cret"));
        assert_eq!(bearer("bearer s3cret"), Some("s3cret"));
        assert_eq!(bearer("BEARER  s3cret "), Some("s3cret"));
        assert_eq!(bearer("Basic s3cret"), None);
        assert_eq!(bearer("Bearers3cret"), None);
    }

    #[test]
    fn tokens_compare_by_value() {
        assert!(tokens_equal("s3cret", "s3cret"));
        assert!(!tokens_equal("s3cret", "s3creT"));
        assert!(!tokens_equal("", "s3cret"));
    }
}
