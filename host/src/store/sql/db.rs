//! One small SQL interface over the two databases the store runs on, so
//! that the store's logic and its SQL are written once.
//!
//! It mirrors the part of rusqlite's API the store uses (`prepare_cached`,
//! `execute`, `query_row`, `query_map`, `exists`, `optional`, `params!`).
//! Statements are written with SQLite's `?N` placeholders in SQL both
//! databases accept; on PostgreSQL they are rewritten to `$N` once and kept
//! prepared per connection.
//!
//! Transactions keep SQLite's meaning on PostgreSQL: SQLite runs one writer
//! at a time (`BEGIN IMMEDIATE`), so the store's read-then-write logic was
//! written for serial execution. PostgreSQL runs each write transaction
//! `SERIALIZABLE`, which promises the same outcome as some serial order, and
//! [`write`] runs a transaction again when PostgreSQL aborts it for a
//! conflict with a concurrent one (nothing of the aborted attempt remains).

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::time::Duration;

use postgres::types::{IsNull, ToSql as PgToSql, Type, to_sql_checked};

use crate::store::{Result as StoreResult, StoreError};

/// An error from either database, or a value that does not fit its type.
#[derive(Debug)]
pub enum Error {
    Sqlite(rusqlite::Error),
    Postgres(postgres::Error),
    /// `query_row` found no row (see [`OptionalExtension`]).
    NoRows,
    /// A value that cannot be stored or read as the type asked for.
    Conversion(String),
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Sqlite(e) => write!(f, "{e}"),
            // `postgres::Error`'s own text is only "db error"; the server's
            // message, detail and hint are what an operator can act on.
            Error::Postgres(e) => match e.as_db_error() {
                Some(db) => {
                    write!(f, "{}: {}", db.severity(), db.message())?;
                    if let Some(detail) = db.detail() {
                        write!(f, " ({detail})")?;
                    }
                    if let Some(hint) = db.hint() {
                        write!(f, "; hint: {hint}")?;
                    }
                    Ok(())
                }
                None => write!(f, "{e}"),
            },
            Error::NoRows => write!(f, "the query returned no row"),
            Error::Conversion(what) => write!(f, "{what}"),
        }
    }
}

impl std::error::Error for Error {}

impl From<rusqlite::Error> for Error {
    fn from(e: rusqlite::Error) -> Error {
        match e {
            rusqlite::Error::QueryReturnedNoRows => Error::NoRows,
            e => Error::Sqlite(e),
        }
    }
}

impl From<postgres::Error> for Error {
    fn from(e: postgres::Error) -> Error {
        Error::Postgres(e)
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

/// `query_row(...).optional()`: no row is `None`, not an error.
pub trait OptionalExtension<T> {
    fn optional(self) -> Result<Option<T>>;
}

impl<T> OptionalExtension<T> for Result<T> {
    fn optional(self) -> Result<Option<T>> {
        match self {
            Ok(v) => Ok(Some(v)),
            Err(Error::NoRows) => Ok(None),
            Err(e) => Err(e),
        }
    }
}

/// Which database a connection talks to, for the few statements that must
/// be written differently.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    Sqlite,
    Postgres,
}

/// One connection to the store's database.
pub struct Connection {
    backend: Backend,
}

enum Backend {
    Sqlite(rusqlite::Connection),
    Postgres(Box<Pg>),
}

pub struct Pg {
    /// `None` only while being dropped.
    client: RefCell<Option<postgres::Client>>,
    /// To connect again after the connection was lost.
    config: postgres::Config,
    /// Whether a transaction is open on the connection.
    in_transaction: Cell<bool>,
    /// Prepared statements by their SQLite-style text.
    statements: RefCell<HashMap<String, postgres::Statement>>,
    /// Set when PostgreSQL aborted the transaction for a conflict with a
    /// concurrent one: [`write`] runs it again.
    conflicted: Cell<bool>,
}

impl Connection {
    pub fn sqlite(conn: rusqlite::Connection) -> Connection {
        Connection {
            backend: Backend::Sqlite(conn),
        }
    }

