//! The database errors both backends give, and the store errors they
//! become with what was being done.

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
