//! `wakeful serve` started on a benchmark's store, as an operator starts
//! it: a new process of the `wakeful` binary, timed from spawn to the line
//! that says it listens, and its resident memory read once it is at rest.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use wakeful::measure::Scratch;

use crate::figures::ms;

/// How long the process is left to settle before its memory is read.
const AT_REST: Duration = Duration::from_secs(2);

/// Milliseconds from spawn to listening of `wakeful` (`None`: the one
/// beside this executable), and `VmRSS` at rest (KiB), or why it could not
/// be measured.
pub(super) fn measure(
    wakeful: Option<&Path>,
    scratch: &Scratch,
) -> Result<(f64, Option<u64>), String> {
    let exe = match wakeful {
        Some(path) => path.to_path_buf(),
        None => beside_this_executable()?,
    };
    let t = Instant::now();
    let mut child = Command::new(&exe)
        .arg("--data")
        .arg(&scratch.dir)
        .args(["serve", "--listen", "127.0.0.1:0", "--workers", "1"])
        .env_remove("WAKEFUL_STORE")
        .env_remove("WAKEFUL_CONFIG")
        .env_remove("WAKEFUL_LISTEN")
        .env("WAKEFUL_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start {} serve: {e}", exe.display()))?;
    let measured = (|| {
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| "serve has no standard output".to_string())?;
        let mut line = String::new();
        BufReader::new(stdout)
            .read_line(&mut line)
            .map_err(|e| format!("reading serve's output: {e}"))?;
        if !line.starts_with("listening on ") {
            return Err(format!(
                "serve did not start (it printed {:?}; see `wakeful serve` on the store)",
                line.trim()
            ));
        }
        let start_ms = ms(t.elapsed());
        std::thread::sleep(AT_REST);
        Ok((start_ms, rss_kib(child.id())))
    })();
    let _ = child.kill();
    let _ = child.wait();
    measured
}

/// `wakeful` in this executable's directory, where `cargo build` puts both.
fn beside_this_executable() -> Result<PathBuf, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find this executable: {e}"))?;
    let wakeful = exe.with_file_name("wakeful");
    if wakeful.is_file() {
        Ok(wakeful)
    } else {
        Err(format!(
            "{} is not built: build it (cargo build -p wakeful) or name it with --wakeful",
            wakeful.display()
        ))
    }
}

fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}
