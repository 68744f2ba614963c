//! The built-in `lease` tool: an expiring lock on a named resource, so that
//! two runs (or two agents) never act on the same thing at once.
//!
//! The holder is the run: the host takes the lease as `run:<run id>`, so
//! two runs never both hold one. A version deployed with
//! `--grant lease:holder` may name its holder instead ([`acquire_as`]).
//! Resources are namespaced as kv keys are: a name is this agent's own,
//! and `shared/<ns>/<name>` is a shared namespace's, opened by
//! `--grant lease:shared/<ns>`.

use serde::{Deserialize, Serialize};

use crate::tools::{self, ToolError};

/// The answer to [`acquire`].
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Lease {
    /// Whether this run (or the holder named) now holds the lease.
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
    #[serde(skip_serializing_if = "Option::is_none")]
    holder: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    ttl_ms: Option<u64>,
}

#[derive(Deserialize)]
struct Released {
    released: bool,
}

/// Takes the lease on `resource` for this run for `ttl_ms`, unless someone
/// else holds an unexpired one (then `granted` is false and `holder` names
/// them).
pub fn acquire(resource: &str, ttl_ms: u64, idempotency_key: &str) -> Result<Lease, ToolError> {
    tools::call(
        "lease",
        &acquire_args(resource, None, ttl_ms),
        idempotency_key,
    )
}

/// As [`acquire`], for the holder named (needs `--grant lease:holder`).
pub fn acquire_as(
    resource: &str,
    holder: &str,
    ttl_ms: u64,
    idempotency_key: &str,
) -> Result<Lease, ToolError> {
    tools::call(
        "lease",
        &acquire_args(resource, Some(holder), ttl_ms),
        idempotency_key,
    )
}

/// Gives this run's lease back; `false` when it did not hold it.
pub fn release(resource: &str, idempotency_key: &str) -> Result<bool, ToolError> {
    let released: Released = tools::call("lease", &release_args(resource, None), idempotency_key)?;
    Ok(released.released)
}

/// As [`release`], for the holder named (needs `--grant lease:holder`).
pub fn release_as(resource: &str, holder: &str, idempotency_key: &str) -> Result<bool, ToolError> {
    let released: Released = tools::call(
        "lease",
        &release_args(resource, Some(holder)),
        idempotency_key,
    )?;
    Ok(released.released)
}

fn acquire_args<'a>(resource: &'a str, holder: Option<&'a str>, ttl_ms: u64) -> Request<'a> {
    Request {
        op: "acquire",
        resource,
        holder,
        ttl_ms: Some(ttl_ms),
    }
}

fn release_args<'a>(resource: &'a str, holder: Option<&'a str>) -> Request<'a> {
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
            to_value(acquire_args("service/api", None, 300_000)).unwrap(),
            json!({"op": "acquire", "resource": "service/api", "ttl_ms": 300000})
        );
        assert_eq!(
            to_value(acquire_args("service/api", Some("fleet"), 300_000)).unwrap(),
            json!({"op": "acquire", "resource": "service/api", "holder": "fleet", "ttl_ms": 300000})
        );
        assert_eq!(
            to_value(release_args("service/api", None)).unwrap(),
            json!({"op": "release", "resource": "service/api"})
        );
        assert_eq!(
            to_value(release_args("service/api", Some("fleet"))).unwrap(),
            json!({"op": "release", "resource": "service/api", "holder": "fleet"})
        );
    }

    #[test]
    fn results_are_read() {
        let busy: Lease = read_result(
            "lease",
            r#"{"granted":false,"holder":"run:r2","expires_at":99}"#,
        )
        .unwrap();
        assert_eq!(
            busy,
            Lease {
                granted: false,
                holder: "run:r2".into(),
                expires_at: 99
            }
        );
        let released: Released = read_result("lease", r#"{"released":true}"#).unwrap();
        assert!(released.released);
    }
}
