//! SQLite and its tuning: opening the file (its header checked before
//! SQLite touches it, WAL mode, `synchronous=FULL`, the schema
//! migrations), the file layer under SQLite ([`vfs`]), the one writer
//! connection a process's handles take turns on ([`writer`]), the flush
//! of the WAL after a writer's turn ([`flush`]), and who copies the WAL
//! into the data file ([`wal`]).

mod flush;
// A file layer for SQLite: its callbacks take and hand back raw pointers.
#[allow(unsafe_code)]
mod vfs;
pub(super) mod wal;
pub(super) mod writer;

use std::path::Path;
use std::time::{Duration, Instant};

use rusqlite::{Connection, TransactionBehavior};

use super::db::Context;
use super::health;
use super::schema::{MIGRATIONS, SCHEMA_VERSION};
use crate::store::{Result, StoreError};

/// How long a process waits for another one's write transaction before it
/// gives up with "database is locked".
pub(super) const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// Opens (creating if needed) the data file and brings its schema up to
/// date. A file written by a newer schema is refused untouched.
pub(super) fn open(path: &Path) -> Result<Connection> {
    let shown = path.display().to_string();
    if let Some(parent) = path.parent()
        && !parent.as_os_str().is_empty()
    {
        private_dir(parent).map_err(|e| {
            StoreError::Db(format!(
                "creating the directory {} for {shown}: {e}",
                parent.display()
            ))
        })?;
    }
    create_private(path).map_err(|e| StoreError::Db(format!("creating {shown}: {e}")))?;
    // Before SQLite touches it: a damaged file is refused as it is.
    health::check_file_once(path)?;
    let layer = vfs::registered().map_err(StoreError::Db)?;
    let mut conn = Connection::open_with_flags_and_vfs(path, rusqlite::OpenFlags::default(), layer)
        .ctx_with(|| format!("opening the data file {shown}"))?;
    conn.busy_timeout(BUSY_TIMEOUT)
        .ctx("setting the busy timeout")?;
    // The store's statements outnumber rusqlite's default cache of 16;
    // a statement pushed out is compiled again on its next use.
    conn.set_prepared_statement_cache_capacity(256);
    // With STAT4 statistics (the bundled build has them), SQLite compiles a
    // statement again whenever a bound value could change its plan: every
    // claim, since `now` bounds its ranges. The store's statements are
    // written for their indexes; keep the plan they were compiled with.
    conn.set_db_config(
        rusqlite::config::DbConfig::SQLITE_DBCONFIG_ENABLE_QPSG,
        true,
    )
    .ctx("keeping query plans stable")?;

    // Checked before any pragma that writes to the file, so that a newer
    // file is left exactly as it was.
    let found = user_version(&conn)?;
    if found > SCHEMA_VERSION {
        return Err(too_new(&shown, found));
    }

    // Pragmas cannot change inside a transaction; set them first.
    enable_wal(&conn, &shown)?;
    conn.pragma_update(None, "synchronous", "FULL")
        .ctx("setting synchronous=FULL")?;
    conn.pragma_update(None, "foreign_keys", "ON")
        .ctx("enabling foreign keys")?;
    // A deploy writes the component (tens of MB for Python or JavaScript)
    // through the WAL; without a limit the WAL file keeps that size after
    // every checkpoint, storing the component twice on disk.
    conn.pragma_update(None, "journal_size_limit", 4 << 20)
        .ctx("limiting the WAL's size")?;
    // A statement that changes several rows inside a transaction keeps a
    // journal of the pages it changed (to undo it alone should it fail
    // midway), in a temporary file by default: created, written and closed
    // for every such transaction. It is undo data for the open transaction
    // only, so memory is the place for it.
    conn.pragma_update(None, "temp_store", "MEMORY")
        .ctx("keeping temporary data in memory")?;

    migrate(&mut conn, &shown)?;
    Ok(conn)
}

/// Switches the file to WAL mode (a setting kept in the file). The switch
/// needs the file to itself, and SQLite reports "locked" at once instead of
/// calling the busy handler when another process is opening the same new
/// file; so it is retried here for as long as `busy_timeout` would wait.
fn enable_wal(conn: &Connection, path: &str) -> Result<()> {
    let deadline = Instant::now() + BUSY_TIMEOUT;
    loop {
        let mode = conn
            .pragma_query_value(None, "journal_mode", |row| row.get::<_, String>(0))
            .and_then(|mode| {
                if mode.eq_ignore_ascii_case("wal") {
                    Ok(mode)
                } else {
                    conn.pragma_update_and_check(None, "journal_mode", "WAL", |row| row.get(0))
                }
            });
        match mode {
            Ok(mode) if mode.eq_ignore_ascii_case("wal") => return Ok(()),
            Ok(mode) => {
                return Err(StoreError::Db(format!(
                    "{path} could not be switched to WAL mode (it reports `{mode}`)"
                )));
            }
            Err(e) if is_busy(&e) && Instant::now() < deadline => {
                std::thread::sleep(Duration::from_millis(10));
            }
            Err(e) => return Err(e).ctx_with(|| format!("switching {path} to WAL mode")),
        }
    }
}

