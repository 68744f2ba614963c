//! What refuses a copy before anything is kept: a store copied into
//! itself, a schema this build does not copy, hosts still running on the
//! source, a target that is not empty.

use super::super::db::{Connection, Dialect, ToSql, params};
use super::tables::TABLES;
use crate::model::Millis;
use crate::store::sql::Context;
use crate::store::{Result, StoreUrl};

/// The same file by two names, or the same URL: copying a store into
/// itself would find it non-empty, or copy nothing into nothing.
pub(super) fn same_store(a: StoreUrl<'_>, b: StoreUrl<'_>) -> bool {
    match (a, b) {
        (StoreUrl::Sqlite(a), StoreUrl::Sqlite(b)) => {
            a == b
                || matches!(
                    (std::fs::canonicalize(a), std::fs::canonicalize(b)),
                    (Ok(a), Ok(b)) if a == b
                )
        }
        (StoreUrl::Postgres(a), StoreUrl::Postgres(b)) => a == b,
        _ => false,
    }
}

pub(super) fn schema_version(conn: &Connection) -> Result<i64> {
    match conn.dialect() {
        Dialect::Sqlite => conn.query_row("PRAGMA user_version", params![], |row| row.get(0)),
        Dialect::Postgres => {
            conn.query_row("SELECT version FROM wakeful_schema", params![], |row| {
                row.get(0)
            })
        }
    }
    .ctx("reading the schema version")
}

/// The hosts of the source that beat at or after `since` and did not say
/// they stopped, as `host ID (KIND)`.
pub(super) fn live_hosts(conn: &Connection, since: Millis) -> Result<Vec<String>> {
    conn.prepare_cached(
        "SELECT id, kind FROM hosts WHERE stopped_at IS NULL AND heartbeat_at >= ?1 ORDER BY id",
    )
    .and_then(|mut stmt| {
        stmt.query_map(params![since], |row| {
            Ok(format!(
                "host {} ({})",
                row.get::<_, String>(0)?,
                row.get::<_, String>(1)?
            ))
        })?
        .collect()
    })
    .ctx("reading the hosts of the source")
}

/// Each table that has rows, as `table: N row(s)`.
pub(super) fn rows_found(conn: &Connection) -> Result<Vec<String>> {
    let mut found = Vec::new();
    for table in TABLES {
        let n: i64 = conn
            .query_row(
                &format!("SELECT COUNT(*) FROM {}", table.name),
                params![],
                |row| row.get(0),
            )
            .ctx_with(|| format!("counting the rows of {}", table.name))?;
        if n > 0 {
            found.push(format!("{}: {n} row(s)", table.name));
        }
    }
    Ok(found)
}

/// Refuses a store whose tables or columns are not the ones [`TABLES`]
/// lists: a column this build does not know would not be copied.
pub(super) fn check_schema(conn: &Connection, shown: &str) -> Result<()> {
    let mut found = match conn.dialect() {
        Dialect::Sqlite => strings(
            conn,
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
            &[],
        )?,
        Dialect::Postgres => strings(
            conn,
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() \
             AND tablename <> 'wakeful_schema'",
            &[],
        )?,
    };
    found.sort();
    let mut known: Vec<String> = TABLES.iter().map(|t| t.name.to_string()).collect();
    known.sort();
    if found != known {
        return Err(crate::store::StoreError::Db(format!(
            "the tables of {shown} ({}) are not the ones this build copies ({})",
            found.join(", "),
            known.join(", ")
        )));
    }
    for table in TABLES {
        let mut found = match conn.dialect() {
            Dialect::Sqlite => {
                let mut columns = strings(
                    conn,
                    "SELECT name FROM pragma_table_info(?1)",
                    params![table.name],
                )?;
                // The implicit rowid is not listed; it is there.
                if table.columns.contains(&"rowid") {
                    columns.push("rowid".into());
                }
                columns
            }
            Dialect::Postgres => strings(
                conn,
                "SELECT attname FROM pg_attribute WHERE attrelid = to_regclass(?1) \
                 AND attnum > 0 AND NOT attisdropped",
                params![table.name],
            )?,
        };
        found.sort();
        let mut known: Vec<&str> = table.columns.to_vec();
        known.sort();
        if found != known {
            return Err(crate::store::StoreError::Db(format!(
                "the columns of table {} in {shown} ({}) are not the ones this build copies ({})",
                table.name,
                found.join(", "),
                known.join(", ")
            )));
        }
    }
    Ok(())
}

fn strings(conn: &Connection, sql: &str, args: &[&dyn ToSql]) -> Result<Vec<String>> {
    conn.prepare_cached(sql)
        .and_then(|mut stmt| stmt.query_map(args, |row| row.get(0))?.collect())
        .ctx("reading the store's tables")
}
