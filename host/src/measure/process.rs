//! What the kernel says about this process: page faults, peak resident
//! memory, and the peak of its largest child, where Linux tells.

/// Page faults (minor and major) the process has taken, from
/// `/proc/self/stat`, where there is one.
pub(super) fn page_faults() -> Option<u64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name, which is in parentheses and may
    // contain spaces: state is field 3, minflt 10, majflt 12.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let minor: u64 = fields.get(7)?.parse().ok()?;
    let major: u64 = fields.get(9)?.parse().ok()?;
    Some(minor + major)
}

/// The process's peak resident memory since it started (or since the last
/// [`reset_peak_rss`]): `VmHWM` from `/proc/self/status`, where there is
/// one.
pub(super) fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// The peak resident memory of the largest child process waited for.
#[allow(unsafe_code)]
pub(super) fn children_peak_rss_kib() -> Option<u64> {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: `getrusage` fills the zeroed struct it is given and
        // touches nothing else.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        if unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) } == 0 && usage.ru_maxrss > 0
        {
            // Linux counts it in KiB.
            return Some(usage.ru_maxrss as u64);
        }
    }
    None
}

/// The peak before any reset: the highest of what was read before the
/// reset and what was read after it.
pub(super) fn peak_rss_kib_ever() -> Option<u64> {
    let before = PEAK_BEFORE_RESET.load(std::sync::atomic::Ordering::Relaxed);
    peak_rss_kib().map(|now| now.max(before))
}

static PEAK_BEFORE_RESET: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Starts measuring the peak anew (Linux: writing 5 to `clear_refs` resets
/// `VmHWM` to the current resident size); `false` where it cannot.
pub(super) fn reset_peak_rss() -> bool {
    if let Some(peak) = peak_rss_kib() {
        PEAK_BEFORE_RESET.fetch_max(peak, std::sync::atomic::Ordering::Relaxed);
    }
    std::fs::write("/proc/self/clear_refs", "5").is_ok()
}
