//! `wakeful new NAME --lang rust|python|ts`: a new agent project that
//! builds with one command and passes its own unit test. The files are the
//! repository's `templates/<lang>/`, that language's SDK (for Rust, with the
//! `types/` crate it uses) and the WIT contract, embedded at build time (see
//! `build.rs`), with `{{name}}` and `{{name_snake}}` replaced in texts and
//! file names. The project gets the SDK as the package `wakeful sdk` writes,
//! in `sdk/` (`packages`): a wheel its build script installs, an npm
//! tarball its package.json and lock file name, or the Rust crates its
//! Cargo.toml names by path and version.

use std::path::{Path, PathBuf};

use serde::Serialize;

pub mod packages;

/// (language, path in the project, contents). The SDKs' files are
/// `rust-sdk`'s, `python-sdk`'s and `ts-sdk`'s: a new project gets them
/// packed (`packages`).
static FILES: &[(&str, &str, &[u8])] = include!(concat!(env!("OUT_DIR"), "/scaffold_files.rs"));

/// The languages an agent can be written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    Rust,
    Python,
    #[value(alias = "typescript")]
    Ts,
}

impl Lang {
    fn key(self) -> &'static str {
        match self {
            Lang::Rust => "rust",
            Lang::Python => "python",
            Lang::Ts => "ts",
        }
    }

    /// The commands that test, build and check the new project, in order.
    pub fn next_steps(self, name: &str) -> Vec<String> {
        let snake = name.replace('-', "_");
        match self {
            Lang::Rust => vec![
                "cargo test".into(),
                "cargo build --release --target wasm32-wasip2".into(),
                format!("wakeful check target/wasm32-wasip2/release/{snake}.wasm"),
                format!("wakeful deploy target/wasm32-wasip2/release/{snake}.wasm --grant kv"),
            ],
            Lang::Python => vec![
                "./build.sh test".into(),
                "./build.sh".into(),
                format!("wakeful check {snake}.wasm"),
                format!("wakeful deploy {snake}.wasm --grant kv"),
            ],
            Lang::Ts => vec![
                "npm install".into(),
                "npm test".into(),
                "npm run build".into(),
                format!("wakeful check {snake}.wasm"),
                format!("wakeful deploy {snake}.wasm --grant kv"),
            ],
        }
    }
}

/// What `new` wrote.
#[derive(Debug, Serialize)]
pub struct Created {
    pub name: String,
    pub lang: Lang,
    pub dir: PathBuf,
    pub files: Vec<String>,
    pub next_steps: Vec<String>,
}

/// Why `new` wrote nothing.
#[derive(Debug, thiserror::Error)]
pub enum NewError {
    #[error(
        "`{0}` cannot name an agent: use a letter, then letters, digits, `-` or `_` (at most 64)"
    )]
    BadName(String),
    #[error("{0} already exists and is not empty: choose another name or --dir")]
    NotEmpty(PathBuf),
    #[error("cannot write {path}: {source}")]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// Whether `name` can name an agent (as `deploy` requires) and a package
