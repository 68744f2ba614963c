//! The SDKs as packages, built from the SDK sources this host embeds: a
//! wheel (`wakeful_sdk-VERSION-py3-none-any.whl`), an npm tarball
//! (`wakeful-sdk-VERSION.tgz`) and the Rust crates (`rust/wakeful-sdk`,
//! with the WIT it is bound to and `rust/wakeful-types`, for a path
//! dependency: Cargo installs no crate from a file), each versioned with
//! the WIT contract the host speaks. All are byte-for-byte reproducible:
//! every file is stored in a fixed order with a fixed time, so a package's
//! hash names its contents.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde::Serialize;
use sha2::{Digest, Sha256};

use super::FILES;

/// One package, ready to write.
pub struct Package {
    pub file_name: String,
    pub bytes: Vec<u8>,
}

/// What `wakeful sdk` wrote.
#[derive(Debug, Serialize)]
pub struct Written {
    pub version: String,
    pub files: Vec<PathBuf>,
}

/// The version of the WIT package `wakeful:agent` the host embeds: the
/// version of both SDK packages.
pub fn version() -> String {
    let wit = embedded("python", "wit/agent.wit")
        .and_then(|bytes| std::str::from_utf8(bytes).ok())
        .unwrap_or_default();
    wit.lines()
        .find_map(|line| line.trim().strip_prefix("package wakeful:agent@"))
        .map(|rest| rest.trim_end_matches(';').to_owned())
        .expect("the embedded WIT names its package version")
}

fn embedded(lang: &str, path: &str) -> Option<&'static [u8]> {
    FILES
        .iter()
        .find(|(l, p, _)| *l == lang && *p == path)
        .map(|(_, _, bytes)| *bytes)
}

/// Embedded files of `lang` below `prefix`, as (path below it, contents).
fn below(
    lang: &'static str,
    prefix: &'static str,
) -> impl Iterator<Item = (&'static str, &'static [u8])> {
    FILES
        .iter()
        .filter(move |(l, _, _)| *l == lang)
        .filter_map(move |(_, path, bytes)| Some((path.strip_prefix(prefix)?, *bytes)))
}

/// The Python SDK as a pure-Python wheel.
pub fn wheel() -> Package {
    let version = version();
    let info = format!("wakeful_sdk-{version}.dist-info");
    let mut files: Vec<(String, Vec<u8>)> = below("python-sdk", "wakeful_sdk/")
        .map(|(path, bytes)| (format!("wakeful_sdk/{path}"), bytes.to_vec()))
        .collect();
    let metadata = format!(
        "Metadata-Version: 2.1\nName: wakeful-sdk\nVersion: {version}\nSummary: Write wakeful \
         agents in Python: a step function over JSON state, typed wakes, typed tools.\n\
         License: Apache-2.0\nRequires-Python: >=3.10\n"
    );
    files.push((format!("{info}/METADATA"), metadata.into_bytes()));
    let wheel =
        "Wheel-Version: 1.0\nGenerator: wakeful\nRoot-Is-Purelib: true\nTag: py3-none-any\n";
    files.push((format!("{info}/WHEEL"), wheel.as_bytes().to_vec()));
    let mut record = String::new();
    for (path, bytes) in &files {
        let digest = base64_url(&Sha256::digest(bytes));
        let _ = writeln!(record, "{path},sha256={digest},{}", bytes.len());
    }
    let _ = writeln!(record, "{info}/RECORD,,");
    files.push((format!("{info}/RECORD"), record.into_bytes()));
    Package {
        file_name: format!("wakeful_sdk-{version}-py3-none-any.whl"),
        bytes: archive::zip(&files),
    }
}

/// The TypeScript SDK as an npm package tarball (`npm install FILE`).
pub fn npm_tarball() -> Package {
    let version = version();
    let manifest =
        embedded("ts-sdk", "wakeful-sdk/package.json").expect("the TS SDK's package.json");
    let mut manifest: serde_json::Value =
        serde_json::from_slice(manifest).expect("the TS SDK's package.json is JSON");
    manifest["version"] = serde_json::Value::String(version.clone());
    let mut files = vec![(
        "package/package.json".to_owned(),
        (serde_json::to_string_pretty(&manifest).expect("JSON") + "\n").into_bytes(),
    )];
    files.extend(
        below("ts-sdk", "wakeful-sdk/src/")
            .map(|(path, bytes)| (format!("package/src/{path}"), bytes.to_vec())),
    );
    Package {
        file_name: format!("wakeful-sdk-{version}.tgz"),
        bytes: archive::gzip(&archive::tar(&files)),
    }
}

