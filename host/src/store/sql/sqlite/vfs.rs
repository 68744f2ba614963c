//! SQLite's own file layer with one change: the frames a transaction
//! appends to the WAL reach the file in one `pwrite`, not two per page.
//!
//! SQLite writes each WAL frame as two system calls, its 24-byte header
//! and then its page. A step's commit appends 15–25 frames, and a group
//! commit of 64 steps hundreds, all under the write turn: those calls
//! were a tenth of the workers' CPU time. This layer (a VFS over SQLite's
//! `unix` one, used by every store connection) keeps a connection's WAL
//! writes in memory while they are contiguous, and writes them out in one
//! call (or a few: the `unix` layer writes at most 128 KiB at once):
//! - when a transaction's last frame is in: its header carries the
//!   commit mark (the data file's size after the commit), and the write
//!   of its page writes the whole transaction out. A failure (a full
//!   disk) is then that write's error, and SQLite fails the commit
//!   before publishing it. A commit becomes visible to other connections
//!   only after that, when SQLite writes the WAL index header in shared
//!   memory; until then (at the data file's next shared-memory lock or
//!   barrier), SQLite's rewrites of that transaction's checksums go
//!   straight to the file;
//! - before a sync, a read, a size query, a truncation or a close of the
//!   WAL, and before a write that does not follow the ones held.
//!
//! What is held otherwise is pages SQLite spilled from a transaction not
//! yet committed, which no other connection reads; a crash loses them as
//! it would lose them in the kernel before a sync.
//!
//! In test builds (the `failpoints` feature) it also records each write,
//! truncation, sync, creation and deletion of a file for the power-cut
//! tests, when `WAKEFUL_POWER_LOG` asks for it (`crate::power_log`).

use std::ffi::{CStr, c_int, c_void};
use std::ptr;
use std::sync::OnceLock;

use rusqlite::ffi;

/// The name store connections open their files with.
pub const NAME: &CStr = c"wakeful-unix";

/// Flushed on its own once the buffer holds this much, so that a large
/// transaction (a migration, a big import) does not hold it all.
const MAX_BUFFERED: usize = 4 << 20;

/// A WAL frame's header, before its page.
const FRAME_HEADER: usize = 24;

/// The most the `unix` layer writes in one call: it keeps the low 17 bits
/// of a length (`seekAndWriteFd`), so a longer write goes out in pieces.
const MAX_WRITE: usize = 120 << 10;

#[cfg(test)]
thread_local! {
    /// Writes to WAL files on this thread, for tests.
    static WAL_WRITES: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Registers the layer once; its name for `open_with_flags_and_vfs`.
pub fn registered() -> Result<&'static CStr, String> {
    static REGISTERED: OnceLock<Result<(), String>> = OnceLock::new();
    REGISTERED.get_or_init(register).clone().map(|()| NAME)
}

fn register() -> Result<(), String> {
    // SAFETY: `sqlite3_vfs_find` initialises SQLite and returns a VFS that
    // lives as long as the process (SQLite's built-in ones are static).
    let unix = unsafe { ffi::sqlite3_vfs_find(c"unix".as_ptr()) };
    if unix.is_null() {
        return Err("SQLite has no `unix` file layer".into());
    }
    // SAFETY: checked non-null above; only read.
    let base = unsafe { *unix };
    let vfs = Box::leak(Box::new(ffi::sqlite3_vfs {
        szOsFile: (inner_offset() + base.szOsFile as usize) as c_int,
        pNext: ptr::null_mut(),
        zName: NAME.as_ptr(),
        pAppData: unix.cast(),
        xOpen: Some(open),
        xDelete: Some(delete),
        ..base
    }));
    // SAFETY: `vfs` is leaked, so it outlives every connection.
    let rc = unsafe { ffi::sqlite3_vfs_register(vfs, 0) };
    if rc != ffi::SQLITE_OK {
        return Err(format!(
            "registering SQLite's file layer failed (code {rc})"
        ));
    }
    Ok(())
}

