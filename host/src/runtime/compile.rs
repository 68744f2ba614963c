//! Compiling a component in a child process of its own, within limits.
//!
//! Cranelift needs hundreds of megabytes to compile a Python or JavaScript
//! agent (about 450 MB for an 18 MB component), and glibc keeps much of it
//! after the compile is done. A host that steps runs for weeks should not
//! carry that, nor die with the compiler: a component built to exhaust the
//! compiler's time or memory, or a bug in it, costs only the child, and the
//! host names what happened and keeps everything it had. So the `wakeful`
//! binary compiles in a child (itself, run as `wakeful compile-component`),
//! which writes the artifact into the cache directory; the host then loads
//! the artifact as it loads any other.
//!
//! Every compile is bounded by `[limits]`: the child limits its own address
//! space (`RLIMIT_AS`, `compile_memory_mib`) before it reads anything, the
//! host kills it (SIGKILL) at `compile_timeout_ms`, and at most
//! `compiles_at_once` children run at once ([`Compiles`]); further compiles
//! wait for a turn, holding nothing but their own agent's slot. Embedders of
//! the library compile in their own process, with only the turn, unless they
//! call [`compile_in_child_processes`].

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{Condvar, Mutex, OnceLock, PoisonError};
use std::time::{Duration, Instant};

use wasmtime::component::Component;

use super::cache_dir;
use super::engine::{self, Purpose};
use super::error::LoadError;

/// The hidden subcommand a child is started with.
pub const SUBCOMMAND: &str = "compile-component";

/// Exit code of a child that refused the component (its reason on stderr).
const REFUSED: i32 = 3;

/// Exit code of a child whose engine would name the artifact differently.
const STALE_ENGINE: i32 = 4;

/// The most of a child's stderr kept for the error it names.
const MAX_MESSAGE_BYTES: usize = 16 << 10;

/// The most warnings of one child relayed to the host's log.
const MAX_WARNINGS: usize = 64;

/// The address space the child's allocator reserves at a time.
const ARENA_RESERVE: &str = "64MiB";

/// How often the host looks whether a child has ended.
const POLL: Duration = Duration::from_millis(10);

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

/// What bounds one compile (`[limits]`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompileLimits {
    /// `compile_timeout_ms`: the child is killed past it.
    pub timeout: Duration,
    /// `compile_memory_mib`, in bytes: the child's address space.
    pub memory_bytes: u64,
    /// `compiles_at_once`: children running at once.
    pub at_once: usize,
}

impl CompileLimits {
    fn timeout_ms(&self) -> u128 {
        self.timeout.as_millis()
    }

    fn memory_mib(&self) -> u64 {
        self.memory_bytes >> 20
    }
}

/// A counting semaphore: at most `at_once` compiles run at once; the others
/// wait for a turn.
#[derive(Debug)]
pub(super) struct Compiles {
    running: Mutex<usize>,
    freed: Condvar,
    at_once: usize,
}

/// A turn to compile, given back when dropped.
pub(super) struct Turn<'a>(&'a Compiles);

impl Compiles {
    pub(super) fn new(at_once: usize) -> Compiles {
        Compiles {
            running: Mutex::new(0),
            freed: Condvar::new(),
            at_once: at_once.max(1),
        }
    }

    /// Waits for a turn.
    pub(super) fn turn(&self) -> Turn<'_> {
        let mut running = self.running.lock().unwrap_or_else(PoisonError::into_inner);
        while *running >= self.at_once {
            running = self
                .freed
                .wait(running)
                .unwrap_or_else(PoisonError::into_inner);
        }
        *running += 1;
        Turn(self)
    }
}

impl Drop for Turn<'_> {
    fn drop(&mut self) {
        let mut running = self
            .0
            .running
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        *running -= 1;
        self.0.freed.notify_one();
    }
}

/// Where a component is compiled.
pub(super) enum Outcome {
    /// A child wrote the artifact to the path it was given.
    Written,
    /// This process compiles in process: the caller compiles.
    InProcess,
}

