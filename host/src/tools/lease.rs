//! The built-in `lease` tool: short, expiring claims on shared resources, so
//! that two agents do not act on the same thing at once.
//!
//! Arguments: `{"op":"acquire","resource":R,"ttl_ms":N}` →
//! `{"granted":bool,"holder":H,"expires_at":MS}` (the other holder when not
//! granted); `{"op":"release","resource":R}` → `{"released":bool}`.
//!
//! The holder is the run (`run:<run id>`): two runs never share a lease,
//! whatever they say. A version granted `lease:holder` may name a holder
//! (`"holder":H`, never starting with `run:`), e.g. one that several runs
//! take turns as; without that grant, naming a holder other than the run
//! is denied. Resources are namespaced as kv keys are
//! ([`super::namespace`]): an agent's own, or `shared/<ns>/<name>` with the
//! grant `lease:shared/<ns>`.

use serde::Deserialize;

use super::{Guest, namespace, parse_args};
use crate::model::{Millis, ToolError};
use crate::store::{Effects, LeaseOp, LeaseOutcome, SqlStore, StoreError};

/// The longest lease a guest may take: a crashed holder blocks others at most
/// this long.
pub const MAX_TTL_MS: u64 = 24 * 60 * 60 * 1000;

#[derive(Deserialize)]
#[serde(tag = "op", rename_all = "snake_case", deny_unknown_fields)]
enum Args {
    Acquire {
        resource: String,
        holder: Option<String>,
        ttl_ms: u64,
    },
    Release {
        resource: String,
        holder: Option<String>,
    },
}

/// The holder a call acts as: the run, or the holder it names when its
/// version may name one. `Err` is the refusal.
fn holder_of(named: Option<String>, run_id: &str, guest: &Guest<'_>) -> Result<String, ToolError> {
    let run = format!("{}{run_id}", namespace::RUN_HOLDER);
    let Some(named) = named else {
        return Ok(run);
    };
    if named == run {
        return Ok(run);
    }
    if !guest.granted.iter().any(|g| g == namespace::LEASE_HOLDER) {
        return Err(ToolError::Denied(format!(
            "lease: the holder is the run ({run}); naming another (`{named}`) needs \
             --grant {}: leave `holder` out",
            namespace::LEASE_HOLDER
        )));
    }
    if named.is_empty() || named.starts_with(namespace::RUN_HOLDER) {
        return Err(ToolError::Invalid(format!(
            "lease: a named holder must be non-empty and not start with `{}`, got `{named}`",
            namespace::RUN_HOLDER
        )));
    }
    Ok(named)
}

/// The JSON result of a lease operation.
pub fn render(outcome: &LeaseOutcome) -> String {
    serde_json::to_string(outcome).unwrap_or_else(|_| "null".into())
}

/// Answers a step's lease call at `now`, holding its change for the
/// step's commit.
pub(super) fn call(
    store: &SqlStore,
    effects: &mut Effects,
    args: &str,
    now: Millis,
    run_id: &str,
    guest: &Guest<'_>,
) -> Result<Result<String, ToolError>, StoreError> {
    let op = match lease_op(args, run_id, guest) {
        Ok(op) => op,
        Err(e) => return Ok(Err(e)),
    };
    let outcome = effects.lease(&op, now, |resource| store.lease_peek(resource))?;
    Ok(Ok(render(&outcome)))
}

/// The lease operation a guest's call asks for, with its resource's
/// stored address and the holder it acts as.
fn lease_op(args: &str, run_id: &str, guest: &Guest<'_>) -> Result<LeaseOp, ToolError> {
    let mut op = match parse_args::<Args>("lease", args)? {
        Args::Acquire { ttl_ms, .. } if ttl_ms == 0 || ttl_ms > MAX_TTL_MS => {
            return Err(ToolError::Invalid(format!(
                "lease: ttl_ms must be between 1 and {MAX_TTL_MS}, got {ttl_ms}"
            )));
        }
        Args::Acquire {
            resource,
            holder,
            ttl_ms,
        } => LeaseOp::Acquire {
            resource,
            holder: holder_of(holder, run_id, guest)?,
            ttl_ms,
        },
        Args::Release { resource, holder } => LeaseOp::Release {
            resource,
            holder: holder_of(holder, run_id, guest)?,
        },
    };
    let resource = match &mut op {
        LeaseOp::Acquire { resource, .. } | LeaseOp::Release { resource, .. } => resource,
    };
    *resource = match namespace::resolve("lease", resource, guest.agent, guest.granted) {
        Ok(Ok(stored)) => stored,
        Ok(Err(why)) => return Err(ToolError::Invalid(why)),
        Err(why) => return Err(ToolError::Denied(why)),
    };
    Ok(op)
}