/// What SQLite's file object holds under this layer: the base file's
/// object follows it, at [`inner_offset`].
#[repr(C)]
struct File {
    /// Must come first: SQLite sees this struct as a `sqlite3_file`.
    base: ffi::sqlite3_file,
    inner: *mut ffi::sqlite3_file,
    is_wal: bool,
    /// A data file's WAL while that is open (the two belong to one
    /// connection, used by one thread at a time).
    wal: *mut File,
    /// A WAL's data file.
    main: *mut File,
    /// A WAL's writes not yet in the file: `buffer` at offset `start`.
    buffer: Vec<u8>,
    start: i64,
    /// The last write was the header of a transaction's last frame.
    commit_page_next: bool,
    /// A transaction's last frame is written and the commit not yet
    /// published (at the next shared-memory lock or barrier): writes go
    /// straight to the file.
    published_next: bool,
    /// The file's changes, recorded for the power-cut tests.
    #[cfg(feature = "failpoints")]
    logged: Option<crate::power_log::Tracked>,
}

fn inner_offset() -> usize {
    std::mem::size_of::<File>().next_multiple_of(16)
}

/// # Safety
/// `file` is one of this layer's open files.
unsafe fn inner(file: *mut ffi::sqlite3_file) -> (*mut File, *mut ffi::sqlite3_file) {
    let file = file.cast::<File>();
    // SAFETY: the caller's promise.
    (file, unsafe { (*file).inner })
}

/// # Safety
/// `file` is the base file object of one of this layer's files.
unsafe fn methods(file: *mut ffi::sqlite3_file) -> &'static ffi::sqlite3_io_methods {
    // SAFETY: an open base file has its methods, which are static.
    unsafe { &*(*file).pMethods }
}

unsafe extern "C" fn open(
    vfs: *mut ffi::sqlite3_vfs,
    name: ffi::sqlite3_filename,
    file: *mut ffi::sqlite3_file,
    flags: c_int,
    out_flags: *mut c_int,
) -> c_int {
    // SAFETY: SQLite gives `szOsFile` bytes at `file`, aligned for any
    // type; `pAppData` is the base layer (`register`).
    unsafe {
        let base = (*vfs).pAppData.cast::<ffi::sqlite3_vfs>();
        let inner = file
            .cast::<u8>()
            .add(inner_offset())
            .cast::<ffi::sqlite3_file>();
        (*inner).pMethods = ptr::null();
        #[cfg(feature = "failpoints")]
        let existed = logging::exists(name);
        let rc = ((*base).xOpen.expect("the unix layer opens files"))(
            base, name, inner, flags, out_flags,
        );
        if rc != ffi::SQLITE_OK || (*inner).pMethods.is_null() {
            (*file).pMethods = ptr::null();
            return rc;
        }
        let is_wal = flags & ffi::SQLITE_OPEN_WAL != 0;
        let mut main = ptr::null_mut();
        if is_wal && !name.is_null() {
            let db = ffi::sqlite3_database_file_object(name);
            if !db.is_null() && ptr::eq((*db).pMethods, &METHODS) {
                main = db.cast::<File>();
            }
        }
        ptr::write(
            file.cast::<File>(),
            File {
                base: ffi::sqlite3_file { pMethods: &METHODS },
                inner,
                is_wal,
                wal: ptr::null_mut(),
                main,
                buffer: Vec::new(),
                start: 0,
                commit_page_next: false,
                published_next: false,
                #[cfg(feature = "failpoints")]
                logged: logging::opened(name, flags, existed),
            },
        );
        if !main.is_null() {
            (*main).wal = file.cast();
        }
        rc
    }
}

/// Writes out a WAL's buffered frames; an error code if that failed.
///
/// # Safety
/// `file` is one of this layer's open files.
unsafe fn flush(file: *mut File) -> c_int {
    // SAFETY: the caller's promise; the buffer is this file's own.
    unsafe {
        let f = &mut *file;
        if f.buffer.is_empty() {
            return ffi::SQLITE_OK;
        }
        let write = methods(f.inner).xWrite.expect("the unix layer writes");
        let mut rc = ffi::SQLITE_OK;
        let mut at = f.start;
        for chunk in f.buffer.chunks(MAX_WRITE) {
            #[cfg(test)]
            WAL_WRITES.with(|w| w.set(w.get() + 1));
            rc = write(f.inner, chunk.as_ptr().cast(), chunk.len() as c_int, at);
            #[cfg(feature = "failpoints")]
            if rc == ffi::SQLITE_OK
                && let Some(logged) = &f.logged
            {
                logged.wrote(at as u64, chunk);
            }
            if rc != ffi::SQLITE_OK {
                break;
            }
            at += chunk.len() as i64;
        }
        f.buffer.clear();
        if f.buffer.capacity() > MAX_BUFFERED {
            f.buffer = Vec::new();
        }
        rc
    }
}

