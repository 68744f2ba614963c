//! Sealed cache files: native code on disk that only this cache's key
//! could have written.
//!
//! Every file of the cache directory that holds native code (a precompiled
//! agent, a compiled function) carries the full key it was written for and
//! an HMAC-SHA256 of that key and its contents under the host key, a secret
//! of 32 random bytes kept in the cache directory (`key`, mode 0600). A file
//! is opened only if its MAC is right and its key is the one asked for,
//! before any byte of it is deserialized or mapped as code: a file changed
//! on disk, renamed to another key's name, copied from another cache or
//! written by anything without the key is refused.
//!
//! The key lives in the cache directory, not in one host's data directory,
//! because every host that shares a cache directory (`[cache] dir`) must
//! read and write the same sealed files, and it is exactly as private as
//! the entries it seals: the directory's owner and mode are checked before
//! the key is read (`cache_dir.rs`). With the default cache directory
//! (`<data>/cache`) it is inside the data directory.
//!
//! A sealed file is:
//!
//! | bytes | what |
//! |---|---|
//! | 8 | [`MAGIC`] |
//! | 8 | the host key's id: the first 8 bytes of a SHA-256 of the key |
//! | 4 | the length `n` of the entry's key, little-endian |
//! | n | the entry's key |
//! | 32 | HMAC-SHA256 under the host key of all the bytes above and the contents |
//! | … | the contents |

use std::fmt;
use std::io::{self, Read, Write};
use std::path::Path;

use sha2::{Digest, Sha256};

/// The name of the host key's file in the cache directory.
pub(super) const KEY_FILE: &str = "key";

/// How a sealed file starts (and which format it is).
const MAGIC: &[u8; 8] = b"wkfseal1";

/// Bytes of the host key.
const KEY_BYTES: usize = 32;

/// Bytes of a MAC.
const MAC_BYTES: usize = 32;

/// The longest entry key a sealed file may carry.
const MAX_ENTRY_KEY: usize = 4096;

/// The host key, and what seals and opens files with it.
pub(super) struct Seal {
    key: [u8; KEY_BYTES],
    /// Tells a file sealed under another key from a damaged one, for the
    /// log; not a secret (a hash of the key).
    key_id: [u8; 8],
}

impl fmt::Debug for Seal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Seal")
            .field("key_id", &hex::encode(self.key_id))
            .finish_non_exhaustive()
    }
}

/// Why a file was not opened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Refusal {
    /// Too short, or without the seal's header: not written by a host.
    NotSealed,
    /// Sealed under another host key: copied from another cache, or the
    /// key was replaced since.
    OtherHostKey,
    /// Its bytes are not those that were sealed: changed on disk.
    BadMac,
    /// A genuine file of another entry, under this entry's name: renamed
    /// or copied over it.
    OtherEntry(String),
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::NotSealed => write!(f, "it is not a sealed cache file"),
            Refusal::OtherHostKey => write!(
                f,
                "it was sealed under another host key (copied from another cache?)"
            ),
            Refusal::BadMac => write!(
                f,
                "its MAC does not match its contents: it was changed after it was written"
            ),
            Refusal::OtherEntry(key) => write!(
                f,
                "it holds the entry of another key ({key}): it was renamed or copied over this one"
            ),
        }
    }
}

impl Seal {
    #[cfg(test)]
    pub(super) fn from_key(key: [u8; KEY_BYTES]) -> Seal {
        let key_id = key_id(&key);
        Seal { key, key_id }
    }

