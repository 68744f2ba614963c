//! Swap for the tests that need a guest's pages swapped out: a swap file
//! enabled for the life of a [`Swap`], and [`page_out`], which asks the
//! kernel to push a process's private memory out to it as memory pressure
//! would (`process_madvise(MADV_PAGEOUT)`). Both need root, as CI has; a
//! test that cannot have them fails, it is never skipped.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A swap file in use until dropped.
pub struct Swap {
    file: PathBuf,
}

impl Swap {
    /// Makes a swap file of `mib` MiB at `file` and enables it.
    pub fn enable(file: &Path, mib: u64) -> Swap {
        let _ = fs::remove_file(file);
        let status = Command::new("dd")
            .args(["if=/dev/zero", "bs=1M", "status=none"])
            .arg(format!("of={}", file.display()))
            .arg(format!("count={mib}"))
            .status()
            .unwrap();
        assert!(status.success(), "dd could not make {}", file.display());
        run("chmod", &["600", file.to_str().unwrap()]);
        run("mkswap", &[file.to_str().unwrap()]);
        run("swapon", &[file.to_str().unwrap()]);
        Swap {
            file: file.to_path_buf(),
        }
    }
}

impl Drop for Swap {
    fn drop(&mut self) {
        // The kernel may refuse while it still reads pages back in: a swap
        // file left on would outlive the test, so try again before giving up.
        for _ in 0..20 {
            if Command::new("swapoff")
                .arg(&self.file)
                .status()
                .is_ok_and(|s| s.success())
            {
                let _ = fs::remove_file(&self.file);
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(250));
        }
        eprintln!(
            "swapoff {} failed: turn it off by hand",
            self.file.display()
        );
    }
}

fn run(program: &str, args: &[&str]) {
    let out = Command::new(program).args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{program} {args:?} failed (the test needs root and swap support): {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Bytes of `pid`'s memory that are in swap (`VmSwap`).
pub fn swapped_bytes(pid: u32) -> u64 {
    let status = fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmSwap:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map_or(0, |kb| kb * 1024)
}

/// Asks the kernel to page out every writable private mapping of `pid`:
/// what it can swap of them goes to swap, as under memory pressure. Returns
/// false once the process is gone.
#[allow(unsafe_code)]
pub fn page_out(pid: u32) -> bool {
    let Ok(maps) = fs::read_to_string(format!("/proc/{pid}/maps")) else {
        return false;
    };
    let ranges: Vec<libc::iovec> = maps
        .lines()
        .filter_map(|line| {
            let mut fields = line.split_whitespace();
            let (range, perms) = (fields.next()?, fields.next()?);
            // Private and writable: where a guest's linear memory is.
            if !perms.starts_with("rw") || !perms.ends_with('p') {
                return None;
            }
            let (start, end) = range.split_once('-')?;
            let start = usize::from_str_radix(start, 16).ok()?;
            let end = usize::from_str_radix(end, 16).ok()?;
            Some(libc::iovec {
                iov_base: start as *mut libc::c_void,
                iov_len: end - start,
            })
        })
        .collect();
    // SAFETY: `pidfd_open` takes a pid and flags and returns a new fd or -1.
    let pidfd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid as libc::pid_t, 0) };
    if pidfd < 0 {
        return false;
    }
    for range in &ranges {
        // SAFETY: the iovec describes a range of the other process, which
        // the kernel only reads through the pidfd; `range` outlives the
        // call. One range at a time: a range that changed since /proc was
        // read fails alone, a page-out that did less.
        unsafe {
            libc::syscall(
                libc::SYS_process_madvise,
                pidfd,
                std::ptr::from_ref(range),
                1usize,
                libc::MADV_PAGEOUT,
                0u32,
            );
        }
    }
    // SAFETY: `pidfd` is an fd this function opened and owns.
    unsafe { libc::close(pidfd as libc::c_int) };
    true
}