/// The directory below a package directory the Rust crates are in.
const RUST_DIR: &str = "rust";

/// The Rust SDK's files, as (path below [`RUST_DIR`], contents): the
/// `wakeful-sdk` crate at the WIT's version, the WIT it binds
/// (`wit/agent.wit`, which the crate's bindings read as `../wit`), and
/// `wakeful-types`.
pub fn rust_crates() -> Vec<(String, Vec<u8>)> {
    let version = version();
    below("rust-sdk", "")
        .map(|(path, bytes)| {
            let bytes = match path {
                "wakeful-sdk/Cargo.toml" => String::from_utf8_lossy(bytes)
                    .replace("{{sdk_version}}", &version)
                    .into_bytes(),
                _ => bytes.to_vec(),
            };
            (path.to_owned(), bytes)
        })
        .collect()
}

/// Writes the Rust crates below `dir/rust`; what it wrote, by crate.
pub fn write_rust(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let root = dir.join(RUST_DIR);
    for (path, bytes) in rust_crates() {
        let path = root.join(path);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(&path, bytes)?;
    }
    Ok(vec![root.join("wakeful-sdk"), root.join("wakeful-types")])
}

/// Writes every package into `dir` (made if missing).
pub fn write(dir: &Path) -> std::io::Result<Written> {
    std::fs::create_dir_all(dir)?;
    let mut files = Vec::new();
    for package in [wheel(), npm_tarball()] {
        let path = dir.join(&package.file_name);
        std::fs::write(&path, &package.bytes)?;
        files.push(path);
    }
    files.extend(write_rust(dir)?);
    Ok(Written {
        version: version(),
        files,
    })
}

/// What an npm lock file says of a tarball: `sha512-` and the base64 of
/// its SHA-512.
pub fn npm_integrity(bytes: &[u8]) -> String {
    let digest = sha2::Sha512::digest(bytes);
    let mut text = base64(&digest, STANDARD);
    while !text.len().is_multiple_of(4) {
        text.push('=');
    }
    format!("sha512-{text}")
}

const STANDARD: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const URL_SAFE: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// Base64 with the URL-safe alphabet and no padding, as wheel `RECORD`s
/// write digests.
fn base64_url(bytes: &[u8]) -> String {
    base64(bytes, URL_SAFE)
}

/// Base64 in `alphabet`, without padding.
fn base64(bytes: &[u8], alphabet: &[u8; 64]) -> String {
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, b)| n | (u32::from(*b) << (16 - 8 * i)));
        for i in 0..=chunk.len() {
            out.push(char::from(alphabet[((n >> (18 - 6 * i)) & 63) as usize]));
        }
    }
    out
}

/// The archive formats the packages need, written with stored (not
/// compressed) contents: the SDKs are small, and stored bytes are the same
/// on every build.
mod archive {
    /// CRC-32 (IEEE), as zip and gzip check their contents.
    pub fn crc32(bytes: &[u8]) -> u32 {
        let mut crc = !0u32;
        for byte in bytes {
            crc ^= u32::from(*byte);
            for _ in 0..8 {
                crc = if crc & 1 == 1 {
                    (crc >> 1) ^ 0xEDB8_8320
                } else {
                    crc >> 1
                };
            }
        }
        !crc
    }

    fn u16le(out: &mut Vec<u8>, n: usize) {
        out.extend_from_slice(&u16::try_from(n).expect("fits a zip field").to_le_bytes());
    }

    fn u32le(out: &mut Vec<u8>, n: usize) {
        out.extend_from_slice(&u32::try_from(n).expect("fits a zip field").to_le_bytes());
    }

    /// A zip of `files`, stored, dated 1980-01-01.
    pub fn zip(files: &[(String, Vec<u8>)]) -> Vec<u8> {
        let mut out = Vec::new();
        let mut central = Vec::new();
        for (name, bytes) in files {
            let offset = out.len();
            let crc = crc32(bytes) as usize;
            // Version 2.0, no flags, stored, 00:00 on 1980-01-01.
            let common = |to: &mut Vec<u8>| {
                for n in [20, 0, 0, 0, 0x21] {
                    u16le(to, n);
                }
                u32le(to, crc);
                u32le(to, bytes.len());
                u32le(to, bytes.len());
                u16le(to, name.len());
                u16le(to, 0);
            };
            out.extend_from_slice(&0x0403_4b50u32.to_le_bytes());
            common(&mut out);
            out.extend_from_slice(name.as_bytes());
            out.extend_from_slice(bytes);
            central.extend_from_slice(&0x0201_4b50u32.to_le_bytes());
            // Made by Unix, version 2.0.
            u16le(&mut central, 0x0314);
            common(&mut central);
            for n in [0, 0, 0] {
                u16le(&mut central, n);
            }
            // -rw-r--r--
            u32le(&mut central, 0o100_644 << 16);
            u32le(&mut central, offset);
            central.extend_from_slice(name.as_bytes());
        }
        let at = out.len();
        out.extend_from_slice(&central);
        out.extend_from_slice(&0x0605_4b50u32.to_le_bytes());
        for n in [0, 0, files.len(), files.len()] {
            u16le(&mut out, n);
        }
        u32le(&mut out, central.len());
        u32le(&mut out, at);
        u16le(&mut out, 0);
        out
    }

