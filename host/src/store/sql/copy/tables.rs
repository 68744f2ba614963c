//! What a copy moves and how it proves it: every table of the schema with
//! its columns and key order, values read and written whatever their type,
//! and a digest of a table's rows that both databases compute alike.

use sha2::{Digest as _, Sha256};

use super::super::db::{
    Connection, Dialect, Field, FromSql, OptionalExtension, ToSql, Value, params,
};
use crate::store::Result;
use crate::store::sql::Context;

/// One table: its columns, and the key its rows are read in.
pub(super) struct Table {
    pub name: &'static str,
    pub columns: &'static [&'static str],
    /// Key columns, each with whether it is text: text orders by bytes on
    /// both databases (SQLite's default, `COLLATE "C"` on PostgreSQL), so
    /// that both read the rows in one order.
    pub key: &'static [(&'static str, bool)],
}

const T: bool = true;
const I: bool = false;

/// Every table of the schema, parents before the tables that refer to them.
/// `rowid` is SQLite's implicit rowid, an explicit column on PostgreSQL:
/// it orders runs, approvals and inbox events made in the same millisecond.
/// [`check_schema`] refuses a store whose tables differ from these.
pub(super) const TABLES: &[Table] = &[
    Table {
        name: "agents",
        columns: &[
            "name",
            "version",
            "digest",
            "description",
            "requested_tools",
            "granted_tools",
            "size",
            "deployed_at",
            "owner",
            "deployed_by",
        ],
        key: &[("digest", T)],
    },
    Table {
        name: "components",
        columns: &["digest", "bytes"],
        key: &[("digest", T)],
    },
    Table {
        name: "runs",
        columns: &[
            "rowid",
            "run_id",
            "agent",
            "version",
            "digest",
            "status",
            "status_text",
            "state",
            "outcome",
            "wake_when",
            "waits",
            "steps",
            "fuel_used",
            "step_budget",
            "fuel_budget",
            "tokens_used",
            "token_budget",
            "usd_used",
            "usd_budget",
            "attempts",
            "last_error",
            "retry_at",
            "input",
            "created_at",
            "updated_at",
            "pending_wake",
            "lease_owner",
            "lease_expires",
            "epoch",
            "incarnation",
            "broadcast_floor",
            "held_by",
        ],
        key: &[("run_id", T)],
    },
    Table {
        name: "checkpoints",
        columns: &[
            "run_id",
            "seq",
            "version",
            "wake",
            "upgraded_from",
            "state",
            "next",
            "status_text",
            "fuel_used",
            "at",
            "state_is_edit",
        ],
        key: &[("run_id", T), ("seq", I)],
    },
    Table {
        name: "waits",
        columns: &["run_id", "pos", "kind", "key", "due_at", "wait"],
        key: &[("run_id", T), ("pos", I)],
    },
    Table {
        name: "inbox",
        columns: &[
            "rowid",
            "run_id",
            "event_id",
            "topic",
            "payload",
            "received_at",
            "consumed_at_step",
        ],
        key: &[("rowid", I)],
    },
    Table {
        name: "approvals",
        columns: &[
            "rowid",
            "run_id",
            "id",
            "question",
            "details",
            "details_digest",
            "token",
            "requested_at",
            "expires_at",
            "answered",
            "approved",
            "answered_by",
            "answered_at",
            "comment",
            "consumed",
            "expiry_delivered",
            "votes",
            "used_calls",
            "answered_said",
        ],
        key: &[("run_id", T), ("id", T)],
    },
    Table {
        name: "ledger",
        columns: &[
            "run_id",
            "key",
            "tool",
            "args",
            "result",
            "at",
            "args_digest",
        ],
        key: &[("run_id", T), ("key", T)],
    },
    Table {
        name: "intents",
        columns: &[
            "run_id",
            "key",
            "tool",
            "args",
            "args_digest",
            "epoch",
            "at",
        ],
        key: &[("run_id", T), ("key", T)],
    },
    Table {
        name: "callbacks",
        columns: &[
            "token",
            "run_id",
            "id",
            "topic",
            "created_at",
            "expires_at",
            "used_at",
            "used_from",
        ],
        key: &[("token", T)],
    },
    Table {
        name: "kv",
        columns: &["key", "value", "version"],
        key: &[("key", T)],
    },
    Table {
        name: "leases",
        columns: &["resource", "holder", "expires_at"],
        key: &[("resource", T)],
    },
    Table {
        name: "switches",
        columns: &["scope", "reason", "at"],
        key: &[("scope", T)],
    },
    Table {
        name: "audit",
        columns: &["id", "at", "run_id", "kind", "data"],
        key: &[("id", I)],
    },
    Table {
        name: "run_archives",
        columns: &["run_id", "first_audit_id", "last_audit_id", "span", "data"],
        key: &[("run_id", T)],
    },
    Table {
        name: "unpacked_runs",
        columns: &["run_id"],
        key: &[("run_id", T)],
    },
    Table {
        name: "schedules",
        columns: &[
            "id",
            "agent",
            "cron",
            "input",
            "overlap",
            "next_at",
            "last_run_id",
            "created_at",
        ],
        key: &[("id", T)],
    },
    Table {
        name: "broadcasts",
        columns: &[
            "id",
            "topic",
            "event_id",
            "payload",
            "received_at",
            "expires_at",
        ],
        key: &[("id", I)],
    },
    Table {
        name: "retired_runs",
        columns: &[
            "run_id",
            "agent",
            "version",
            "status",
            "created_at",
            "ended_at",
            "pruned_at",
        ],
        key: &[("run_id", T)],
    },
    Table {
        name: "hosts",
        columns: &[
            "id",
            "kind",
            "listen",
            "started_at",
            "heartbeat_at",
            "stopped_at",
        ],
        key: &[("id", T)],
    },
    Table {
        name: "principal_sessions",
        columns: &["name", "generation", "secret"],
        key: &[("name", T)],
    },
];

