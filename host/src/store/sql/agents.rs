//! Deployed agent versions. A version is immutable once deployed: the same
//! name and version with other bytes is refused, so a run pinned to a
//! version always runs the bytes it started with. Only who answers for it
//! (its owner) can change, and each change is audited.

use super::db::{Connection, OptionalExtension, Row, params};

use serde_json::json;

use super::SqlStore;
use super::{Context, audit, from_json, to_json, write};
use crate::store::{AgentVersion, PutAgent, Result, StoreError};

/// Deployed agent versions and their bytes.
impl SqlStore {
    /// Records a deployed agent version and its bytes.
    pub fn put_agent(&mut self, version: &AgentVersion, bytes: &[u8]) -> Result<PutAgent> {
        put_agent(&mut self.conn, version, bytes)
    }

    /// Every deployed version, by name then semver.
    pub fn agents(&self) -> Result<Vec<AgentVersion>> {
        agents(&self.conn)
    }

    /// One version of an agent; `None` picks the highest semver.
    pub fn agent(&self, name: &str, version: Option<&str>) -> Result<Option<AgentVersion>> {
        agent(&self.conn, name, version)
    }

    /// The component bytes of a deployed version, refused unread when
    /// they are more than `max_bytes` (`[limits] max_component_mib`).
    pub fn agent_bytes(&self, digest: &str, max_bytes: usize) -> Result<Vec<u8>> {
        agent_bytes(&self.conn, digest, max_bytes)
    }
}

/// The columns `AgentRow::from_row` reads, in its order (by position).
const COLUMNS: &str = "name, version, digest, description, requested_tools, granted_tools, size, deployed_at, owner, \
     deployed_by";

struct AgentRow {
    name: String,
    version: String,
    digest: String,
    description: String,
    requested_tools: String,
    granted_tools: String,
    size: u64,
    deployed_at: u64,
    owner: Option<String>,
    deployed_by: Option<String>,
}

impl AgentRow {
    fn from_row(row: &Row<'_>) -> super::db::Result<AgentRow> {
        Ok(AgentRow {
            name: row.get((0, "name"))?,
            version: row.get((1, "version"))?,
            digest: row.get((2, "digest"))?,
            description: row.get((3, "description"))?,
            requested_tools: row.get((4, "requested_tools"))?,
            granted_tools: row.get((5, "granted_tools"))?,
            size: row.get((6, "size"))?,
            deployed_at: row.get((7, "deployed_at"))?,
            owner: row.get((8, "owner"))?,
            deployed_by: row.get((9, "deployed_by"))?,
        })
    }

    fn into_agent(self) -> Result<AgentVersion> {
        let what = |field: &str| format!("{field} of agent {}@{}", self.name, self.version);
        let requested_tools = from_json(&self.requested_tools, || what("requested tools"))?;
        let granted_tools = from_json(&self.granted_tools, || what("granted tools"))?;
        Ok(AgentVersion {
            name: self.name,
            version: self.version,
            digest: self.digest,
            description: self.description,
            requested_tools,
            granted_tools,
            size: self.size,
            deployed_at: self.deployed_at,
            owner: self.owner,
            deployed_by: self.deployed_by,
        })
    }
}

pub(super) fn put_agent(
    conn: &mut Connection,
    agent: &AgentVersion,
    bytes: &[u8],
) -> Result<PutAgent> {
    let label = format!("{}@{}", agent.name, agent.version);
    write(conn, &format!("deploying {label}"), |tx| {
        let existing: Option<(String, Option<String>)> = tx
            .prepare_cached("SELECT digest, owner FROM agents WHERE name = ?1 AND version = ?2")
            .and_then(|mut stmt| {
                stmt.query_row([&agent.name, &agent.version], |row| {
                    Ok((row.get(0)?, row.get(1)?))
                })
                .optional()
            })
            .ctx_with(|| format!("looking up {label}"))?;
        if let Some((existing, owner)) = existing {
            if existing == agent.digest {
                return match &agent.owner {
                    Some(new) if owner.as_ref() != Some(new) => {
                        change_owner(tx, agent, owner.as_deref())?;
                        Ok(PutAgent::OwnerChanged { was: owner })
                    }
                    _ => Ok(PutAgent::AlreadyDeployed),
                };
            }
            return Err(StoreError::VersionConflict {
                name: agent.name.clone(),
                version: agent.version.clone(),
                existing,
            });
        }
        let other: Option<(String, String)> = tx
            .prepare_cached("SELECT name, version FROM agents WHERE digest = ?1")
            .and_then(|mut stmt| {
                stmt.query_row([&agent.digest], |row| Ok((row.get(0)?, row.get(1)?)))
                    .optional()
            })
            .ctx_with(|| format!("looking up digest {}", agent.digest))?;
        if let Some((name, version)) = other {
            return Err(StoreError::Db(format!(
                "the bytes of {label} (digest {}) are already deployed as {name}@{version}",
                agent.digest
            )));
        }
        let requested = to_json(&agent.requested_tools, "requested tools")?;
        let granted = to_json(&agent.granted_tools, "granted tools")?;
        tx.prepare_cached(
            "INSERT INTO agents (name, version, digest, description, requested_tools, \
             granted_tools, size, deployed_at, owner, deployed_by) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
        )
        .and_then(|mut stmt| {
            stmt.execute(params![
                agent.name,
                agent.version,
                agent.digest,
                agent.description,
                requested,
                granted,
                agent.size,
                agent.deployed_at,
                agent.owner,
                agent.deployed_by,
            ])
        })
        .ctx_with(|| format!("inserting {label}"))?;
        tx.prepare_cached("INSERT INTO components (digest, bytes) VALUES (?1, ?2)")
            .and_then(|mut stmt| stmt.execute(params![agent.digest, bytes]))
            .ctx_with(|| format!("storing the component of {label}"))?;
        Ok(PutAgent::Inserted)
    })
}