/// Compiles `bytes` in a child into the artifact `out`, for an engine
/// built as [`engine::build`] builds it with `memory_bytes`, within
/// `limits`. The caller holds a [`Turn`].
pub(super) fn in_child(
    bytes: &[u8],
    out: &Path,
    memory_bytes: usize,
    limits: &CompileLimits,
) -> Result<Outcome, LoadError> {
    let Some(exe) = CHILD_EXE.get() else {
        return Ok(Outcome::InProcess);
    };
    // Handed over as a file, not a pipe: a child that dies while reading
    // cannot take a writer that dies of SIGPIPE (as CLI commands do) with it.
    let input = Input::write(out, bytes)
        .map_err(|e| LoadError::Compiler(format!("writing the component for the compiler: {e}")))?;
    let child = Command::new(exe)
        .arg(SUBCOMMAND)
        .arg("--component")
        .arg(&input.0)
        .arg("--out")
        .arg(out)
        .arg("--memory-bytes")
        .arg(memory_bytes.to_string())
        .arg("--address-space-bytes")
        .arg(limits.memory_bytes.to_string())
        // mimalloc reserves address space a gigabyte at a time by default,
        // which would count against the limit before it is used.
        .env("MIMALLOC_ARENA_RESERVE", ARENA_RESERVE)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| LoadError::Compiler(format!("could not start {}: {e}", exe.display())))?;
    let ended = supervise(child, limits.timeout)
        .map_err(|e| LoadError::Compiler(format!("waiting for the compiler process: {e}")))?;
    drop(input);
    judge(ended, limits)
}

/// How a child ended.
struct Ended {
    status: ExitStatus,
    /// Killed at the deadline.
    timed_out: bool,
    /// What it wrote to stderr (the start of it).
    said: String,
}

/// Waits for `child` until `timeout`, then kills it; relays its warnings
/// (its stdout) to the log meanwhile.
fn supervise(mut child: Child, timeout: Duration) -> std::io::Result<Ended> {
    let stdout = child.stdout.take();
    let stderr = child.stderr.take();
    std::thread::scope(|scope| {
        scope.spawn(move || relay_warnings(stdout));
        let said = scope.spawn(move || read_bounded(stderr));
        let ended = wait_until(&mut child, Instant::now() + timeout);
        if ended.is_err() {
            // The readers end when the child's pipes close.
            let _ = child.kill();
            let _ = child.wait();
        }
        let said = said.join().unwrap_or_default();
        let (status, timed_out) = ended?;
        Ok(Ended {
            status,
            timed_out,
            said: said.trim().to_string(),
        })
    })
}

/// The child's exit status, and whether it was killed (SIGKILL: nothing of
/// its work is kept) for passing `deadline`.
fn wait_until(child: &mut Child, deadline: Instant) -> std::io::Result<(ExitStatus, bool)> {
    loop {
        if let Some(status) = child.try_wait()? {
            return Ok((status, false));
        }
        let now = Instant::now();
        if now >= deadline {
            let _ = child.kill();
            return Ok((child.wait()?, true));
        }
        std::thread::sleep(POLL.min(deadline - now));
    }
}

/// Reads all of `from`, keeping its first [`MAX_MESSAGE_BYTES`].
fn read_bounded(from: Option<impl Read>) -> String {
    let mut kept = Vec::new();
    drain(from, |chunk| {
        let room = MAX_MESSAGE_BYTES.saturating_sub(kept.len());
        kept.extend_from_slice(&chunk[..chunk.len().min(room)]);
    });
    String::from_utf8_lossy(&kept).into_owned()
}

/// Logs each line the child warned (on its stdout): at most
/// [`MAX_WARNINGS`] lines of at most [`MAX_MESSAGE_BYTES`] each. The rest
/// is read and dropped, so that the child never waits on a full pipe.
fn relay_warnings(from: Option<impl Read>) {
    let mut line = Vec::new();
    let mut relayed = 0;
    let mut relay = |line: &mut Vec<u8>| {
        let text = String::from_utf8_lossy(line);
        let text = text.trim();
        if !text.is_empty() && relayed < MAX_WARNINGS {
            relayed += 1;
            tracing::warn!(compiler = text, "the compiler process warned");
        }
        line.clear();
    };
    drain(from, |chunk| {
        for piece in chunk.split_inclusive(|b| *b == b'\n') {
            let room = MAX_MESSAGE_BYTES.saturating_sub(line.len());
            line.extend_from_slice(&piece[..piece.len().min(room)]);
            if piece.ends_with(b"\n") {
                relay(&mut line);
            }
        }
    });
    relay(&mut line);
}