/// At a shared-memory lock or barrier of a data file, where SQLite
/// publishes a commit (or no longer writes one): its WAL's writes are
/// buffered again. SQLite cannot hear of a failure here.
///
/// # Safety
/// `main` is one of this layer's open files.
unsafe fn at_shared_memory(main: *mut File) {
    // SAFETY: the caller's promise; a WAL linked to its data file is open
    // until its close unlinks it.
    unsafe {
        let wal = (*main).wal;
        if wal.is_null() {
            return;
        }
        // The commit before this point, if any, is in the file.
        (*wal).published_next = false;
        // Frames still held here belong to a transaction not committed
        // (SQLite spills pages of a large one before its commit) and stay
        // until it commits. A commit's header without its page would be a
        // commit in the making: it goes out, and if it cannot, the process
        // stops rather than publish a commit without its frames.
        if (*wal).commit_page_next && flush(wal) != ffi::SQLITE_OK {
            let e = std::io::Error::other("writing the WAL's frames failed");
            super::flush::stop("writing a commit to the WAL", &e);
        }
    }
}

unsafe extern "C" fn close(file: *mut ffi::sqlite3_file) -> c_int {
    // SAFETY: SQLite closes each open file once; after that nothing of it
    // is used, so its fields are dropped here.
    unsafe {
        let (f, inner) = inner(file);
        let flushed = if (*f).is_wal {
            flush(f)
        } else {
            ffi::SQLITE_OK
        };
        if !(*f).main.is_null() {
            (*(*f).main).wal = ptr::null_mut();
        }
        if !(*f).wal.is_null() {
            (*(*f).wal).main = ptr::null_mut();
        }
        let rc = (methods(inner).xClose.expect("the unix layer closes"))(inner);
        ptr::drop_in_place(f);
        (*file).pMethods = ptr::null();
        if flushed != ffi::SQLITE_OK {
            flushed
        } else {
            rc
        }
    }
}

/// Calls the base method after a WAL's buffered writes are out.
macro_rules! flushed_then {
    ($file:expr, $method:ident ( $($arg:expr),* )) => {{
        // SAFETY: SQLite calls these on its open files only.
        unsafe {
            let (f, inner) = inner($file);
            if (*f).is_wal {
                let rc = flush(f);
                if rc != ffi::SQLITE_OK {
                    return rc;
                }
            }
            (methods(inner).$method.expect("the unix layer has every method"))(inner $(, $arg)*)
        }
    }};
}

/// Calls the base method as it is.
macro_rules! passed {
    ($file:expr, $method:ident ( $($arg:expr),* )) => {{
        // SAFETY: SQLite calls these on its open files only.
        unsafe {
            let (_, inner) = inner($file);
            (methods(inner).$method.expect("the unix layer has every method"))(inner $(, $arg)*)
        }
    }};
}

unsafe extern "C" fn write(
    file: *mut ffi::sqlite3_file,
    buf: *const c_void,
    n: c_int,
    at: i64,
) -> c_int {
    // SAFETY: SQLite calls this on its open files, with `n` bytes at `buf`.
    unsafe {
        let (f, inner) = inner(file);
        // Checksums SQLite rewrites after a commit's last frame are
        // written where they go, as the commit is.
        if !(*f).is_wal || n < 0 || (*f).published_next {
            #[cfg(test)]
            if (*f).is_wal {
                WAL_WRITES.with(|w| w.set(w.get() + 1));
            }
            let rc = (methods(inner).xWrite.expect("the unix layer writes"))(inner, buf, n, at);
            #[cfg(feature = "failpoints")]
            if rc == ffi::SQLITE_OK
                && n > 0
                && let Some(logged) = &(*f).logged
            {
                logged.wrote(
                    at as u64,
                    std::slice::from_raw_parts(buf.cast(), n as usize),
                );
            }
            return rc;
        }
        let f = &mut *f;
        let bytes = std::slice::from_raw_parts(buf.cast::<u8>(), n as usize);
        let end = f.start + f.buffer.len() as i64;
        if !f.buffer.is_empty() && at >= f.start && at + n as i64 <= end {
            // A frame written again in the same transaction.
            let from = (at - f.start) as usize;
            f.buffer[from..from + bytes.len()].copy_from_slice(bytes);
            return ffi::SQLITE_OK;
        }
        if !f.buffer.is_empty() && at != end {
            let rc = flush(f);
            if rc != ffi::SQLITE_OK {
                return rc;
            }
        }
        if f.buffer.is_empty() {
            f.start = at;
        }
        f.buffer.extend_from_slice(bytes);
        if f.commit_page_next {
            // The page of a transaction's last frame: the frames go out now,
            // and SQLite hears of a failure before it publishes the commit.
            f.commit_page_next = false;
            f.published_next = true;
            return flush(f);
        }
        // A frame's header: its page number, then, on a transaction's last
        // frame only, the data file's size in pages after the commit.
        if n as usize == FRAME_HEADER && bytes[4..8] != [0; 4] {
            f.commit_page_next = true;
        } else if f.buffer.len() >= MAX_BUFFERED {
            return flush(f);
        }
        ffi::SQLITE_OK
    }
}

