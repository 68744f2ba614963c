//! Errors of setting up the runtime and of loading an agent.

/// Why an agent's bytes cannot be loaded. Each message names what was wrong
/// and what to do about it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LoadError {
    /// Not WebAssembly at all.
    #[error(
        "not a WebAssembly file (no `\\0asm` header); build the agent for wasm32-wasip2 and deploy the .wasm it produces"
    )]
    NotWasm,
    /// A core module rather than a component.
    #[error(
        "this is a core WebAssembly module, not a component; build for wasm32-wasip2 (or run `wasm-tools component new`) to get a component"
    )]
    CoreModule,
    /// Larger than the runtime accepts.
    #[error(
        "the component is {size} bytes; the limit is {limit} bytes (build in release mode, or raise the component size limit)"
    )]
    TooLarge { size: usize, limit: usize },
    /// Its imports or exports are not those of an agent this host runs
    /// (read off its bytes before compiling); every problem is named.
    #[error("the component is not an agent this host can run: {0}")]
    Refused(String),
    /// A component wasmtime rejects, or whose exports or import types do not
    /// match `wit/agent.wit`.
    #[error("invalid agent component: {0}")]
    Invalid(String),
    /// The stored bytes of an agent version could not be read.
    #[error("could not read the agent's bytes: {0}")]
    Unavailable(String),
    /// Compiling it passed one of the compile limits of `[limits]`, which
    /// the message names with its value.
    #[error("the component is refused: {0}")]
    OverLimit(String),
    /// The compiler process could not be run; nothing is wrong with the
    /// component, and a later load may succeed.
    #[error("the compiler could not run: {0}")]
    Compiler(String),
}

/// Why the runtime could not be set up.
#[derive(Debug, thiserror::Error)]
pub enum RuntimeError {
    /// wasmtime refused the engine configuration or the host's imports.
    #[error("could not configure the WebAssembly engine: {0}")]
    Engine(String),
    /// The cache directory for compiled agents is not safe to load code
    /// from, or cannot be used.
    #[error("the compiled-agent cache directory {path} is refused: {problem}")]
    CacheRefused {
        path: std::path::PathBuf,
        problem: String,
    },
    /// A helper thread could not be started.
    #[error("could not start the runtime's epoch thread: {0}")]
    Thread(String),
}
