//! Cranelift's incremental compilation cache, kept on disk: the machine code
//! of each compiled function, by a hash of its input. Two builds of an agent
//! that share an interpreter (every Python or JavaScript agent) share almost
//! all their functions, so a new version compiles only what changed.
//!
//! Besides the machine code of a function by the hash of its IR, the
//! (vendored) compiler keeps, by the hash of the function's input (its body
//! and everything of its module the translation reads), which IR key holds
//! its code: a function found that way is not translated at all, which
//! was half the work of compiling a Python agent again. Those entries'
//! names end in `-input`, so that they can be counted and seen being used.
//!
//! Entries are files named by the SHA-256 of their key, each starting with
//! the CRC-32 and the length of its contents: a file cut short by a crash,
//! or damaged on disk, fails that check and counts as a miss, so it is
//! compiled again. (The check is against accidents, not an attacker: whoever
//! can write this directory can write compiled code. A redeploy of a Python
//! agent reads ~40 MB of entries, which SHA-256 took 8% of its time to
//! check.) No
//! entry is synced to disk one by one (a compile writes thousands); losing
//! some in a crash only costs their compilation. A hit sets the entry's
//! mtime, which `prune.rs` reads as when it was last used.

use std::borrow::Cow;
use std::fs;
use std::io::{Read, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};

use sha2::{Digest, Sha256};
use wasmtime::CacheStore;

/// The subdirectory of the runtime's cache directory that holds entries.
pub(super) const DIR: &str = "functions";

/// Tells temporary files of concurrent writers apart.
static TEMP_COUNTER: AtomicU64 = AtomicU64::new(0);

/// Bytes before an entry's value: its CRC-32 and its length.
const HEADER: usize = 12;

/// How the compiler's keys by a function's input start
/// (`vendor/wasmtime-internal-cranelift/src/translated.rs`).
const INPUT_KEY_PREFIX: &[u8] = b"wasm-function-input-v1:";

/// The end of the names of entries by input.
const INPUT_SUFFIX: &str = "-input";

/// The header an entry holding `value` starts with.
fn header(value: &[u8]) -> [u8; HEADER] {
    let mut header = [0; HEADER];
    header[..4].copy_from_slice(&crc32fast::hash(value).to_le_bytes());
    header[4..].copy_from_slice(&(value.len() as u64).to_le_bytes());
    header
}

#[derive(Debug)]
pub(super) struct FunctionCache {
    dir: PathBuf,
}

impl FunctionCache {
    pub(super) fn new(dir: PathBuf) -> FunctionCache {
        FunctionCache { dir }
    }

    fn path(&self, key: &[u8]) -> PathBuf {
        let name = hex::encode(Sha256::digest(key));
        let suffix = if key.starts_with(INPUT_KEY_PREFIX) {
            INPUT_SUFFIX
        } else {
            ""
        };
        self.dir
            .join(&name[..2])
            .join(format!("{}{suffix}", &name[2..]))
    }
}

impl CacheStore for FunctionCache {
    fn get(&self, key: &[u8]) -> Option<Cow<'_, [u8]>> {
        let mut file = fs::File::open(self.path(key)).ok()?;
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes).ok()?;
        let (found, value) = bytes.split_at_checked(HEADER)?;
        if found != header(value) {
            return None;
        }
        super::prune::touch(&file);
        bytes.drain(..HEADER);
        Some(Cow::Owned(bytes))
    }

    fn insert(&self, key: &[u8], value: Vec<u8>) -> bool {
        let path = self.path(key);
        let Some(parent) = path.parent() else {
            return false;
        };
        let n = TEMP_COUNTER.fetch_add(1, Ordering::Relaxed);
        let temp = parent.join(format!(".{}.{n}.tmp", std::process::id()));
        let written = fs::create_dir_all(parent)
            .and_then(|()| fs::File::create(&temp))
            .and_then(|mut file| {
                file.write_all(&header(&value))?;
                file.write_all(&value)
            })
            .and_then(|()| fs::rename(&temp, &path));
        if written.is_err() {
            let _ = fs::remove_file(&temp);
        }
        written.is_ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip_and_damaged_ones_are_misses() {
        let dir = std::env::temp_dir().join(format!("wakeful-fn-cache-{}", std::process::id()));
        let cache = FunctionCache::new(dir.clone());
        assert_eq!(cache.get(b"key"), None);
        assert!(cache.insert(b"key", b"machine code".to_vec()));
        assert_eq!(cache.get(b"key").as_deref(), Some(&b"machine code"[..]));
        assert_eq!(cache.get(b"other"), None);

        // A hit marks the entry used, so that pruning removes it last.
        let long_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(86_400);
        let entry = fs::File::options()
            .write(true)
            .open(cache.path(b"key"))
            .unwrap();
        entry.set_modified(long_ago).unwrap();
        assert!(cache.get(b"key").is_some());
        let used = fs::metadata(cache.path(b"key"))
            .unwrap()
            .modified()
            .unwrap();
        assert!(used > long_ago + std::time::Duration::from_secs(3600));

        // A byte changed on disk.
        let path = cache.path(b"key");
        let mut damaged = fs::read(&path).unwrap();
        *damaged.last_mut().unwrap() ^= 1;
        fs::write(&path, &damaged).unwrap();
        assert_eq!(cache.get(b"key"), None);
        assert!(cache.insert(b"key", b"machine code".to_vec()));

        // Cut short, as by a crash before the data reached the disk.
        let path = cache.path(b"key");
        let whole = fs::read(&path).unwrap();
        fs::write(&path, &whole[..whole.len() - 3]).unwrap();
        assert_eq!(cache.get(b"key"), None);
        fs::write(&path, b"").unwrap();
        assert_eq!(cache.get(b"key"), None);
        fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn entries_by_input_are_named_apart() {
        let cache = FunctionCache::new(PathBuf::from("/cache"));
        let by_input = cache.path(b"wasm-function-input-v1:0123");
        assert!(
            by_input.to_string_lossy().ends_with(INPUT_SUFFIX),
            "{by_input:?}"
        );
        let by_ir = cache.path(&[7; 32]);
        assert!(
            !by_ir.to_string_lossy().ends_with(INPUT_SUFFIX),
            "{by_ir:?}"
        );
    }
}
