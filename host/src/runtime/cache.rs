//! Agents are compiled once per digest: in this process (a map of loaded
//! agents) and across restarts (precompiled artifacts in the cache
//! directory, one file per digest and engine: `<digest>-<engine tag>.cwasm`).
//! Every file there is only a cache: one that is missing, removed by a
//! prune (`prune.rs`) or refused by its seal (`seal.rs`: changed on disk,
//! renamed, copied from another cache) is compiled again from the
//! component's bytes; a refused one is logged.

use std::borrow::Cow;
use std::collections::HashMap;
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use sha2::{Digest, Sha256};
use wasmtime::Engine;
use wasmtime::component::{Component, Linker};

use super::artifact::{artifact_key, write_sealed};
use super::bindings::AgentPre;
use super::cache_dir::CacheDir;
use super::compile::{self, CompileLimits, Compiles};
use super::engine::EngineTag;
use super::error::LoadError;
use super::inspect;
use super::prune;
use super::sandbox::StoreData;
use super::seal::Seal;
use super::{Limits, LoadedAgent};

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
    dir: CacheDir,
    /// Part of every artifact's name and key: which engine and toolchain
    /// it needs.
    engine: EngineTag,
    /// Bytes of artifacts and compiled functions the directory is pruned
    /// to after each compile.
    max_bytes: u64,
    /// What the engine was built for: a compiling child builds the same.
    memory_bytes: usize,
    /// The largest function body a component may have.
    max_function_bytes: usize,
    compile_limits: CompileLimits,
    /// Turns to compile: bounds the compiles running at once.
    compiles: Compiles,
    /// One slot per digest. A slot's lock is held while its agent is
    /// compiled, so that concurrent loads of one version compile it once.
    loaded: Mutex<HashMap<String, Slot>>,
}

/// Where one digest's agent is kept once it is loaded.
type Slot = Arc<Mutex<Option<Arc<LoadedAgent>>>>;

impl Cache {
    pub(super) fn new(dir: CacheDir, engine: EngineTag, limits: &Limits) -> Self {
        Cache {
            dir,
            engine,
            max_bytes: limits.cache_max_bytes,
            memory_bytes: limits.memory_bytes,
            max_function_bytes: limits.max_function_bytes,
            compiles: Compiles::new(limits.compile.at_once),
            compile_limits: limits.compile.clone(),
            loaded: Mutex::new(HashMap::new()),
        }
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
        let key = artifact_key(digest, &self.engine);
        let (component, fresh) = match load_artifact(engine, &self.dir.seal, &key, &path) {
            Some(component) => (component, Fresh::No),
            None => {
                let bytes = bytes()?;
                self.compile_anew(engine, &bytes, &path, &key, max_bytes)?
            }
        };
        let pre = match link(linker, &component) {
            Ok(pre) => pre,
            Err(error) => {
                // Only agents this host can run keep an artifact.
                if fresh != Fresh::No {
                    let _ = fs::remove_file(&path);
                }
                return Err(error);
            }
        };
        if fresh != Fresh::No {
            self.prune(digest);
        }
        Ok(Arc::new(LoadedAgent {
            digest: digest.to_owned(),
            pre,
            spare: Default::default(),
            large: code_bytes(&component) >= LARGE_CODE_BYTES,
        }))
    }

    /// Checks `bytes`, then compiles them (in a child, when this process
    /// compiles in children) into the artifact `path`, in its turn.
    fn compile_anew(
        &self,
        engine: &Engine,
        bytes: &[u8],
        path: &Path,
        key: &[u8],
        max_bytes: usize,
    ) -> Result<(Component, Fresh), LoadError> {
        check_header(bytes, max_bytes)?;
        let shape = inspect::check_shape(bytes)?;
        inspect::check_functions(&shape, self.max_function_bytes)?;
        let _turn = self.compiles.turn();
        match compile::in_child(bytes, path, self.memory_bytes, &self.compile_limits)? {
            compile::Outcome::Written => {
                let component =
                    load_artifact(engine, &self.dir.seal, key, path).ok_or_else(|| {
                        LoadError::Invalid(format!(
                            "the compiler process wrote {}, which this host cannot load",
                            path.display()
                        ))
                    })?;
                Ok((component, Fresh::Written))
            }
            compile::Outcome::InProcess => {
                let component = Component::from_binary(engine, bytes)
                    .map_err(|e| LoadError::Invalid(format!("{e:#}")))?;
                // A failed write only costs a compile after the next restart.
                if let Ok(artifact) = component.serialize() {
                    let _ = write_sealed(path, &self.dir.seal, key, &artifact);
                }
                // Compiling a Python or JavaScript agent allocates hundreds
                // of megabytes on the compiler's threads, freed by now but
                // kept by the allocator; a host that steps for days should
                // not carry them.
                trim_heap();
                Ok((component, Fresh::InProcess))
            }
        }
    }

    fn artifact_path(&self, digest: &str) -> PathBuf {
        self.dir
            .path
            .join(format!("{digest}-{}.cwasm", self.engine.name))
    }

    /// Brings the directory under its bound after a compile wrote to it,
    /// keeping the artifact of `digest` and those of the agents this
    /// process has loaded: they are in use, and this process would compile
    /// them again after a restart. A prune that fails only leaves the
    /// cache larger.
    fn prune(&self, digest: &str) {
        let mut keep: Vec<PathBuf> = {
            let loaded = self.loaded.lock().unwrap_or_else(PoisonError::into_inner);
            loaded.keys().map(|d| self.artifact_path(d)).collect()
        };
        keep.push(self.artifact_path(digest));
        let _ = prune::prune(&self.dir.path, self.max_bytes, &keep);
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

/// Loads the precompiled artifact `path` if it is the genuine one of `key`,
/// or `None` (after removing it) if there is none, its seal refuses it
/// (logged) or wasmtime cannot use it. The whole file is read and its seal
/// checked before any byte of it is deserialized; wasmtime then copies it
/// into memory of its own, so that nothing written to the file afterwards
/// reaches the code. A prune may remove the file at any moment: before the
/// read that is a miss.
fn load_artifact(engine: &Engine, seal: &Seal, key: &[u8], path: &Path) -> Option<Component> {
    // Opened first: the mtime is set on this file, not on one written
    // under its name since.
    let mut file = fs::File::open(path).ok()?;
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes).ok()?;
    let artifact = match seal.open(key, &bytes) {
        Ok(artifact) => artifact,
        Err(why) => {
            tracing::warn!(
                file = %path.display(),
                reason = %why,
                "refused a precompiled agent from the cache; compiling it again"
            );
            let _ = fs::remove_file(path);
            return None;
        }
    };
    // SAFETY: wasmtime trusts a precompiled artifact to be what
    // `Component::serialize` produced; arbitrary bytes could contain
    // arbitrary machine code. These bytes are: their seal was just checked,
    // which only a holder of the cache's key can make, and only
    // `write_sealed` makes one, over an artifact that wasmtime just
    // compiled and validated from the component of this digest, for an
    // engine of these settings and this toolchain (both in the key).
    // wasmtime checks the artifact's engine settings again while loading.
    #[allow(unsafe_code)]
    let loaded = unsafe { Component::deserialize(engine, artifact) };
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
}
