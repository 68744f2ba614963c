//! `[api.tokens.<name>]`: the API's named tokens, each known by the SHA-256
//! of its secret (`token_sha256`) or read from `serve`'s environment
//! (`token_env`), never written in the file, and the scopes it grants.

use serde::Deserialize;

use crate::access::{self, Grant, Scope, Token};

/// One entry of `[api.tokens]`: a table, or (refused, with the form to
/// write instead) a token written in the file.
#[derive(Clone, Debug)]
pub enum TokenEntry {
    Plain,
    Table(TokenConfig),
}

/// `[api.tokens.<name>]`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TokenConfig {
    /// The token's SHA-256, 64 hex digits (`wakeful tokens new` prints it).
    pub token_sha256: Option<String>,
    /// The environment variable of `serve` that holds the token.
    pub token_env: Option<String>,
    /// What it may do: read, operate, approve, resolve, deploy, admin.
    pub scopes: Vec<String>,
    /// Limits the `approve` scope to these agents' runs.
    pub agents: Option<Vec<String>>,
}

impl<'de> Deserialize<'de> for TokenEntry {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match toml::Value::deserialize(d)? {
            toml::Value::String(_) => Ok(TokenEntry::Plain),
            other => TokenConfig::deserialize(other)
                .map(TokenEntry::Table)
                .map_err(serde::de::Error::custom),
        }
    }
}

/// What to write instead of a token in the file.
fn written_form(name: &str) -> String {
    format!(
        "write its SHA-256 instead:\n  [api.tokens.{name}]\n  token_sha256 = \"<sha256 of the \
         token>\"   # or token_env = \"<variable holding it>\"\n  scopes = [\"read\"]\n\
         `wakeful tokens new {name} --scopes read` makes a token and prints these lines"
    )
}

/// Refuses a token written in the file (`[api] token`, `[api.tokens] name
/// = "…"`), and checks every entry but what only `serve`'s environment
/// holds.
pub(super) fn check(api: &super::ApiConfig) -> Result<(), String> {
    if api.token.is_some() {
        return Err(format!(
            "api.token: a token written in the config file is refused (whoever reads the file \
             could use it). Set WAKEFUL_API_TOKEN in serve's environment, or name the token and {}",
            written_form("ops")
        ));
    }
    let mut hashed = Vec::new();
    for (name, entry) in &api.tokens {
        let table = check_entry(name, entry).map_err(|e| format!("api.tokens.{name}: {e}"))?;
        if let Some(sha) = &table.token_sha256 {
            let grant = grant(table).map_err(|e| format!("api.tokens.{name}: {e}"))?;
            let sha = access::parse_sha256(sha).map_err(|e| format!("api.tokens.{name}: {e}"))?;
            hashed.push(Token::new(name, sha, grant));
        }
    }
    access::Tokens::new(hashed)
        .map(|_| ())
        .map_err(|e| format!("api.tokens: {e}"))
}

fn check_entry<'a>(name: &str, entry: &'a TokenEntry) -> Result<&'a TokenConfig, String> {
    access::check_token_name(name)?;
    if name == access::SINGLE_TOKEN_NAME {
        return Err(format!(
            "`{name}` names WAKEFUL_API_TOKEN (or the token file); choose another name"
        ));
    }
    let TokenEntry::Table(table) = entry else {
        return Err(format!(
            "a token written in the config file is refused (whoever reads the file could use \
             it); {}",
            written_form(name)
        ));
    };
    match (&table.token_sha256, &table.token_env) {
        (Some(sha), None) => {
            access::parse_sha256(sha)?;
        }
        (None, Some(var)) if !var.trim().is_empty() => {}
        (None, Some(_)) => return Err("token_env names no variable".into()),
        _ => return Err("give exactly one of token_sha256 and token_env".into()),
    }
    grant(table)?;
    Ok(table)
}

/// The scopes of an entry: at least one, each known; `agents` only beside
/// `approve` and not `admin` (which answers for every agent).
fn grant(table: &TokenConfig) -> Result<Grant, String> {
    if table.scopes.is_empty() {
        return Err(
            "scopes is empty; give at least one of read, operate, approve, resolve, \
                    deploy, admin"
                .into(),
        );
    }
    let mut scopes = table
        .scopes
        .iter()
        .map(|s| Scope::parse(s.trim()))
        .collect::<Result<Vec<_>, _>>()?;
    scopes.sort();
    scopes.dedup();
    if let Some(agents) = &table.agents {
        if !scopes.contains(&Scope::Approve) || scopes.contains(&Scope::Admin) {
            return Err(
                "agents limits the approve scope: give it with scopes including \
                        \"approve\" and not \"admin\""
                    .into(),
            );
        }
        if agents.is_empty() || agents.iter().any(|a| a.trim().is_empty()) {
            return Err("agents must name at least one agent, none empty".into());
        }
    }
    Ok(Grant {
        scopes,
        agents: table.agents.clone(),
    })
}

/// The configured tokens, those of `token_env` read through `env`: a
/// variable unset or empty is refused, named.
pub fn configured_tokens(
    api: &super::ApiConfig,
    env: impl Fn(&str) -> Option<String>,
) -> Result<Vec<Token>, String> {
    let mut tokens = Vec::new();
    for (name, entry) in &api.tokens {
        let table = check_entry(name, entry).map_err(|e| format!("api.tokens.{name}: {e}"))?;
        let sha = match (&table.token_sha256, &table.token_env) {
            (Some(sha), _) => access::parse_sha256(sha)?,
            (None, Some(var)) => {
                let secret = env(var.trim()).filter(|v| !v.trim().is_empty());
                let secret = secret.ok_or_else(|| {
                    format!(
                        "api.tokens.{name}: token_env `{}` is not set (or is empty) in serve's \
                         environment",
                        var.trim()
                    )
                })?;
                access::token_sha256(&secret)
            }
            (None, None) => {
                return Err(format!("api.tokens.{name}: no token_sha256 nor token_env"));
            }
        };
        tokens.push(Token::new(name, sha, grant(table)?));
    }
    Ok(tokens)
}
