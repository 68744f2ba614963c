//! Embeds what `wakeful new` writes: the project templates
//! (`templates/<lang>/`), each language's SDK (for Rust, with `types/`) and
//! the WIT contract, read from the repository at build time so that a new
//! project always gets the SDK this host was built with. Also embeds the
//! toolchain that compiles agents (`toolchain.txt`): every crate `wasmtime`
//! may depend on, as `Cargo.lock` pins it, and the vendored patches, so that
//! compiled code cached by one build is never taken for another's
//! (`runtime/toolchain.rs`).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Directories and files never copied from a template or an SDK.
const SKIP: &[&str] = &["node_modules", "target", ".venv", "__pycache__", "build"];

fn main() {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap())
        .parent()
        .unwrap()
        .to_path_buf();
    // (language, source, destination in the new project)
    let mut files: Vec<(&str, PathBuf, String)> = Vec::new();
    for lang in ["rust", "python", "ts"] {
        let dir = root.join("templates").join(lang);
        // (`templates/rust-sdk` is the Rust SDK's, below.)
        for file in walk(&dir) {
            let rel = rel(&dir, &file);
            files.push((lang, file, rel));
        }
        files.push((lang, root.join("wit/agent.wit"), "wit/agent.wit".into()));
    }
    // The Rust SDK as the crates `wakeful sdk` writes, not copied: its
    // manifest, its sources, the WIT it is bound to, and the crate it
    // takes `ToolError` from, as it is.
    for file in walk(&root.join("templates/rust-sdk")) {
        let rel = rel(&root.join("templates/rust-sdk"), &file);
        files.push(("rust-sdk", file, rel));
    }
    for file in walk(&root.join("guest-sdk/src")) {
        let rel = rel(&root.join("guest-sdk/src"), &file);
        files.push(("rust-sdk", file, format!("wakeful-sdk/src/{rel}")));
    }
    files.push((
        "rust-sdk",
        root.join("wit/agent.wit"),
        "wit/agent.wit".into(),
    ));
    for file in walk(&root.join("types")) {
        let rel = rel(&root.join("types"), &file);
        files.push(("rust-sdk", file, format!("wakeful-types/{rel}")));
    }
    // Packed into a wheel when a project is made, not copied.
    for file in walk(&root.join("guest-sdk/python/wakeful_sdk")) {
        let rel = rel(&root.join("guest-sdk/python/wakeful_sdk"), &file);
        files.push(("python-sdk", file, format!("wakeful_sdk/{rel}")));
    }
    files.push((
        "python",
        root.join("guest-sdk/python/requirements.lock"),
        "requirements.lock".into(),
    ));
    // Packed into a tarball when a project is made, not copied.
    files.push((
        "ts-sdk",
        root.join("guest-sdk/ts/package.json"),
        "wakeful-sdk/package.json".into(),
    ));
    for file in walk(&root.join("guest-sdk/ts/src")) {
        let rel = rel(&root.join("guest-sdk/ts/src"), &file);
        files.push(("ts-sdk", file, format!("wakeful-sdk/src/{rel}")));
    }

    let mut out = String::from("&[\n");
    for (lang, source, dest) in &files {
        writeln!(
            out,
            "    ({lang:?}, {dest:?}, include_bytes!({:?})),",
            source.display().to_string()
        )
        .unwrap();
    }
    out.push(']');
    let target = PathBuf::from(std::env::var("OUT_DIR").unwrap()).join("scaffold_files.rs");
    std::fs::write(target, out).unwrap();

    toolchain(&root);

    for dir in [
        "templates",
        "guest-sdk/src",
        "types",
        "guest-sdk/python",
        "guest-sdk/ts",
        "wit",
    ] {
        println!("cargo:rerun-if-changed={}", root.join(dir).display());
    }
    for (_, source, _) in &files {
        println!("cargo:rerun-if-changed={}", source.display());
    }
}

/// Every file below `dir`, sorted, skipping [`SKIP`] and compiled Python.
fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return found;
    };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for path in entries {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if SKIP.contains(&name.as_str()) || name.ends_with(".pyc") || name.ends_with(".wasm") {
            continue;
        }
        if path.is_dir() {
            found.extend(walk(&path));
        } else {
            found.push(path);
        }
    }
    found
}

