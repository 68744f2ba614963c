//! Tools: the host-side capabilities a guest reaches through `tools.call`.
//!
//! [`gate`] is the one path every call takes (ledger, grants, kill switches,
//! budgets); [`kv`], [`lease`] and [`callback`] are the built-in tools: kv
//! and lease calls are answered at once and written with the step's commit
//! (see [`crate::store::Effects`]), a callback link is made with its ledger
//! row in one transaction; [`Tools`] also holds the configured tools:
//! `static` (a fixed answer, kept with the step's commit too), [`http`]
//! (one fixed URL), [`llm`] (a model conversation over the OpenAI or
//! Anthropic wire format, metered against the run's token and money
//! budgets) and [`mcp`] (an MCP server's allowed tools, each called as
//! `<server>/<tool>`).

pub mod approval;
pub mod audit_row;
pub mod callback;
mod endpoint;
pub mod gate;
pub mod http;
pub mod kv;
pub mod lease;
pub mod llm;
pub mod mcp;
pub mod namespace;

use std::collections::BTreeMap;

/// The default timeout, which the config's tests check.
#[cfg(test)]
pub(crate) use endpoint::timeout_ms;

use crate::config::{ApprovalRule, Config, LimitsConfig, ToolConfig};
use crate::model::{Millis, ToolError};
use crate::secrets::Secrets;
use crate::store::{Effects, LedgerWrite, SqlStore, StoreError, Usage};

/// The tools of this host.
#[derive(Clone, Debug)]
pub struct Tools {
    /// Configured tools by name.
    configured: BTreeMap<String, Configured>,
    /// Largest accepted argument or result, in bytes.
    max_payload: usize,
    /// The base of the callback links the `callback` tool hands out: the
    /// address other systems reach this host's API at.
    public_url: String,
    /// The longest a callback link may stay valid (`max_approval_valid_ms`).
    max_callback_valid_ms: u64,
    /// The tools whose calls need an approval, and who must give it.
    approval_rules: BTreeMap<String, ApprovalRule>,
}

#[derive(Clone, Debug)]
enum Configured {
    /// The JSON text every call returns.
    Static(String),
    Http(http::HttpTool),
    Llm(llm::LlmTool),
    /// An MCP server, whose allowed tools are called as `<server>/<tool>`.
    Mcp(mcp::McpTool),
    /// A config that `Config::parse` would have refused (one built in code):
    /// every call fails with the reason.
    Broken(String),
}

/// A failed call of an external tool, and whether its request never left
/// the host (refused arguments, no connection, an untrusted certificate):
/// such a call had no effect anywhere, so sending it again is safe.
#[derive(Debug)]
pub struct CallError {
    pub error: ToolError,
    pub unsent: bool,
}

impl From<ToolError> for CallError {
    /// Errors raised before a request is sent.
    fn from(error: ToolError) -> CallError {
        CallError {
            error,
            unsent: true,
        }
    }
}

/// Who makes a held call: the run's agent and the grants of its version,
/// which decide the namespaces its `kv` and `lease` calls reach.
pub struct Guest<'a> {
    pub agent: &'a str,
    pub granted: &'a [String],
}

/// What executing a call did.
pub struct Executed {
    pub result: Result<String, ToolError>,
    /// True when the tool wrote the ledger row itself, in the transaction of
    /// its effect.
    pub recorded: bool,
    /// What a metered call spent, to be charged with its ledger row.
    pub usage: Option<Usage>,
    /// The call did not complete (a timeout, a refused connection, a 5xx):
    /// it is not recorded, so that the retried step calls again — with the
    /// same idempotency key, which the system it reaches deduplicates by.
    pub transient: bool,
    /// The call failed before its request left the host: it had no effect,
    /// is not recorded, and the retried step sends it again.
    pub unsent: bool,
    /// What an unrecorded call that was sent is charged to the run all the
    /// same (a metered call that got no usable answer: its estimate).
    pub charge: Option<Usage>,
}

impl Executed {
    fn unrecorded(result: Result<String, ToolError>) -> Executed {
        let transient = matches!(result, Err(ToolError::Failed(_)));
        Executed {
            result,
            recorded: false,
            usage: None,
            transient,
            unsent: false,
            charge: None,
        }
    }
}