/// A method that calls the base one: `flushed_then` after a WAL's
/// buffered writes are out, `passed` as it is.
macro_rules! method {
    ($name:ident, $how:ident, $method:ident ( $($arg:ident : $ty:ty),* ) -> $ret:ty) => {
        unsafe extern "C" fn $name(file: *mut ffi::sqlite3_file $(, $arg: $ty)*) -> $ret {
            $how!(file, $method($($arg),*))
        }
    };
}

method!(read, flushed_then, xRead(buf: *mut c_void, n: c_int, at: i64) -> c_int);

unsafe extern "C" fn truncate(file: *mut ffi::sqlite3_file, size: i64) -> c_int {
    let rc = flushed_then!(file, xTruncate(size));
    #[cfg(feature = "failpoints")]
    // SAFETY: SQLite calls this on its open files.
    if rc == ffi::SQLITE_OK
        && let Some(logged) = unsafe { &(*file.cast::<File>()).logged }
    {
        logged.truncated(size as u64);
    }
    rc
}

unsafe extern "C" fn sync(file: *mut ffi::sqlite3_file, flags: c_int) -> c_int {
    // SAFETY: SQLite calls this on its open files.
    unsafe {
        let (f, inner) = inner(file);
        if (*f).is_wal {
            let rc = flush(f);
            if rc != ffi::SQLITE_OK {
                return rc;
            }
        }
        #[cfg(feature = "failpoints")]
        let covers = crate::power_log::position();
        let rc = (methods(inner).xSync.expect("the unix layer syncs"))(inner, flags);
        #[cfg(feature = "failpoints")]
        if rc == ffi::SQLITE_OK
            && let Some(logged) = &mut (*f).logged
        {
            logged.flushed(covers);
        }
        rc
    }
}
method!(file_size, flushed_then, xFileSize(size: *mut i64) -> c_int);
method!(lock, passed, xLock(level: c_int) -> c_int);
method!(unlock, flushed_then, xUnlock(level: c_int) -> c_int);
method!(check_reserved_lock, passed, xCheckReservedLock(out: *mut c_int) -> c_int);
method!(file_control, flushed_then, xFileControl(op: c_int, arg: *mut c_void) -> c_int);
method!(sector_size, passed, xSectorSize() -> c_int);
method!(device_characteristics, passed, xDeviceCharacteristics() -> c_int);
method!(shm_map, passed, xShmMap(page: c_int, size: c_int, extend: c_int, out: *mut *mut c_void) -> c_int);
method!(fetch, flushed_then, xFetch(at: i64, n: c_int, out: *mut *mut c_void) -> c_int);
method!(unfetch, passed, xUnfetch(at: i64, p: *mut c_void) -> c_int);

/// Deletes a file through the base layer; recorded for the power-cut
/// tests.
unsafe extern "C" fn delete(
    vfs: *mut ffi::sqlite3_vfs,
    name: *const std::ffi::c_char,
    dir_sync: c_int,
) -> c_int {
    // SAFETY: `pAppData` is the base layer (`register`); SQLite passes a
    // file name.
    unsafe {
        let base = (*vfs).pAppData.cast::<ffi::sqlite3_vfs>();
        let rc = ((*base).xDelete.expect("the unix layer deletes files"))(base, name, dir_sync);
        #[cfg(feature = "failpoints")]
        if rc == ffi::SQLITE_OK && !name.is_null() {
            crate::power_log::deleted(CStr::from_ptr(name).to_bytes(), dir_sync & 1 != 0);
        }
        rc
    }
}

