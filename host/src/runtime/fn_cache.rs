//! Cranelift's incremental compilation cache, kept on disk: the machine code
//! of each compiled function, by a hash of its IR. Two builds of an agent
//! that share an interpreter (every Python or JavaScript agent) share almost
//! all their functions, so a new version skips compiling what did not
//! change. Every function is still translated from its WebAssembly, and so
//! validated, on every compile: the cache is asked only with the IR that
//! translation made.
//!
//! Each entry is a sealed file (`seal.rs`) whose key is the compiler's key
//! (the hash of the function's IR and the target's flags) together with the
//! engine's settings and the toolchain (`toolchain.rs`), named by the
//! SHA-256 of that key. An entry that is not the genuine one of its key
//! (changed on disk, cut short by a crash, renamed, copied from another
//! cache) is a miss, logged, and compiled again. No entry is synced to disk
//! one by one (a compile writes thousands); losing some in a crash only
//! costs their compilation. A hit sets the entry's mtime, which `prune.rs`
//! reads as when it was last used.

use std::borrow::Cow;
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

use sha2::{Digest, Sha256};
use wasmtime::CacheStore;

use super::seal::Seal;

/// The subdirectory of the runtime's cache directory that holds entries.
pub(super) const DIR: &str = "functions";

/// Tells temporary files of concurrent writers apart.
static TEMP_COUNTER: AtomicU64 = AtomicU64::new(0);

/// Refused entries named one by one in the log; past them, every power of
/// two is counted in one line, so that a cache sealed under another key
/// (thousands of entries) does not flood the log.
const NAMED_REFUSALS: u64 = 16;

/// Refused entries of this process so far.
static REFUSED: AtomicU64 = AtomicU64::new(0);

pub(super) struct FunctionCache {
    dir: PathBuf,
    seal: Arc<Seal>,
    /// The engine's settings and the toolchain, set once the engine is
    /// built (`engine.rs`); no entry is read or written before.
    engine: OnceLock<String>,
}

impl std::fmt::Debug for FunctionCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FunctionCache")
            .field("dir", &self.dir)
            .finish_non_exhaustive()
    }
}

impl FunctionCache {
    pub(super) fn new(dir: PathBuf, seal: Arc<Seal>) -> FunctionCache {
        FunctionCache {
            dir,
            seal,
            engine: OnceLock::new(),
        }
    }

    /// Ties every entry to the engine `engine` describes.
    pub(super) fn set_engine(&self, engine: &str) {
        let _ = self.engine.set(engine.to_owned());
    }

    /// The entry's full key: what it is, the engine, the compiler's key.
    fn full_key(&self, key: &[u8]) -> Option<Vec<u8>> {
        let engine = self.engine.get()?;
        let mut full = format!("function; {engine}; ir ").into_bytes();
        full.extend_from_slice(hex::encode(key).as_bytes());
        Some(full)
    }

    fn path(&self, full_key: &[u8]) -> PathBuf {
        let name = hex::encode(Sha256::digest(full_key));
        self.dir.join(&name[..2]).join(&name[2..])
    }
}

impl CacheStore for FunctionCache {
    fn get(&self, key: &[u8]) -> Option<Cow<'_, [u8]>> {
        let full = self.full_key(key)?;
        let path = self.path(&full);
        let mut file = fs::File::open(&path).ok()?;
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes).ok()?;
        let start = match self.seal.open(&full, &bytes) {
            Ok(contents) => bytes.len() - contents.len(),
            Err(why) => {
                refused(&path, &why.to_string());
                return None;
            }
        };
        super::prune::touch(&file);
        bytes.drain(..start);
        Some(Cow::Owned(bytes))
    }

    fn insert(&self, key: &[u8], value: Vec<u8>) -> bool {
        let Some(full) = self.full_key(key) else {
            return false;
        };
        let path = self.path(&full);
        let Some(parent) = path.parent() else {
            return false;
        };
        let n = TEMP_COUNTER.fetch_add(1, Ordering::Relaxed);
        let temp = parent.join(format!(".{}.{n}.tmp", std::process::id()));
        let written = super::cache_dir::create_private_dir(parent)
            .and_then(|()| super::cache_dir::create_private_file(&temp))
            .and_then(|mut file| self.seal.write(&mut file, &full, &value))
            .and_then(|()| fs::rename(&temp, &path));
        if written.is_err() {
            let _ = fs::remove_file(&temp);
        }
        written.is_ok()
    }
}

