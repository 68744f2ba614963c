//! The built-in `lease` tool: short, expiring claims on shared resources, so
//! that two agents do not act on the same thing at once.
//!
//! Arguments: `{"op":"acquire","resource":R,"holder":H,"ttl_ms":N}` →
//! `{"granted":bool,"holder":H,"expires_at":MS}` (the other holder when not
//! granted); `{"op":"release","resource":R,"holder":H}` → `{"released":bool}`.

use serde::Deserialize;

use super::parse_args;
use crate::model::{Millis, ToolError};
use crate::store::{Effects, LeaseOp, LeaseOutcome, Store, StoreError};

/// The longest lease a guest may take: a crashed holder blocks others at most
/// this long.
pub const MAX_TTL_MS: u64 = 24 * 60 * 60 * 1000;

#[derive(Deserialize)]
#[serde(tag = "op", rename_all = "snake_case", deny_unknown_fields)]
enum Args {
    Acquire {
        resource: String,
        holder: String,
        ttl_ms: u64,
    },
    Release {
        resource: String,
        holder: String,
    },
}

/// The JSON result of a lease operation.
pub fn render(outcome: &LeaseOutcome) -> String {
    serde_json::to_string(outcome).unwrap_or_else(|_| "null".into())
}

/// Answers a step's lease call at `now`, holding its change for the
/// step's commit.
pub(super) fn call(
    store: &dyn Store,
    effects: &mut Effects,
    args: &str,
    now: Millis,
) -> Result<Result<String, ToolError>, StoreError> {
    let op = match parse_args::<Args>("lease", args) {
        Ok(Args::Acquire { ttl_ms, .. }) if ttl_ms == 0 || ttl_ms > MAX_TTL_MS => {
            return Ok(Err(ToolError::Invalid(format!(
                "lease: ttl_ms must be between 1 and {MAX_TTL_MS}, got {ttl_ms}"
            ))));
        }
        Ok(Args::Acquire {
            resource,
            holder,
            ttl_ms,
        }) => LeaseOp::Acquire {
            resource,
            holder,
            ttl_ms,
        },
        Ok(Args::Release { resource, holder }) => LeaseOp::Release { resource, holder },
        Err(e) => return Ok(Err(e)),
    };
    let outcome = effects.lease(&op, now, |resource| store.lease_peek(resource))?;
    Ok(Ok(render(&outcome)))
}
