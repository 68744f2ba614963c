//! Operator authentication: named bearer tokens, compared in constant time,
//! and the token file `serve` creates when no token is configured. The name
//! of the token a request carries is who made it ([`Caller`]): handlers
//! name it in the audit log.

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

/// The name of the token a request was let in with: who made it.
#[derive(Clone, Debug)]
pub struct Caller(pub String);

/// The name the single token (`[api] token`, `WAKEFUL_API_TOKEN` or the
/// token file) goes by.
pub const SINGLE_TOKEN_NAME: &str = "api";

/// The tokens the API takes, each with its name.
#[derive(Clone, Debug)]
pub struct Tokens(Vec<(String, String)>);

impl Tokens {
    /// Refuses a name that is not a plain name, an empty token, a name or
    /// a token given twice.
    pub fn new(named: Vec<(String, String)>) -> Result<Tokens, String> {
        for (n, (name, token)) in named.iter().enumerate() {
            check_token_name(name)?;
            if token.trim().is_empty() {
                return Err(format!("the API token named `{name}` is empty"));
            }
            if let Some((other, _)) = named[..n].iter().find(|(o, _)| o == name) {
                return Err(format!("two API tokens are named `{other}`"));
            }
            if let Some((other, _)) = named[..n].iter().find(|(_, t)| t == token) {
                return Err(format!(
                    "the API tokens named `{other}` and `{name}` are the same token; give each its own, or the audit log cannot tell them apart"
                ));
            }
        }
        Ok(Tokens(named))
    }

    /// The token named `name`, if there is one.
    pub fn token_of(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, t)| t.as_str())
    }

    /// The name of the token `given` is. Every token is compared, in
    /// constant time, whichever matches.
    pub fn name_of(&self, given: &str) -> Option<&str> {
        self.0.iter().fold(None, |found, (name, token)| {
            let equal = tokens_equal(given, token);
            found.or(equal.then_some(name.as_str()))
        })
    }
}

/// A token's name is who the audit log says acted: keep it plain.
pub fn check_token_name(name: &str) -> Result<(), String> {
    let plain = !name.is_empty()
        && name.len() <= 64
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '@'));
    if plain {
        Ok(())
    } else {
        Err(format!(
            "`{name}` is not a token name: use 1-64 letters, digits and - _ . @"
        ))
    }
}

/// Lets a request through only with `Authorization: Bearer <token>` (the
/// scheme in any case, as HTTP defines it) naming one of the API's tokens,
/// and marks it with that token's name. There is always a token: `serve`
/// refuses to start without one.
pub async fn require_token(
    State(state): State<Arc<ApiState>>,
    mut request: Request,
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
        Some(given) => match state.tokens.name_of(given).map(|n| Caller(n.to_string())) {
            Some(caller) => {
                request.extensions_mut().insert(caller);
                Ok(next.run(request).await)
            }
            None => Err(ApiError::Unauthorized(
                "the bearer token is not the configured API token nor one of [api.tokens]".into(),
            )),
        },
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
    use super::{Tokens, bearer, tokens_equal};

    #[test]
    fn the_bearer_scheme_is_matched_in_any_case() {
        assert_eq!(bearer("Bearer s3cret"), Some("s3cret"));
        assert_eq!(bearer("bearer s3cret"), Some("s3cret"));
        assert_eq!(bearer("BEARER  s3cret "), Some("s3cret"));
        assert_eq!(bearer("Basic s3cret"), None);
        assert_eq!(bearer("Bearers3cret"), None);
    }

    #[test]
    fn a_token_is_known_by_its_name_and_bad_names_or_shared_tokens_are_refused() {
        let pair = |n: &str, t: &str| (n.to_string(), t.to_string());
        let tokens = Tokens::new(vec![pair("api", "t0"), pair("alice@ops", "t1")]).unwrap();
        assert_eq!(tokens.name_of("t1"), Some("alice@ops"));
        assert_eq!(tokens.name_of("t0"), Some("api"));
        assert_eq!(tokens.name_of("t2"), None);
        let err = Tokens::new(vec![pair("a b", "t")]).unwrap_err();
        assert!(err.contains("`a b` is not a token name"), "{err}");
        let err = Tokens::new(vec![pair("a", "t"), pair("b", "t")]).unwrap_err();
        assert!(err.contains("`a` and `b` are the same token"), "{err}");
        assert!(Tokens::new(vec![pair("a", " ")]).is_err());
    }

    #[test]
    fn tokens_compare_by_value() {
        assert!(tokens_equal("s3cret", "s3cret"));
        assert!(!tokens_equal("s3cret", "s3creT"));
        assert!(!tokens_equal("", "s3cret"));
    }
}
