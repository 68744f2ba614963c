//! Compiling a component in a child process of its own.
//!
//! Cranelift needs hundreds of megabytes to compile a Python or JavaScript
//! agent (about 450 MB for an 18 MB component), and glibc keeps much of it
//! after the compile is done. A host that steps runs for weeks should not
//! carry that, nor die with the compiler: a component built to exhaust the
//! compiler's memory, or a bug in it, kills only the child, and the host
//! names what happened and keeps everything it had. So the `wakeful`
//! binary compiles in a child (itself, run as `wakeful compile-component`),
//! which writes the artifact into the cache directory; the host then maps
//! the artifact as it maps any other. Embedders of the library compile in
//! their own process unless they call [`compile_in_child_processes`].

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use wasmtime::component::Component;

use super::engine;
use super::error::LoadError;

/// The hidden subcommand a child is started with.
pub const SUBCOMMAND: &str = "compile-component";

/// Exit code of a child that refused the component (its reason on stderr).
const REFUSED: i32 = 3;

/// Exit code of a child whose engine would name the artifact differently.
const STALE_ENGINE: i32 = 4;

/// The most of a child's stderr kept for the error it names.
const MAX_MESSAGE_BYTES: u64 = 16 << 10;

/// The executable children are started from; unset: compile in process.
static CHILD_EXE: OnceLock<PathBuf> = OnceLock::new();

/// From now on this process compiles components in child processes of the
/// running executable, which must be the `wakeful` binary. Called by its
/// `main`.
pub fn compile_in_child_processes() {
    // `/proc/self/exe` is the running binary even once a new build has
    // replaced it on disk: the child then has this process's engine.
    let exe = if cfg!(target_os = "linux") {
        Some(PathBuf::from("/proc/self/exe"))
    } else {
        std::env::current_exe().ok()
    };
    if let Some(exe) = exe {
        let _ = CHILD_EXE.set(exe);
    }
}

/// Whether this process was told to compile in children.
pub(super) fn wanted() -> bool {
    CHILD_EXE.get().is_some()
}

/// Where a component is compiled.
pub(super) enum Outcome {
    /// A child wrote the artifact to the path it was given.
    Written,
    /// No child could be started: the caller compiles in process.
    NoChild(String),
}

/// Compiles `bytes` in a child into the artifact `out`, for an engine
/// built as [`engine::build`] builds it with `memory_bytes`.
pub(super) fn in_child(
    bytes: &[u8],
    out: &Path,
    memory_bytes: usize,
) -> Result<Outcome, LoadError> {
    let Some(exe) = CHILD_EXE.get() else {
        return Ok(Outcome::NoChild("compiling in this process".into()));
    };
    // Handed over as a file, not a pipe: a child that dies while reading
    // cannot take a writer that dies of SIGPIPE (as CLI commands do) with it.
    let input = Input::write(out, bytes)
        .map_err(|e| LoadError::Invalid(format!("writing the component for the compiler: {e}")))?;
    let mut child = match Command::new(exe)
        .arg(SUBCOMMAND)
        .arg("--component")
        .arg(&input.0)
        .arg("--out")
        .arg(out)
        .arg("--memory-bytes")
        .arg(memory_bytes.to_string())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
    {
        Ok(child) => child,
        Err(e) => {
            return Ok(Outcome::NoChild(format!(
                "could not start {}: {e}",
                exe.display()
            )));
        }
    };
    let mut said = String::new();
    if let Some(stderr) = child.stderr.take() {
        let _ = stderr.take(MAX_MESSAGE_BYTES).read_to_string(&mut said);
    }
    let status = child
        .wait()
        .map_err(|e| LoadError::Invalid(format!("waiting for the compiler process: {e}")))?;
    drop(input);
    let said = said.trim();
    match status.code() {
        Some(0) => Ok(Outcome::Written),
        Some(REFUSED) => Err(LoadError::Invalid(said.to_string())),
        // Another engine (a different build answering `/proc/self/exe`
        // cannot happen; `current_exe` elsewhere can): compile here.
        Some(STALE_ENGINE) => Ok(Outcome::NoChild(said.to_string())),
        _ => Err(LoadError::Invalid(format!(
            "the compiler process {}{}; nothing was deployed",
            died(&status),
            if said.is_empty() {
                String::new()
            } else {
                format!(": {said}")
            }
        ))),
    }
}

/// The component's bytes in a file beside the artifact, removed on drop.
struct Input(PathBuf);

impl Input {
    fn write(out: &Path, bytes: &[u8]) -> std::io::Result<Input> {
        let name = out.file_name().unwrap_or_default().to_string_lossy();
        let path = out.with_file_name(format!(".{name}.{}.wasm", std::process::id()));
        let input = Input(path);
        std::fs::File::create(&input.0)?.write_all(bytes)?;
        Ok(input)
    }
}

impl Drop for Input {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

fn died(status: &std::process::ExitStatus) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            let name = match signal {
                libc::SIGKILL => " (SIGKILL: out of memory?)",
                libc::SIGSEGV => " (SIGSEGV)",
                libc::SIGABRT => " (SIGABRT)",
                _ => "",
            };
            return format!("was killed by signal {signal}{name}");
        }
    }
    format!("failed ({status})")
}

/// The child: compiles the component in the file `component` and writes
/// its artifact to `out` (whose directory is the cache directory, with its
/// compiled functions). Exits with [`REFUSED`] and the reason on stderr
/// when wasmtime rejects the component.
pub fn child(component: &Path, out: &Path, memory_bytes: usize) -> ! {
    let code = match compile_to(component, out, memory_bytes) {
        Ok(()) => 0,
        Err((code, message)) => {
            eprintln!("{message}");
            code
        }
    };
    std::process::exit(code)
}

fn compile_to(component: &Path, out: &Path, memory_bytes: usize) -> Result<(), (i32, String)> {
    let cache_dir = out
        .parent()
        .ok_or_else(|| (1, format!("{} has no directory", out.display())))?;
    let engine = engine::build(cache_dir, memory_bytes).map_err(|e| (1, e.to_string()))?;
    let key = engine::compatibility_key(&engine);
    let named = out.file_name().unwrap_or_default().to_string_lossy();
    if !named.ends_with(&format!("-{key}.cwasm")) {
        return Err((
            STALE_ENGINE,
            format!("this build's engine ({key}) is not the one that asked for {named}"),
        ));
    }
    crate::failpoint::hit("compile", "");
    let bytes = std::fs::read(component)
        .map_err(|e| (1, format!("reading {}: {e}", component.display())))?;
    let component =
        Component::from_binary(&engine, &bytes).map_err(|e| (REFUSED, format!("{e:#}")))?;
    let artifact = component
        .serialize()
        .map_err(|e| (1, format!("serializing: {e:#}")))?;
    super::cache::write_atomically(out, &artifact)
        .map_err(|e| (1, format!("writing {}: {e}", out.display())))
}