    pub fn postgres(client: postgres::Client, config: postgres::Config) -> Connection {
        Connection {
            backend: Backend::Postgres(Box::new(Pg {
                client: RefCell::new(Some(client)),
                config,
                in_transaction: Cell::new(false),
                statements: RefCell::new(HashMap::new()),
                conflicted: Cell::new(false),
            })),
        }
    }

    pub fn dialect(&self) -> Dialect {
        match self.backend {
            Backend::Sqlite(_) => Dialect::Sqlite,
            Backend::Postgres(_) => Dialect::Postgres,
        }
    }

    /// The SQLite connection, for what only SQLite has (pragmas, backups).
    pub fn as_sqlite(&self) -> Option<&rusqlite::Connection> {
        match &self.backend {
            Backend::Sqlite(c) => Some(c),
            Backend::Postgres(_) => None,
        }
    }

    /// Runs statements without parameters or results (schema changes,
    /// transaction control).
    pub fn execute_batch(&self, sql: &str) -> Result<()> {
        match &self.backend {
            Backend::Sqlite(c) => Ok(c.execute_batch(sql)?),
            Backend::Postgres(pg) => pg.run(|client| client.batch_execute(sql)),
        }
    }

    pub fn prepare_cached(&self, sql: &str) -> Result<Statement<'_>> {
        match &self.backend {
            Backend::Sqlite(c) => Ok(Statement::Sqlite(c.prepare_cached(sql)?)),
            Backend::Postgres(pg) => {
                let stmt = match pg.prepare(sql) {
                    Err(_) if pg.lost_outside_transaction() => pg.prepare(sql)?,
                    prepared => prepared?,
                };
                Ok(Statement::Postgres(pg, stmt, sql.to_string()))
            }
        }
    }

    pub fn prepare(&self, sql: &str) -> Result<Statement<'_>> {
        self.prepare_cached(sql)
    }

    pub fn query_row<T>(
        &self,
        sql: &str,
        params: impl Params,
        f: impl FnOnce(&Row<'_>) -> Result<T>,
    ) -> Result<T> {
        self.prepare_cached(sql)?.query_row(params, f)
    }

    /// Tells the hosts listening on this database that a run may have a
    /// wake now, when the transaction commits (PostgreSQL `NOTIFY` is
    /// transactional: an aborted one sends nothing). A no-op on SQLite,
    /// whose processes share one machine and re-check on an interval.
    pub fn notify_wake(&self) -> Result<()> {
        match &self.backend {
            Backend::Sqlite(_) => Ok(()),
            Backend::Postgres(_) => self
                .prepare_cached("SELECT pg_notify('wakeful_wake', '')")?
                .query_row(params![], |_| Ok(())),
        }
    }

    fn set_in_transaction(&self, open: bool) {
        if let Backend::Postgres(pg) = &self.backend {
            pg.in_transaction.set(open);
        }
    }

    /// Whether the last failure was PostgreSQL aborting the transaction
    /// for a conflict; reading it clears it.
    fn take_conflict(&self) -> bool {
        match &self.backend {
            Backend::Sqlite(_) => false,
            Backend::Postgres(pg) => pg.conflicted.replace(false),
        }
    }
}

impl Pg {
    /// A prepared statement for SQLite-style `sql`, from this connection's
    /// cache.
    fn prepare(&self, sql: &str) -> Result<postgres::Statement> {
        if let Some(stmt) = self.statements.borrow().get(sql) {
            return Ok(stmt.clone());
        }
        let stmt = self.run(|client| client.prepare(&postgres_sql(sql)))?;
        self.statements
            .borrow_mut()
            .insert(sql.to_string(), stmt.clone());
        Ok(stmt)
    }

    /// Whether the connection was lost while no transaction was open: a
    /// read or a lone statement can then simply be sent again.
    fn lost_outside_transaction(&self) -> bool {
        let closed = self
            .client
            .borrow()
            .as_ref()
            .is_none_or(|client| client.is_closed());
        if closed && !self.in_transaction.get() {
            self.conflicted.set(false);
            return true;
        }
        false
    }

