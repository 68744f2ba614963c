//! The built-in `kv` tool: a versioned key-value store shared by the host's
//! runs. Every write bumps the key's version, deletes included, so a
//! compare-and-set never mistakes a re-created key for the one it read;
//! version 0 means "never written".
//!
//! ```no_run
//! use wakeful_sdk::{kv, ToolError};
//!
//! # fn demo() -> Result<(), ToolError> {
//! let seen = kv::get::<u64>("counter", "read-counter")?;
//! let next = seen.value.unwrap_or(0) + 1;
//! // Writes only if nobody wrote since the read.
//! let put = kv::put("counter", &next, Some(seen.version), "bump-counter")?;
//! if !put.ok {
//!     // Someone else wrote first; put.version is the current version.
//! }
//! # Ok(())
//! # }
//! ```

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::tools::{self, ToolError};

/// A value read with its version.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Versioned<T> {
    /// The value, `None` when the key is absent (never written, or deleted).
    pub value: Option<T>,
    /// The key's version: 0 when never written, then bumped by every write
    /// and delete.
    pub version: u64,
}

impl<T> Versioned<T> {
    /// Whether the key has a value.
    pub fn exists(&self) -> bool {
        self.value.is_some()
    }
}

/// The result of [`put`] or [`delete`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub struct Written {
    /// `false` when `expected_version` did not match: nothing was written.
    pub ok: bool,
    /// The key's version after the write, or its current version when `ok`
    /// is false.
    pub version: u64,
}

#[derive(Serialize)]
struct Request<'a, V: Serialize + ?Sized> {
    op: &'static str,
    key: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    value: Option<&'a V>,
    #[serde(skip_serializing_if = "Option::is_none")]
    expected_version: Option<u64>,
}

/// Reads `key`. A stored value that does not fit `T` is a
/// [`ToolError::Failed`].
pub fn get<T: DeserializeOwned>(
    key: &str,
    idempotency_key: &str,
) -> Result<Versioned<T>, ToolError> {
    tools::call("kv", &get_args(key), idempotency_key)
}

/// Writes `value` at `key`. With `expected_version`, writes only if the key
/// is still at that version (0: only if absent); a mismatch is `ok: false`,
/// not an error.
pub fn put<T: Serialize + ?Sized>(
    key: &str,
    value: &T,
    expected_version: Option<u64>,
    idempotency_key: &str,
) -> Result<Written, ToolError> {
    tools::call(
        "kv",
        &put_args(key, value, expected_version),
        idempotency_key,
    )
}

/// Deletes `key`, with the same `expected_version` check as [`put`].
pub fn delete(
    key: &str,
    expected_version: Option<u64>,
    idempotency_key: &str,
) -> Result<Written, ToolError> {
    tools::call("kv", &delete_args(key, expected_version), idempotency_key)
}

fn get_args(key: &str) -> Request<'_, ()> {
    Request {
        op: "get",
        key,
        value: None,
        expected_version: None,
    }
}

fn put_args<'a, T: Serialize + ?Sized>(
    key: &'a str,
    value: &'a T,
    expected_version: Option<u64>,
) -> Request<'a, T> {
    Request {
        op: "put",
        key,
        value: Some(value),
        expected_version,
    }
}

fn delete_args(key: &str, expected_version: Option<u64>) -> Request<'_, ()> {
    Request {
        op: "delete",
        key,
        value: None,
        expected_version,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::read_result;
    use serde_json::{Value, json, to_value};

    #[test]
    fn requests_have_the_host_shapes() {
        assert_eq!(
            to_value(get_args("a")).unwrap(),
            json!({"op": "get", "key": "a"})
        );
        assert_eq!(
            to_value(put_args("a", &json!({"x": 1}), Some(3))).unwrap(),
            json!({"op": "put", "key": "a", "value": {"x": 1}, "expected_version": 3})
        );
        assert_eq!(
            to_value(put_args("a", &Value::Null, None)).unwrap(),
            json!({"op": "put", "key": "a", "value": null})
        );
        assert_eq!(
            to_value(delete_args("a", None)).unwrap(),
            json!({"op": "delete", "key": "a"})
        );
    }

    #[test]
    fn results_are_read() {
        let absent: Versioned<String> = read_result("kv", r#"{"value":null,"version":0}"#).unwrap();
        assert!(!absent.exists());
        assert_eq!(absent.value, None);
        let found: Versioned<u64> = read_result("kv", r#"{"value":7,"version":2}"#).unwrap();
        assert_eq!(
            found,
            Versioned {
                value: Some(7),
                version: 2
            }
        );
        let stale: Written = read_result("kv", r#"{"ok":false,"version":9}"#).unwrap();
        assert_eq!(
            stale,
            Written {
                ok: false,
                version: 9
            }
        );
    }
}
