//! Namespaces of the `kv` and `lease` tools, and the grants that open them.
//!
//! Every key and lease resource is stored under a namespace:
//! `agent/<agent>/<name>` for the private namespace of one agent (every
//! version of it), `shared/<ns>/<name>` for a shared one. A guest
//! addresses its own keys by their bare name (`service/payments-api` is
//! stored as `agent/incident/service/payments-api`) and a shared key by its
//! whole address (`shared/services/payments-api`), which needs the grant
//! `kv:shared/services` (`lease:shared/services` for leases). So a guest
//! can never name another agent's key: a name it gives either is its own
//! or starts with `shared/`. Operators (CLI, API) always give the whole
//! address.
//!
//! A lease's holder is the run (`run:<run id>`); the grant `lease:holder`
//! lets a version name a holder of its own choosing instead (one that
//! cannot start with `run:`, so it never passes for a run).

/// The prefix of a shared namespace's addresses.
pub const SHARED: &str = "shared/";
/// The prefix of an agent's private namespace's addresses.
pub const AGENT: &str = "agent/";
/// The grant that lets a version name its lease holder.
pub const LEASE_HOLDER: &str = "lease:holder";
/// The prefix of the holder a run holds its leases as.
pub const RUN_HOLDER: &str = "run:";

/// The longest shared namespace name.
const MAX_NAME: usize = 64;

/// Whether `name` may name a shared namespace: 1 to 64 letters, digits,
/// `-`, `_` and `.`.
fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= MAX_NAME
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

/// The shared namespace an address starting with `shared/` names, and
/// the rest of it; an error saying what is wrong otherwise.
fn split_shared(address: &str) -> Option<Result<(&str, &str), String>> {
    let rest = address.strip_prefix(SHARED)?;
    Some(match rest.split_once('/') {
        Some((ns, name)) if valid_name(ns) && !name.is_empty() => Ok((ns, name)),
        _ => Err(format!(
            "`{address}` starts with `shared/` but is not `shared/<namespace>/<name>` \
             (a namespace is 1 to {MAX_NAME} letters, digits, `-`, `_` or `.`)"
        )),
    })
}

/// Where a guest's key or resource is stored, given the tool (`kv` or
/// `lease`), the run's agent and the grants of its version. `Err` is the
/// refusal: `Ok(Err)` a malformed name, `Err` a namespace not granted.
pub fn resolve(
    tool: &str,
    name: &str,
    agent: &str,
    granted: &[String],
) -> Result<Result<String, String>, String> {
    match split_shared(name) {
        None => Ok(Ok(format!("{AGENT}{agent}/{name}"))),
        Some(Err(why)) => Ok(Err(format!("{tool}: {why}"))),
        Some(Ok((ns, _))) => {
            let grant = format!("{tool}:{SHARED}{ns}");
            if granted.contains(&grant) {
                Ok(Ok(name.to_string()))
            } else {
                Err(format!(
                    "{tool}: the shared namespace `{SHARED}{ns}` is not granted to this agent \
                     version; redeploy with --grant {grant}"
                ))
            }
        }
    }
}

/// Checks an address an operator gives (`agent/<agent>/<name>` or
/// `shared/<namespace>/<name>`), returning its namespace.
pub fn operator_address(address: &str) -> Result<&str, String> {
    if let Some(shared) = split_shared(address) {
        let (ns, _) = shared?;
        return Ok(&address[..SHARED.len() + ns.len()]);
    }
    let agent = address.strip_prefix(AGENT).and_then(|rest| {
        let (agent, name) = rest.split_once('/')?;
        let ok = !agent.is_empty()
            && !name.is_empty()
            && agent
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
        ok.then_some(agent)
    });
    match agent {
        Some(agent) => Ok(&address[..AGENT.len() + agent.len()]),
        None => Err(format!(
            "`{address}` names no namespace: address a key or lease as \
             agent/<agent>/<name> (an agent's own) or shared/<namespace>/<name>"
        )),
    }
}

/// The namespace of a stored address, for display (`None` for an address
/// no namespace holds, which only damage could have written).
pub fn namespace_of(address: &str) -> Option<&str> {
    operator_address(address).ok()
}

/// Checks a grant that qualifies a tool (`kv:shared/<ns>`,
/// `lease:shared/<ns>`, `lease:holder`): `None` when `grant` is a plain
/// tool name, else the tool it qualifies or why it is not a grant.
pub fn qualified_grant(grant: &str) -> Option<Result<&str, String>> {
    let (tool, what) = grant.split_once(':')?;
    let ok = match (tool, what) {
        ("lease", "holder") => true,
        ("kv" | "lease", shared) => shared.strip_prefix(SHARED).is_some_and(valid_name),
        _ => false,
    };
    Some(if ok {
        Ok(tool)
    } else {
        Err(format!(
            "`{grant}` is not a grant: a tool name, kv:shared/<namespace>, \
             lease:shared/<namespace> or lease:holder (a namespace is 1 to {MAX_NAME} letters, \
             digits, `-`, `_` or `.`)"
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_guest_reaches_its_own_keys_and_only_the_shared_namespaces_granted() {
        let granted = vec!["kv".to_string(), "kv:shared/services".to_string()];
        let resolve = |name: &str| resolve("kv", name, "incident", &granted);
        assert_eq!(
            resolve("service/api"),
            Ok(Ok("agent/incident/service/api".into()))
        );
        // Another agent's address is just a private key of this one.
        assert_eq!(
            resolve("agent/other/k"),
            Ok(Ok("agent/incident/agent/other/k".into()))
        );
        assert_eq!(
            resolve("shared/services/api"),
            Ok(Ok("shared/services/api".into()))
        );
        let denied = resolve("shared/billing/x").unwrap_err();
        assert!(denied.contains("--grant kv:shared/billing"), "{denied}");
        for bad in [
            "shared/services",
            "shared//x",
            "shared/a b/x",
            "shared/services/",
        ] {
            assert!(resolve(bad).unwrap().is_err(), "{bad}");
        }
    }

    #[test]
    fn operators_give_whole_addresses_and_grants_are_checked() {
        assert_eq!(operator_address("agent/incident/k/1"), Ok("agent/incident"));
        assert_eq!(operator_address("shared/services/x"), Ok("shared/services"));
        for bad in [
            "service/x",
            "agent/incident",
            "agent//x",
            "agent/a.b/x",
            "shared/x",
        ] {
            assert!(operator_address(bad).is_err(), "{bad}");
        }
        assert_eq!(qualified_grant("kv"), None);
        assert_eq!(qualified_grant("kv:shared/services"), Some(Ok("kv")));
        assert_eq!(qualified_grant("lease:holder"), Some(Ok("lease")));
        for bad in ["kv:holder", "http:shared/x", "kv:shared/", "kv:other/x"] {
            assert!(matches!(qualified_grant(bad), Some(Err(_))), "{bad}");
        }
    }
}