fn rel(base: &Path, file: &Path) -> String {
    file.strip_prefix(base)
        .unwrap()
        .to_string_lossy()
        .replace('\\', "/")
}

/// Writes `toolchain.txt`: one line per package in the dependency closure
/// of `wasmtime` in `Cargo.lock` (`name version checksum-or-source`,
/// sorted), then `vendor/crates` and every vendored patch.
fn toolchain(root: &Path) {
    let lock_path = root.join("Cargo.lock");
    let lock = std::fs::read_to_string(&lock_path).unwrap();
    let packages = lock_packages(&lock);
    let mut wanted: Vec<usize> = packages
        .iter()
        .enumerate()
        .filter(|(_, p)| p.name == "wasmtime")
        .map(|(i, _)| i)
        .collect();
    assert!(!wanted.is_empty(), "Cargo.lock has no wasmtime");
    let mut seen = vec![false; packages.len()];
    while let Some(i) = wanted.pop() {
        if std::mem::replace(&mut seen[i], true) {
            continue;
        }
        for dep in &packages[i].dependencies {
            // `name`, or `name version` when several versions are locked.
            let mut words = dep.split_whitespace();
            let name = words.next().unwrap_or_default();
            let version = words.next();
            wanted.extend(packages.iter().enumerate().filter_map(|(j, p)| {
                (p.name == name && version.is_none_or(|v| p.version == v)).then_some(j)
            }));
        }
    }
    let mut lines: Vec<String> = packages
        .iter()
        .zip(&seen)
        .filter(|(_, seen)| **seen)
        .map(|(p, _)| format!("{} {} {}", p.name, p.version, p.pinned))
        .collect();
    lines.sort();
    let mut out = lines.join("\n");
    let vendor = root.join("vendor");
    let mut vendored = vec![vendor.join("crates")];
    vendored.extend(walk(&vendor.join("patches")));
    for file in &vendored {
        let text = std::fs::read_to_string(file).unwrap_or_default();
        write!(out, "\n== {}\n{text}", rel(root, file)).unwrap();
        println!("cargo:rerun-if-changed={}", file.display());
    }
    let target = PathBuf::from(std::env::var("OUT_DIR").unwrap()).join("toolchain.txt");
    std::fs::write(target, out).unwrap();
    println!("cargo:rerun-if-changed={}", lock_path.display());
    println!(
        "cargo:rerun-if-changed={}",
        vendor.join("patches").display()
    );
}

/// One `[[package]]` of `Cargo.lock`.
#[derive(Default)]
struct LockedPackage {
    name: String,
    version: String,
    /// The registry checksum, else the source, else `path`.
    pinned: String,
    dependencies: Vec<String>,
}

/// The packages of a `Cargo.lock` (format version 3 or 4).
fn lock_packages(lock: &str) -> Vec<LockedPackage> {
    let mut packages: Vec<LockedPackage> = Vec::new();
    let mut in_dependencies = false;
    for line in lock.lines() {
        let line = line.trim();
        if line == "[[package]]" {
            packages.push(LockedPackage {
                pinned: "path".into(),
                ..LockedPackage::default()
            });
            in_dependencies = false;
            continue;
        }
        let Some(package) = packages.last_mut() else {
            continue;
        };
        let quoted = |s: &str| s.trim().trim_end_matches(',').trim_matches('"').to_string();
        if in_dependencies {
            if line == "]" {
                in_dependencies = false;
            } else {
                package.dependencies.push(quoted(line));
            }
        } else if let Some(v) = line.strip_prefix("name = ") {
            package.name = quoted(v);
        } else if let Some(v) = line.strip_prefix("version = ") {
            package.version = quoted(v);
        } else if let Some(v) = line.strip_prefix("checksum = ") {
            package.pinned = quoted(v);
        } else if let Some(v) = line.strip_prefix("source = ") {
            if package.pinned == "path" {
                package.pinned = quoted(v);
            }
        } else if line.starts_with("dependencies = [") {
            in_dependencies = !line.ends_with(']');
        }
    }
    packages
}
