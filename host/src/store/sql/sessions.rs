//! Console sessions' per-principal row: a generation, baked into every
//! session cookie's MAC, that `wakeful tokens revoke` bumps (every session
//! of that principal stops at once, on every host sharing the store), and
//! a random secret that keys the MAC with the token's hash, so that the
//! config file (which holds only hashes) is not enough to forge a cookie.

use super::SqlStore;
use super::db::{Connection, OptionalExtension, params};
use super::{Context, write};
use crate::store::Result;

/// Console sessions' per-principal keys.
impl SqlStore {
    /// The generation and secret of principal `name`'s console sessions,
    /// made on first use.
    pub fn session_key(&mut self, name: &str) -> Result<(i64, String)> {
        super::sessions::session_key(&mut self.conn, name)
    }

    /// Ends every console session of `name` (a new generation and secret);
    /// returns the new generation.
    pub fn revoke_sessions(&mut self, name: &str) -> Result<i64> {
        super::sessions::revoke(&mut self.conn, name)
    }
}

fn fresh_secret() -> Result<String> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes)
        .map_err(|e| crate::store::StoreError::Db(format!("the OS random source failed: {e}")))?;
    Ok(hex::encode(bytes))
}

fn read(conn: &Connection, name: &str) -> Result<Option<(i64, String)>> {
    conn.prepare_cached("SELECT generation, secret FROM principal_sessions WHERE name = ?1")
        .and_then(|mut stmt| {
            stmt.query_row(params![name], |row| Ok((row.get(0)?, row.get(1)?)))
                .optional()
        })
        .ctx_with(|| format!("reading the sessions of {name}"))
}

/// The generation and secret of `name`'s sessions, made on first use.
pub(super) fn session_key(conn: &mut Connection, name: &str) -> Result<(i64, String)> {
    if let Some(found) = read(conn, name)? {
        return Ok(found);
    }
    let secret = fresh_secret()?;
    write(conn, &format!("starting the sessions of {name}"), |tx| {
        tx.prepare_cached(
            "INSERT INTO principal_sessions (name, generation, secret) VALUES (?1, 1, ?2) \
             ON CONFLICT (name) DO NOTHING",
        )
        .and_then(|mut stmt| stmt.execute(params![name, secret]))
        .ctx_with(|| format!("starting the sessions of {name}"))?;
        Ok(())
    })?;
    read(conn, name)?.ok_or_else(|| {
        crate::store::StoreError::Db(format!("the sessions of {name} were not recorded"))
    })
}

/// Ends every session of `name`: a new generation and a new secret.
/// Returns the new generation.
pub(super) fn revoke(conn: &mut Connection, name: &str) -> Result<i64> {
    let secret = fresh_secret()?;
    write(conn, &format!("revoking the sessions of {name}"), |tx| {
        tx.prepare_cached(
            "INSERT INTO principal_sessions (name, generation, secret) VALUES (?1, 2, ?2) \
             ON CONFLICT (name) DO UPDATE SET generation = principal_sessions.generation + 1, \
             secret = excluded.secret",
        )
        .and_then(|mut stmt| stmt.execute(params![name, secret]))
        .ctx_with(|| format!("revoking the sessions of {name}"))?;
        Ok(())
    })?;
    Ok(read(conn, name)?.map_or(0, |(generation, _)| generation))
}
