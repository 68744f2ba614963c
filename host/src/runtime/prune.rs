//! Keeps the cache directory under a size bound.
//!
//! After a compile writes to it (and on `wakeful cache prune`), stale
//! temporary files go first, then the least recently used artifacts and
//! compiled functions until the rest fits.
//!
//! "Recently used" is a file's mtime: an artifact's is set when it is
//! loaded, a function entry's when it is a cache hit (`cache.rs`,
//! `fn_cache.rs`). Several hosts may share the directory, so nothing here
//! knows which files another host still needs; that is safe because every
//! file is only a cache. A removed artifact or entry is a miss: the agent is
//! compiled again from the component bytes in the store. A process that has
//! loaded an artifact holds its own copy of the code (`cache.rs` reads the
//! file whole to check its seal), so removing the file takes nothing from
//! it.
//!
//! Sizes are bytes on disk (allocated blocks, as `du` counts them): a
//! compile writes thousands of function entries smaller than a block.

use std::collections::HashSet;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use serde::Serialize;

use super::fn_cache;

/// The default bound: room for dozens of Python or JavaScript agents'
/// artifacts and functions (about 40 MB each), hundreds of Rust ones.
pub const DEFAULT_MAX_BYTES: u64 = 2 << 30;

/// A temporary file older than this is left by a writer that died: a live
/// one renames its file into place within seconds.
pub const STALE_TEMP_AGE: Duration = Duration::from_secs(3600);

/// A number of files and their bytes on disk.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Tally {
    pub files: u64,
    pub bytes: u64,
}

impl Tally {
    fn add(&mut self, bytes: u64) {
        self.files += 1;
        self.bytes += bytes;
    }
}

/// What the cache directory holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Usage {
    /// Precompiled agents: `<digest>-<engine key>.cwasm`.
    pub artifacts: Tally,
    /// Compiled functions, under `functions/`.
    pub functions: Tally,
}

impl Usage {
    /// Bytes of artifacts and function entries together: what the bound
    /// bounds.
    pub fn bytes(&self) -> u64 {
        self.artifacts.bytes + self.functions.bytes
    }

    fn add(&mut self, entry: &Entry) {
        match entry.kind {
            Kind::Artifact => self.artifacts.add(entry.bytes),
            Kind::Function => self.functions.add(entry.bytes),
        }
    }
}

/// What one prune did.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Pruned {
    /// The bound it pruned to.
    pub max_bytes: u64,
    /// The file names of the artifacts it removed, least recently used
    /// first.
    pub removed_artifacts: Vec<String>,
    /// Everything it removed.
    pub removed: Usage,
    /// Temporary files of writers that died, removed.
    pub stale_temps: Tally,
    /// Files it would have removed but could not (their error aside, a
    /// file another host removed first is not counted).
    pub not_removed: Tally,
    /// What is left.
    pub left: Usage,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    // At equal mtimes a function entry goes first: one artifact saves a
    // whole compile.
    Function,
    Artifact,
}

/// One file of the cache.
#[derive(Debug)]
struct Entry {
    path: PathBuf,
    kind: Kind,
    bytes: u64,
    used: SystemTime,
}

/// What the cache directory `dir` holds; a missing directory holds nothing.
pub fn usage(dir: &Path) -> io::Result<Usage> {
    let mut usage = Usage::default();
    for entry in scan(dir, None)?.entries {
        usage.add(&entry);
    }
    Ok(usage)
}

/// Removes stale temporary files, then the least recently used files until
/// the artifacts and function entries left take at most `max_bytes`; never
/// an artifact in `keep` (the one just written, those loaded by this
/// process), even when that leaves the cache above the bound.
pub fn prune(dir: &Path, max_bytes: u64, keep: &[PathBuf]) -> io::Result<Pruned> {
    let now = SystemTime::now();
    let stale_before = now.checked_sub(STALE_TEMP_AGE).unwrap_or(now);
    let Scan {
        mut entries,
        stale_temps,
    } = scan(dir, Some(stale_before))?;
    let mut pruned = Pruned {
        max_bytes,
        ..Pruned::default()
    };
    for (path, bytes) in stale_temps {
        match fs::remove_file(&path) {
            Ok(()) => pruned.stale_temps.add(bytes),
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(_) => pruned.not_removed.add(bytes),
        }
    }
    let keep: HashSet<&Path> = keep.iter().map(PathBuf::as_path).collect();
    entries.sort_by(|a, b| (a.used, a.kind, &a.path).cmp(&(b.used, b.kind, &b.path)));
    let mut total: u64 = entries.iter().map(|e| e.bytes).sum();
    let mut left = Usage::default();
    for entry in entries {
        if total <= max_bytes || keep.contains(entry.path.as_path()) {
            left.add(&entry);
            continue;
        }
        match fs::remove_file(&entry.path) {
            Ok(()) => {
                total -= entry.bytes;
                pruned.removed.add(&entry);
                if entry.kind == Kind::Artifact {
                    pruned.removed_artifacts.push(file_name(&entry.path));
                }
            }
            // Another host pruned it first: gone all the same.
            Err(e) if e.kind() == io::ErrorKind::NotFound => total -= entry.bytes,
            Err(_) => {
                pruned.not_removed.add(entry.bytes);
                left.add(&entry);
            }
        }
    }
    pruned.left = left;
    Ok(pruned)
}

