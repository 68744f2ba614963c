//! `wakeful cache`: what the compile cache holds, and pruning it. Neither
//! opens the store: the cache is only files, and every one of them can be
//! compiled again from the store's component bytes.

use std::path::Path;

use anyhow::{Context, Result};
use serde_json::json;

use super::CacheCommand;
use super::output::print_json;
use crate::config::Config;
use crate::runtime::prune::{self, Tally, Usage};

pub(super) fn cache(op: CacheCommand, data: &Path, config: &Config, json: bool) -> Result<()> {
    let dir = config.cache_dir(data);
    match op {
        CacheCommand::Show => {
            let usage = prune::usage(&dir)
                .with_context(|| format!("cannot read the cache {}", dir.display()))?;
            show(&dir, config.cache.max_bytes, &usage, json)
        }
        CacheCommand::Prune { max_bytes } => {
            let max_bytes = max_bytes.unwrap_or(config.cache.max_bytes);
            // Keeps nothing: which artifacts other processes use is not
            // known here, and a removed one is only compiled again.
            let pruned = prune::prune(&dir, max_bytes, &[])
                .with_context(|| format!("cannot prune the cache {}", dir.display()))?;
            if pruned.not_removed.files > 0 {
                eprintln!(
                    "warning: {} file(s) ({}) could not be removed; check the permissions of {}",
                    pruned.not_removed.files,
                    size(pruned.not_removed.bytes),
                    dir.display()
                );
            }
            if json {
                return print_json(&json!({"dir": dir, "pruned": pruned}));
            }
            for name in &pruned.removed_artifacts {
                println!("removed {name}");
            }
            let removed = &pruned.removed;
            println!(
                "removed {}, {} and {} stale temporary file(s)",
                tally(removed.artifacts, "artifact(s)"),
                tally(removed.functions, "function entries"),
                pruned.stale_temps.files
            );
            println!(
                "left {}: {} of at most {}",
                dir.display(),
                size(pruned.left.bytes()),
                size(max_bytes)
            );
            Ok(())
        }
    }
}

fn show(dir: &Path, max_bytes: u64, usage: &Usage, json: bool) -> Result<()> {
    if json {
        return print_json(&json!({
            "dir": dir,
            "exists": dir.is_dir(),
            "max_bytes": max_bytes,
            "bytes": usage.bytes(),
            "artifacts": usage.artifacts,
            "functions": usage.functions,
        }));
    }
    let missing = if dir.is_dir() {
        ""
    } else {
        " (not created yet)"
    };
    println!("dir        {}{missing}", dir.display());
    println!(
        "artifacts  {}",
        tally(usage.artifacts, "precompiled agents")
    );
    println!(
        "functions  {}",
        tally(usage.functions, "compiled functions")
    );
    println!(
        "total      {} of at most {} ([cache] max_bytes)",
        size(usage.bytes()),
        size(max_bytes)
    );
    Ok(())
}

fn tally(t: Tally, what: &str) -> String {
    format!("{} {what} ({})", t.files, size(t.bytes))
}

/// Bytes for people: exact below a KiB, else one decimal in binary units.
fn size(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    if bytes < 1024 {
        return format!("{bytes} B");
    }
    let mut value = bytes as f64 / 1024.0;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    format!("{value:.1} {}", UNITS[unit])
}

#[cfg(test)]
mod tests {
    use super::size;

    #[test]
    fn sizes_read_in_binary_units() {
        assert_eq!(size(0), "0 B");
        assert_eq!(size(1023), "1023 B");
        assert_eq!(size(1536), "1.5 KiB");
        assert_eq!(size(2 << 30), "2.0 GiB");
    }
}
