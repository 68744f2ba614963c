//! The tables a copy moves: every table of the schema with its columns
//! and key order, and the counters of the columns whose values a database
//! hands out itself.

use super::super::db::{Connection, Dialect, OptionalExtension, params};
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
/// [`check_schema`](super::checks::check_schema) refuses a store whose tables differ from these.
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