/// Checks one configured tool against the limits; `Config::parse` calls it.
pub fn check_config(
    name: &str,
    tool: &ToolConfig,
    limits: &LimitsConfig,
    secrets: &Secrets,
) -> Result<(), String> {
    let timeout_ms = match tool {
        ToolConfig::Static { .. } => return Ok(()),
        ToolConfig::Http(c) => {
            http::HttpTool::with_secrets(name, c, limits, secrets)?;
            c.timeout_ms
        }
        ToolConfig::Llm(c) => {
            llm::LlmTool::with_secrets(name, c, limits, secrets)?;
            c.timeout_ms
        }
        ToolConfig::Mcp(c) => {
            mcp::McpTool::with_secrets(name, c, limits, secrets)?;
            c.timeout_ms
        }
    };
    // The guest waits inside its step for the call: a call that outlived the
    // step's deadline would be cut off with the step and retried.
    if let Some(ms) = timeout_ms
        && (ms == 0 || ms >= limits.step_deadline_ms)
    {
        return Err(format!(
            "tools.{name}.timeout_ms ({ms}) must be above 0 and below \
             limits.step_deadline_ms ({})",
            limits.step_deadline_ms
        ));
    }
    Ok(())
}

impl Tools {
    pub fn from_config(config: &Config) -> Tools {
        let secrets = &config.secret_values;
        let configured = config
            .tools
            .iter()
            .map(|(name, tool)| {
                let tool = match tool {
                    ToolConfig::Static { result, .. } => {
                        let json = serde_json::to_value(result).unwrap_or(serde_json::Value::Null);
                        Configured::Static(json.to_string())
                    }
                    ToolConfig::Http(c) => {
                        http::HttpTool::with_secrets(name, c, &config.limits, secrets)
                            .map_or_else(Configured::Broken, Configured::Http)
                    }
                    ToolConfig::Llm(c) => {
                        llm::LlmTool::with_secrets(name, c, &config.limits, secrets)
                            .map_or_else(Configured::Broken, Configured::Llm)
                    }
                    ToolConfig::Mcp(c) => {
                        mcp::McpTool::with_secrets(name, c, &config.limits, secrets)
                            .map_or_else(Configured::Broken, Configured::Mcp)
                    }
                };
                (name.clone(), tool)
            })
            .collect();
        Tools {
            configured,
            max_payload: config.limits.max_payload_bytes,
            public_url: public_url(config, None),
            max_callback_valid_ms: config.limits.max_approval_valid_ms,
            approval_rules: approval_rules(config),
        }
    }

    /// Who must approve a call of `name`, when its calls need an approval.
    pub fn approval_rule(&self, name: &str) -> Option<&ApprovalRule> {
        self.approval_rules.get(name)
    }

    /// Every tool's rule, by tool name.
    pub fn approval_rules(&self) -> &BTreeMap<String, ApprovalRule> {
        &self.approval_rules
    }

    /// Makes callback links under `base` (`serve` passes the address it
    /// listens on when `[api] public_url` is unset).
    pub fn set_public_url(&mut self, base: String) {
        self.public_url = base;
    }

    /// Whether a tool of that name exists on this host.
    pub fn knows(&self, name: &str) -> bool {
        crate::config::BUILTIN_TOOLS.contains(&name) || self.lookup(name).is_some()
    }

    /// The configured tool a guest's tool name names: a tool by its name,
    /// or an MCP server by `<server>/<tool>` when it allows that tool (its
    /// bare name names nothing a guest can call).
    fn lookup(&self, name: &str) -> Option<&Configured> {
        match self.configured.get(name) {
            Some(Configured::Mcp(_)) => None,
            Some(tool) => Some(tool),
            None => {
                let (server, tool) = mcp::split(name)?;
                match self.configured.get(server) {
                    Some(Configured::Mcp(mcp)) if mcp.allows(tool) => self.configured.get(server),
                    Some(broken @ Configured::Broken(_)) => Some(broken),
                    _ => None,
                }
            }
        }
    }

