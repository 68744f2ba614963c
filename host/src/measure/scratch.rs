//! Where a benchmark keeps its data: a new private temporary directory
//! (the SQLite file and the compiled-component cache), and, when the
//! operator names a PostgreSQL store, a new schema in that database. Both
//! are removed when the benchmark ends; the operator's own data is never
//! opened.

use std::path::PathBuf;

use crate::app::{App, AppError};
use crate::store::is_postgres;

/// A scratch store, removed when dropped.
pub struct Scratch {
    /// The new temporary directory: the SQLite file, the compile cache.
    pub dir: PathBuf,
    /// The store URL the benchmark's apps open: `None` for the SQLite file
    /// in `dir`, else the PostgreSQL URL with the scratch schema first in
    /// its search path.
    pub url: Option<String>,
    /// The PostgreSQL database's own URL and the scratch schema in it.
    schema: Option<(String, String)>,
}

impl Scratch {
    /// A scratch store of the kind `store` names (`None`: SQLite).
    pub fn new(store: Option<&str>) -> Result<Scratch, AppError> {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let tag = format!("{}_{nanos:09}", std::process::id());
        let dir = std::env::temp_dir().join(format!("wakeful-bench-{tag}"));
        crate::app::private_dir(&dir).map_err(|e| {
            AppError::Invalid(format!(
                "cannot create the scratch directory {}: {e}",
                dir.display()
            ))
        })?;
        let mut scratch = Scratch {
            dir,
            url: None,
            schema: None,
        };
        match store {
            None => {}
            Some(url) if is_postgres(url) => {
                let schema = format!("wakeful_bench_{tag}");
                admin(url, &format!("CREATE SCHEMA {schema}"))?;
                let sep = if url.contains('?') { '&' } else { '?' };
                scratch.url = Some(format!("{url}{sep}options=-c%20search_path%3D{schema}"));
                scratch.schema = Some((url.to_string(), schema));
            }
            Some(other) => {
                return Err(AppError::Invalid(format!(
                    "bench measures on a scratch store of its own: give --store a \
                     postgres:// URL (a new schema is made in it) or no --store (a new \
                     SQLite file), not `{}`",
                    crate::store::sql::postgres_shown_url(other)
                )));
            }
        }
        Ok(scratch)
    }

    /// `sqlite` or `postgres`.
    pub fn describe(&self) -> String {
        match &self.schema {
            None => "sqlite".into(),
            Some(_) => "postgres".into(),
        }
    }

    /// Bytes the store takes: the SQLite file and its log, or the scratch
    /// schema's tables with their indexes.
    pub fn bytes(&self, app: &App) -> Result<u64, AppError> {
        match &self.schema {
            None => Ok(["wakeful.db", "wakeful.db-wal"]
                .iter()
                .filter_map(|f| std::fs::metadata(self.dir.join(f)).ok())
                .map(|m| m.len())
                .sum()),
            Some(_) => Ok(app.store.size_bytes()?),
        }
    }
}

/// Runs `sql` on the database `url` names, on a connection of its own.
fn admin(url: &str, sql: &str) -> Result<(), AppError> {
    let shown = crate::store::sql::postgres_shown_url(url);
    let mut client = postgres::Client::connect(url, postgres::NoTls)
        .map_err(|e| AppError::Invalid(format!("cannot connect to {shown}: {e}")))?;
    client
        .batch_execute(sql)
        .map_err(|e| AppError::Invalid(format!("{sql} on {shown}: {e}")))
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
        if let Some((url, schema)) = &self.schema {
            let _ = admin(url, &format!("DROP SCHEMA IF EXISTS {schema} CASCADE"));
        }
    }
}
