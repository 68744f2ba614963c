//! The file of a precompiled agent in the cache directory: the key its
//! seal binds it to, and how it is written, whole or not at all. Both the
//! cache (compiling in process) and a compiler process write it.

use std::fs;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

use super::cache_dir;
use super::engine::EngineTag;
use super::seal::Seal;

/// Tells temporary files of concurrent writers apart.
static TEMP_COUNTER: AtomicU64 = AtomicU64::new(0);

/// The full key of the artifact of the component `digest` for the engine
/// `engine`: what its seal binds it to.
pub(super) fn artifact_key(digest: &str, engine: &EngineTag) -> Vec<u8> {
    format!("artifact {digest}; {}", engine.full).into_bytes()
}

/// Writes the sealed file of `contents` under `key` to `path`, so that
/// readers see either no file or the whole file: a temporary file (0600),
/// flushed to disk, renamed into place.
pub(super) fn write_sealed(
    path: &Path,
    seal: &Seal,
    key: &[u8],
    contents: &[u8],
) -> std::io::Result<()> {
    let n = TEMP_COUNTER.fetch_add(1, Ordering::Relaxed);
    let file_name = path.file_name().unwrap_or_default().to_string_lossy();
    let temp = path.with_file_name(format!(".{file_name}.{}.{n}.tmp", std::process::id()));
    let result = (|| {
        let mut file = cache_dir::create_private_file(&temp)?;
        seal.write(&mut file, key, contents)?;
        file.sync_all()?;
        fs::rename(&temp, path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&temp);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn artifacts_are_written_whole_and_private() {
        let dir = std::env::temp_dir().join(format!("wakeful-cache-test-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let seal = Seal::from_key([3; 32]);
        let path = dir.join("a.cwasm");
        write_sealed(&path, &seal, b"k", b"one").unwrap();
        write_sealed(&path, &seal, b"k", b"two").unwrap();
        assert_eq!(seal.open(b"k", &fs::read(&path).unwrap()), Ok(&b"two"[..]));
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 1);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600, "{mode:o}");
        }
        fs::remove_dir_all(&dir).unwrap();
    }
}