    /// Why a name that names an MCP server, or a tool of one, is no tool a
    /// guest may call or be granted: the server's bare name, or a tool its
    /// `allow` does not list. `None` for any other name.
    pub fn mcp_refusal(&self, name: &str) -> Option<String> {
        let (server, tool) = match self.configured.get(name) {
            Some(Configured::Mcp(mcp)) => {
                return Some(format!(
                    "`{name}` is an MCP server: name each of its tools as `{name}/TOOL` \
                     (allowed: {})",
                    mcp.allowed().join(", ")
                ));
            }
            _ => mcp::split(name)?,
        };
        match self.configured.get(server) {
            Some(Configured::Mcp(mcp)) if !mcp.allows(tool) => Some(format!(
                "tool `{tool}` of MCP server `{server}` is not in tools.{server}.allow \
                 (allowed: {}); the operator must allow it in wakeful.toml first",
                mcp.allowed().join(", ")
            )),
            _ => None,
        }
    }

    /// The configured MCP servers, by name (for `wakeful check`).
    pub fn mcp_servers(&self) -> impl Iterator<Item = (&str, &mcp::McpTool)> {
        self.configured
            .iter()
            .filter_map(|(name, tool)| match tool {
                Configured::Mcp(mcp) => Some((name.as_str(), mcp)),
                _ => None,
            })
    }

    /// The most a call can spend, for metered tools (`llm`); `None` for
    /// tools that spend no budget, or arguments the call will refuse.
    pub fn estimate(&self, name: &str, args: &str) -> Option<Usage> {
        match self.lookup(name) {
            Some(Configured::Llm(tool)) => tool.estimate(args),
            _ => None,
        }
    }

    /// Whether a call leaves the host (an `http`, `llm` or `mcp` tool):
    /// such a call is fenced by the claim and has an intent written before
    /// it.
    pub fn is_external(&self, name: &str) -> bool {
        matches!(
            self.lookup(name),
            Some(Configured::Http(_) | Configured::Llm(_) | Configured::Mcp(_))
        )
    }

    /// Whether the system an external tool reaches deduplicates repeats of
    /// an `Idempotency-Key`, so that a call of unknown outcome may be sent
    /// again.
    pub fn is_idempotent(&self, name: &str) -> bool {
        match self.lookup(name) {
            Some(Configured::Http(tool)) => tool.idempotent(),
            Some(Configured::Llm(tool)) => tool.idempotent(),
            Some(Configured::Mcp(tool)) => tool.idempotent(),
            _ => true,
        }
    }

    pub fn max_payload(&self) -> usize {
        self.max_payload
    }

    /// Whether a call of `name` is answered in the step and written with
    /// its commit ([`Tools::hold`]): `kv`, `lease` and `static` tools.
    pub fn is_held(&self, name: &str) -> bool {
        matches!(name, "kv" | "lease")
            || matches!(self.configured.get(name), Some(Configured::Static(_)))
    }

    /// Answers a call [`Tools::is_held`] names, keeping its effect in
    /// `effects`. Store failures are host faults: the caller aborts the
    /// step.
    pub fn hold(
        &self,
        store: &SqlStore,
        effects: &mut Effects,
        call: &LedgerWrite,
        now: Millis,
        guest: &Guest<'_>,
    ) -> Result<Result<String, ToolError>, StoreError> {
        match call.tool.as_str() {
            "kv" => kv::call(store, effects, &call.args, guest),
            "lease" => lease::call(store, effects, &call.args, now, &call.run_id, guest),
            name => Ok(match self.configured.get(name) {
                Some(Configured::Static(result)) => Ok(result.clone()),
                _ => Err(ToolError::Unknown(name.to_string())),
            }),
        }
    }

    /// Runs a call that passed the gate and is not held
    /// ([`Tools::is_held`]). Store failures are host faults: the caller
    /// aborts the step. Its result or error is redacted
    /// ([`crate::secrets::redact`]) here, where it leaves the tool layer:
    /// everything downstream (the guest, its state, the ledger, the audit,
    /// a parked run's reason) sees only the redacted text.
    pub fn execute(
        &self,
        store: &mut SqlStore,
        call: &LedgerWrite,
        now: Millis,
    ) -> Result<Executed, StoreError> {
        let mut executed = self.execute_unredacted(store, call, now)?;
        executed.result = crate::secrets::redact_result(executed.result);
        Ok(executed)
    }