/// Reads `from` to its end, handing each chunk to `each`.
fn drain(from: Option<impl Read>, mut each: impl FnMut(&[u8])) {
    let Some(mut from) = from else { return };
    let mut buf = [0u8; 8192];
    while let Ok(n @ 1..) = from.read(&mut buf) {
        each(&buf[..n]);
    }
}

/// What a child's end means for the load.
fn judge(ended: Ended, limits: &CompileLimits) -> Result<Outcome, LoadError> {
    let Ended {
        status,
        timed_out,
        said,
    } = ended;
    if timed_out {
        return Err(LoadError::OverLimit(format!(
            "compiling took longer than [limits] compile_timeout_ms = {}; the compiler process \
             was killed and nothing was deployed",
            limits.timeout_ms()
        )));
    }
    if status.success() {
        return Ok(Outcome::Written);
    }
    if out_of_memory(&said) {
        return Err(LoadError::OverLimit(format!(
            "compiling needed more memory than [limits] compile_memory_mib = {} allows (the \
             compiler said: {}); nothing was deployed",
            limits.memory_mib(),
            said.lines().next().unwrap_or_default()
        )));
    }
    match status.code() {
        Some(REFUSED) => Err(LoadError::Invalid(said)),
        // Another engine: a different build answering `current_exe` (not
        // `/proc/self/exe`, which is always this build).
        Some(STALE_ENGINE) => Err(LoadError::Compiler(format!(
            "{said}; restart the host so that it runs the build on disk"
        ))),
        _ => Err(LoadError::Invalid(format!(
            "the compiler process {} (it runs under [limits] compile_memory_mib = {}){}; \
             nothing was deployed",
            died(&status),
            limits.memory_mib(),
            if said.is_empty() {
                String::new()
            } else {
                format!(": {said}")
            }
        ))),
    }
}

/// Whether a child's last words say it ran out of address space: the
/// allocator's abort, or an allocation (a mapping, a thread's stack)
/// refused with ENOMEM or EAGAIN.
fn out_of_memory(said: &str) -> bool {
    [
        "memory allocation of",
        "os error 12",
        "Cannot allocate memory",
        "out of memory",
        "failed to spawn thread",
    ]
    .iter()
    .any(|sign| said.contains(sign))
}

/// The component's bytes in a file beside the artifact, removed on drop.
struct Input(PathBuf);

impl Input {
    fn write(out: &Path, bytes: &[u8]) -> std::io::Result<Input> {
        let name = out.file_name().unwrap_or_default().to_string_lossy();
        let path = out.with_file_name(format!(".{name}.{}.wasm", std::process::id()));
        let input = Input(path);
        cache_dir::create_private_file(&input.0)?.write_all(bytes)?;
        Ok(input)
    }
}

