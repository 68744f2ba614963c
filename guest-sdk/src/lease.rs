//! The built-in `lease` tool: an expiring lock on a named resource, so that
//! two runs (or two agents) never act on the same thing at once.

use serde::{Deserialize, Serialize};

use crate::tools::{self, ToolError};

/// The answer to [`acquire`].
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Lease {
    /// Whether `holder` now holds the lease.
    pub granted: bool,
    /// Who holds the lease: the caller when granted, else the other holder.
    pub holder: String,
    /// When the current holder's lease expires (ms since the Unix epoch, UTC).
    pub expires_at: u64,
}

#[derive(Serialize)]
struct Request<'a> {
    op: &'static str,
    resource: &'a str,
    holder: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    ttl_ms: Option<u64>,
}

#[derive(Deserialize)]
struct Released {
    released: bool,
}

/// Takes the lease on `resource` for `holder` for `ttl_ms`, unless someone
/// else holds an unexpired one (then `granted` is false and `holder` names
/// them).
pub fn acquire(
    resource: &str,
    holder: &str,
    ttl_ms: u64,
    idempotency_key: &str,
) -> Result<Lease, ToolError> {
    tools::call(
        "lease",
        &acquire_args(resource, holder, ttl_ms),
        idempotency_key,
    )
}

/// Gives the lease back; `false` when `holder` did not hold it.
pub fn release(resource: &str, holder: &str, idempotency_key: &str) -> Result<bool, ToolError> {
    let released: Released =
        tools::call("lease", &release_args(resource, holder), idempotency_key)?;
    Ok(released.released)
}

fn acquire_args<'a>(resource: &'a str, holder: &'a str, ttl_ms: u64) -> Request<'a> {
    Request {
        op: "acquire",
        resource,
        holder,
        ttl_ms: Some(ttl_ms),
    }
}

fn release_args<'a>(resource: &'a str, holder: &'a str) -> Request<'a> {
    Request {
        op: "release",
        resource,
        holder,
        ttl_ms: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::read_result;
    use serde_json::{json, to_value};

    #[test]
    fn requests_have_the_host_shapes() {
        assert_eq!(
            to_value(acquire_args("service/api", "agent-1", 300_000)).unwrap(),
            json!({"op": "acquire", "resource": "service/api", "holder": "agent-1", "ttl_ms": 300000})
        );
        assert_eq!(
            to_value(release_args("service/api", "agent-1")).unwrap(),
            json!({"op": "release", "resource": "service/api", "holder": "agent-1"})
        );
    }

    #[test]
    fn results_are_read() {
        let busy: Lease = read_result(
            "lease",
            r#"{"granted":false,"holder":"agent-2","expires_at":99}"#,
        )
        .unwrap();
        assert_eq!(
            busy,
            Lease {
                granted: false,
                holder: "agent-2".into(),
                expires_at: 99
            }
        );
        let released: Released = read_result("lease", r#"{"released":true}"#).unwrap();
        assert!(released.released);
    }
}