/// Columns whose values a database hands out itself: `(table, column)`.
/// Their counters must end past every value copied, and past every value
/// ever handed out: a broadcast id deleted with its expired broadcast
/// may still be some run's `broadcast_floor`, so it is never given again.
pub(super) const IDENTITIES: &[(&str, &str)] = &[
    ("runs", "rowid"),
    ("inbox", "rowid"),
    ("approvals", "rowid"),
    ("audit", "id"),
    ("broadcasts", "id"),
];

impl Table {
    /// Every row, in key order.
    pub fn select_sql(&self, dialect: Dialect) -> String {
        let collate = match dialect {
            Dialect::Sqlite => "",
            Dialect::Postgres => " COLLATE \"C\"",
        };
        let order: Vec<String> = self
            .key
            .iter()
            .map(|(column, text)| match text {
                true => format!("{column}{collate}"),
                false => column.to_string(),
            })
            .collect();
        format!(
            "SELECT {} FROM {} ORDER BY {}",
            self.columns.join(", "),
            self.name,
            order.join(", ")
        )
    }

    /// One statement inserting `rows` rows.
    pub fn insert_sql(&self, rows: usize) -> String {
        let n = self.columns.len();
        let values: Vec<String> = (0..rows)
            .map(|r| {
                let row: Vec<String> = (1..=n).map(|c| format!("?{}", r * n + c)).collect();
                format!("({})", row.join(", "))
            })
            .collect();
        format!(
            "INSERT INTO {} ({}) VALUES {}",
            self.name,
            self.columns.join(", "),
            values.join(", ")
        )
    }