fn is_busy(e: &rusqlite::Error) -> bool {
    matches!(
        e.sqlite_error_code(),
        Some(rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked)
    )
}

/// The schema version of the data file at `path`, read without changing
/// it; `None` when there is no file (or an empty one): no store is there.
pub(super) fn stored_version(path: &Path) -> Result<Option<i64>> {
    let shown = path.display();
    match std::fs::metadata(path) {
        Ok(meta) if meta.len() == 0 => return Ok(None),
        Ok(_) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(StoreError::Db(format!("reading {shown}: {e}"))),
    }
    health::check_file_once(path)?;
    let conn = Connection::open_with_flags(path, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
        .ctx_with(|| format!("opening the data file {shown} to read its schema version"))?;
    user_version(&conn).map(Some)
}

fn user_version(conn: &Connection) -> Result<i64> {
    conn.pragma_query_value(None, "user_version", |row| row.get(0))
        .ctx("reading the schema version")
}

/// Replaces each stored link token by its SHA-256, the form the store keeps
/// (`store::links`): SQLite has no SHA-256 in SQL. The links keep working,
/// since an answer is looked up by its token's hash.
fn hash_link_tokens(tx: &Connection) -> rusqlite::Result<()> {
    for table in ["approvals", "callbacks"] {
        let tokens: Vec<String> = tx
            .prepare(&format!("SELECT token FROM {table}"))?
            .query_map([], |row| row.get(0))?
            .collect::<rusqlite::Result<_>>()?;
        let mut update = tx.prepare(&format!("UPDATE {table} SET token = ?2 WHERE token = ?1"))?;
        for token in tokens {
            update.execute([&token, &crate::store::links::token_hash(&token)])?;
        }
    }
    Ok(())
}

fn too_new(path: &str, found: i64) -> StoreError {
    StoreError::TooNew {
        path: path.to_string(),
        found,
        supported: SCHEMA_VERSION,
    }
}

/// Creates the directories of `dir` that are missing, for this user only
/// (0700, whatever the umask): the store, its WAL and the API token are in
/// it.
pub(super) fn private_dir(dir: &Path) -> std::io::Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir)
}

/// Creates `path` empty and 0600 (whatever the umask) when it does not
/// exist, before SQLite opens it: SQLite makes a new file 0644, and gives
/// the WAL and shared-memory files the main file's mode. A file that
/// exists is left as it is: false.
pub(super) fn create_private(path: &Path) -> std::io::Result<bool> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    match options.open(path) {
        Ok(file) => {
            // Made here, not by SQLite's open: the power-cut log (when
            // recording) learns of the new file as it would from SQLite.
            #[cfg(feature = "failpoints")]
            {
                use std::os::unix::ffi::OsStrExt;
                crate::power_log::opened(path.as_os_str().as_bytes(), true, false);
            }
            // The mode given is filtered by the umask; 0600 is what it
            // must be.
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                file.set_permissions(std::fs::Permissions::from_mode(0o600))?;
            }
            file.sync_all().map(|()| true)
        }
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(false),
        Err(e) => Err(e),
    }
}

/// Applies the missing migrations in one transaction. The version is read
/// again under the write lock: another process may have migrated meanwhile.
fn migrate(conn: &mut Connection, path: &str) -> Result<()> {
    if user_version(conn)? == SCHEMA_VERSION {
        return Ok(());
    }
    let tx = conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .ctx("starting the schema migration")?;
    let found = user_version(&tx)?;
    if found > SCHEMA_VERSION {
        return Err(too_new(path, found));
    }
    if found == SCHEMA_VERSION {
        // Migrated by another process while this one waited for the lock.
        return Ok(());
    }
    for (from, sql) in MIGRATIONS.iter().enumerate().skip(found.max(0) as usize) {
        tx.execute_batch(sql)
            .ctx_with(|| format!("migrating {path} from schema {from} to {}", from + 1))?;
        if from + 1 == super::schema::HASHED_LINKS_VERSION {
            hash_link_tokens(&tx)
                .ctx_with(|| format!("hashing the link tokens of {path} (schema {})", from + 1))?;
        }
    }
    // A migration may change a table's text in place (`SCHEMA_V12`),
    // which, unlike DDL, leaves the schema cookie as it was: bumped here,
    // every other connection to the file reads the schema again.
    let cookie: i64 = tx
        .pragma_query_value(None, "schema_version", |row| row.get(0))
        .ctx("reading the schema cookie")?;
    tx.pragma_update(None, "schema_version", cookie + 1)
        .ctx("bumping the schema cookie")?;
    tx.pragma_update(None, "user_version", SCHEMA_VERSION)
        .ctx("recording the schema version")?;
    tx.commit()
        .ctx_with(|| format!("committing the schema migration of {path}"))?;
    // And this connection, whose own bump does not tell it.
    conn.pragma_update(None, "writable_schema", "RESET")
        .ctx("reading the migrated schema")
}