    /// The host key in `path`, created first (32 random bytes, mode 0600,
    /// linked into place whole) when there is none. An existing file must
    /// belong to this user, be readable by no one else, and hold 32 bytes.
    pub(super) fn load_or_create(path: &Path) -> Result<Seal, String> {
        if !path.exists() {
            create_key_file(path)?;
        }
        let file = std::fs::File::open(path)
            .map_err(|e| format!("cannot open the cache's key {}: {e}", path.display()))?;
        let meta = file
            .metadata()
            .map_err(|e| format!("cannot read the cache's key {}: {e}", path.display()))?;
        super::cache_dir::check_key_file(path, &meta)?;
        let mut read = Vec::new();
        file.take(KEY_BYTES as u64 + 1)
            .read_to_end(&mut read)
            .map_err(|e| format!("cannot read the cache's key {}: {e}", path.display()))?;
        let key: [u8; KEY_BYTES] = read.as_slice().try_into().map_err(|_| {
            format!(
                "the cache's key {} is not {KEY_BYTES} bytes long; delete it to make a new one \
                 (the cache is then compiled again)",
                path.display()
            )
        })?;
        Ok(Seal {
            key_id: key_id(&key),
            key,
        })
    }

    /// The header of the sealed file of `contents` under `entry_key`: write
    /// it, then the contents.
    pub(super) fn header(&self, entry_key: &[u8], contents: &[u8]) -> Vec<u8> {
        assert!(entry_key.len() <= MAX_ENTRY_KEY, "a cache key is short");
        let mut header = Vec::with_capacity(20 + entry_key.len() + MAC_BYTES);
        header.extend_from_slice(MAGIC);
        header.extend_from_slice(&self.key_id);
        header.extend_from_slice(&(entry_key.len() as u32).to_le_bytes());
        header.extend_from_slice(entry_key);
        let mac = hmac_sha256(&self.key, &[&header, contents]);
        header.extend_from_slice(&mac);
        header
    }

    /// Writes the sealed file of `contents` under `entry_key` to `out`.
    pub(super) fn write(
        &self,
        out: &mut impl Write,
        entry_key: &[u8],
        contents: &[u8],
    ) -> io::Result<()> {
        out.write_all(&self.header(entry_key, contents))?;
        out.write_all(contents)
    }

    /// The contents of the sealed file `file` if it is the genuine file of
    /// `entry_key`. The MAC is checked (in constant time) before anything
    /// else of the file is believed.
    pub(super) fn open<'f>(&self, entry_key: &[u8], file: &'f [u8]) -> Result<&'f [u8], Refusal> {
        let (head, rest) = file.split_at_checked(20).ok_or(Refusal::NotSealed)?;
        if &head[..8] != MAGIC {
            return Err(Refusal::NotSealed);
        }
        let mut len = [0; 4];
        len.copy_from_slice(&head[16..20]);
        let len = u32::from_le_bytes(len) as usize;
        if len > MAX_ENTRY_KEY || rest.len() < len + MAC_BYTES {
            return Err(Refusal::NotSealed);
        }
        if head[8..16] != self.key_id {
            return Err(Refusal::OtherHostKey);
        }
        let (sealed_key, rest) = rest.split_at(len);
        let (mac, contents) = rest.split_at(MAC_BYTES);
        let sealed = &file[..20 + len];
        let expected = hmac_sha256(&self.key, &[sealed, contents]);
        if !equal_in_constant_time(mac, &expected) {
            return Err(Refusal::BadMac);
        }
        if sealed_key != entry_key {
            let shown: String = String::from_utf8_lossy(sealed_key)
                .chars()
                .take(200)
                .collect();
            return Err(Refusal::OtherEntry(shown));
        }
        Ok(contents)
    }
}

fn key_id(key: &[u8; KEY_BYTES]) -> [u8; 8] {
    let digest = Sha256::new()
        .chain_update(b"wakeful cache key id\0")
        .chain_update(key)
        .finalize();
    let mut id = [0; 8];
    id.copy_from_slice(&digest[..8]);
    id
}