    /// Runs `f` with `stmt`; when the connection was lost outside a
    /// transaction, once more on a new connection with `sql` prepared
    /// again.
    fn again_if_lost<T>(
        &self,
        stmt: &postgres::Statement,
        sql: &str,
        mut f: impl FnMut(&mut postgres::Client, &postgres::Statement) -> Result<T, postgres::Error>,
    ) -> Result<T> {
        match self.run(|client| f(client, stmt)) {
            Err(_) if self.lost_outside_transaction() => {
                let fresh = self.prepare(sql)?;
                self.run(|client| f(client, &fresh))
            }
            outcome => outcome,
        }
    }

    /// Runs `f` on the client, noting on the way out a failure after which
    /// the whole transaction can be run again: a serialization failure, a
    /// deadlock, or a lost connection (the server restarted; nothing of an
    /// uncommitted transaction survives it).
    ///
    /// A lost connection is opened again before the next statement, with
    /// its prepared statements forgotten. The one doubt it leaves is a
    /// COMMIT whose answer was lost: run again, the transaction meets its
    /// own effects and is refused by the same checks (fencing epochs,
    /// existing ids) that refuse any repeated write.
    fn run<T>(
        &self,
        f: impl FnOnce(&mut postgres::Client) -> Result<T, postgres::Error>,
    ) -> Result<T> {
        let mut guard = self.client.borrow_mut();
        let client = guard
            .as_mut()
            .expect("the client lives as long as the connection");
        if client.is_closed() {
            if self.in_transaction.get() {
                // The transaction died with the connection.
                self.conflicted.set(true);
                return Err(Error::Conversion(
                    "the connection to PostgreSQL was lost in a transaction".into(),
                ));
            }
            *client = self.config.connect(postgres::NoTls)?;
            self.statements.borrow_mut().clear();
        }
        let result = f(client);
        result.map_err(|e| {
            let retry = client.is_closed()
                || e.code().is_some_and(|code| {
                    *code == postgres::error::SqlState::T_R_SERIALIZATION_FAILURE
                        || *code == postgres::error::SqlState::T_R_DEADLOCK_DETECTED
                        || *code == postgres::error::SqlState::ADMIN_SHUTDOWN
                });
            if retry {
                self.conflicted.set(true);
            }
            Error::Postgres(e)
        })
    }
}

/// A statement as PostgreSQL reads it: `?N` placeholders as `$N`, and
/// SQLite's `CROSS JOIN … ON` (a join whose order SQLite's planner keeps,
/// used to read the small index first) as a plain `JOIN … ON`, which
/// PostgreSQL's planner orders itself.
fn postgres_sql(sql: &str) -> String {
    dollar_placeholders(sql).replace("CROSS JOIN", "JOIN")
}

/// The synchronous client closes its connection by blocking on its own
/// runtime, which tokio forbids on a thread that drives async tasks (the
/// API's last reference to a store may go there); such a drop is moved to
/// a thread of its own.
impl Drop for Pg {
    fn drop(&mut self) {
        if let Some(client) = self.client.get_mut().take()
            && tokio::runtime::Handle::try_current().is_ok()
        {
            let _ = std::thread::Builder::new()
                .name("pg-close".into())
                .spawn(move || drop(client));
        }
    }
}

/// `?1`, `?2` … as PostgreSQL's `$1`, `$2` …, outside string literals.
fn dollar_placeholders(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len());
    let mut in_string = false;
    for c in sql.chars() {
        match c {
            '\'' => {
                in_string = !in_string;
                out.push(c);
            }
            '?' if !in_string => out.push('$'),
            c => out.push(c),
        }
    }
    out
}

