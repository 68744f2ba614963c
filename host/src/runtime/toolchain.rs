//! Which toolchain compiles agents: named in the key of every cached file
//! of compiled code (`cache.rs`, `fn_cache.rs`), so that code compiled by
//! one build of wasmtime, its validator (wasmparser), Cranelift or the
//! vendored patches is never taken by another build, even one that agrees
//! on the engine's settings.

use std::sync::OnceLock;

use sha2::{Digest, Sha256};

/// Every crate `wasmtime` may depend on, with the version and checksum
/// `Cargo.lock` pins, then the vendored patches (written by `build.rs`).
const LOCKED: &str = include_str!(concat!(env!("OUT_DIR"), "/toolchain.txt"));

/// `wakeful 0.1.0; wasmtime 48.0.11; wasmparser 0.254.2; cranelift-codegen
/// 0.135.11; locked 1f2e…` (a digest of [`LOCKED`]): what compiled this
/// process's code, in one line.
pub(super) fn identity() -> &'static str {
    static IDENTITY: OnceLock<String> = OnceLock::new();
    IDENTITY.get_or_init(|| {
        let versions = |name: &str| {
            let found: Vec<&str> = LOCKED
                .lines()
                .filter_map(|line| {
                    let mut words = line.split(' ');
                    (words.next() == Some(name)).then(|| words.next()).flatten()
                })
                .collect();
            if found.is_empty() {
                "?".to_string()
            } else {
                found.join(",")
            }
        };
        format!(
            "wakeful {}; wasmtime {}; wasmparser {}; cranelift-codegen {}; locked {}",
            env!("CARGO_PKG_VERSION"),
            versions("wasmtime"),
            versions("wasmparser"),
            versions("cranelift-codegen"),
            hex::encode(&Sha256::digest(LOCKED.as_bytes())[..16]),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_identity_names_the_compiler_and_its_validator() {
        let identity = identity();
        assert!(identity.contains("wasmtime 48."), "{identity}");
        assert!(identity.contains("wasmparser 0."), "{identity}");
        assert!(identity.contains("cranelift-codegen 0."), "{identity}");
        assert!(!identity.contains('?'), "{identity}");
        assert!(LOCKED.contains("== vendor/crates"), "{LOCKED}");
    }
}
