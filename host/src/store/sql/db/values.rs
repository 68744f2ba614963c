//! Values in and out: rows and their columns read as Rust types, Rust
//! values bound to placeholders, and `params!`.

use postgres::types::Type;

use super::{Error, Result};

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

/// A column by position, named for error messages: for rows read in a
/// hot path, where finding a column by its name costs SQLite a call per
/// column before it. Debug builds check that the name is the one at the
/// position, so a select list and its reader cannot drift apart unseen.
impl RowIndex for (usize, &str) {
    fn sqlite_index(&self, row: &rusqlite::Row<'_>) -> Result<usize> {
        debug_assert!(
            row.as_ref()
                .column_name(self.0)
                .is_ok_and(|name| name.eq_ignore_ascii_case(self.1)),
            "column {} is not named {}",
            self.0,
            self.1
        );
        Ok(self.0)
    }

    fn postgres_index(&self, row: &postgres::Row) -> Result<usize> {
        debug_assert!(
            row.columns()
                .get(self.0)
                .is_some_and(|c| c.name().eq_ignore_ascii_case(self.1)),
            "column {} is not named {}",
            self.0,
            self.1
        );
        self.0.postgres_index(row)
    }

    fn describe(&self) -> String {
        self.1.to_string()
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
