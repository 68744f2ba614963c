//! Deploying an agent version: checking the component, its name, version,
//! grants and owner.

use serde::Serialize;

use super::{App, AppError, Result};
use crate::model::AgentInfo;
use crate::store::{AgentVersion, PutAgent};

/// What `deploy` did.
#[derive(Debug, Serialize)]
pub struct Deployed {
    /// The version as stored (an existing one keeps its deploy time).
    pub agent: AgentVersion,
    pub already_deployed: bool,
    /// The version was already deployed and `--owner` named someone else:
    /// the owner before the change (`None`: it had none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub owner_changed: Option<OwnerChange>,
    /// Granted tools this host has no implementation for: calls to them fail
    /// with `unknown` until the config adds them.
    pub unconfigured_tools: Vec<String>,
}

/// Who answered for a version before its owner was changed.
#[derive(Debug, Serialize)]
pub struct OwnerChange {
    pub was: Option<String>,
}

impl App {
    /// Checks a component, asks it what it is, and records it with its grants.
    pub fn deploy(
        &mut self,
        bytes: &[u8],
        grants: &[String],
        grant_all: bool,
        owner: Option<&str>,
        by: &str,
    ) -> Result<Deployed> {
        if owner.is_some_and(|o| o.trim().is_empty()) {
            return Err(AppError::BadInput {
                word: "owner",
                problem: "is empty: name who answers for this agent".into(),
            });
        }
        let runtime = self.runtime()?;
        let loaded = runtime.load(bytes)?;
        let info = runtime
            .info(&loaded)
            .map_err(|e| AppError::Invalid(format!("the component's `info` export failed: {e}")))?;
        check_info(&info).map_err(AppError::Invalid)?;
        // Grants that qualify a tool (`kv:shared/<ns>`, `lease:holder`)
        // are the operator's to give: `--grant-all` gives the tools the
        // component asks for, and adds these.
        let (qualified, grants) = qualified_grants(grants, &info)?;
        // An MCP server's tools are granted one by one, and only those its
        // config allows.
        let asked = grants
            .iter()
            .chain(grant_all.then_some(&info.tools).into_iter().flatten());
        if let Some(why) = asked.filter_map(|g| self.tools.mcp_refusal(g)).next() {
            return Err(AppError::Invalid(format!("cannot grant it: {why}")));
        }
        let granted: Vec<String> = if grant_all {
            info.tools.iter().cloned().chain(qualified).collect()
        } else {
            if let Some(extra) = grants.iter().find(|g| !info.tools.contains(g)) {
                return Err(AppError::Invalid(format!(
                    "{}@{} does not ask for tool `{extra}`; it asks for: {}",
                    info.name,
                    info.version,
                    list_or_none(&info.tools)
                )));
            }
            grants.into_iter().chain(qualified).collect()
        };
        let missing: Vec<String> = info
            .tools
            .iter()
            .filter(|t| !granted.contains(t))
            .cloned()
            .collect();
        if !missing.is_empty() {
            return Err(AppError::MissingGrants {
                agent: format!("{}@{}", info.name, info.version),
                tools: missing,
            });
        }
        let version = AgentVersion {
            name: info.name.clone(),
            version: info.version.clone(),
            digest: loaded.digest.clone(),
            description: info.description.clone(),
            requested_tools: info.tools.clone(),
            granted_tools: granted.clone(),
            size: bytes.len() as u64,
            deployed_at: self.now(),
            owner: owner.map(str::to_string),
            deployed_by: Some(by.to_string()),
        };
        let put = self.store.put_agent(&version, bytes)?;
        let version = match put {
            PutAgent::Inserted => version,
            // What is stored: its deploy time, and its owner unless changed.
            _ => self
                .store
                .agent(&version.name, Some(&version.version))?
                .unwrap_or(version),
        };
        if put == PutAgent::Inserted {
            self.audit(
                None,
                "deploy",
                serde_json::json!({"agent": version.name, "version": version.version,
                    "digest": version.digest, "granted": granted, "owner": owner, "by": by}),
            )?;
        }
        let unconfigured_tools = version
            .granted_tools
            .iter()
            .filter(|t| crate::tools::namespace::qualified_grant(t).is_none())
            .filter(|t| !self.tools.knows(t))
            .cloned()
            .collect();
        Ok(Deployed {
            agent: version,
            already_deployed: put != PutAgent::Inserted,
            owner_changed: match put {
                PutAgent::OwnerChanged { was } => Some(OwnerChange { was }),
                _ => None,
            },
            unconfigured_tools,
        })
    }
}

/// Refuses what a component says of itself that the host cannot use: a
/// name that is not an identifier, a version that is not semver.
pub fn check_info(info: &AgentInfo) -> std::result::Result<(), String> {
    if info.name.is_empty()
        || !info
            .name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        return Err(format!(
            "the component calls itself `{}`; an agent name is letters, digits, `-` and `_`",
            info.name
        ));
    }
    semver::Version::parse(&info.version).map_err(|e| {
        format!(
            "the component's version `{}` is not semver: {e}",
            info.version
        )
    })?;
    Ok(())
}

/// Splits the grants into those that qualify a tool the component asks
/// for and plain tool names, refusing a malformed one or one that
/// qualifies a tool it does not ask for.
fn qualified_grants(grants: &[String], info: &AgentInfo) -> Result<(Vec<String>, Vec<String>)> {
    let mut qualified = Vec::new();
    let mut plain = Vec::new();
    for grant in grants {
        match crate::tools::namespace::qualified_grant(grant) {
            None => plain.push(grant.clone()),
            Some(Err(why)) => return Err(AppError::Invalid(why)),
            Some(Ok(tool)) if !info.tools.iter().any(|t| t == tool) => {
                return Err(AppError::Invalid(format!(
                    "--grant {grant} qualifies tool `{tool}`, which {}@{} does not ask for; \
                     it asks for: {}",
                    info.name,
                    info.version,
                    list_or_none(&info.tools)
                )));
            }
            Some(Ok(_)) if qualified.contains(grant) => {}
            Some(Ok(_)) => qualified.push(grant.clone()),
        }
    }
    Ok((qualified, plain))
}

fn list_or_none(items: &[String]) -> String {
    if items.is_empty() {
        "no tools".into()
    } else {
        items.join(", ")
    }
}