/// A prepared statement.
pub enum Statement<'c> {
    Sqlite(rusqlite::CachedStatement<'c>),
    /// With its SQLite-style text, to prepare it again on a new connection.
    Postgres(&'c Pg, postgres::Statement, String),
}

impl Statement<'_> {
    /// Runs the statement; returns how many rows it changed.
    pub fn execute(&mut self, params: impl Params) -> Result<usize> {
        params.with_values(|values| match self {
            Statement::Sqlite(stmt) => Ok(stmt.execute(rusqlite::params_from_iter(values))?),
            Statement::Postgres(pg, stmt, sql) => {
                let args = pg_args(values);
                let n = pg.again_if_lost(stmt, sql, |client, stmt| {
                    client.execute(stmt, &pg_refs(&args))
                })?;
                Ok(n as usize)
            }
        })
    }

    /// The first row, mapped by `f`; [`Error::NoRows`] when there is none.
    pub fn query_row<T>(
        &mut self,
        params: impl Params,
        f: impl FnOnce(&Row<'_>) -> Result<T>,
    ) -> Result<T> {
        params.with_values(|values| match self {
            Statement::Sqlite(stmt) => {
                let mut rows = stmt.query(rusqlite::params_from_iter(values))?;
                match rows.next()? {
                    Some(row) => f(&Row::Sqlite(row)),
                    None => Err(Error::NoRows),
                }
            }
            Statement::Postgres(pg, stmt, sql) => {
                let args = pg_args(values);
                let row = pg.again_if_lost(stmt, sql, |client, stmt| {
                    client.query_opt(stmt, &pg_refs(&args))
                })?;
                match row {
                    Some(row) => f(&Row::Postgres(&row)),
                    None => Err(Error::NoRows),
                }
            }
        })
    }

    /// Every row, mapped by `f`, read before this returns.
    pub fn query_map<T>(
        &mut self,
        params: impl Params,
        mut f: impl FnMut(&Row<'_>) -> Result<T>,
    ) -> Result<std::vec::IntoIter<Result<T>>> {
        params.with_values(|values| {
            let mut out = Vec::new();
            match self {
                Statement::Sqlite(stmt) => {
                    let mut rows = stmt.query(rusqlite::params_from_iter(values))?;
                    while let Some(row) = rows.next()? {
                        out.push(f(&Row::Sqlite(row)));
                    }
                }
                Statement::Postgres(pg, stmt, sql) => {
                    let args = pg_args(values);
                    let rows = pg.again_if_lost(stmt, sql, |client, stmt| {
                        client.query(stmt, &pg_refs(&args))
                    })?;
                    out.extend(rows.iter().map(|row| f(&Row::Postgres(row))));
                }
            }
            Ok(out.into_iter())
        })
    }

    /// Whether the statement returns at least one row.
    pub fn exists(&mut self, params: impl Params) -> Result<bool> {
        self.query_row(params, |_| Ok(()))
            .optional()
            .map(|r| r.is_some())
    }
}

fn pg_args<'a>(values: &'a [&'a dyn ToSql]) -> Vec<Value<'a>> {
    values.iter().map(|v| v.to_value()).collect()
}

fn pg_refs<'a>(args: &'a [Value<'a>]) -> Vec<&'a (dyn PgToSql + Sync)> {
    args.iter().map(|a| a as &(dyn PgToSql + Sync)).collect()
}

/// One row of a result.
pub enum Row<'r> {
    Sqlite(&'r rusqlite::Row<'r>),
    Postgres(&'r postgres::Row),
}

impl Row<'_> {
    /// Column `idx` (a position or a name) as a `T`.
    pub fn get<I: RowIndex, T: FromSql>(&self, idx: I) -> Result<T> {
        let cell = match self {
            Row::Sqlite(row) => {
                let i = idx.sqlite_index(row)?;
                Field::from_sqlite(row.get_ref(i)?)?
            }
            Row::Postgres(row) => {
                let i = idx.postgres_index(row)?;
                Field::from_postgres(row, i)?
            }
        };
        T::from_cell(cell)
            .map_err(|why| Error::Conversion(format!("column {}: {why}", idx.describe())))
    }
}

/// A column by position or by name.
pub trait RowIndex {
    fn sqlite_index(&self, row: &rusqlite::Row<'_>) -> Result<usize>;
    fn postgres_index(&self, row: &postgres::Row) -> Result<usize>;
    fn describe(&self) -> String;
}

impl RowIndex for usize {
    fn sqlite_index(&self, _: &rusqlite::Row<'_>) -> Result<usize> {
        Ok(*self)
    }

    fn postgres_index(&self, row: &postgres::Row) -> Result<usize> {
        if *self < row.len() {
            Ok(*self)
        } else {
            Err(Error::Conversion(format!("no column {self}")))
        }
    }

    fn describe(&self) -> String {
        self.to_string()
    }
}

impl RowIndex for &str {
    fn sqlite_index(&self, row: &rusqlite::Row<'_>) -> Result<usize> {
        Ok(row.as_ref().column_index(self)?)
    }

    fn postgres_index(&self, row: &postgres::Row) -> Result<usize> {
        row.columns()
            .iter()
            .position(|c| c.name().eq_ignore_ascii_case(self))
            .ok_or_else(|| Error::Conversion(format!("no column named {self}")))
    }

    fn describe(&self) -> String {
        self.to_string()
    }
}

/// A value read from a column, before it becomes a Rust type.
pub enum Field<'a> {
    Null,
    Int(i64),
    Real(f64),
    Text(&'a str),
    Blob(&'a [u8]),
}

impl<'a> Field<'a> {
    fn from_sqlite(value: rusqlite::types::ValueRef<'a>) -> Result<Field<'a>> {
        use rusqlite::types::ValueRef;
        Ok(match value {
            ValueRef::Null => Field::Null,
            ValueRef::Integer(i) => Field::Int(i),
            ValueRef::Real(f) => Field::Real(f),
            ValueRef::Text(t) => Field::Text(
                std::str::from_utf8(t)
                    .map_err(|e| Error::Conversion(format!("text that is not UTF-8: {e}")))?,
            ),
            ValueRef::Blob(b) => Field::Blob(b),
        })
    }

    /// Reads by the column's type: the store's schema has BIGINT, DOUBLE
    /// PRECISION, TEXT and BYTEA columns, and expressions such as
    /// `COUNT(*)` or `1` add INT4 and BOOL.
    fn from_postgres(row: &'a postgres::Row, i: usize) -> Result<Field<'a>> {
        let ty = row.columns()[i].type_().clone();
        let cell = if ty == Type::INT8 {
            row.try_get::<_, Option<i64>>(i)?.map(Field::Int)
        } else if ty == Type::INT4 {
            row.try_get::<_, Option<i32>>(i)?
                .map(|v| Field::Int(v.into()))
        } else if ty == Type::INT2 {
            row.try_get::<_, Option<i16>>(i)?
                .map(|v| Field::Int(v.into()))
        } else if ty == Type::FLOAT8 {
            row.try_get::<_, Option<f64>>(i)?.map(Field::Real)
        } else if ty == Type::FLOAT4 {
            row.try_get::<_, Option<f32>>(i)?
                .map(|v| Field::Real(v.into()))
        } else if ty == Type::BOOL {
            row.try_get::<_, Option<bool>>(i)?
                .map(|v| Field::Int(v.into()))
        } else if ty == Type::BYTEA {
            row.try_get::<_, Option<&[u8]>>(i)?.map(Field::Blob)
        } else if ty == Type::TEXT || ty == Type::VARCHAR || ty == Type::BPCHAR || ty == Type::NAME
        {
            row.try_get::<_, Option<&str>>(i)?.map(Field::Text)
        } else {
            return Err(Error::Conversion(format!(
                "column {} has type {ty}, which the store does not read",
                row.columns()[i].name()
            )));
        };
        Ok(cell.unwrap_or(Field::Null))
    }

    fn kind(&self) -> &'static str {
        match self {
            Field::Null => "NULL",
            Field::Int(_) => "an integer",
            Field::Real(_) => "a real number",
            Field::Text(_) => "text",
            Field::Blob(_) => "a blob",
        }
    }
}

/// A Rust type a column can be read as.
pub trait FromSql: Sized {
    fn from_cell(cell: Field<'_>) -> Result<Self, String>;
}

fn wrong(cell: &Field<'_>, want: &str) -> String {
    format!("{} where {want} was expected", cell.kind())
}

impl FromSql for i64 {
    fn from_cell(cell: Field<'_>) -> Result<Self, String> {
        match cell {
            Field::Int(i) => Ok(i),
            other => Err(wrong(&other, "an integer")),
        }
    }
}

macro_rules! from_sql_int {
    ($($t:ty),*) => {$(
        impl FromSql for $t {
            fn from_cell(cell: Field<'_>) -> Result<Self, String> {
                let i = i64::from_cell(cell)?;
                <$t>::try_from(i).map_err(|_| format!("{i} is out of range for {}", stringify!($t)))
            }
        }
    )*};
}
from_sql_int!(u64, i32, u32, usize);

impl FromSql for f64 {
    fn from_cell(cell: Field<'_>) -> Result<Self, String> {
        match cell {
            Field::Real(f) => Ok(f),
            Field::Int(i) => Ok(i as f64),
            other => Err(wrong(&other, "a number")),
        }
    }
}

impl FromSql for bool {
    fn from_cell(cell: Field<'_>) -> Result<Self, String> {
        Ok(i64::from_cell(cell)? != 0)
    }
}

impl FromSql for String {
    fn from_cell(cell: Field<'_>) -> Result<Self, String> {
        match cell {
            Field::Text(t) => Ok(t.to_string()),
            other => Err(wrong(&other, "text")),
        }
    }
}

impl FromSql for Vec<u8> {
    fn from_cell(cell: Field<'_>) -> Result<Self, String> {
        match cell {
            Field::Blob(b) => Ok(b.to_vec()),
            other => Err(wrong(&other, "a blob")),
        }
    }
}

impl<T: FromSql> FromSql for Option<T> {
    fn from_cell(cell: Field<'_>) -> Result<Self, String> {
        match cell {
            Field::Null => Ok(None),
            cell => T::from_cell(cell).map(Some),
        }
    }
}

/// A value bound to a placeholder.
#[derive(Debug)]
pub enum Value<'a> {
    Null,
    Int(i64),
    Real(f64),
    Text(&'a str),
    Blob(&'a [u8]),
    /// A Rust value that no column can hold (an unsigned integer past
    /// `i64::MAX`): binding it fails with this text.
    Invalid(String),
}

/// A Rust value that can be bound to a placeholder.
pub trait ToSql {
    fn to_value(&self) -> Value<'_>;
}

impl ToSql for i64 {
    fn to_value(&self) -> Value<'_> {
        Value::Int(*self)
    }
}

macro_rules! to_sql_small_int {
    ($($t:ty),*) => {$(
        impl ToSql for $t {
            fn to_value(&self) -> Value<'_> {
                Value::Int(i64::from(*self))
            }
        }
    )*};
}
to_sql_small_int!(i32, u32, i16, u16, u8);

macro_rules! to_sql_wide_int {
    ($($t:ty),*) => {$(
        impl ToSql for $t {
            fn to_value(&self) -> Value<'_> {
                match i64::try_from(*self) {
                    Ok(i) => Value::Int(i),
                    Err(_) => Value::Invalid(format!("{self} does not fit a 64-bit signed integer")),
                }
            }
        }
    )*};
}
to_sql_wide_int!(u64, usize);

impl ToSql for f64 {
    fn to_value(&self) -> Value<'_> {
        Value::Real(*self)
    }
}

impl ToSql for bool {
    fn to_value(&self) -> Value<'_> {
        Value::Int(i64::from(*self))
    }
}

impl ToSql for str {
    fn to_value(&self) -> Value<'_> {
        Value::Text(self)
    }
}

impl ToSql for String {
    fn to_value(&self) -> Value<'_> {
        Value::Text(self)
    }
}

impl ToSql for [u8] {
    fn to_value(&self) -> Value<'_> {
        Value::Blob(self)
    }
}

