//! Agents are compiled once per digest: in this process (a map of loaded
//! agents) and across restarts (precompiled artifacts in the cache
//! directory, one file per digest and engine configuration). Every file
//! there is only a cache: one that is missing, damaged or removed by a
//! prune (`prune.rs`) is compiled again from the component's bytes.

use std::borrow::Cow;
use std::collections::HashMap;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use sha2::{Digest, Sha256};
use wasmtime::Engine;
use wasmtime::component::{Component, Linker};

use super::LoadedAgent;
use super::bindings::AgentPre;
use super::compile;
use super::engine;
use super::error::{LoadError, RuntimeError};
use super::inspect;
use super::prune;
use super::sandbox::StoreData;

/// Lowercase hex SHA-256 of `bytes`: the identity of an agent version.
pub fn digest(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

/// Cheap checks before compiling: size, magic number, component layer.
pub fn check_header(bytes: &[u8], limit: usize) -> Result<(), LoadError> {
    if bytes.len() > limit {
        return Err(LoadError::TooLarge {
            size: bytes.len(),
            limit,
        });
    }
    if bytes.len() < 8 || &bytes[..4] != b"\0asm" {
        return Err(LoadError::NotWasm);
    }
    // The 4 bytes after the magic are a version and a layer: layer 0 is a
    // core module, layer 1 a component.
    match bytes[6..8] {
        [0, 0] => Err(LoadError::CoreModule),
        [1, 0] => Ok(()),
        _ => Err(LoadError::Invalid(
            "unknown WebAssembly binary layer; is this file from a newer toolchain?".into(),
        )),
    }
}

/// The compiled agents of this process, and their artifacts on disk.
pub(super) struct Cache {
    dir: PathBuf,
    /// Part of every artifact's file name: which engine settings it needs.
    engine_key: String,
    /// Bytes of artifacts and compiled functions the directory is pruned
    /// to after each compile.
    max_bytes: u64,
    /// What the engine was built for: a compiling child builds the same.
    memory_bytes: usize,
    /// One slot per digest. A slot's lock is held while its agent is
    /// compiled, so that concurrent loads of one version compile it once.
    loaded: Mutex<HashMap<String, Slot>>,
}

/// Where one digest's agent is kept once it is loaded.
type Slot = Arc<Mutex<Option<Arc<LoadedAgent>>>>;

/// Tells temporary files of concurrent writers apart.
static TEMP_COUNTER: AtomicU64 = AtomicU64::new(0);

impl Cache {
    pub(super) fn new(
        dir: &Path,
        engine: &Engine,
        max_bytes: u64,
        memory_bytes: usize,
    ) -> Result<Self, RuntimeError> {
        private_dir(dir).map_err(|source| RuntimeError::CacheDir {
            path: dir.to_owned(),
            source,
        })?;
        Ok(Cache {
            dir: dir.to_owned(),
            engine_key: engine::compatibility_key(engine),
            max_bytes,
            memory_bytes,
            loaded: Mutex::new(HashMap::new()),
        })
    }

    /// The loaded agent with this digest, compiling (or loading its
    /// artifact) on first use. `bytes` is called only if there is no
    /// artifact yet.
    pub(super) fn load<'b>(
        &self,
        linker: &Linker<StoreData>,
        digest: &str,
        max_bytes: usize,
        bytes: impl FnOnce() -> Result<Cow<'b, [u8]>, LoadError>,
    ) -> Result<Arc<LoadedAgent>, LoadError> {
        // The digest names a file, so it must be nothing but a digest.
        if digest.len() != 64
            || !digest
                .bytes()
                .all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
        {
            return Err(LoadError::Invalid(format!(
                "`{digest}` is not a lowercase hex SHA-256 digest"
            )));
        }
        let slot = {
            let mut loaded = self.loaded.lock().unwrap_or_else(PoisonError::into_inner);
            Arc::clone(loaded.entry(digest.to_owned()).or_default())
        };
        let mut guard = slot.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(agent) = &*guard {
            return Ok(Arc::clone(agent));
        }
        match self.compile(linker, digest, max_bytes, bytes) {
            Ok(agent) => {
                *guard = Some(Arc::clone(&agent));
                Ok(agent)
            }
            Err(error) => {
                // Forget the empty slot, so that bad uploads do not pile up.
                let mut loaded = self.loaded.lock().unwrap_or_else(PoisonError::into_inner);
                if loaded.get(digest).is_some_and(|s| Arc::ptr_eq(s, &slot)) {
                    loaded.remove(digest);
                }
                Err(error)
            }
        }
    }

    fn compile<'b>(
        &self,
        linker: &Linker<StoreData>,
        digest: &str,
        max_bytes: usize,
        bytes: impl FnOnce() -> Result<Cow<'b, [u8]>, LoadError>,
    ) -> Result<Arc<LoadedAgent>, LoadError> {
        let engine = linker.engine();
        let path = self.artifact_path(digest);
        let (component, fresh) = match load_artifact(engine, &path) {
            Some(component) => (component, Fresh::No),
            None => {
                let bytes = bytes()?;
                check_header(&bytes, max_bytes)?;
                inspect::check_shape(&bytes)?;
                match compile::in_child(&bytes, &path, self.memory_bytes)? {
                    compile::Outcome::Written => {
                        let component = load_artifact(engine, &path).ok_or_else(|| {
                            LoadError::Invalid(format!(
                                "the compiler process wrote {}, which this host cannot load",
                                path.display()
                            ))
                        })?;
                        (component, Fresh::Written)
                    }
                    compile::Outcome::NoChild(why) => {
                        if compile::wanted() {
                            tracing::warn!(%why, "compiling in this process");
                        }
                        let component = Component::from_binary(engine, &bytes)
                            .map_err(|e| LoadError::Invalid(format!("{e:#}")))?;
                        (component, Fresh::InProcess)
                    }
                }
            }
        };
        let pre = match link(linker, &component) {
            Ok(pre) => pre,
            Err(error) => {
                // Only agents this host can run keep an artifact.
                if fresh == Fresh::Written {
                    let _ = fs::remove_file(&path);
                }
                return Err(error);
            }
        };
        match fresh {
            Fresh::No => {}
            Fresh::Written => self.prune(digest),
            Fresh::InProcess => {
                // A failed write only costs a compile after the next restart.
                let _ = component
                    .serialize()
                    .map_err(|e| std::io::Error::other(e.to_string()))
                    .and_then(|artifact| write_atomically(&path, &artifact));
                self.prune(digest);
                // Compiling a Python or JavaScript agent allocates hundreds
                // of megabytes on the compiler's threads, freed by now but
                // kept by the allocator; a host that steps for days should
                // not carry them.
                trim_heap();
            }
        }
        Ok(Arc::new(LoadedAgent {
            digest: digest.to_owned(),
            pre,
            spare: Default::default(),
            large: code_bytes(&component) >= LARGE_CODE_BYTES,
        }))
    }

    fn artifact_path(&self, digest: &str) -> PathBuf {
        self.dir.join(format!("{digest}-{}.cwasm", self.engine_key))
    }

    /// Brings the directory under its bound after a compile wrote to it,
    /// keeping the artifact of `digest` and those of the agents this
    /// process has loaded: they are in use, and removing a mapped file
    /// frees no disk until it is unmapped. A prune that fails only leaves
    /// the cache larger.
    fn prune(&self, digest: &str) {
        let mut keep: Vec<PathBuf> = {
            let loaded = self.loaded.lock().unwrap_or_else(PoisonError::into_inner);
            loaded.keys().map(|d| self.artifact_path(d)).collect()
        };
        keep.push(self.artifact_path(digest));
        let _ = prune::prune(&self.dir, self.max_bytes, &keep);
    }
}