/// Logs an entry that was not taken, and why.
fn refused(path: &Path, why: &str) {
    let n = REFUSED.fetch_add(1, Ordering::Relaxed) + 1;
    if n <= NAMED_REFUSALS {
        tracing::warn!(
            file = %path.display(),
            reason = why,
            "refused a compiled function from the cache; compiling it again"
        );
    } else if n.is_power_of_two() {
        tracing::warn!(
            refused = n,
            "refused {n} compiled functions from the cache so far (the first {NAMED_REFUSALS} were named); compiling them again"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cache_under(dir: &Path, seal: [u8; 32]) -> FunctionCache {
        let cache = FunctionCache::new(dir.to_owned(), Arc::new(Seal::from_key(seal)));
        cache.set_engine("engine e; toolchain t");
        cache
    }

    #[test]
    fn entries_round_trip_and_any_other_file_is_a_miss() {
        let dir = std::env::temp_dir().join(format!("wakeful-fn-cache-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let cache = cache_under(&dir, [1; 32]);
        assert_eq!(cache.get(b"key"), None);
        assert!(cache.insert(b"key", b"machine code".to_vec()));
        assert_eq!(cache.get(b"key").as_deref(), Some(&b"machine code"[..]));
        assert_eq!(cache.get(b"other"), None);
        let path = cache.path(&cache.full_key(b"key").unwrap());
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600, "{mode:o}");
        }

        // A hit marks the entry used, so that pruning removes it last.
        let long_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(86_400);
        let entry = fs::File::options().write(true).open(&path).unwrap();
        entry.set_modified(long_ago).unwrap();
        assert!(cache.get(b"key").is_some());
        let used = fs::metadata(&path).unwrap().modified().unwrap();
        assert!(used > long_ago + std::time::Duration::from_secs(3600));

        // A byte changed on disk.
        let whole = fs::read(&path).unwrap();
        let mut damaged = whole.clone();
        *damaged.last_mut().unwrap() ^= 1;
        fs::write(&path, &damaged).unwrap();
        assert_eq!(cache.get(b"key"), None);

        // Cut short, as by a crash before the data reached the disk.
        fs::write(&path, &whole[..whole.len() - 3]).unwrap();
        assert_eq!(cache.get(b"key"), None);
        fs::write(&path, b"").unwrap();
        assert_eq!(cache.get(b"key"), None);

        // Another entry's file under this one's name.
        assert!(cache.insert(b"other", b"other code".to_vec()));
        let other = cache.path(&cache.full_key(b"other").unwrap());
        fs::copy(&other, &path).unwrap();
        assert_eq!(cache.get(b"key"), None);

        // Sealed under another key, or for another engine or toolchain.
        let foreign = cache_under(&dir, [2; 32]);
        assert!(foreign.insert(b"key", b"foreign code".to_vec()));
        assert_eq!(cache.get(b"key"), None);
        let other_engine = FunctionCache::new(dir.clone(), Arc::new(Seal::from_key([1; 32])));
        other_engine.set_engine("engine f; toolchain t");
        assert!(other_engine.insert(b"key", b"other engine".to_vec()));
        let elsewhere = other_engine.path(&other_engine.full_key(b"key").unwrap());
        assert_ne!(elsewhere, path);
        fs::copy(&elsewhere, &path).unwrap();
        assert_eq!(cache.get(b"key"), None);

        // Written again, it is found again.
        assert!(cache.insert(b"key", b"machine code".to_vec()));
        assert_eq!(cache.get(b"key").as_deref(), Some(&b"machine code"[..]));
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn nothing_is_read_or_written_before_the_engine_is_known() {
        let dir = std::env::temp_dir().join(format!("wakeful-fn-early-{}", std::process::id()));
        let cache = FunctionCache::new(dir.clone(), Arc::new(Seal::from_key([1; 32])));
        assert!(!cache.insert(b"key", b"code".to_vec()));
        assert_eq!(cache.get(b"key"), None);
        assert!(!dir.exists());
    }
}