impl ToSql for Vec<u8> {
    fn to_value(&self) -> Value<'_> {
        Value::Blob(self)
    }
}

impl<T: ToSql + ?Sized> ToSql for &T {
    fn to_value(&self) -> Value<'_> {
        (**self).to_value()
    }
}

impl<T: ToSql> ToSql for Option<T> {
    fn to_value(&self) -> Value<'_> {
        match self {
            Some(v) => v.to_value(),
            None => Value::Null,
        }
    }
}

impl rusqlite::ToSql for &dyn ToSql {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        match self.to_value() {
            Value::Null => Ok(rusqlite::types::ToSqlOutput::Owned(
                rusqlite::types::Value::Null,
            )),
            Value::Int(i) => Ok(i.into()),
            Value::Real(f) => Ok(f.into()),
            Value::Text(t) => Ok(t.into()),
            Value::Blob(b) => Ok(b.into()),
            Value::Invalid(why) => Err(rusqlite::Error::ToSqlConversionFailure(why.into())),
        }
    }
}

/// Encoded as the type PostgreSQL expects at the placeholder, so that an
/// integer binds to a BIGINT column and to an INT4 expression alike.
impl PgToSql for Value<'_> {
    fn to_sql(
        &self,
        ty: &Type,
        out: &mut bytes::BytesMut,
    ) -> Result<IsNull, Box<dyn std::error::Error + Sync + Send>> {
        match self {
            Value::Null => Ok(IsNull::Yes),
            Value::Int(i) if *ty == Type::INT8 => i.to_sql(ty, out),
            Value::Int(i) if *ty == Type::INT4 => i32::try_from(*i)?.to_sql(ty, out),
            Value::Int(i) if *ty == Type::INT2 => i16::try_from(*i)?.to_sql(ty, out),
            Value::Int(i) if *ty == Type::BOOL => (*i != 0).to_sql(ty, out),
            Value::Int(i) if *ty == Type::FLOAT8 => (*i as f64).to_sql(ty, out),
            Value::Int(i) if *ty == Type::TEXT || *ty == Type::VARCHAR => {
                i.to_string().as_str().to_sql(ty, out)
            }
            Value::Real(f) if *ty == Type::FLOAT8 => f.to_sql(ty, out),
            Value::Real(f) if *ty == Type::FLOAT4 => (*f as f32).to_sql(ty, out),
            Value::Text(t) => t.to_sql(ty, out),
            Value::Blob(b) => b.to_sql(ty, out),
            Value::Invalid(why) => Err(why.clone().into()),
            other => Err(format!("{other:?} cannot be bound where {ty} is expected").into()),
        }
    }

    fn accepts(_: &Type) -> bool {
        true
    }

    to_sql_checked!();
}