/// in every language's toolchain.
fn valid_name(name: &str) -> bool {
    name.len() <= 64
        && name.starts_with(|c: char| c.is_ascii_alphabetic())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// Writes a new project for agent `name` in `lang` into `dir` (default:
/// `./NAME`), which must be missing or empty.
pub fn new_project(name: &str, lang: Lang, dir: Option<&Path>) -> Result<Created, NewError> {
    if !valid_name(name) {
        return Err(NewError::BadName(name.to_owned()));
    }
    let dir = dir.map_or_else(|| PathBuf::from(name), Path::to_path_buf);
    if std::fs::read_dir(&dir).is_ok_and(|mut entries| entries.next().is_some()) {
        return Err(NewError::NotEmpty(dir));
    }
    let snake = name.replace('-', "_");
    // The SDK package a Python or TypeScript project installs, and what a
    // TypeScript project's lock file says of it.
    let package = match lang {
        Lang::Rust => None,
        Lang::Python => Some(packages::wheel()),
        Lang::Ts => Some(packages::npm_tarball()),
    };
    let integrity = package
        .as_ref()
        .map(|p| packages::npm_integrity(&p.bytes))
        .unwrap_or_default();
    let version = packages::version();
    let fill = |text: &str| {
        text.replace("{{name_snake}}", &snake)
            .replace("{{name}}", name)
            .replace("{{sdk_version}}", &version)
            .replace("{{sdk_integrity}}", &integrity)
    };
    let mut files = Vec::new();
    for (_, rel, contents) in FILES.iter().filter(|(l, _, _)| *l == lang.key()) {
        let rel = fill(rel);
        let path = dir.join(&rel);
        let contents = match std::str::from_utf8(contents) {
            Ok(text) => fill(text).into_bytes(),
            Err(_) => contents.to_vec(),
        };
        let write = || -> std::io::Result<()> {
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent)?;
            }
            std::fs::write(&path, &contents)?;
            // Scripts stay runnable: `./build.sh` is the build command.
            #[cfg(unix)]
            if rel.ends_with(".sh") {
                use std::os::unix::fs::PermissionsExt;
                std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755))?;
            }
            Ok(())
        };
        write().map_err(|source| NewError::Write {
            path: path.clone(),
            source,
        })?;
        files.push(rel);
    }
    let sdk = dir.join("sdk");
    let written = match package {
        Some(package) => {
            let path = sdk.join(&package.file_name);
            std::fs::create_dir_all(&sdk)
                .and_then(|()| std::fs::write(&path, &package.bytes))
                .map(|()| vec![path])
        }
        None => packages::write_rust(&sdk),
    };
    let written = written.map_err(|source| NewError::Write {
        path: sdk.clone(),
        source,
    })?;
    for path in written {
        let rel = path.strip_prefix(&dir).unwrap_or(&path);
        files.push(rel.to_string_lossy().into_owned());
    }
    Ok(Created {
        name: name.to_owned(),
        lang,
        next_steps: lang.next_steps(name),
        dir,
        files,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_language_has_a_template_the_sdk_and_the_contract() {
        for lang in [Lang::Rust, Lang::Python, Lang::Ts] {
            let files: Vec<&str> = FILES
                .iter()
                .filter(|(l, _, _)| *l == lang.key())
                .map(|(_, rel, _)| *rel)
                .collect();
            assert!(files.contains(&"wit/agent.wit"), "{lang:?}: {files:?}");
            assert!(files.contains(&"README.md"), "{lang:?}: {files:?}");
            let sdk = match lang {
                Lang::Rust => "Cargo.toml",
                Lang::Python => "requirements.lock",
                Lang::Ts => "package-lock.json",
            };
            assert!(files.contains(&sdk), "{lang:?}: {files:?}");
            assert!(
                !files.iter().any(|f| f.starts_with("wakeful-")),
                "{lang:?}: the SDK is packed, not copied: {files:?}"
            );
        }
        let crates = packages::rust_crates();
        let crates: Vec<&str> = crates.iter().map(|(rel, _)| rel.as_str()).collect();
        for file in [
            "wakeful-sdk/Cargo.toml",
            "wakeful-sdk/src/lib.rs",
            "wit/agent.wit",
            "wakeful-types/Cargo.toml",
            "wakeful-types/src/lib.rs",
        ] {
            assert!(crates.contains(&file), "{file}: {crates:?}");
        }
    }

    /// A new TypeScript project pins the toolchain the repository's agents
    /// are built and tested with, in its package.json and its lock file.
    #[test]
    fn the_typescript_template_pins_the_tested_toolchain() {
        let pins = |text: &str| -> serde_json::Value {
            let json: serde_json::Value = serde_json::from_str(text).unwrap();
            json["devDependencies"].clone()
        };
        let tested = include_str!("../../agents/ts/package.json");
        let template = include_str!("../../templates/ts/package.json");
        assert_eq!(pins(tested), pins(template));
        let lock = |text: &str| -> serde_json::Value {
            let mut json: serde_json::Value = serde_json::from_str(text).unwrap();
            let packages = json["packages"].as_object_mut().unwrap();
            // The project itself and the link to the SDK differ by design.
            packages.retain(|path, _| {
                path.starts_with("node_modules/") && !path.ends_with("wakeful-sdk")
            });
            json["packages"].clone()
        };
        assert_eq!(
            lock(include_str!("../../agents/ts/package-lock.json")),
            lock(include_str!("../../templates/ts/package-lock.json")),
            "regenerate templates/ts/package-lock.json after changing agents/ts's"
        );
    }

    #[test]
    fn names_are_checked() {
        for bad in ["", "1st", "a b", "../x", "a/b", "ü"] {
            assert!(!valid_name(bad), "{bad}");
        }
        for good in ["order-refund", "a", "Triage_2"] {
            assert!(valid_name(good), "{good}");
        }
    }
}
