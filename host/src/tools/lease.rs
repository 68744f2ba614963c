//! The built-in `lease` tool: short, expiring claims on shared resources, so
//! that two agents do not act on the same thing at once.
//!
//! Arguments: `{"op":"acquire","resource":R,"holder":H,"ttl_ms":N}` →
//! `{"granted":bool,"holder":H,"expires_at":MS}` (the other holder when not
//! granted); `{"op":"release","resource":R,"holder":H}` → `{"released":bool}`.

use serde::Deserialize;

use super::{Executed, parse_args};
use crate::model::Millis;
use crate::store::{LeaseOp, LeaseOutcome, LedgerWrite, Store, StoreError};

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

pub(super) fn call(
    store: &mut dyn Store,
    call: &LedgerWrite,
    now: Millis,
) -> Result<Executed, StoreError> {
    let op = match parse_args::<Args>("lease", &call.args) {
        Ok(Args::Acquire { ttl_ms, .. }) if ttl_ms == 0 || ttl_ms > MAX_TTL_MS => {
            return Ok(Executed {
                result: Err(crate::model::ToolError::Invalid(format!(
                    "lease: ttl_ms must be between 1 and {MAX_TTL_MS}, got {ttl_ms}"
                ))),
                recorded: false,
                usage: None,
                transient: false,
                unsent: false,
            });
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
        Err(e) => {
            return Ok(Executed {
                result: Err(e),
                recorded: false,
                usage: None,
                transient: false,
                unsent: false,
            });
        }
    };
    let outcome = store.lease(&op, Some((call, &render)), now)?;
    Ok(Executed {
        result: Ok(render(&outcome)),
        recorded: true,
        usage: None,
        transient: false,
        unsent: false,
    })
}
