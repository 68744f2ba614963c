//! Prepared statements over either database.

use super::Error;
use super::pg::{pg_args, pg_refs};
use super::{OptionalExtension, Params, Pg, Result, Row};

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

    /// Hands each row to `f` as it arrives, holding one row at a time:
    /// for reads larger than memory should hold (copying a whole store).
    /// Stops at the first error of `f`, which is returned inside: the outer
    /// error is the database's. `f` must not use this statement's
    /// connection, which is busy until the last row.
    pub fn for_each<E>(
        &mut self,
        params: impl Params,
        mut f: impl FnMut(&Row<'_>) -> Result<(), E>,
    ) -> Result<Result<(), E>> {
        params.with_values(|values| match self {
            Statement::Sqlite(stmt) => {
                let mut rows = stmt.query(rusqlite::params_from_iter(values))?;
                while let Some(row) = rows.next()? {
                    if let Err(e) = f(&Row::Sqlite(row)) {
                        return Ok(Err(e));
                    }
                }
                Ok(Ok(()))
            }
            Statement::Postgres(pg, stmt, _) => {
                use postgres::fallible_iterator::FallibleIterator;
                let args = pg_args(values);
                let mut failed = None;
                pg.run(|client| {
                    let mut rows = client.query_raw(&*stmt, pg_refs(&args))?;
                    while let Some(row) = rows.next()? {
                        if let Err(e) = f(&Row::Postgres(&row)) {
                            failed = Some(e);
                            break;
                        }
                    }
                    Ok(())
                })?;
                Ok(failed.map_or(Ok(()), Err))
            }
        })
    }

    /// Whether the statement returns at least one row.
    pub fn exists(&mut self, params: impl Params) -> Result<bool> {
        self.query_row(params, |_| Ok(()))
            .optional()
            .map(|r| r.is_some())
    }
}