/// What the power-cut record needs from SQLite's opens.
#[cfg(feature = "failpoints")]
mod logging {
    use std::ffi::{CStr, c_char, c_int};
    use std::os::unix::ffi::OsStrExt;

    use rusqlite::ffi;

    /// Whether a file SQLite is about to open exists already.
    ///
    /// # Safety
    /// `name` is null or a file name SQLite passes to `xOpen`.
    pub(super) unsafe fn exists(name: *const c_char) -> bool {
        if name.is_null() || !crate::power_log::enabled() {
            return false;
        }
        // SAFETY: the caller's promise.
        let path = unsafe { CStr::from_ptr(name) }.to_bytes();
        std::path::Path::new(std::ffi::OsStr::from_bytes(path)).exists()
    }

    /// The record of a file just opened: the data file, its WAL or a
    /// journal, not temporary files (which no power cut has to keep).
    ///
    /// # Safety
    /// As for [`exists`].
    pub(super) unsafe fn opened(
        name: *const c_char,
        flags: c_int,
        existed: bool,
    ) -> Option<crate::power_log::Tracked> {
        let kept = ffi::SQLITE_OPEN_MAIN_DB
            | ffi::SQLITE_OPEN_WAL
            | ffi::SQLITE_OPEN_MAIN_JOURNAL
            | ffi::SQLITE_OPEN_SUPER_JOURNAL;
        if name.is_null() || flags & kept == 0 || flags & ffi::SQLITE_OPEN_DELETEONCLOSE != 0 {
            return None;
        }
        // SAFETY: the caller's promise.
        let path = unsafe { CStr::from_ptr(name) }.to_bytes();
        let create = flags & ffi::SQLITE_OPEN_CREATE != 0;
        // The `unix` layer's `isNewJrnl`: its first sync flushes the
        // directory too.
        let dir_flush = create && flags & ffi::SQLITE_OPEN_MAIN_DB == 0;
        crate::power_log::opened(path, create && !existed, dir_flush)
    }
}

unsafe extern "C" fn shm_lock(
    file: *mut ffi::sqlite3_file,
    at: c_int,
    n: c_int,
    flags: c_int,
) -> c_int {
    // SAFETY: SQLite calls this on its open data files.
    unsafe { at_shared_memory(file.cast()) };
    passed!(file, xShmLock(at, n, flags))
}

unsafe extern "C" fn shm_barrier(file: *mut ffi::sqlite3_file) {
    // SAFETY: SQLite calls this on its open data files.
    unsafe { at_shared_memory(file.cast()) };
    passed!(file, xShmBarrier())
}

unsafe extern "C" fn shm_unmap(file: *mut ffi::sqlite3_file, delete: c_int) -> c_int {
    // SAFETY: SQLite calls this on its open data files.
    unsafe { at_shared_memory(file.cast()) };
    passed!(file, xShmUnmap(delete))
}

static METHODS: ffi::sqlite3_io_methods = ffi::sqlite3_io_methods {
    iVersion: 3,
    xClose: Some(close),
    xRead: Some(read),
    xWrite: Some(write),
    xTruncate: Some(truncate),
    xSync: Some(sync),
    xFileSize: Some(file_size),
    xLock: Some(lock),
    xUnlock: Some(unlock),
    xCheckReservedLock: Some(check_reserved_lock),
    xFileControl: Some(file_control),
    xSectorSize: Some(sector_size),
    xDeviceCharacteristics: Some(device_characteristics),
    xShmMap: Some(shm_map),
    xShmLock: Some(shm_lock),
    xShmBarrier: Some(shm_barrier),
    xShmUnmap: Some(shm_unmap),
    xFetch: Some(fetch),
    xUnfetch: Some(unfetch),
};

#[cfg(test)]
mod tests {
    use rusqlite::{Connection, OpenFlags};