/// Writes 32 random bytes to `path`, readable by this user only: written
/// aside, then linked into place, so that the file appears whole or not at
/// all, and of two processes creating it at once both use the one linked
/// first.
fn create_key_file(path: &Path) -> Result<(), String> {
    let mut key = [0u8; KEY_BYTES];
    getrandom::fill(&mut key).map_err(|e| format!("the OS random source failed: {e}"))?;
    let aside = path.with_extension(format!("new-{}", std::process::id()));
    let written = (|| {
        let mut file = super::cache_dir::create_private_file(&aside)?;
        file.write_all(&key)?;
        file.sync_all()?;
        match std::fs::hard_link(&aside, path) {
            Err(e) if e.kind() != io::ErrorKind::AlreadyExists => Err(e),
            _ => Ok(()),
        }
    })();
    let _ = std::fs::remove_file(&aside);
    written.map_err(|e| format!("cannot write the cache's key {}: {e}", path.display()))
}

/// HMAC-SHA256 (RFC 2104) of the concatenated `parts` under `key`.
fn hmac_sha256(key: &[u8], parts: &[&[u8]]) -> [u8; 32] {
    const BLOCK: usize = 64;
    let mut block = [0u8; BLOCK];
    if key.len() > BLOCK {
        block[..32].copy_from_slice(&Sha256::digest(key));
    } else {
        block[..key.len()].copy_from_slice(key);
    }
    let mut inner = Sha256::new();
    inner.update(block.map(|b| b ^ 0x36));
    for part in parts {
        inner.update(part);
    }
    let mut outer = Sha256::new();
    outer.update(block.map(|b| b ^ 0x5c));
    outer.update(inner.finalize());
    outer.finalize().into()
}

/// Whether `a` and `b` are equal, in a time that depends only on their
/// lengths.
fn equal_in_constant_time(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hmac_matches_rfc_4231() {
        // Test cases 1, 2 and 6 (a key longer than a block).
        let one = hmac_sha256(&[0x0b; 20], &[b"Hi There"]);
        assert_eq!(
            hex::encode(one),
            "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
        );
        let two = hmac_sha256(b"Jefe", &[b"what do ya want ", b"for nothing?"]);
        assert_eq!(
            hex::encode(two),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
        let six = hmac_sha256(
            &[0xaa; 131],
            &[b"Test Using Larger Than Block-Size Key - Hash Key First"],
        );
        assert_eq!(
            hex::encode(six),
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
        );
    }

    fn sealed(seal: &Seal, key: &[u8], contents: &[u8]) -> Vec<u8> {
        let mut file = Vec::new();
        seal.write(&mut file, key, contents).unwrap();
        file
    }

    #[test]
    fn a_sealed_file_opens_only_as_itself() {
        let seal = Seal::from_key([7; 32]);
        let file = sealed(&seal, b"artifact a", b"machine code");
        assert_eq!(seal.open(b"artifact a", &file), Ok(&b"machine code"[..]));

        // Another entry's genuine file under this entry's name.
        let other = sealed(&seal, b"artifact b", b"other code");
        assert!(matches!(
            seal.open(b"artifact a", &other),
            Err(Refusal::OtherEntry(key)) if key == "artifact b"
        ));

        // Any byte changed, in the header, the key, the MAC or the contents.
        for at in 0..file.len() {
            let mut changed = file.clone();
            changed[at] ^= 0x01;
            assert!(seal.open(b"artifact a", &changed).is_err(), "byte {at}");
        }
        // Cut short, lengthened, empty.
        assert!(seal.open(b"artifact a", &file[..file.len() - 1]).is_err());
        let mut longer = file.clone();
        longer.push(0);
        assert_eq!(seal.open(b"artifact a", &longer), Err(Refusal::BadMac));
        assert_eq!(seal.open(b"artifact a", b""), Err(Refusal::NotSealed));
        assert_eq!(
            seal.open(b"artifact a", b"machine code"),
            Err(Refusal::NotSealed)
        );

        // Sealed under another host's key.
        let foreign = sealed(&Seal::from_key([8; 32]), b"artifact a", b"machine code");
        assert_eq!(
            seal.open(b"artifact a", &foreign),
            Err(Refusal::OtherHostKey)
        );
        // ... even claiming this host's key id.
        let mut forged = foreign.clone();
        forged[8..16].copy_from_slice(&seal.key_id);
        assert_eq!(seal.open(b"artifact a", &forged), Err(Refusal::BadMac));
    }
}