/// The values of one statement's placeholders: `params![a, b]`, or an
/// array of one type such as `[run_id]`.
pub trait Params {
    fn with_values<R>(self, f: impl FnOnce(&[&dyn ToSql]) -> R) -> R;
}

impl Params for &[&dyn ToSql] {
    fn with_values<R>(self, f: impl FnOnce(&[&dyn ToSql]) -> R) -> R {
        f(self)
    }
}

impl<const N: usize> Params for &[&dyn ToSql; N] {
    fn with_values<R>(self, f: impl FnOnce(&[&dyn ToSql]) -> R) -> R {
        f(self)
    }
}

impl<T: ToSql, const N: usize> Params for [T; N] {
    fn with_values<R>(self, f: impl FnOnce(&[&dyn ToSql]) -> R) -> R {
        let refs: Vec<&dyn ToSql> = self.iter().map(|v| v as &dyn ToSql).collect();
        f(&refs)
    }
}

/// `params![a, b, …]`: placeholders of different types.
macro_rules! params {
    () => {
        &[] as &[&dyn $crate::store::sql::db::ToSql]
    };
    ($($param:expr),+ $(,)?) => {
        &[$(&$param as &dyn $crate::store::sql::db::ToSql),+] as &[&dyn $crate::store::sql::db::ToSql]
    };
}
pub(crate) use params;