/// Gives a deployed version the owner `agent.owner`, with its audit row.
fn change_owner(
    tx: &super::db::Transaction<'_>,
    agent: &AgentVersion,
    was: Option<&str>,
) -> Result<()> {
    let label = format!("{}@{}", agent.name, agent.version);
    tx.prepare_cached("UPDATE agents SET owner = ?3 WHERE name = ?1 AND version = ?2")
        .and_then(|mut stmt| stmt.execute(params![agent.name, agent.version, agent.owner]))
        .ctx_with(|| format!("changing the owner of {label}"))?;
    audit::insert_kind(
        tx,
        None,
        "owner changed",
        json!({"agent": agent.name, "version": agent.version, "old": was, "new": agent.owner}),
        agent.deployed_at,
    )
}

/// Orders versions by semver; a version that does not parse sorts before
/// every one that does (and among its kind by text), so it never wins the
/// "latest" choice over a real release.
fn semver_key(version: &str) -> (Option<semver::Version>, &str) {
    (semver::Version::parse(version).ok(), version)
}

pub(super) fn agents(conn: &Connection) -> Result<Vec<AgentVersion>> {
    let rows = conn
        .prepare_cached(&format!("SELECT {COLUMNS} FROM agents"))
        .and_then(|mut stmt| {
            stmt.query_map(params![], AgentRow::from_row)?
                .collect::<super::db::Result<Vec<_>>>()
        })
        .ctx("listing agent versions")?;
    let mut agents = rows
        .into_iter()
        .map(AgentRow::into_agent)
        .collect::<Result<Vec<_>>>()?;
    agents.sort_by(|a, b| {
        a.name
            .cmp(&b.name)
            .then_with(|| semver_key(&a.version).cmp(&semver_key(&b.version)))
    });
    Ok(agents)
}

pub(super) fn agent(
    conn: &Connection,
    name: &str,
    version: Option<&str>,
) -> Result<Option<AgentVersion>> {
    let rows = match version {
        Some(version) => conn
            .prepare_cached(&format!(
                "SELECT {COLUMNS} FROM agents WHERE name = ?1 AND version = ?2"
            ))
            .and_then(|mut stmt| {
                stmt.query_map([name, version], AgentRow::from_row)?
                    .collect::<super::db::Result<Vec<_>>>()
            })
            .ctx_with(|| format!("looking up {name}@{version}"))?,
        None => conn
            .prepare_cached(&format!("SELECT {COLUMNS} FROM agents WHERE name = ?1"))
            .and_then(|mut stmt| {
                stmt.query_map([name], AgentRow::from_row)?
                    .collect::<super::db::Result<Vec<_>>>()
            })
            .ctx_with(|| format!("looking up the versions of {name}"))?,
    };
    rows.into_iter()
        .max_by(|a, b| semver_key(&a.version).cmp(&semver_key(&b.version)))
        .map(AgentRow::into_agent)
        .transpose()
}

/// The bytes of the component `digest`, read only when they are at most
/// `max_bytes`: its length is read first, off the row's header.
pub(super) fn agent_bytes(conn: &Connection, digest: &str, max_bytes: usize) -> Result<Vec<u8>> {
    let row: Option<(i64, Option<Vec<u8>>)> = conn
        .prepare_cached(
            "SELECT CAST(length(bytes) AS BIGINT), \
             CASE WHEN length(bytes) <= CAST(?2 AS BIGINT) THEN bytes END \
             FROM components WHERE digest = ?1",
        )
        .and_then(|mut stmt| {
            stmt.query_row(params![digest, max_bytes.min(i64::MAX as usize)], |row| {
                Ok((row.get(0)?, row.get(1)?))
            })
            .optional()
        })
        .ctx_with(|| format!("reading the bytes of agent digest {digest}"))?;
    match row {
        None => Err(StoreError::UnknownDigest(digest.to_string())),
        Some((_, Some(bytes))) => Ok(bytes),
        Some((length, None)) => Err(StoreError::TooLarge(format!(
            "the component of agent digest {digest} is {length} bytes, more than the {max_bytes} \
             bytes a component may have (limits.max_component_mib); raise the limit to run it"
        ))),
    }
}
