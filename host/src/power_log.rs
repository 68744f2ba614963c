//! A record of every change the store's SQLite file layer makes to its
//! files, for the power-cut tests; compiled only with the `failpoints`
//! feature, and inert unless `WAKEFUL_POWER_LOG=<file>` is set.
//!
//! A process killed with SIGKILL leaves the kernel's page cache behind: a
//! write the store never flushed is still read back by the next process.
//! A power cut keeps only what was flushed (`fdatasync`/`fsync`) and an
//! arbitrary part of the rest. The tests that simulate one
//! (`tests/all/power_cut.rs`) need to know, at any moment of a recorded
//! history, which bytes were flushed and which were only written: every
//! process of the history appends to the same log what it did to the data
//! file, its WAL and its rollback journal, each record right after the
//! call it describes returned, so that the record is in the log before
//! anything that depends on the call happens. The test then builds, for
//! any point of the log, the files a power cut there could leave.
//!
//! Each record is appended with one `write` to the file opened with
//! `O_APPEND`, so the records of several processes do not interleave:
//!
//! | bytes | field |
//! |---|---|
//! | 1 | `P` |
//! | 1 | kind |
//! | 4 | length of the path, little-endian |
//! | 4 | length of the data, little-endian |
//! | 8 | a number, little-endian (per kind) |
//! | … | the path (a file, or for `D` its directory) |
//! | … | the data |
//!
//! Kinds: `W` a write (number: its offset; data: the bytes written), `T` a
//! truncation (number: the new length), `S` a flush of the file and `D`
//! of a directory (number: the log's length when the flush began: it
//! covers the records before that), `C` a file created, `U` a file
//! deleted, `K` a directory made (the data directory or a parent of it),
//! `E` the directory holding the path flushed (number: as for `S`), `M`
//! a mark (data: text; the tests write theirs, and a failpoint writes
//! `failpoint <point>` just before it kills the process).
//!
//! The `-shm` file is not recorded: SQLite keeps it in shared memory and
//! rebuilds it from the WAL when it finds no other process using the file,
//! as after a power cut.

use std::fs::File;
use std::io::Write;
use std::sync::OnceLock;

/// The environment variable naming the log.
pub const ENV: &str = "WAKEFUL_POWER_LOG";

const MAGIC: u8 = b'P';

fn log() -> Option<&'static File> {
    static LOG: OnceLock<Option<File>> = OnceLock::new();
    LOG.get_or_init(|| {
        let path = std::env::var_os(ENV)?;
        match std::fs::OpenOptions::new()
            .append(true)
            .create(true)
            .open(&path)
        {
            Ok(file) => Some(file),
            Err(e) => fail(&format!("opening {}", path.to_string_lossy()), &e),
        }
    })
    .as_ref()
}

/// A log with a record missing would describe another history than the
/// one that happened: the process stops rather than go on without it.
fn fail(what: &str, e: &std::io::Error) -> ! {
    eprintln!("wakeful: {what} of the power-cut log ({ENV}) failed: {e}");
    std::process::abort();
}

/// Whether this process records its file changes.
pub fn enabled() -> bool {
    log().is_some()
}

/// The log's length now: a flush that begins after this call covers every
/// record before it.
pub fn position() -> u64 {
    match log() {
        Some(file) => file
            .metadata()
            .unwrap_or_else(|e| fail("reading the length", &e))
            .len(),
        None => 0,
    }
}

fn append(kind: u8, path: &[u8], number: u64, data: &[u8]) {
    let Some(mut file) = log() else {
        return;
    };
    let mut record = Vec::with_capacity(18 + path.len() + data.len());
    record.extend_from_slice(&[MAGIC, kind]);
    record.extend_from_slice(&(path.len() as u32).to_le_bytes());
    record.extend_from_slice(&(data.len() as u32).to_le_bytes());
    record.extend_from_slice(&number.to_le_bytes());
    record.extend_from_slice(path);
    record.extend_from_slice(data);
    match file.write(&record) {
        Ok(n) if n == record.len() => {}
        Ok(n) => fail(
            &format!("appending a record ({n} of {} bytes)", record.len()),
            &std::io::Error::other("a short write"),
        ),
        Err(e) => fail("appending a record", &e),
    }
}

/// A file of the store the log follows: its path, and whether SQLite's
/// `unix` layer flushes its directory at its next flush.
pub struct Tracked {
    path: Box<[u8]>,
    dir_flush_next: bool,
}

/// A data file, WAL or journal opened at `path`; `created` when the open
/// made it. SQLite's `unix` layer flushes the directory of a WAL or
/// journal opened with `SQLITE_OPEN_CREATE` once, at its first flush
/// (`dir_flush_next`): until then the entry of a new one may not be on
/// disk.
pub fn opened(path: &[u8], created: bool, dir_flush_next: bool) -> Option<Tracked> {
    if !enabled() {
        return None;
    }
    if created {
        append(b'C', path, 0, &[]);
    }
    Some(Tracked {
        path: path.into(),
        dir_flush_next,
    })
}

impl Tracked {
    pub fn wrote(&self, at: u64, data: &[u8]) {
        append(b'W', &self.path, at, data);
    }

    pub fn truncated(&self, len: u64) {
        append(b'T', &self.path, len, &[]);
    }

    /// The file was flushed by a call that began at log position `covers`;
    /// the first flush of a new WAL or journal flushes its directory too.
    pub fn flushed(&mut self, covers: u64) {
        append(b'S', &self.path, covers, &[]);
        if std::mem::take(&mut self.dir_flush_next) {
            append(b'D', parent(&self.path), covers, &[]);
        }
    }
}

/// A file flushed outside SQLite's layer (the WAL flushed after the
/// writer's turn), by a call that began at log position `covers`.
pub fn flushed(path: &[u8], covers: u64) {
    append(b'S', path, covers, &[]);
}

/// A file deleted; with `dir_flush`, its directory was flushed after.
pub fn deleted(path: &[u8], dir_flush: bool) {
    append(b'U', path, 0, &[]);
    if dir_flush {
        append(b'D', parent(path), position(), &[]);
    }
}

/// A directory made (the data directory, or one of its parents).
pub fn made_dir(path: &std::path::Path) {
    use std::os::unix::ffi::OsStrExt;
    append(b'K', path.as_os_str().as_bytes(), 0, &[]);
}

/// The directory holding `path` flushed, by a call that began at log
/// position `covers`: `path`'s entry is on disk.
pub fn entry_flushed(path: &std::path::Path, covers: u64) {
    use std::os::unix::ffi::OsStrExt;
    append(b'E', path.as_os_str().as_bytes(), covers, &[]);
}

/// A mark in the log, at this moment of the history.
pub fn mark(text: &str) {
    append(b'M', &[], 0, text.as_bytes());
}

fn parent(path: &[u8]) -> &[u8] {
    match path.iter().rposition(|&b| b == b'/') {
        Some(0) => b"/",
        Some(i) => &path[..i],
        None => b".",
    }
}
