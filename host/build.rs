//! Embeds what `wakeful new` writes: the project templates
//! (`templates/<lang>/`), each language's SDK and the WIT contract, read
//! from the repository at build time so that a new project always gets the
//! SDK this host was built with.

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
        for file in walk(&dir) {
            let rel = rel(&dir, &file);
            files.push((lang, file, rel));
        }
        files.push((lang, root.join("wit/agent.wit"), "wit/agent.wit".into()));
    }
    for file in walk(&root.join("guest-sdk/src")) {
        let rel = rel(&root.join("guest-sdk/src"), &file);
        files.push(("rust", file, format!("wakeful-sdk/src/{rel}")));
    }
    for file in walk(&root.join("guest-sdk/python/wakeful_sdk")) {
        let rel = rel(&root.join("guest-sdk/python/wakeful_sdk"), &file);
        files.push(("python", file, format!("wakeful_sdk/{rel}")));
    }
    files.push((
        "python",
        root.join("guest-sdk/python/requirements.lock"),
        "requirements.lock".into(),
    ));
    files.push((
        "ts",
        root.join("guest-sdk/ts/package.json"),
        "wakeful-sdk/package.json".into(),
    ));
    for file in walk(&root.join("guest-sdk/ts/src")) {
        let rel = rel(&root.join("guest-sdk/ts/src"), &file);
        files.push(("ts", file, format!("wakeful-sdk/src/{rel}")));
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

    for dir in [
        "templates",
        "guest-sdk/src",
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
