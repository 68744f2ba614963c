//! `wakeful check FILE.wasm`: prints what the host would make of a
//! component, and fails when it would refuse it.

use std::path::Path;
use std::sync::Arc;

use anyhow::{Context, Result, bail};

use super::output::print_json;
use crate::check::ComponentCheck;
use crate::config::Config;
use crate::runtime::Runtime;

pub(super) fn component(
    file: &Path,
    no_compile: bool,
    data: &Path,
    config: Config,
    json: bool,
) -> Result<()> {
    let bytes = std::fs::read(file).with_context(|| format!("cannot read {}", file.display()))?;
    let mut check = crate::check::read(&bytes, &config);
    if !json {
        // What reading found is shown before the compile, which takes
        // seconds for a Python or JavaScript component.
        print_read(file, &check);
    }
    if check.accepted() && !no_compile {
        let cache = config.cache_dir(data);
        let limits = config.runtime_limits();
        crate::check::compile(&mut check, &bytes, &config, || {
            Ok(Arc::new(Runtime::new(&cache, limits)?))
        });
    }
    if json {
        print_json(&serde_json::json!({
            "file": file.display().to_string(),
            "accepted": check.accepted(),
            "compiled": check.compile_ms.is_some(),
            "check": &check,
        }))?;
    } else {
        print_compiled(&check, no_compile);
    }
    if !check.accepted() {
        bail!(
            "this host would refuse {}: {}",
            file.display(),
            check.problems.join("; ")
        );
    }
    Ok(())
}

fn print_read(file: &Path, check: &ComponentCheck) {
    println!(
        "component {}: {:.1} MB, sha256:{}",
        file.display(),
        check.size as f64 / 1e6,
        check.digest
    );
    if let Some(shape) = &check.shape {
        println!(
            "contract  {} (this host speaks {})",
            shape.contract.as_deref().unwrap_or("none"),
            check.host_contract
        );
        let refused: Vec<&str> = shape
            .imports
            .iter()
            .filter(|i| !i.provided)
            .map(|i| i.name.as_str())
            .collect();
        if refused.is_empty() {
            println!(
                "imports   {}, each provided by this host",
                shape.imports.len()
            );
        } else {
            println!(
                "imports   {}; not provided: {}",
                shape.imports.len(),
                refused.join(", ")
            );
        }
        println!("exports   {}", shape.exports.join(", "));
    }
    let _ = std::io::Write::flush(&mut std::io::stdout());
}

fn print_compiled(check: &ComponentCheck, no_compile: bool) {
    if let Some(ms) = check.compile_ms {
        println!(
            "compiled  in {:.2} s (kept in the cache: a deploy from this data directory reuses it)",
            ms as f64 / 1000.0
        );
    }
    if let Some(info) = &check.info {
        println!(
            "agent     {} {}: {}",
            info.name, info.version, info.description
        );
        let tools: Vec<String> = check
            .tools
            .iter()
            .map(|t| format!("{} ({})", t.name, t.on_this_host))
            .collect();
        println!(
            "tools     {}",
            if tools.is_empty() {
                "none".to_string()
            } else {
                tools.join(", ")
            }
        );
    }
    for tool in &check.mcp_tools {
        // The server's own hints: shown, never used to authorise.
        let hints = tool
            .annotations
            .as_ref()
            .map_or_else(|| "no annotations".to_string(), |a| a.to_string());
        println!(
            "mcp       {}{}: {hints}",
            tool.name,
            if tool.allowed { "" } else { " (not allowed)" }
        );
    }
    for why in &check.mcp_unreachable {
        println!("mcp       {why}");
    }
    for problem in &check.problems {
        println!("refused   {problem}");
    }
    if check.accepted() && no_compile {
        println!(
            "ok: its imports and exports are what this host runs (not compiled: its info and tools are unchecked)"
        );
    } else if check.accepted() {
        println!("ok: this host would accept it");
    }
}