/// Pre-links a compiled agent against the host's imports.
fn link(
    linker: &Linker<StoreData>,
    component: &Component,
) -> Result<AgentPre<StoreData>, LoadError> {
    let pre = linker.instantiate_pre(component).map_err(|e| {
        LoadError::Invalid(format!(
            "its imports do not match what this host provides: {e:#}"
        ))
    })?;
    AgentPre::new(pre).map_err(|e| {
        LoadError::Invalid(format!(
            "it does not export the `agent` world of wit/agent.wit (info, step, migrate): {e:#}"
        ))
    })
}

/// Whether a load compiled the agent, and where.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Fresh {
    /// Its artifact was already in the cache.
    No,
    /// A child process compiled it into the cache.
    Written,
    /// This process compiled it.
    InProcess,
}

/// Gives the heap's free memory back to the system, where the allocator
/// keeps it otherwise (glibc: in every thread's arena, until that arena's
/// top is free). Does nothing elsewhere.
pub fn trim_heap() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    #[allow(unsafe_code)]
    // SAFETY: `malloc_trim` only releases memory that glibc's allocator
    // holds as free; it takes the allocator's own locks and is safe to call
    // from any thread at any time. Its result (whether anything was
    // released) is not needed.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// Creates the cache directory (and missing parents) for this user only