    /// A connection on the layer that does not sync its commits: only the
    /// flush before a commit is published puts its frames in the file.
    fn open(path: &std::path::Path) -> Connection {
        let layer = super::registered().unwrap();
        let conn = Connection::open_with_flags_and_vfs(path, OpenFlags::default(), layer).unwrap();
        conn.pragma_update(None, "journal_mode", "WAL").unwrap();
        conn.pragma_update(None, "synchronous", "NORMAL").unwrap();
        conn
    }

    fn plain(path: &std::path::Path) -> Connection {
        Connection::open(path).unwrap()
    }

    fn sum(conn: &Connection) -> (i64, i64) {
        conn.query_row(
            "SELECT count(*), coalesce(sum(length(v)), 0) FROM t",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap()
    }

    #[test]
    fn a_commit_is_in_the_file_when_other_connections_can_see_it() {
        let dir = crate::store::sql::db::Scratch::new("vfs-seen");
        let path = dir.file();
        let a = open(&path);
        a.execute_batch("CREATE TABLE t (v BLOB)").unwrap();
        // Read by connections of the same process and by SQLite's own
        // layer, which reads the WAL file through a descriptor of its own.
        let (b, c) = (open(&path), plain(&path));
        for i in 1..=20_i64 {
            a.execute("INSERT INTO t VALUES (zeroblob(?1))", [i * 3000])
                .unwrap();
            let expected = (i, (1..=i).map(|k| k * 3000).sum());
            assert_eq!(sum(&b), expected);
            assert_eq!(sum(&c), expected);
        }
    }

    #[test]
    fn a_transaction_longer_than_one_write_reaches_the_file_whole() {
        let dir = crate::store::sql::db::Scratch::new("vfs-long");
        let path = dir.file();
        let a = open(&path);
        a.execute_batch(
            "CREATE TABLE t (v BLOB); BEGIN; \
             INSERT INTO t VALUES (randomblob(3000000)); \
             INSERT INTO t VALUES (randomblob(700000)); COMMIT;",
        )
        .unwrap();
        let digest = |conn: &Connection| -> Vec<u8> {
            conn.query_row(
                "SELECT group_concat(hex(substr(v, 1 + length(v) - 64)), '') FROM t",
                [],
                |r| r.get::<_, String>(0),
            )
            .unwrap()
            .into_bytes()
        };
        let b = plain(&path);
        assert_eq!(sum(&b), (2, 3_700_000));
        assert_eq!(digest(&a), digest(&b));
        // The WAL copied into the data file and begun again from its start.
        a.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))
            .unwrap();
        a.execute("INSERT INTO t VALUES (zeroblob(5000))", [])
            .unwrap();
        assert_eq!(sum(&plain(&path)), (3, 3_705_000));
        drop((a, b));
        assert_eq!(sum(&plain(&path)), (3, 3_705_000), "as reopened");
    }

    /// The frames in the WAL at `path` (a 32-byte header, then frames of
    /// a 24-byte header and a 4,096-byte page).
    fn wal_frames(path: &std::path::Path) -> u64 {
        let wal = std::fs::metadata(path.with_extension("db-wal")).unwrap();
        (wal.len() - 32) / (24 + 4096)
    }

    #[test]
    fn a_commit_s_frames_go_out_in_one_write() {
        let dir = crate::store::sql::db::Scratch::new("vfs-one");
        let path = dir.file();
        let a = open(&path);
        // The WAL only grows, so that its length counts the frames.
        a.pragma_update(None, "wal_autocheckpoint", 0).unwrap();
        a.execute_batch(
            "CREATE TABLE t (v BLOB); CREATE TABLE u (k INTEGER PRIMARY KEY, v TEXT); \
             CREATE INDEX u_v ON u (v);",
        )
        .unwrap();
        let frames_before = wal_frames(&path);
        let before = super::WAL_WRITES.with(std::cell::Cell::get);
        // Pages of three b-trees, each frame two writes (header, page) for
        // SQLite's own layer.
        a.execute_batch(
            "BEGIN; INSERT INTO t VALUES (zeroblob(20000)); \
             WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200) \
             INSERT INTO u (v) SELECT hex(randomblob(40)) FROM n; COMMIT;",
        )
        .unwrap();
        let writes = super::WAL_WRITES.with(std::cell::Cell::get) - before;
        let frames = wal_frames(&path) - frames_before;
        assert!(frames >= 10, "the commit wrote {frames} frames");
        assert!(writes <= 2, "{frames} frames went out in {writes} writes");
    }
}