/// The files of a cache directory.
struct Scan {
    entries: Vec<Entry>,
    /// Temporary files last written before the cutoff, with their bytes.
    stale_temps: Vec<(PathBuf, u64)>,
}

/// Lists artifacts and function entries, and (given a cutoff) temporary
/// files older than it. Files that vanish while it looks (another host
/// prunes, or renames a temporary file into place) are skipped; other files
/// are not the cache's and are left alone.
fn scan(dir: &Path, stale_before: Option<SystemTime>) -> io::Result<Scan> {
    let mut scan = Scan {
        entries: Vec::new(),
        stale_temps: Vec::new(),
    };
    let visit = |path: PathBuf, kind: Kind, scan: &mut Scan| {
        let Ok(meta) = fs::symlink_metadata(&path) else {
            return;
        };
        if !meta.is_file() {
            return;
        }
        let bytes = disk_bytes(&meta);
        let used = meta.modified().unwrap_or(SystemTime::UNIX_EPOCH);
        if is_temp(&path) {
            if stale_before.is_some_and(|cutoff| used < cutoff) {
                scan.stale_temps.push((path, bytes));
            }
        } else {
            scan.entries.push(Entry {
                path,
                kind,
                bytes,
                used,
            });
        }
    };
    for path in list(dir)? {
        if path.extension().is_some_and(|e| e == "cwasm") || is_temp(&path) {
            visit(path, Kind::Artifact, &mut scan);
        }
    }
    for shard in list(&dir.join(fn_cache::DIR))? {
        if !shard.is_dir() {
            continue;
        }
        for path in list(&shard)? {
            visit(path, Kind::Function, &mut scan);
        }
    }
    Ok(scan)
}

/// The paths in `dir`; none if it is missing.
fn list(dir: &Path) -> io::Result<Vec<PathBuf>> {
    match fs::read_dir(dir) {
        Ok(read) => Ok(read.filter_map(|e| e.ok().map(|e| e.path())).collect()),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(e) => Err(io::Error::new(
            e.kind(),
            format!("cannot list {}: {e}", dir.display()),
        )),
    }
}

/// Writers name their temporary files `.<something>.tmp` (`cache.rs`,
/// `fn_cache.rs`).
fn is_temp(path: &Path) -> bool {
    let name = file_name(path);
    name.starts_with('.') && name.ends_with(".tmp")
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .unwrap_or_default()
        .to_string_lossy()
        .into_owned()
}

#[cfg(unix)]
fn disk_bytes(meta: &fs::Metadata) -> u64 {
    std::os::unix::fs::MetadataExt::blocks(meta) * 512
}

#[cfg(not(unix))]
fn disk_bytes(meta: &fs::Metadata) -> u64 {
    meta.len()
}

