//! The cache directory, checked before anything in it is trusted.
//!
//! Its files are loaded as native code, so whoever can write there could run
//! code in the host: the directory and its subdirectories must belong to the
//! host's user and be writable by no one else, and every directory above it
//! must be writable by no one but root and that user (or be sticky, as `/tmp`
//! is), or another user could swap the directory for one of their own. What
//! the runtime creates there is private (directories 0700, files 0600). The
//! checks run each time a runtime or a compiler process opens the directory;
//! the seal (`seal.rs`) covers each file between them.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::error::RuntimeError;
use super::fn_cache;
use super::seal::{KEY_FILE, Seal};

/// A checked cache directory and the key its files are sealed under.
#[derive(Debug, Clone)]
pub(super) struct CacheDir {
    pub(super) path: PathBuf,
    pub(super) seal: Arc<Seal>,
}

/// Creates (0700) and checks the cache directory `dir`, its function
/// entries' directory and their shards, and loads (or creates) its key.
pub(super) fn open(dir: &Path) -> Result<CacheDir, RuntimeError> {
    let refused = |problem: String| RuntimeError::CacheRefused {
        path: dir.to_owned(),
        problem,
    };
    let absolute = std::path::absolute(dir).map_err(|e| refused(e.to_string()))?;
    check_ancestors(&absolute).map_err(refused)?;
    create_private_dir(dir).map_err(|e| refused(format!("cannot create it: {e}")))?;
    check_private(dir).map_err(refused)?;
    let functions = dir.join(fn_cache::DIR);
    create_private_dir(&functions)
        .map_err(|e| refused(format!("cannot create {}: {e}", functions.display())))?;
    check_private(&functions).map_err(refused)?;
    let shards = fs::read_dir(&functions)
        .map_err(|e| refused(format!("cannot list {}: {e}", functions.display())))?;
    for shard in shards.flatten() {
        let path = shard.path();
        if path.is_dir() {
            check_private(&path).map_err(refused)?;
        }
    }
    let seal = Seal::load_or_create(&dir.join(KEY_FILE)).map_err(refused)?;
    Ok(CacheDir {
        path: dir.to_owned(),
        seal: Arc::new(seal),
    })
}

/// Creates `dir` and any missing parent, each for this user only.
pub(super) fn create_private_dir(dir: &Path) -> io::Result<()> {
    let mut builder = fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir)
}

/// Creates the file `path`, readable and writable by this user only. Its
/// name is this process's own (its pid is in it): a file already there was
/// left by a process that had the same pid and died, and is replaced.
pub(super) fn create_private_file(path: &Path) -> io::Result<fs::File> {
    match fs::remove_file(path) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e),
        _ => {}
    }
    let mut options = fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(path)
}

/// The user this process runs as.
#[cfg(unix)]
pub(super) fn host_uid() -> u32 {
    #[allow(unsafe_code)]
    // SAFETY: `geteuid` takes no arguments, touches no memory of ours and
    // cannot fail.
    unsafe {
        libc::geteuid()
    }
}

/// Refuses `dir` unless it is a directory of this user that no one else
/// may write.
#[cfg(unix)]
fn check_private(dir: &Path) -> Result<(), String> {
    use std::os::unix::fs::MetadataExt;
    let meta = fs::metadata(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    if !meta.is_dir() {
        return Err(format!("{} is not a directory", dir.display()));
    }
    let me = host_uid();
    let mode = meta.mode() & 0o7777;
    if meta.uid() != me || mode & 0o022 != 0 {
        return Err(format!(
            "{} belongs to uid {} with mode {mode:04o}; it must belong to this host's user \
             (uid {me}) and be writable by no one else, because its files are loaded as native \
             code: `chown {me} {0} && chmod 700 {0}`, or choose another [cache] dir (--cache)",
            dir.display(),
            meta.uid(),
        ));
    }
    Ok(())
}

#[cfg(not(unix))]
fn check_private(_dir: &Path) -> Result<(), String> {
    Ok(())
}

/// Refuses a path under a directory that a user other than root and this
/// one may write, unless it is sticky (as `/tmp` is: there others may add
/// entries but not rename or remove this one).
#[cfg(unix)]
fn check_ancestors(absolute: &Path) -> Result<(), String> {
    use std::os::unix::fs::MetadataExt;
    let me = host_uid();
    for ancestor in absolute.ancestors().skip(1) {
        let Ok(meta) = fs::metadata(ancestor) else {
            // Not there yet: it is created 0700.
            continue;
        };
        let mode = meta.mode() & 0o7777;
        let owner_ok = meta.uid() == 0 || meta.uid() == me;
        let sticky = mode & 0o1000 != 0;
        if !owner_ok || (mode & 0o022 != 0 && !sticky) {
            return Err(format!(
                "the directory above it, {}, belongs to uid {} with mode {mode:04o}: another \
                 user could replace the cache under it; a cache directory must be under \
                 directories only root and this host's user (uid {me}) may write",
                ancestor.display(),
                meta.uid(),
            ));
        }
    }
    Ok(())
}

#[cfg(not(unix))]
fn check_ancestors(_absolute: &Path) -> Result<(), String> {
    Ok(())
}

/// Refuses a key file another user may own, read or write.
#[cfg(unix)]
pub(super) fn check_key_file(path: &Path, meta: &fs::Metadata) -> Result<(), String> {
    use std::os::unix::fs::MetadataExt;
    let me = host_uid();
    let mode = meta.mode() & 0o7777;
    if !meta.is_file() || meta.uid() != me || mode & 0o077 != 0 {
        return Err(format!(
            "the cache's key {} belongs to uid {} with mode {mode:04o}; it must be a file of \
             this host's user (uid {me}) that no one else may read or write (`chmod 600`), or \
             delete it for a new key (the cache is then compiled again)",
            path.display(),
            meta.uid(),
        ));
    }
    Ok(())
}

#[cfg(not(unix))]
pub(super) fn check_key_file(_path: &Path, _meta: &fs::Metadata) -> Result<(), String> {
    Ok(())
}
