//! `wakeful tokens`: making API tokens and ending their console sessions.

use anyhow::{Result, bail};
use serde_json::json;

use super::TokensCommand;
use super::output::print_json;
use crate::access::{self, Scope};
use crate::app::App;

/// `tokens new`: a fresh token printed once, and the config lines naming it
/// by its SHA-256.
pub fn new_token(name: &str, scopes: &[String], agents: &[String], json: bool) -> Result<()> {
    access::check_token_name(name).map_err(anyhow::Error::msg)?;
    if name == access::SINGLE_TOKEN_NAME {
        bail!("`{name}` names WAKEFUL_API_TOKEN (or the token file); choose another name");
    }
    let scopes = scopes
        .iter()
        .map(|s| Scope::parse(s.trim()))
        .collect::<Result<Vec<_>, _>>()
        .map_err(anyhow::Error::msg)?;
    if !agents.is_empty() && (!scopes.contains(&Scope::Approve) || scopes.contains(&Scope::Admin)) {
        bail!(
            "--agents limits the approve scope: give it with --scopes including approve and not admin"
        );
    }
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(|e| anyhow::anyhow!("the OS random source failed: {e}"))?;
    let token = format!("wk_{}", hex::encode(bytes));
    let sha = hex::encode(access::token_sha256(&token));
    let quoted = |list: &[String]| {
        let items: Vec<String> = list.iter().map(|s| format!("{:?}", s.trim())).collect();
        format!("[{}]", items.join(", "))
    };
    let names: Vec<String> = scopes.iter().map(|s| s.name().to_string()).collect();
    let mut lines = format!(
        "[api.tokens.{}]\ntoken_sha256 = \"{sha}\"\nscopes = {}\n",
        toml_key(name),
        quoted(&names)
    );
    if !agents.is_empty() {
        lines.push_str(&format!("agents = {}\n", quoted(agents)));
    }
    if json {
        return print_json(&json!({
            "name": name, "token": token, "token_sha256": sha, "scopes": names, "config": lines,
        }));
    }
    println!("token (shown once; give it to {name}): {token}\n");
    println!("add to wakeful.toml and restart serve:\n\n{lines}");
    Ok(())
}

/// A token name as a TOML key: bare when it can be, else quoted.
fn toml_key(name: &str) -> String {
    if name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        name.to_string()
    } else {
        format!("{name:?}")
    }
}

/// The `tokens` commands that use the store.
pub fn tokens(app: &mut App, op: TokensCommand, json: bool, by: &str) -> Result<()> {
    match op {
        TokensCommand::New { .. } => bail!("tokens new uses no store"),
        TokensCommand::Revoke { name } => {
            access::check_token_name(&name).map_err(anyhow::Error::msg)?;
            let generation = app.store.revoke_sessions(&name)?;
            let entry = crate::store::AuditEntry {
                run_id: None,
                kind: "sessions-revoked".into(),
                data: json!({"principal": name, "generation": generation, "by": by}),
            };
            let now = app.now();
            app.store.append_audit(&entry, now)?;
            if json {
                return print_json(&json!({"revoked": name, "generation": generation}));
            }
            println!(
                "every console session of `{name}` has ended, on every host sharing this store"
            );
        }
    }
    Ok(())
}