/// (0700): its artifacts are loaded as native code, so whoever can write
/// there runs code in the host.
fn private_dir(dir: &Path) -> std::io::Result<()> {
    let mut builder = fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir)
}

/// Loads a precompiled artifact, or `None` (after removing it) if there is
/// none or wasmtime cannot use it. A prune may remove the file at any
/// moment: before the load that is a miss; after it, the mapping keeps the
/// pages.
fn load_artifact(engine: &Engine, path: &Path) -> Option<Component> {
    // Opened first: the mtime is set on this file, not on one written
    // under its name since.
    let file = fs::File::open(path).ok()?;
    // SAFETY: wasmtime trusts a precompiled artifact to be what
    // `Component::serialize` produced; arbitrary bytes could contain arbitrary
    // machine code. This file is sound to load because only `load` above
    // writes files of this name: it serializes a component that wasmtime just
    // compiled and validated from the bytes of this digest, fsyncs it and
    // renames it into place, so a partly written file is never visible under
    // this name. The name includes the engine's compatibility key, and wasmtime
    // checks the artifact's engine settings again while loading. The cache
    // directory belongs to the host: whoever can write there can already
    // replace the host's own binary.
    #[allow(unsafe_code)]
    let loaded = unsafe { Component::deserialize_file(engine, path) };
    match loaded {
        Ok(component) => {
            prune::touch(&file);
            Some(component)
        }
        Err(_) => {
            let _ = fs::remove_file(path);
            None
        }
    }
}

/// Writes `contents` to `path` so that readers see either no file or the
/// whole file: write a temporary file, flush it to disk, rename it.
pub(super) fn write_atomically(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    let n = TEMP_COUNTER.fetch_add(1, Ordering::Relaxed);
    let file_name = path.file_name().unwrap_or_default().to_string_lossy();
    let temp = path.with_file_name(format!(".{file_name}.{}.{n}.tmp", std::process::id()));
    let result = (|| {
        let mut file = fs::File::create(&temp)?;
        file.write_all(contents)?;
        file.sync_all()?;
        fs::rename(&temp, path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&temp);
    }
    result
}

/// Compiled code past which an agent counts as large: a Python or
/// JavaScript agent's interpreter compiles to tens of megabytes and takes
/// a millisecond or more to instantiate (a dozen core instances linked,
/// thousands of table elements filled); a Rust agent's is well under one
/// megabyte and instantiates in tens of microseconds.
const LARGE_CODE_BYTES: usize = 4 << 20;

/// The size of `component`'s compiled code in memory.
fn code_bytes(component: &Component) -> usize {
    let code = component.image_range();
    (code.end as usize).saturating_sub(code.start as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_are_checked_before_compiling() {
        assert_eq!(check_header(b"hello world", 100), Err(LoadError::NotWasm));
        assert_eq!(check_header(b"\0asm", 100), Err(LoadError::NotWasm));
        assert_eq!(
            check_header(b"\0asm\x01\0\0\0", 100),
            Err(LoadError::CoreModule)
        );
        assert_eq!(check_header(b"\0asm\x0d\0\x01\0", 100), Ok(()));
        assert_eq!(
            check_header(&[0; 101], 100),
            Err(LoadError::TooLarge {
                size: 101,
                limit: 100
            })
        );
    }

    #[test]
    fn artifacts_are_written_whole() {
        let dir = std::env::temp_dir().join(format!("wakeful-cache-test-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.cwasm");
        write_atomically(&path, b"one").unwrap();
        write_atomically(&path, b"two").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"two");
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 1);
        fs::remove_dir_all(&dir).unwrap();
    }
}
