//! Connecting to PostgreSQL and bringing its schema up to date.
//!
//! The schema lives in the connection's current schema (the first of its
//! `search_path`), so that several stores can share one database, each in
//! a schema named by the URL's `options=-c search_path=…`.

use std::str::FromStr;

use super::pg_schema::PG_MIGRATIONS;
use super::schema::SCHEMA_VERSION;
use crate::store::{Result, StoreError};

/// Held (per transaction) while the schema is migrated, so that hosts
/// starting together migrate once.
const MIGRATION_LOCK: i64 = 0x7761_6b65_6675_6c01;

/// Connects to `url` and migrates its schema; returns the client and the
/// URL as it can be shown (no password).
pub(super) fn connect(url: &str) -> Result<(postgres::Client, postgres::Config, String)> {
    let (mut client, config, shown) = connect_only(url)?;
    migrate(&mut client, &shown)?;
    Ok((client, config, shown))
}

/// The schema version of the store at `url`, read without creating or
/// migrating anything; `None` when its schema holds no store.
pub(super) fn stored_version(url: &str) -> Result<Option<i64>> {
    let (mut client, _, shown) = connect_only(url)?;
    let db = |e: postgres::Error| {
        StoreError::Db(format!(
            "reading the schema version of {shown}: {}",
            describe(&e)
        ))
    };
    let exists: bool = client
        .query_one("SELECT to_regclass('wakeful_schema') IS NOT NULL", &[])
        .map_err(db)?
        .get(0);
    if !exists {
        return Ok(None);
    }
    let version = client
        .query_opt("SELECT version FROM wakeful_schema", &[])
        .map_err(db)?;
    Ok(Some(version.map_or(0, |row| row.get(0))))
}

pub(super) fn connect_only(url: &str) -> Result<(postgres::Client, postgres::Config, String)> {
    let mut config = postgres::Config::from_str(url).map_err(|e| {
        StoreError::Db(format!(
            "the store URL is not a PostgreSQL connection URL ({e}); \
             expected postgres://USER@HOST:PORT/DATABASE"
        ))
    })?;
    let shown = shown_url(url);
    if config.get_application_name().is_none() {
        config.application_name("wakeful");
    }
    // A server that does not answer must not hang a worker forever.
    if config.get_connect_timeout().is_none() {
        config.connect_timeout(std::time::Duration::from_secs(10));
    }
    // Without TLS: the store is meant for a database on the hosts' own
    // network; a URL asking for `sslmode=require` is refused by the
    // client rather than silently sent in clear.
    let client = config
        .connect(postgres::NoTls)
        .map_err(|e| StoreError::Db(format!("connecting to {shown}: {}", describe(&e))))?;
    Ok((client, config, shown))
}

/// The URL without its password.
pub fn shown_url(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    let (authority, tail) = match rest.find(['/', '?']) {
        Some(i) => rest.split_at(i),
        None => (rest, ""),
    };
    match authority.rsplit_once('@') {
        Some((user, host)) => {
            let user = user.split(':').next().unwrap_or("");
            format!("{scheme}://{user}@{host}{tail}")
        }
        None => url.to_string(),
    }
}

pub(super) fn describe(e: &postgres::Error) -> String {
    match e.as_db_error() {
        Some(db) => db.message().to_string(),
        None => {
            // The cause (connection refused, a name that does not resolve)
            // is in the source chain, not in the error's own text.
            let mut text = e.to_string();
            let mut source = std::error::Error::source(e);
            while let Some(cause) = source {
                text.push_str(": ");
                text.push_str(&cause.to_string());
                source = cause.source();
            }
            text
        }
    }
}

fn migrate(client: &mut postgres::Client, shown: &str) -> Result<()> {
    let db = |what: &str, e: postgres::Error| {
        StoreError::Db(format!("{what} of {shown}: {}", describe(&e)))
    };
    let mut tx = client
        .transaction()
        .map_err(|e| db("starting the schema migration", e))?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
        .map_err(|e| db("locking the schema migration", e))?;
    // A URL that names a schema (`options=-c search_path=NAME`) that does
    // not exist yet gets it made, as a new SQLite file is made.
    let current: Option<String> = tx
        .query_one("SELECT current_schema()::text", &[])
        .map_err(|e| db("reading the current schema", e))?
        .get(0);
    if current.is_none() {
        let path: String = tx
            .query_one("SHOW search_path", &[])
            .map_err(|e| db("reading the search path", e))?
            .get(0);
        let first = path
            .split(',')
            .next()
            .unwrap_or("")
            .trim()
            .trim_matches('"');
        if first.is_empty() || first.starts_with('$') {
            return Err(StoreError::Db(format!(
                "{shown} has no schema to create the store's tables in (search_path is \
                 `{path}`): name one with options=-c%20search_path%3DNAME"
            )));
        }
        tx.batch_execute(&format!(
            "CREATE SCHEMA IF NOT EXISTS \"{}\"",
            first.replace('"', "")
        ))
        .map_err(|e| db(&format!("creating the schema {first}"), e))?;
    }
    tx.batch_execute("CREATE TABLE IF NOT EXISTS wakeful_schema (version BIGINT NOT NULL)")
        .map_err(|e| db("reading the schema version", e))?;
    let found: i64 = tx
        .query_opt("SELECT version FROM wakeful_schema", &[])
        .map_err(|e| db("reading the schema version", e))?
        .map(|row| row.get(0))
        .unwrap_or(0);
    if found > SCHEMA_VERSION {
        return Err(StoreError::TooNew {
            path: shown.to_string(),
            found,
            supported: SCHEMA_VERSION,
        });
    }
    if found == SCHEMA_VERSION {
        return Ok(());
    }
    for (version, sql) in PG_MIGRATIONS.iter().filter(|(v, _)| *v > found) {
        tx.batch_execute(sql)
            .map_err(|e| db(&format!("migrating to schema {version}"), e))?;
    }
    tx.execute("DELETE FROM wakeful_schema", &[])
        .and_then(|_| {
            tx.execute(
                "INSERT INTO wakeful_schema (version) VALUES ($1)",
                &[&SCHEMA_VERSION],
            )
        })
        .map_err(|e| db("recording the schema version", e))?;
    tx.commit()
        .map_err(|e| db("committing the schema migration", e))
}

#[cfg(test)]
mod tests {
    use super::shown_url;

    #[test]
    fn the_shown_url_has_no_password() {
        assert_eq!(
            shown_url("postgres://app:s3cret@db.internal:5432/wakeful?options=x"),
            "postgres://app@db.internal:5432/wakeful?options=x"
        );
        assert_eq!(
            shown_url("postgres://app@db/wakeful"),
            "postgres://app@db/wakeful"
        );
    }
}