/// Marks a cache file as used now, so that pruning removes it last. A
/// failure only makes the file look older than it is.
pub(super) fn touch(file: &fs::File) {
    let _ = file.set_modified(SystemTime::now());
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh cache directory for one test.
    fn cache_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("wakeful-prune-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(dir.join(fn_cache::DIR).join("ab")).unwrap();
        dir
    }

    /// Writes a file of `len` bytes last used `age_secs` ago.
    fn file(path: &Path, len: usize, age_secs: u64) -> PathBuf {
        fs::write(path, vec![7u8; len]).unwrap();
        let at = SystemTime::now() - Duration::from_secs(age_secs);
        fs::File::options()
            .write(true)
            .open(path)
            .unwrap()
            .set_modified(at)
            .unwrap();
        path.to_owned()
    }

    fn bytes(path: &Path) -> u64 {
        disk_bytes(&fs::metadata(path).unwrap())
    }

    #[test]
    fn the_least_recently_used_files_go_first_until_the_rest_fits() {
        let dir = cache_dir("lru");
        let old = file(&dir.join("aaaa-k.cwasm"), 40_000, 300);
        let fresh = file(&dir.join("bbbb-k.cwasm"), 40_000, 10);
        let old_fn = file(&dir.join("functions/ab/c1"), 9_000, 400);
        let used_fn = file(&dir.join("functions/ab/c2"), 9_000, 5);
        let before = usage(&dir).unwrap();
        assert_eq!(before.artifacts.files, 2);
        assert_eq!(before.functions.files, 2);

        let bound = bytes(&fresh) + bytes(&used_fn);
        let pruned = prune(&dir, bound, &[]).unwrap();
        assert_eq!(pruned.removed_artifacts, vec!["aaaa-k.cwasm".to_string()]);
        assert_eq!(pruned.removed.functions.files, 1);
        assert!(!old.exists() && !old_fn.exists());
        assert!(fresh.exists() && used_fn.exists());
        assert_eq!(pruned.left, usage(&dir).unwrap());
        assert!(pruned.left.bytes() <= bound);
        fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_cache_under_its_bound_is_left_alone() {
        let dir = cache_dir("under");
        let a = file(&dir.join("aaaa-k.cwasm"), 1000, 3000);
        let pruned = prune(&dir, 1 << 30, &[]).unwrap();
        assert_eq!(pruned.removed, Usage::default());
        assert!(a.exists());
        fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_kept_artifact_stays_even_above_the_bound() {
        let dir = cache_dir("keep");
        let kept = file(&dir.join("aaaa-k.cwasm"), 50_000, 900);
        let other = file(&dir.join("bbbb-k.cwasm"), 50_000, 1);
        let pruned = prune(&dir, 1, std::slice::from_ref(&kept)).unwrap();
        assert!(kept.exists());
        assert!(!other.exists());
        assert_eq!(pruned.left.artifacts.files, 1);
        assert!(pruned.left.bytes() > 1);
        fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_bound_of_zero_clears_the_cache() {
        let dir = cache_dir("zero");
        file(&dir.join("aaaa-k.cwasm"), 5000, 1);
        file(&dir.join("functions/ab/c1"), 100, 1);
        let pruned = prune(&dir, 0, &[]).unwrap();
        assert_eq!(pruned.removed.artifacts.files, 1);
        assert_eq!(pruned.removed.functions.files, 1);
        assert_eq!(usage(&dir).unwrap(), Usage::default());
        fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn stale_temporary_files_go_and_young_ones_stay_uncounted() {
        let dir = cache_dir("temps");
        let stale = file(&dir.join(".aaaa-k.cwasm.1.0.tmp"), 100, 7200);
        let stale_fn = file(&dir.join("functions/ab/.1.0.tmp"), 100, 7200);
        let young = file(&dir.join(".bbbb-k.cwasm.2.0.tmp"), 100, 60);
        let young_fn = file(&dir.join("functions/ab/.2.0.tmp"), 100, 60);
        assert_eq!(usage(&dir).unwrap(), Usage::default());
        let pruned = prune(&dir, 0, &[]).unwrap();
        assert_eq!(pruned.stale_temps.files, 2);
        assert!(!stale.exists() && !stale_fn.exists());
        assert!(young.exists() && young_fn.exists());
        fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn files_that_are_not_the_caches_are_left_alone() {
        let dir = cache_dir("foreign");
        let notes = file(&dir.join("notes.txt"), 5000, 9000);
        let pruned = prune(&dir, 0, &[]).unwrap();
        assert_eq!(pruned.removed, Usage::default());
        assert!(notes.exists());
        fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_missing_directory_is_an_empty_cache() {
        let dir = std::env::temp_dir().join(format!("wakeful-prune-none-{}", std::process::id()));
        assert_eq!(usage(&dir).unwrap(), Usage::default());
        assert_eq!(prune(&dir, 0, &[]).unwrap().left, Usage::default());
    }

    #[test]
    fn touching_a_file_makes_it_the_most_recently_used() {
        let dir = cache_dir("touch");
        let a = file(&dir.join("aaaa-k.cwasm"), 5000, 600);
        let b = file(&dir.join("bbbb-k.cwasm"), 5000, 300);
        touch(&fs::File::open(&a).unwrap());
        prune(&dir, bytes(&a), &[]).unwrap();
        assert!(a.exists() && !b.exists());
        fs::remove_dir_all(dir).unwrap();
    }
}
