//! Who may do what: scopes, grants and named tokens, known by the SHA-256
//! of their secret and compared in constant time, and the token file
//! `serve` creates when no token is configured. The config reads tokens
//! into these types; the API and the console check requests against them.

use std::io::Write;
use std::path::Path;

use sha2::{Digest, Sha256};

/// The name the single token (`WAKEFUL_API_TOKEN` or the token file) goes
/// by. It is an `admin` token.
pub const SINGLE_TOKEN_NAME: &str = "api";

/// What a token (and a console session signed in with it) may do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Scope {
    /// Every `GET`: runs, history, audit, agents, switches, hosts, metrics.
    Read,
    /// Start runs, send events, pause and resume, cancel, the kv store.
    Operate,
    /// Answer approval requests (optionally only some agents' runs).
    Approve,
    /// Settle a tool call whose outcome is unknown: it can invent a tool's
    /// result, so no other scope includes it.
    Resolve,
    /// Deploy agents (with their grants and schedules) and upgrade runs.
    Deploy,
    /// Everything.
    Admin,
}

impl Scope {
    pub const ALL: [Scope; 6] = [
        Scope::Read,
        Scope::Operate,
        Scope::Approve,
        Scope::Resolve,
        Scope::Deploy,
        Scope::Admin,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Scope::Read => "read",
            Scope::Operate => "operate",
            Scope::Approve => "approve",
            Scope::Resolve => "resolve",
            Scope::Deploy => "deploy",
            Scope::Admin => "admin",
        }
    }

    pub fn parse(name: &str) -> Result<Scope, String> {
        Scope::ALL
            .into_iter()
            .find(|s| s.name() == name)
            .ok_or_else(|| {
                format!(
                    "`{name}` is not a scope; use read, operate, approve, resolve, deploy or admin"
                )
            })
    }
}

/// A principal's scopes, and the agents its `approve` scope is limited to
/// (`None`: every agent).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grant {
    pub scopes: Vec<Scope>,
    pub agents: Option<Vec<String>>,
}

impl Grant {
    pub fn admin() -> Grant {
        Grant {
            scopes: vec![Scope::Admin],
            agents: None,
        }
    }

    pub fn allows(&self, needed: Scope) -> bool {
        self.scopes.contains(&Scope::Admin) || self.scopes.contains(&needed)
    }

    /// Refuses `needed` unless granted, naming the scope and what `who` has.
    pub fn require(&self, who: &str, needed: Scope) -> Result<(), String> {
        if self.allows(needed) {
            return Ok(());
        }
        let has: Vec<&str> = self.scopes.iter().map(|s| s.name()).collect();
        Err(format!(
            "this needs the `{}` scope; the token `{who}` has {}",
            needed.name(),
            has.join(", ")
        ))
    }

    /// Refuses an answer to a request of a run of `agent` when `approve`
    /// is limited to other agents.
    pub fn require_agent(&self, who: &str, agent: &str) -> Result<(), String> {
        match &self.agents {
            Some(agents)
                if !self.scopes.contains(&Scope::Admin) && !agents.iter().any(|a| a == agent) =>
            {
                Err(format!(
                    "the token `{who}` may answer only the requests of agents {}; this run is \
                     agent `{agent}`'s (needs the `approve` scope for it)",
                    agents.join(", ")
                ))
            }
            _ => Ok(()),
        }
    }
}

/// One token: its name, the SHA-256 of its secret, and what it may do.
#[derive(Clone, Debug)]
pub struct Token {
    pub name: String,
    pub sha256: [u8; 32],
    pub grant: Grant,
}

impl Token {
    pub fn new(name: &str, sha256: [u8; 32], grant: Grant) -> Token {
        Token {
            name: name.to_string(),
            sha256,
            grant,
        }
    }
}

/// The SHA-256 of a token's secret, as the API keeps it.
pub fn token_sha256(secret: &str) -> [u8; 32] {
    Sha256::digest(secret.trim().as_bytes()).into()
}

/// A `token_sha256` as written in the config: 64 hex digits.
pub fn parse_sha256(hex_digest: &str) -> Result<[u8; 32], String> {
    let bytes = hex::decode(hex_digest.trim()).ok();
    bytes.and_then(|b| <[u8; 32]>::try_from(b).ok()).ok_or_else(|| {
        "token_sha256 must be the 64 hex digits of the token's SHA-256 (`wakeful tokens new` prints it)"
            .to_string()
    })
}