impl Drop for Input {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

fn died(status: &ExitStatus) -> String {
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

/// The arguments of the compile child, `wakeful compile-component`: the
/// binaries that compile in child processes (`wakeful`, `wakeful-bench`)
/// take them as a hidden subcommand named [`SUBCOMMAND`].
#[derive(clap::Args, Debug)]
pub struct ChildArgs {
    #[arg(long)]
    pub component: PathBuf,
    #[arg(long)]
    pub out: PathBuf,
    /// The memory limit the host's engine was built for.
    #[arg(long)]
    pub memory_bytes: usize,
    /// The address space this process limits itself to before it reads
    /// anything (`[limits] compile_memory_mib`).
    #[arg(long)]
    pub address_space_bytes: u64,
}

impl ChildArgs {
    /// Runs the child this process was started as, and exits.
    pub fn run(&self) -> ! {
        child(
            &self.component,
            &self.out,
            self.memory_bytes,
            self.address_space_bytes,
        )
    }
}

/// The child: limits its address space to `address_space_bytes`, compiles
/// the component in the file `component` and writes its artifact to `out`
/// (whose directory is the cache directory, with its compiled functions).
/// Exits with [`REFUSED`] and the reason on stderr when wasmtime rejects
/// the component; its warnings go to stdout, which the host logs.
pub fn child(component: &Path, out: &Path, memory_bytes: usize, address_space_bytes: u64) -> ! {
    let _ = tracing_subscriber::fmt()
        .with_writer(std::io::stdout)
        .with_max_level(tracing::Level::WARN)
        .without_time()
        .with_target(false)
        .try_init();
    let code = match limit_address_space(address_space_bytes)
        .and_then(|()| compile_to(component, out, memory_bytes))
    {
        Ok(()) => 0,
        Err((code, message)) => {
            eprintln!("{message}");
            code
        }
    };
    std::process::exit(code)
}

/// Limits this process's address space to `bytes`: every mapping past it
/// fails, and so the compile, rather than the machine's memory.
#[cfg(unix)]
fn limit_address_space(bytes: u64) -> Result<(), (i32, String)> {
    let limit = libc::rlimit {
        rlim_cur: bytes as libc::rlim_t,
        rlim_max: bytes as libc::rlim_t,
    };
    #[allow(unsafe_code)]
    // SAFETY: `setrlimit` reads the struct it is given and changes only this
    // process's limit; no memory is handed over.
    let failed = unsafe { libc::setrlimit(libc::RLIMIT_AS, &limit) } != 0;
    if failed {
        let e = std::io::Error::last_os_error();
        return Err((
            1,
            format!("cannot limit the compiler's memory to {bytes} bytes: {e}"),
        ));
    }
    Ok(())
}

#[cfg(not(unix))]
fn limit_address_space(_bytes: u64) -> Result<(), (i32, String)> {
    Ok(())
}

fn compile_to(component: &Path, out: &Path, memory_bytes: usize) -> Result<(), (i32, String)> {
    let cache_dir = out
        .parent()
        .ok_or_else(|| (1, format!("{} has no directory", out.display())))?;
    let cache = cache_dir::open(cache_dir).map_err(|e| (1, e.to_string()))?;
    let (engine, tag) =
        engine::build(&cache, memory_bytes, Purpose::Compile).map_err(|e| (1, e.to_string()))?;
    let named = out.file_name().unwrap_or_default().to_string_lossy();
    let Some(digest) = named.strip_suffix(&format!("-{}.cwasm", tag.name)) else {
        return Err((
            STALE_ENGINE,
            format!(
                "this build's engine ({}) is not the one that asked for {named}",
                tag.name
            ),
        ));
    };
    crate::failpoint::hit("compile", "");
    let bytes = std::fs::read(component)
        .map_err(|e| (1, format!("reading {}: {e}", component.display())))?;
    let component =
        Component::from_binary(&engine, &bytes).map_err(|e| (REFUSED, format!("{e:#}")))?;
    let artifact = component
        .serialize()
        .map_err(|e| (1, format!("serializing: {e:#}")))?;
    let key = super::artifact::artifact_key(digest, &tag);
    super::artifact::write_sealed(out, &cache.seal, &key, &artifact)
        .map_err(|e| (1, format!("writing {}: {e}", out.display())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_turn_waits_for_one_to_end() {
        let compiles = std::sync::Arc::new(Compiles::new(1));
        let first = compiles.turn();
        let (sent, got) = std::sync::mpsc::channel();
        let waiting = std::sync::Arc::clone(&compiles);
        let second = std::thread::spawn(move || {
            let _turn = waiting.turn();
            sent.send(()).unwrap();
        });
        assert!(
            got.recv_timeout(Duration::from_millis(200)).is_err(),
            "a second compile ran beside the first"
        );
        drop(first);
        got.recv_timeout(Duration::from_secs(10))
            .expect("the second compile never got its turn");
        second.join().unwrap();
    }

    #[test]
    fn running_out_of_memory_is_told_apart() {
        assert!(out_of_memory("memory allocation of 1048576 bytes failed"));
        assert!(out_of_memory(
            "failed to compile: Cannot allocate memory (os error 12)"
        ));
        assert!(!out_of_memory(
            "Invalid input WebAssembly code at offset 12"
        ));
    }
}
