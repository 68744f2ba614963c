//! Flushing the WAL after the writer's turn. When another writer of the
//! process waits for the turn, a synced commit on the file's shared writer
//! (`writer.rs`) is flushed to disk after the turn is given back, not
//! inside it: its fsync (a fifth of two workers' time under the turn,
//! 1,000 incidents in flight) overlaps the next writer's transaction. A
//! commit with nobody waiting flushes in the commit, as SQLite does with
//! `synchronous=FULL`: on these disks that flush was the quicker one, by
//! a sixth of a one-row commit.
//!
//! The commit flushed after the turn writes the WAL without a flush
//! (`synchronous=NORMAL`), and the thread that made it flushes the WAL
//! file itself before it goes on, so nothing that depends on the commit
//! (the step's acknowledgement, an answer to a request, a tool call)
//! happens before it is on disk. Other connections may read it during
//! that flush; whatever they then commit comes after it in the WAL, which
//! is valid on disk only up to its first missing frame, so it is never
//! kept without it.

use std::cell::RefCell;
use std::fs::File;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A SQLite file's WAL, open to flush it to disk after commits that did
/// not flush it themselves.
pub(super) struct WalFile {
    file: File,
    path: PathBuf,
    inode: u64,
    /// Flushes done, for tests.
    #[cfg(test)]
    flushes: std::sync::atomic::AtomicU64,
}

impl WalFile {
    /// How many times it was flushed.
    #[cfg(test)]
    pub(super) fn flushes(&self) -> u64 {
        self.flushes.load(std::sync::atomic::Ordering::SeqCst)
    }

    /// Opens the WAL of the data file at `db`, which a commit has written.
    /// Its entry in the directory needs no flush here: SQLite flushes a
    /// WAL's header, and the directory with the first flush of a WAL it
    /// created, before it writes a frame, `synchronous=NORMAL` or not.
    pub(super) fn open(db: &Path) -> std::io::Result<WalFile> {
        let mut path = db.as_os_str().to_owned();
        path.push("-wal");
        let path = PathBuf::from(path);
        let file = File::open(&path)?;
        let inode = file.metadata()?.ino();
        Ok(WalFile {
            file,
            path,
            inode,
            #[cfg(test)]
            flushes: Default::default(),
        })
    }

    /// Flushes the WAL to disk: what the commits before this call wrote to
    /// it is on disk when it returns.
    fn flush(&self) -> std::io::Result<()> {
        #[cfg(test)]
        if FAIL_FLUSH.with(|f| f.replace(false)) {
            return Err(std::io::Error::other("an injected write-back error"));
        }
        sync_data(&self.file, &self.path)?;
        #[cfg(test)]
        self.flushes
            .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        // SQLite keeps one WAL file while a connection is open; should it
        // have been replaced all the same, the commit is in the new one.
        match std::fs::metadata(&self.path) {
            Ok(meta) if meta.ino() != self.inode => sync_data(&File::open(&self.path)?, &self.path),
            Ok(_) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(e),
        }
    }
}

/// `fdatasync` of `file`, recorded for the power-cut tests.
fn sync_data(file: &File, path: &Path) -> std::io::Result<()> {
    #[cfg(feature = "failpoints")]
    let covers = crate::power_log::position();
    file.sync_data()?;
    #[cfg(feature = "failpoints")]
    {
        use std::os::unix::ffi::OsStrExt;
        crate::power_log::flushed(path.as_os_str().as_bytes(), covers);
    }
    #[cfg(not(feature = "failpoints"))]
    let _ = path;
    Ok(())
}

thread_local! {
    /// WALs that commits made on this thread under a turn still held
    /// wrote without flushing: flushed once the turn is given back.
    static UNFLUSHED: RefCell<Vec<Arc<WalFile>>> = const { RefCell::new(Vec::new()) };
}

#[cfg(test)]
thread_local! {
    /// Tests run this on the thread that is about to flush, once, after
    /// its turn is given back.
    pub(super) static BEFORE_FLUSH: RefCell<Option<Box<dyn FnOnce()>>> = const { RefCell::new(None) };
    /// Tests set this to have the next flush on this thread fail, as one
    /// whose pages the disk could not take.
    pub(super) static FAIL_FLUSH: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Flushes the WALs this thread's commits left unflushed. A flush that
/// fails leaves the commit readable but perhaps not on disk, and the
/// kernel may already have dropped the pages it could not write (a second
/// fsync would then report success): nothing may be acknowledged on it, so
/// the process stops, as PostgreSQL does, and starts again from what is on
/// disk.
pub(super) fn flush_deferred() {
    let files = UNFLUSHED.with(|u| std::mem::take(&mut *u.borrow_mut()));
    #[cfg(test)]
    if !files.is_empty()
        && let Some(hook) = BEFORE_FLUSH.with(|h| h.borrow_mut().take())
    {
        hook();
    }
    for wal in files {
        if let Err(e) = wal.flush() {
            stop(&format!("flushing {} to disk", wal.path.display()), &e);
        }
    }
}

/// Stops the process after `what` failed for a commit that is written but
/// may not be on disk.
pub(super) fn stop(what: &str, e: &std::io::Error) -> ! {
    tracing::error!(error = %e, "{what} failed");
    eprintln!(
        "wakeful: {what} failed: {e}; stopping, so that nothing is acknowledged that may \
         not be on disk"
    );
    std::process::abort();
}

/// Has `wal` flushed by [`flush_deferred`] on this thread.
pub(super) fn defer(wal: Arc<WalFile>) {
    UNFLUSHED.with(|u| {
        let mut u = u.borrow_mut();
        if !u.iter().any(|w| Arc::ptr_eq(w, &wal)) {
            u.push(wal);
        }
    });
}
