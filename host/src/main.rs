// Every function fits on a screen (the threshold is in clippy.toml).
#![warn(clippy::too_many_lines)]

use wakeful::cli::Command;

/// A step allocates a few hundred small blocks (JSON values, SQL
/// parameters, strings for rows) on worker threads; glibc's allocator spent
/// about a tenth of a step's instructions on them, mimalloc about a third
/// of that.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let cli = wakeful::cli::parse();
    // Compilers need hundreds of megabytes a long-lived host should not
    // keep, and may crash on a hostile component: they get a process each
    // (a short-lived bench may be told to keep them).
    let in_process = matches!(
        cli.command,
        Command::Bench {
            compile_in_process: true,
            ..
        }
    );
    if !in_process {
        wakeful::runtime::compile::compile_in_child_processes();
    }
    if !matches!(cli.command, Command::Serve { .. } | Command::Work { .. }) {
        die_quietly_on_a_closed_pipe();
    }
    if let Err(e) = wakeful::cli::run(cli) {
        eprintln!("error: {e:#}");
        std::process::exit(1);
    }
}

/// Rust ignores SIGPIPE, so `println!` to a pipe whose reader has gone
/// (`wakeful runs | head -1`) panics. A command that only prints ends as
/// other Unix tools do instead: killed by SIGPIPE, silently. Long-lived
/// commands keep ignoring it: `serve` writes to sockets, and a client
/// hanging up must not kill the server, nor a closed log pipe a worker.
#[allow(unsafe_code)]
fn die_quietly_on_a_closed_pipe() {
    #[cfg(unix)]
    // SAFETY: called at the start of `main`, before any other thread
    // exists; SIG_DFL is a valid disposition for SIGPIPE.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}