    fn execute_unredacted(
        &self,
        store: &mut SqlStore,
        call: &LedgerWrite,
        now: Millis,
    ) -> Result<Executed, StoreError> {
        match call.tool.as_str() {
            "callback" => callback::call(
                store,
                call,
                &self.public_url,
                self.max_callback_valid_ms,
                now,
            ),
            name => Ok(match self.lookup(name) {
                Some(Configured::Mcp(tool)) => {
                    let remote = mcp::split(name).map_or(name, |(_, tool)| tool);
                    mcp_executed(tool.call(call, remote, self.max_payload))
                }
                Some(Configured::Http(tool)) => match tool.call(call, self.max_payload) {
                    Ok(result) => {
                        let server_error = http::is_server_error(&result);
                        let mut executed = Executed::unrecorded(Ok(result));
                        executed.transient |= server_error;
                        executed
                    }
                    Err(CallError { error, unsent }) => {
                        let mut executed = Executed::unrecorded(Err(error));
                        executed.unsent = unsent && executed.transient;
                        executed.transient &= !unsent;
                        executed
                    }
                },
                Some(Configured::Llm(tool)) => {
                    let called = tool.call(call, self.max_payload);
                    // A model that answered was paid for: its answer, even
                    // an unusable one, is recorded and charged once.
                    let failed = called.usage.is_none()
                        && matches!(called.result, Err(ToolError::Failed(_)));
                    Executed {
                        result: called.result,
                        recorded: false,
                        usage: called.usage,
                        transient: failed && !called.unsent,
                        unsent: failed && called.unsent,
                        charge: called.charge,
                    }
                }
                Some(Configured::Broken(why)) => Executed::unrecorded(Err(ToolError::Failed(
                    format!("tool `{name}` is misconfigured: {why}"),
                ))),
                // A static tool is held (`hold`), never executed here.
                Some(Configured::Static(_)) | None => {
                    Executed::unrecorded(Err(ToolError::Unknown(name.to_string())))
                }
            }),
        }
    }
}

/// What an MCP call did: an answer (a result, or an error the server
/// gave) is recorded; no answer is an unknown outcome once the call was
/// sent, and sent again by the retried step when it was not.
fn mcp_executed(called: Result<Result<String, ToolError>, CallError>) -> Executed {
    match called {
        Ok(answer) => Executed {
            transient: false,
            ..Executed::unrecorded(answer)
        },
        Err(CallError { error, unsent }) => Executed {
            transient: !unsent,
            unsent,
            ..Executed::unrecorded(Err(error))
        },
    }
}

/// The config's approval rules. A config `Config::parse` would refuse
/// (one built in code) fails closed: every tool it marks needs an approval
/// no one can give.
fn approval_rules(config: &Config) -> BTreeMap<String, ApprovalRule> {
    config.approval_rules().unwrap_or_else(|_| {
        (config.approvals.tools.iter())
            .filter(|(_, c)| c.requires_approval)
            .map(|(name, _)| {
                let never = ApprovalRule {
                    quorum: u32::MAX,
                    approvers: Some(Default::default()),
                };
                (name.clone(), never)
            })
            .collect()
    })
}

/// The base URL of callback links: `[api] public_url`, else the address
/// `serve` listens on (`listening`, when known), else `http://` and
/// `[api] listen` or the default listen address.
pub fn public_url(config: &Config, listening: Option<std::net::SocketAddr>) -> String {
    if let Some(url) = &config.api.public_url {
        return url.trim_end_matches('/').to_string();
    }
    match listening {
        Some(addr) => format!("http://{addr}"),
        None => {
            let listen = config.api.listen.as_deref();
            format!("http://{}", listen.unwrap_or(crate::config::DEFAULT_LISTEN))
        }
    }
}

/// Parses a tool's JSON arguments into its typed form.
pub(crate) fn parse_args<T: serde::de::DeserializeOwned>(
    tool: &str,
    args: &str,
) -> Result<T, ToolError> {
    serde_json::from_str(args).map_err(|e| ToolError::Invalid(format!("{tool}: {e}")))
}
