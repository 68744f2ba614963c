//! The data file's health: a file that is not a SQLite database, or that
//! was cut short, is refused before anything is written to it; a full
//! integrity check for long-lived processes; and consistent online copies.

use std::io::Read;
use std::path::Path;

use rusqlite::Connection;

use super::Context;
use super::Location;
use super::SqlStore;
use crate::store::{Result, StoreError};

/// The data's health and copies, and the planner's statistics.
impl SqlStore {
    /// Checks the whole store for damage; a long-running process does it
    /// once at start and refuses to run on a damaged store.
    pub fn check_integrity(&self) -> Result<()> {
        check(&self.conn, &self.location)
    }

    /// Writes a consistent copy of the whole store to the new file `to`
    /// while other processes keep writing, and checks the copy.
    pub fn backup(&self, to: &std::path::Path) -> Result<()> {
        backup(&self.conn, to)
    }

    /// Keeps the database's query planning up to date with the tables'
    /// sizes (PostgreSQL statistics; nothing on SQLite); long-lived hosts
    /// call it on their heartbeat. Returns the tables refreshed.
    pub fn maintain(&mut self) -> Result<Vec<String>> {
        use super::db::Context;
        self.conn
            .refresh_statistics()
            .ctx("refreshing the planner's statistics")
    }
}

/// The first 16 bytes of every SQLite 3 database file.
const MAGIC: &[u8; 16] = b"SQLite format 3\0";

/// Checks the header of an existing data file before SQLite first opens it
/// in this process: the magic string, and a length at least what the header
/// says the database holds (a truncated copy fails here, untouched). A
/// missing or empty file is fine: it is a new store; so is any file with a
/// rollback journal to undo beside it (see [`rollback_pending`]).
///
/// Only once per file and process: closing any descriptor of a file drops
/// every POSIX lock the process holds on it, so reading the header while
/// this process already has connections open would pull SQLite's locks
/// from under them.
pub(super) fn check_file_once(path: &Path) -> Result<()> {
    use std::collections::HashSet;
    use std::sync::Mutex;
    static CHECKED: Mutex<Option<HashSet<std::path::PathBuf>>> = Mutex::new(None);
    let key = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    let mut checked = CHECKED.lock().unwrap_or_else(|p| p.into_inner());
    let checked = checked.get_or_insert_with(HashSet::new);
    if checked.contains(&key) {
        return Ok(());
    }
    check_file(path)?;
    checked.insert(key);
    Ok(())
}

fn check_file(path: &Path) -> Result<()> {
    let shown = path.display();
    let mut file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => {
            return Err(StoreError::Db(format!(
                "opening the data file {shown}: {e}"
            )));
        }
    };
    let len = file
        .metadata()
        .map_err(|e| StoreError::Db(format!("reading the size of {shown}: {e}")))?
        .len();
    if len == 0 {
        return Ok(());
    }
    if rollback_pending(path) {
        return Ok(());
    }
    let mut header = [0u8; 100];
    let read = file
        .read(&mut header)
        .map_err(|e| StoreError::Db(format!("reading the header of {shown}: {e}")))?;
    if read < 100 || &header[..16] != MAGIC {
        return Err(StoreError::Corrupt(format!(
            "{shown} is not a wakeful data file (no SQLite header); nothing was changed"
        )));
    }
    let page_size = match u16::from_be_bytes([header[16], header[17]]) {
        1 => 65_536,
        n => u64::from(n),
    };
    let pages = u64::from(u32::from_be_bytes([
        header[28], header[29], header[30], header[31],
    ]));
    // The page count is only valid when written by a SQLite that also kept
    // the "version valid for" number equal to the change counter.
    let counter = &header[24..28];
    let valid_for = &header[92..96];
    let expected = page_size * pages;
    // With a write-ahead log, the log is the truth for the pages it holds:
    // a checkpoint cut short (by a full disk) may leave the header ahead of
    // the file's length, and SQLite recovers from the log.
    let mut wal = path.as_os_str().to_owned();
    wal.push("-wal");
    let has_log = std::fs::metadata(&wal).is_ok_and(|m| m.len() > 0);
    if counter == valid_for && pages > 0 && len < expected && !has_log {
        return Err(StoreError::Corrupt(format!(
            "{shown} is truncated: {len} bytes where its header says {expected}; restore it \
             from a backup (`wakeful backup`); nothing was changed"
        )));
    }
    Ok(())
}