    /// How many rows one insert carries: many, to save round trips to
    /// PostgreSQL, within both databases' limit on placeholders (SQLite's
    /// is 32766).
    pub fn batch_rows(&self) -> usize {
        (30_000 / self.columns.len()).min(500)
    }
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

/// The highest value the database has handed out for an identity column,
/// which may be above the highest one left in the table; `None` when the
/// database keeps no such record (SQLite's plain rowids: the next is the
/// highest left plus one).
pub(super) fn high_water(conn: &Connection, table: &str, column: &str) -> Result<Option<i64>> {
    let read = match conn.dialect() {
        // Kept for AUTOINCREMENT tables only, and only once one had a row.
        Dialect::Sqlite => conn
            .query_row(
                "SELECT seq FROM sqlite_sequence WHERE name = ?1",
                params![table],
                |row| row.get(0),
            )
            .optional()
            .map(Option::flatten),
        Dialect::Postgres => conn.query_row(
            "SELECT pg_sequence_last_value(pg_get_serial_sequence(?1, ?2)::regclass)",
            params![table, column],
            |row| row.get(0),
        ),
    };
    read.ctx_with(|| format!("reading the counter of {table}.{column}"))
}

/// Moves the target's counter for an identity column past the values
/// copied and past `high_water`, so that the next row gets a new value.
pub(super) fn set_counter(
    conn: &Connection,
    table: &str,
    column: &str,
    high_water: Option<i64>,
) -> Result<()> {
    let what = || format!("setting the counter of {table}.{column}");
    match conn.dialect() {
        Dialect::Postgres => conn
            .query_row(
                &format!(
                    "SELECT setval(pg_get_serial_sequence(?1, ?2)::regclass, \
                     GREATEST((SELECT COALESCE(MAX({column}), 0) FROM {table}), ?3) + 1, false)"
                ),
                params![table, column, high_water.unwrap_or(0)],
                |_| Ok(()),
            )
            .ctx_with(what),
        // SQLite gives max(rowid) + 1 by itself, and records the highest
        // id inserted in an AUTOINCREMENT table; only a higher mark the
        // source kept is carried over.
        Dialect::Sqlite => {
            let Some(mark) = high_water else {
                return Ok(());
            };
            let updated = conn
                .prepare_cached("UPDATE sqlite_sequence SET seq = MAX(seq, ?2) WHERE name = ?1")
                .and_then(|mut stmt| stmt.execute(params![table, mark]))
                .ctx_with(what)?;
            if updated == 0 {
                conn.prepare_cached("INSERT INTO sqlite_sequence (name, seq) VALUES (?1, ?2)")
                    .and_then(|mut stmt| stmt.execute(params![table, mark]))
                    .ctx_with(what)?;
            }
            Ok(())
        }
    }
}

/// One value of any column, as read from either database.
#[derive(Debug)]
pub(super) enum Cell {
    Null,
    Int(i64),
    Real(f64),
    Text(String),
    Blob(Vec<u8>),
}

impl FromSql for Cell {
    fn from_cell(cell: Field<'_>) -> Result<Self, String> {
        Ok(match cell {
            Field::Null => Cell::Null,
            Field::Int(i) => Cell::Int(i),
            Field::Real(f) => Cell::Real(f),
            Field::Text(t) => Cell::Text(t.to_string()),
            Field::Blob(b) => Cell::Blob(b.to_vec()),
        })
    }
}

impl Cell {
    /// Roughly the bytes the value takes, to bound what a batch holds.
    pub fn size(&self) -> usize {
        match self {
            Cell::Text(t) => t.len(),
            Cell::Blob(b) => b.len(),
            _ => 8,
        }
    }
}

impl ToSql for Cell {
    fn to_value(&self) -> Value<'_> {
        match self {
            Cell::Null => Value::Null,
            Cell::Int(i) => Value::Int(*i),
            Cell::Real(f) => Value::Real(*f),
            Cell::Text(t) => Value::Text(t),
            Cell::Blob(b) => Value::Blob(b),
        }
    }
}

/// A table's row count and SHA-256 over its rows in key order, each value
/// rendered canonically with its type: `N` (NULL), `I` and the integer in
/// decimal, `R` and the real's shortest exact decimal, `T`, the text's
/// length in bytes and the text, `B` and the blob in hex. The same rows
/// give the same digest on both databases.
pub(super) struct Digest {
    pub rows: u64,
    hasher: Sha256,
}

impl Digest {
    pub fn new() -> Digest {
        Digest {
            rows: 0,
            hasher: Sha256::new(),
        }
    }

    pub fn add(&mut self, row: &[Cell]) {
        for cell in row {
            match cell {
                Cell::Null => self.hasher.update(b"N;"),
                Cell::Int(i) => self.hasher.update(format!("I{i};")),
                Cell::Real(f) => self.hasher.update(format!("R{f:?};")),
                Cell::Text(t) => {
                    self.hasher.update(format!("T{}:", t.len()));
                    self.hasher.update(t.as_bytes());
                    self.hasher.update(b";");
                }
                Cell::Blob(b) => {
                    self.hasher.update(b"B");
                    self.hasher.update(hex::encode(b));
                    self.hasher.update(b";");
                }
            }
        }
        self.hasher.update(b"\n");
        self.rows += 1;
    }

    pub fn finish(self) -> (u64, String) {
        (self.rows, hex::encode(self.hasher.finalize()))
    }
}

/// The count and digest of every row of `table` on `conn`, read in key
/// order.
pub(super) fn digest(conn: &Connection, table: &Table) -> Result<(u64, String)> {
    let mut digest = Digest::new();
    conn.prepare_cached(&table.select_sql(conn.dialect()))
        .and_then(|mut stmt| {
            stmt.for_each(params![], |row| {
                digest.add(&read_row(row, table.columns.len())?);
                Ok(())
            })?
        })
        .ctx_with(|| format!("reading table {}", table.name))?;
    Ok(digest.finish())
}

pub(super) fn read_row(
    row: &super::super::db::Row<'_>,
    columns: usize,
) -> super::super::db::Result<Vec<Cell>> {
    (0..columns).map(|i| row.get(i)).collect()
}
