//! The PostgreSQL side of the interface: running statements on the
//! client (and connecting again after a lost connection), SQLite-style
//! SQL rewritten for PostgreSQL, values bound by the type PostgreSQL
//! expects.

use postgres::types::{IsNull, ToSql as PgToSql, Type, to_sql_checked};

use super::{Error, Pg, Result, ToSql, Value};

impl Pg {
    /// A prepared statement for SQLite-style `sql`, from this connection's
    /// cache.
    pub(super) fn prepare(&self, sql: &str) -> Result<postgres::Statement> {
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
    pub(super) fn lost_outside_transaction(&self) -> bool {
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
    pub(super) fn again_if_lost<T>(
        &self,
        stmt: &postgres::Statement,
        sql: &str,
        mut f: impl FnMut(&mut postgres::Client, &postgres::Statement) -> Result<T, postgres::Error>,
    ) -> Result<T> {
        match self.run(|client| f(client, stmt)) {
            Err(e) if self.lost_outside_transaction() || prepared_elsewhere(&e) => {
                let fresh = self.prepare(sql)?;
                self.run(|client| f(client, &fresh))
            }
            outcome => outcome,
        }
    }

    /// Refreshes the planner's statistics of the tables that changed much
    /// since they were last analyzed, when no other host is doing it.
    /// Autovacuum does it within a minute or so; claims planned on a table
    /// analyzed while it was nearly empty pick plans whose cost grows with
    /// the square of the waiting runs meanwhile. Returns the tables
    /// analyzed.
    pub(super) fn refresh_statistics(&self) -> Result<Vec<String>> {
        const LOCK: i64 = 0x7761_6b65_6675_6c03;
        let locked = self.run(|client| {
            client
                .query_one("SELECT pg_try_advisory_lock($1)", &[&LOCK])
                .map(|row| row.get::<_, bool>(0))
        })?;
        if !locked {
            return Ok(Vec::new());
        }
        let analyzed = self.run(|client| {
            let stale: Vec<String> = client
                .query(
                    "SELECT relname::text FROM pg_stat_user_tables \
                     WHERE schemaname = current_schema() \
                     AND n_mod_since_analyze > GREATEST(200, n_live_tup / 10)",
                    &[],
                )?
                .iter()
                .map(|row| row.get(0))
                .collect();
            for table in &stale {
                client.batch_execute(&format!("ANALYZE \"{}\"", table.replace('"', "")))?;
            }
            Ok(stale)
        });
        let unlocked = self.run(|client| {
            client
                .execute("SELECT pg_advisory_unlock($1)", &[&LOCK])
                .map(drop)
        });
        let analyzed = analyzed?;
        unlocked?;
        Ok(analyzed)
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
    pub(super) fn run<T>(
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

/// A statement prepared on a connection that was since replaced: the
/// connection was opened again just before it ran.
fn prepared_elsewhere(e: &Error) -> bool {
    matches!(e, Error::Postgres(e)
        if e.code() == Some(&postgres::error::SqlState::INVALID_SQL_STATEMENT_NAME))
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

pub(super) fn pg_args<'a>(values: &'a [&'a dyn ToSql]) -> Vec<Value<'a>> {
    values.iter().map(|v| v.to_value()).collect()
}

pub(super) fn pg_refs<'a>(args: &'a [Value<'a>]) -> Vec<&'a (dyn PgToSql + Sync)> {
    args.iter().map(|a| a as &(dyn PgToSql + Sync)).collect()
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