/// A write transaction; rolled back when dropped without [`commit`].
///
/// [`commit`]: Transaction::commit
pub struct Transaction<'c> {
    conn: &'c Connection,
    open: bool,
}

impl<'c> Transaction<'c> {
    fn begin(conn: &'c Connection) -> Result<Transaction<'c>> {
        conn.execute_batch(match conn.dialect() {
            // Takes the write lock up front, so a transaction never fails
            // halfway on a lock upgrade.
            Dialect::Sqlite => "BEGIN IMMEDIATE",
            Dialect::Postgres => "BEGIN ISOLATION LEVEL SERIALIZABLE",
        })?;
        conn.set_in_transaction(true);
        Ok(Transaction { conn, open: true })
    }

    pub fn commit(mut self) -> Result<()> {
        self.open = false;
        let committed = self.conn.execute_batch("COMMIT");
        self.conn.set_in_transaction(false);
        if committed.is_err() {
            // SQLite keeps the transaction open after a failed COMMIT;
            // PostgreSQL has ended it already and only warns here.
            let _ = self.conn.execute_batch("ROLLBACK");
        }
        committed
    }
}

impl std::ops::Deref for Transaction<'_> {
    type Target = Connection;

    fn deref(&self) -> &Connection {
        self.conn
    }
}