/// The tokens the API takes.
#[derive(Clone, Debug)]
pub struct Tokens(Vec<Token>);

impl Tokens {
    /// Refuses a name that is not a plain name, a name or a token given
    /// twice, a token without scopes.
    pub fn new(tokens: Vec<Token>) -> Result<Tokens, String> {
        for (n, t) in tokens.iter().enumerate() {
            check_token_name(&t.name)?;
            if t.grant.scopes.is_empty() {
                return Err(format!("the API token named `{}` has no scopes", t.name));
            }
            if let Some(other) = tokens[..n].iter().find(|o| o.name == t.name) {
                return Err(format!("two API tokens are named `{}`", other.name));
            }
            if let Some(other) = tokens[..n].iter().find(|o| o.sha256 == t.sha256) {
                return Err(format!(
                    "the API tokens named `{}` and `{}` are the same token; give each its own, or the audit log cannot tell them apart",
                    other.name, t.name
                ));
            }
        }
        Ok(Tokens(tokens))
    }

    /// The token named `name`, if there is one.
    pub fn named(&self, name: &str) -> Option<&Token> {
        self.0.iter().find(|t| t.name == name)
    }

    /// The token `given` is. Its hash is compared with every token's, in
    /// constant time, whichever matches.
    pub fn find(&self, given: &str) -> Option<&Token> {
        let given = token_sha256(given);
        self.0.iter().fold(None, |found, token| {
            let equal = digests_equal(&given, &token.sha256);
            found.or(equal.then_some(token))
        })
    }

    /// The name of the token `given` is.
    pub fn name_of(&self, given: &str) -> Option<&str> {
        self.find(given).map(|t| t.name.as_str())
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

/// Compares two digests without stopping early.
pub fn digests_equal(a: &[u8; 32], b: &[u8; 32]) -> bool {
    a.iter()
        .zip(b.iter())
        .fold(0u8, |acc, (x, y)| acc | (x ^ y))
        == 0
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
    use super::*;

    fn token(name: &str, secret: &str, scopes: &[Scope]) -> Token {
        let grant = Grant {
            scopes: scopes.to_vec(),
            agents: None,
        };
        Token::new(name, token_sha256(secret), grant)
    }

    #[test]
    fn a_grant_allows_its_scopes_and_admin_everything() {
        let reader = Grant {
            scopes: vec![Scope::Read],
            agents: None,
        };
        let err = reader.require("bob", Scope::Deploy).unwrap_err();
        assert!(err.contains("`deploy` scope"), "{err}");
        assert!(Grant::admin().require("x", Scope::Resolve).is_ok());
        let refunds = Grant {
            scopes: vec![Scope::Approve],
            agents: Some(vec!["refund".into()]),
        };
        assert!(refunds.require_agent("a", "refund").is_ok());
        assert!(refunds.require_agent("a", "incident").is_err());
    }

    #[test]
    fn a_token_is_known_by_its_hash_and_bad_names_or_shared_tokens_are_refused() {
        let tokens = Tokens::new(vec![
            token("api", "t0", &[Scope::Admin]),
            token("alice@ops", "t1", &[Scope::Read]),
        ])
        .unwrap();
        assert_eq!(tokens.name_of("t1"), Some("alice@ops"));
        assert_eq!(tokens.name_of("t0"), Some("api"));
        assert_eq!(tokens.name_of("t2"), None);
        let err = Tokens::new(vec![token("a b", "t", &[Scope::Read])]).unwrap_err();
        assert!(err.contains("`a b` is not a token name"), "{err}");
        let err = Tokens::new(vec![
            token("a", "t", &[Scope::Read]),
            token("b", "t", &[Scope::Read]),
        ])
        .unwrap_err();
        assert!(err.contains("`a` and `b` are the same token"), "{err}");
        assert!(Tokens::new(vec![token("a", "t", &[])]).is_err());
    }

    #[test]
    fn tokens_compare_by_value() {
        assert!(tokens_equal("s3cret", "s3cret"));
        assert!(!tokens_equal("s3cret", "s3creT"));
        assert!(!tokens_equal("", "s3cret"));
        assert_eq!(
            parse_sha256(&hex::encode(token_sha256("x"))),
            Ok(token_sha256("x"))
        );
        assert!(parse_sha256("abc").is_err());
    }
}