/// The first bytes of a SQLite rollback journal that holds a transaction.
const JOURNAL_MAGIC: [u8; 8] = [0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7];

/// Whether SQLite's rollback journal beside the data file holds a
/// transaction that was cut short: SQLite puts the file back as it was
/// before reading it. The store is made with such a transaction (before it
/// switches to its WAL), so a power cut while it is made leaves a file
/// whose header may be half-written or ahead of its length, which only
/// the journal can mend.
fn rollback_pending(path: &Path) -> bool {
    let mut journal = path.as_os_str().to_owned();
    journal.push("-journal");
    let mut magic = [0u8; 8];
    std::fs::File::open(&journal)
        .and_then(|mut f| f.read_exact(&mut magic))
        .is_ok_and(|()| magic == JOURNAL_MAGIC)
}

/// Checks the whole store: SQLite's verdict on the file; on PostgreSQL,
/// which checks its own pages, that the store's tables answer.
pub(super) fn check(conn: &super::db::Connection, location: &Location) -> Result<()> {
    match (conn.as_sqlite(), location) {
        (Some(conn), Location::Sqlite(path)) => quick_check(conn, path),
        _ => conn
            .query_row("SELECT COUNT(*) FROM wakeful_schema", [0i64; 0], |row| {
                row.get::<_, i64>(0)
            })
            .map(drop)
            .ctx_with(|| format!("checking the store at {location}")),
    }
}

/// SQLite's verdict on the whole file (`PRAGMA quick_check`): `Ok` when it
/// is sound, else the problems it found.
fn quick_check(conn: &Connection, path: &Path) -> Result<()> {
    let mut stmt = conn
        .prepare("PRAGMA quick_check")
        .ctx("starting the integrity check")?;
    let problems: Vec<String> = stmt
        .query_map([], |row| row.get::<_, String>(0))
        .and_then(|rows| rows.collect())
        .ctx("checking the data file's integrity")?;
    if problems.len() == 1 && problems[0] == "ok" {
        return Ok(());
    }
    Err(StoreError::Corrupt(format!(
        "{} is damaged: {}; restore it from a backup (`wakeful backup`)",
        path.display(),
        problems.join("; ")
    )))
}

/// A consistent copy of the whole store at `to`, taken while other
/// processes keep writing (`VACUUM INTO` reads one snapshot). Refuses a
/// target that exists; checks that the copy opens and is sound.
pub(super) fn backup(conn: &super::db::Connection, to: &Path) -> Result<()> {
    let Some(conn) = conn.as_sqlite() else {
        return Err(StoreError::Db(
            "`backup` copies a SQLite store; back a PostgreSQL store up with its own tools \
             (pg_dump, or the server's continuous archiving)"
                .into(),
        ));
    };
    if to.exists() {
        return Err(StoreError::Db(format!(
            "{} exists; a backup never overwrites a file",
            to.display()
        )));
    }
    let target = to
        .to_str()
        .ok_or_else(|| StoreError::Db(format!("{} is not a UTF-8 path", to.display())))?;
    // Made here, 0600 and empty (which `VACUUM INTO` writes into), so that
    // the copy is never readable by others, whatever the umask.
    match super::sqlite::create_private(to) {
        Ok(true) => {}
        Ok(false) => {
            return Err(StoreError::Db(format!(
                "{target} exists; a backup never overwrites a file"
            )));
        }
        Err(e) => {
            return Err(StoreError::Db(format!(
                "creating the backup file {target}: {e}"
            )));
        }
    }
    if let Err(e) = conn.execute("VACUUM INTO ?1", [target]) {
        // The empty file made above is no backup.
        let _ = std::fs::remove_file(to);
        return Err(e).ctx_with(|| format!("copying the store to {target}"));
    }
    let copy = Connection::open(to).ctx_with(|| format!("opening the copy {target}"))?;
    quick_check(&copy, to)
}