impl Drop for Transaction<'_> {
    fn drop(&mut self) {
        if self.open {
            self.conn.set_in_transaction(false);
            // A connection whose rollback failed is broken; its next
            // statement reports that (or, on PostgreSQL, connects again).
            let _ = self.conn.execute_batch("ROLLBACK");
        }
    }
}

/// How often a transaction that PostgreSQL aborted for a conflict is run
/// again before the conflict is reported.
const CONFLICT_RETRIES: u32 = 100;

/// Runs `f` in one write transaction and commits when it returns `Ok`; an
/// `Err` rolls everything back. A transaction aborted for a conflict with a
/// concurrent one is run again from the start, after a short random pause
/// that keeps two conflicting writers from meeting again.
pub fn write<T>(
    conn: &mut Connection,
    what: &str,
    mut f: impl FnMut(&Transaction<'_>) -> StoreResult<T>,
) -> StoreResult<T> {
    let mut attempt = 0;
    loop {
        // A failure outside this transaction must not make it run again.
        conn.take_conflict();
        let outcome = Transaction::begin(conn)
            .map_err(|e| db_error(&format!("starting a transaction for {what}"), e))
            .and_then(|tx| {
                let value = f(&tx)?;
                tx.commit()
                    .map_err(|e| db_error(&format!("committing {what}"), e))?;
                Ok(value)
            });
        match outcome {
            Err(_) if conn.take_conflict() && attempt < CONFLICT_RETRIES => {
                attempt += 1;
                let pause = rand::random_range(0..=(attempt.min(20) as u64) * 2);
                std::thread::sleep(Duration::from_millis(pause));
            }
            outcome => return outcome,
        }
    }
}

/// Adds what was being done to a database error.
pub trait Context<T> {
    fn ctx(self, what: &str) -> StoreResult<T>;
    fn ctx_with(self, what: impl FnOnce() -> String) -> StoreResult<T>;
}

impl<T> Context<T> for Result<T> {
    fn ctx(self, what: &str) -> StoreResult<T> {
        self.map_err(|e| db_error(what, e))
    }

    fn ctx_with(self, what: impl FnOnce() -> String) -> StoreResult<T> {
        self.map_err(|e| db_error(&what(), e))
    }
}

impl<T> Context<T> for rusqlite::Result<T> {
    fn ctx(self, what: &str) -> StoreResult<T> {
        self.map_err(|e| db_error(what, e.into()))
    }

    fn ctx_with(self, what: impl FnOnce() -> String) -> StoreResult<T> {
        self.map_err(|e| db_error(&what(), e.into()))
    }
}

/// A damaged file is not a passing fault: say so, and what to do.
pub fn db_error(what: &str, e: Error) -> StoreError {
    if let Error::Sqlite(e) = &e {
        match e.sqlite_error_code() {
            Some(rusqlite::ErrorCode::DatabaseCorrupt | rusqlite::ErrorCode::NotADatabase) => {
                return StoreError::Corrupt(format!(
                    "{what}: the data file is damaged ({e}); restore it from a backup \
                     (`wakeful backup`)"
                ));
            }
            Some(rusqlite::ErrorCode::DiskFull) => {
                return StoreError::Db(format!(
                    "{what}: the disk is full ({e}); nothing of this operation was kept: free \
                     space and retry"
                ));
            }
            _ => {}
        }
    }
    StoreError::Db(format!("{what}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::dollar_placeholders;

    #[test]
    fn placeholders_are_rewritten_outside_string_literals_only() {
        assert_eq!(
            dollar_placeholders("SELECT ?1, '?' FROM t WHERE a = ?2 AND b = 'x?y'"),
            "SELECT $1, '?' FROM t WHERE a = $2 AND b = 'x?y'"
        );
    }
}