    /// A ustar archive of `files`: regular files, mode 644, time 0.
    pub fn tar(files: &[(String, Vec<u8>)]) -> Vec<u8> {
        let mut out = Vec::new();
        for (name, bytes) in files {
            let mut header = [0u8; 512];
            let mut put =
                |at: usize, field: &[u8]| header[at..at + field.len()].copy_from_slice(field);
            assert!(name.len() < 100, "tar name too long: {name}");
            put(0, name.as_bytes());
            put(100, b"0000644\0");
            put(108, b"0000000\0");
            put(116, b"0000000\0");
            put(124, format!("{:011o}\0", bytes.len()).as_bytes());
            put(136, b"00000000000\0");
            put(156, b"0");
            put(257, b"ustar\0");
            put(263, b"00");
            // The checksum is summed with its own field as spaces.
            header[148..156].copy_from_slice(b"        ");
            let sum: u32 = header.iter().map(|b| u32::from(*b)).sum();
            header[148..156].copy_from_slice(format!("{sum:06o}\0 ").as_bytes());
            out.extend_from_slice(&header);
            out.extend_from_slice(bytes);
            out.resize(out.len().div_ceil(512) * 512, 0);
        }
        out.resize(out.len() + 1024, 0);
        out
    }

    /// `bytes` in gzip, as stored deflate blocks.
    pub fn gzip(bytes: &[u8]) -> Vec<u8> {
        let mut out = vec![0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255];
        let mut blocks = bytes.chunks(0xffff).peekable();
        if blocks.peek().is_none() {
            out.extend_from_slice(&[1, 0, 0, 0xff, 0xff]);
        }
        while let Some(block) = blocks.next() {
            out.push(u8::from(blocks.peek().is_none()));
            let len = u16::try_from(block.len()).expect("a block is at most 0xffff bytes");
            out.extend_from_slice(&len.to_le_bytes());
            out.extend_from_slice(&(!len).to_le_bytes());
            out.extend_from_slice(block);
        }
        out.extend_from_slice(&crc32(bytes).to_le_bytes());
        let size = u32::try_from(bytes.len() % (1 << 32)).expect("reduced modulo 2^32");
        out.extend_from_slice(&size.to_le_bytes());
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc32_and_base64_match_their_standard_vectors() {
        assert_eq!(archive::crc32(b"123456789"), 0xCBF4_3926);
        assert_eq!(base64_url(b"\xfb\xff"), "-_8");
        assert_eq!(base64_url(b"foobar"), "Zm9vYmFy");
        // `echo -n abc | openssl dgst -sha512 -binary | base64`
        assert_eq!(
            npm_integrity(b"abc"),
            "sha512-3a81oZNherrMQXNJriBBMRLm+k6JqX6iCp7u5ktV05ohkpkqJ0/BqDa6PCOj/uu9RU1EI2Q86A4qmslPpUyknw=="
        );
    }

    #[test]
    fn packages_are_versioned_with_the_wit_and_reproducible() {
        let version = version();
        assert!(
            semver::Version::parse(&version).is_ok(),
            "{version:?} is no version"
        );
        let (wheel, tarball) = (wheel(), npm_tarball());
        assert_eq!(
            wheel.file_name,
            format!("wakeful_sdk-{version}-py3-none-any.whl")
        );
        assert_eq!(tarball.file_name, format!("wakeful-sdk-{version}.tgz"));
        assert_eq!(wheel.bytes, super::wheel().bytes);
        assert_eq!(tarball.bytes, super::npm_tarball().bytes);
        let crates = rust_crates();
        let manifest = crates
            .iter()
            .find(|(path, _)| path == "wakeful-sdk/Cargo.toml")
            .map(|(_, bytes)| String::from_utf8_lossy(bytes).into_owned())
            .unwrap();
        assert!(
            manifest.contains(&format!("\nversion = \"{version}\"\n")),
            "{manifest}"
        );
        assert!(!manifest.contains("{{"), "{manifest}");
    }
}
