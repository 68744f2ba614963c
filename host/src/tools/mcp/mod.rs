//! The `mcp` tool kind: the tools of an MCP server, each called by a guest
//! as `<server>/<tool>` under its own grant.
//!
//! The operator names the server (a program over stdio, or a streamable
//! HTTP URL) and the tools of it this host may call (`allow`); a guest
//! needs the grant `<server>/<tool>` for each. What the server says of its
//! tools (annotations such as `destructiveHint`) is shown to operators by
//! `wakeful check`, never used to decide anything. A call's arguments are
//! the tool's MCP `arguments` object, sent with the call's idempotency key
//! in `_meta` as `wakeful/idempotency-key` (the value of the `http` tool's
//! `Idempotency-Key`). Result: `{"content": [..], "structuredContent": ..}`
//! as the server answered; a result with `isError: true`, or a JSON-RPC
//! error, is `failed` and recorded like any answer. A call that was sent
//! and got no answer in `timeout_ms` (or lost its connection) is an unknown
//! outcome, which the gate parks unless the tool is `idempotent`; one that
//! failed before the call was sent (the server did not start, or its
//! handshake failed) had no effect: it is not recorded, and a later call
//! under the same key sends it.
//!
//! Each call is one session: the server is started (or the HTTP session
//! opened) for it and stopped after it ([`connect`]).

mod connect;
mod result;

use serde_json::Value;

use super::CallError;
use super::endpoint::idempotency_key;
use crate::config::{LimitsConfig, McpToolConfig};
use crate::model::ToolError;
use crate::secrets::Secrets;
use crate::store::LedgerWrite;

/// The `_meta` key the idempotency key is sent under.
pub const META_KEY: &str = "wakeful/idempotency-key";

/// One configured MCP server.
#[derive(Clone, Debug)]
pub struct McpTool {
    /// The config's name for it: the part of a tool's name before `/`.
    name: String,
    /// The server's tools this host may call.
    allow: Vec<String>,
    server: connect::Server,
    timeout_ms: u64,
    idempotent: bool,
}

/// What the server says of one of its tools, for operators.
#[derive(Clone, Debug, serde::Serialize)]
pub struct ToolListing {
    /// `<server>/<tool>`.
    pub name: String,
    pub allowed: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The server's annotations (`readOnlyHint`, `destructiveHint`, ...):
    /// hints a server gives about itself, shown, never trusted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Value>,
}

impl McpTool {
    /// A server whose `url`, `headers` and `env` may name `secrets`.
    pub fn with_secrets(
        name: &str,
        config: &McpToolConfig,
        limits: &LimitsConfig,
        secrets: &Secrets,
    ) -> Result<McpTool, String> {
        if config.allow.is_empty() {
            return Err(format!(
                "tools.{name}.allow is empty: list the server's tools this host may call, \
                 e.g. allow = [\"echo\"]"
            ));
        }
        for tool in &config.allow {
            if tool.is_empty() || tool.len() > 128 || tool.chars().any(char::is_whitespace) {
                return Err(format!(
                    "tools.{name}.allow: `{tool}` is not an MCP tool name (1 to 128 characters, \
                     no spaces)"
                ));
            }
        }
        let server = connect::Server::new(name, config, secrets)?;
        Ok(McpTool {
            name: name.to_string(),
            allow: config.allow.clone(),
            server,
            timeout_ms: super::endpoint::timeout_ms(config.timeout_ms, limits),
            idempotent: config.idempotent,
        })
    }

    /// Whether `tool` is one of the server's tools this host may call.
    pub fn allows(&self, tool: &str) -> bool {
        self.allow.iter().any(|t| t == tool)
    }

    /// The server's tools this host may call.
    pub fn allowed(&self) -> &[String] {
        &self.allow
    }

    pub fn idempotent(&self) -> bool {
        self.idempotent
    }

    /// Calls the server's tool `tool` (allowed: the caller checked) with
    /// the call's arguments. `Ok` is the server's answer (a result, or
    /// `failed` for an error it answered with); `Err` a call that got no
    /// answer, with whether it was sent.
    pub fn call(
        &self,
        call: &LedgerWrite,
        tool: &str,
        max_payload: usize,
    ) -> Result<Result<String, ToolError>, CallError> {
        let what = format!("{}/{tool}", self.name);
        let arguments = match serde_json::from_str::<Value>(&call.args) {
            Ok(Value::Object(arguments)) => arguments,
            _ => {
                return Err(ToolError::Invalid(format!(
                    "{what}: the arguments must be a JSON object (the tool's MCP arguments)"
                ))
                .into());
            }
        };
        let request = connect::Request {
            what: &what,
            tool,
            arguments,
            key: idempotency_key(call),
            timeout_ms: self.timeout_ms,
            max_payload,
        };
        let answer = self.server.call(&request)?;
        Ok(result::render(&what, answer))
    }

    /// The server's tools and what it says of them, for `wakeful check`.
    pub fn list_tools(&self) -> Result<Vec<ToolListing>, String> {
        let tools = self.server.list_tools(&self.name, self.timeout_ms)?;
        Ok(tools
            .into_iter()
            .map(|t| ToolListing {
                name: format!("{}/{}", self.name, t.name),
                allowed: self.allows(&t.name),
                description: t.description.map(|d| d.into_owned()),
                annotations: t
                    .annotations
                    .and_then(|a| serde_json::to_value(a).ok())
                    .filter(|a| a.as_object().is_some_and(|o| !o.is_empty())),
            })
            .collect())
    }
}

/// The MCP server and tool a name `<server>/<tool>` names.
pub fn split(name: &str) -> Option<(&str, &str)> {
    name.split_once('/')
        .filter(|(s, t)| !s.is_empty() && !t.is_empty())
}
