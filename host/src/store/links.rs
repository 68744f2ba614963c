//! Link tokens at rest. An approval request's answer link carries a token
//! derived from the request with the host's link key (HMAC-SHA256), and
//! the store keeps only the token's SHA-256, by which an answer looks the
//! request up. The key lives outside the database (a 0600 file in the data
//! directory, or the file or environment variable the config names), so a
//! copy of the database (a backup, a replica, a read-only user) holds no
//! token and cannot make one, while the host can still show an operator
//! the link: it derives the token again and checks it against the hash.
//!
//! Callback links are never shown again, so theirs is random, handed to
//! the guest once, and likewise kept only as its SHA-256.

use std::path::Path;

use sha2::{Digest, Sha256};

/// The secret that link tokens are derived with. Hosts sharing one store
/// must share one key, or each shows only the links it made.
#[derive(Clone)]
pub struct LinkKey([u8; 32]);

impl std::fmt::Debug for LinkKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("LinkKey(..)")
    }
}

impl LinkKey {
    /// A key from its 64 hex digits (as `openssl rand -hex 32` prints).
    pub fn from_hex(text: &str) -> Result<LinkKey, String> {
        let bytes = hex::decode(text.trim())
            .ok()
            .and_then(|b| <[u8; 32]>::try_from(b).ok())
            .ok_or(
                "a link key is 64 hex digits (32 bytes); make one with `openssl rand -hex 32`",
            )?;
        Ok(LinkKey(bytes))
    }

    /// The answer-link token of approval request `id` of `run_id`, as asked
    /// at `requested_at` with details of digest `details_digest`: a request
    /// asked again with other details gets another token.
    pub fn approval_token(
        &self,
        run_id: &str,
        id: &str,
        details_digest: &str,
        requested_at: u64,
    ) -> String {
        let at = requested_at.to_string();
        let parts = ["approval", run_id, id, details_digest, &at];
        let mut message = Vec::new();
        for part in parts {
            // Length-prefixed, so no two lists of parts read the same.
            message.extend_from_slice(&(part.len() as u64).to_be_bytes());
            message.extend_from_slice(part.as_bytes());
        }
        hex::encode(hmac_sha256(&self.0, &message))
    }
}

/// What the store keeps of a link token: its SHA-256, lowercase hex.
pub fn token_hash(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// HMAC-SHA256 (RFC 2104) of `message` under a key of at most 64 bytes.
fn hmac_sha256(key: &[u8], message: &[u8]) -> [u8; 32] {
    let mut block = [0u8; 64];
    block[..key.len()].copy_from_slice(key);
    let pad = |byte: u8| block.map(|b| b ^ byte);
    let inner = Sha256::new()
        .chain_update(pad(0x36))
        .chain_update(message)
        .finalize();
    Sha256::new()
        .chain_update(pad(0x5c))
        .chain_update(inner)
        .finalize()
        .into()
}

/// Where this host's link key comes from.
pub struct KeySource<'a> {
    /// `[links] key_file`, else `WAKEFUL_LINK_KEY_FILE`.
    pub file: Option<&'a Path>,
    /// `[links] key_env`: the name of a variable holding the key.
    pub env: Option<&'a str>,
    /// The store is PostgreSQL, shared by several hosts: they must share
    /// a key, so one has to be configured.
    pub shared_store: bool,
    /// Where a host on its own keeps its key: `<data>/link-key`.
    pub own_file: &'a Path,
}

/// The link key, from the configured file or variable; else, for a host
/// on its own, from its own file, made (0600) on first use. A key file
/// others can read is refused.
pub fn load_key(source: &KeySource<'_>) -> Result<LinkKey, String> {
    if let Some(name) = source.env {
        let text = std::env::var(name).map_err(|_| {
            format!("[links] key_env names `{name}`, which is not set in the environment")
        })?;
        return LinkKey::from_hex(&text).map_err(|e| format!("${name}: {e}"));
    }
    if let Some(path) = source.file {
        if !path.exists() {
            return Err(format!(
                "the link key file {} does not exist",
                path.display()
            ));
        }
        return read_key_file(path);
    }
    if source.shared_store {
        return Err(
            "a host on PostgreSQL needs the link key its approval links are made with, the same \
             on every host sharing the store: set [links] key_file (a 0600 file holding 64 hex \
             digits, from `openssl rand -hex 32`) or [links] key_env, or WAKEFUL_LINK_KEY_FILE"
                .into(),
        );
    }
    read_key_file(source.own_file)
}

/// Reads a key file, creating it with a new random key when it is the
/// host's own and absent. The token-file rules apply: 0600, whole or not
/// at all.
fn read_key_file(path: &Path) -> Result<LinkKey, String> {
    let text = crate::access::token_file(path)
        .map_err(|e| e.replace("API token file", "link key file"))?;
    LinkKey::from_hex(&text).map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::{LinkKey, hmac_sha256, token_hash};

    #[test]
    fn hmac_matches_rfc_4231() {
        // RFC 4231, test case 2.
        let mac = hmac_sha256(b"Jefe", b"what do ya want for nothing?");
        assert_eq!(
            hex::encode(mac),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
    }

    #[test]
    fn a_token_depends_on_every_part_and_the_key() {
        let key = LinkKey::from_hex(&"ab".repeat(32)).unwrap();
        let other = LinkKey::from_hex(&"cd".repeat(32)).unwrap();
        let t = key.approval_token("r", "ok?", "d1", 5);
        assert_eq!(t.len(), 64);
        assert_eq!(t, key.approval_token("r", "ok?", "d1", 5));
        for changed in [
            key.approval_token("r2", "ok?", "d1", 5),
            key.approval_token("r", "ok", "d1", 5),
            key.approval_token("r", "ok?", "d2", 5),
            key.approval_token("r", "ok?", "d1", 6),
            other.approval_token("r", "ok?", "d1", 5),
        ] {
            assert_ne!(t, changed);
        }
        assert_ne!(token_hash(&t), t);
        assert!(LinkKey::from_hex("abcd").is_err());
    }
}
