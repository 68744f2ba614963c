//! `[tools.<name>] kind = "mcp"`: an MCP server whose allowed tools a guest
//! calls as `<name>/<tool>` (`tools/mcp`).

use std::collections::BTreeMap;

use serde::Deserialize;

/// `[tools.<name>] kind = "mcp"`: exactly one of `command` (stdio) and
/// `url` (streamable HTTP).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct McpToolConfig {
    /// A server over stdio: the program and its arguments, started
    /// directly (no shell) for each call, e.g. `["node", "server.js"]`. A
    /// program without a `/` is looked up in the host's `PATH`.
    #[serde(default)]
    pub command: Option<Vec<String>>,
    /// The whole environment of a `command` server: nothing of the host's
    /// is passed on but these. Values may name secrets
    /// (`GITHUB_TOKEN = "${secret:github}"`).
    #[serde(default)]
    pub env: BTreeMap<String, String>,
    /// A server over streamable HTTP: `https://`, or `http://` to a
    /// loopback host (or to any host with `allow_plain_http`), as for
    /// `http` tools. It may name secrets.
    #[serde(default)]
    pub url: Option<String>,
    /// Sent with every request to a `url` server; values may name secrets
    /// (`Authorization = "Bearer ${secret:github}"`) and are redacted
    /// wherever they could be shown.
    #[serde(default)]
    pub headers: BTreeMap<String, String>,
    /// As for `http` tools: the CAs a `url` server's certificate must
    /// chain to, instead of the built-in public roots.
    #[serde(default)]
    pub ca_file: Option<String>,
    /// As for `http` tools: allows `http://` to a host that is not loopback.
    #[serde(default)]
    pub allow_plain_http: bool,
    /// The server's tools this host may call; a guest calls each as
    /// `<name>/<tool>` and needs the grant `<name>/<tool>`.
    pub allow: Vec<String>,
    /// How long a call may take, starting the server and its handshake
    /// included; as for `http` tools, below `limits.step_deadline_ms`. A
    /// call sent and not answered in time is an unknown outcome.
    #[serde(default)]
    pub timeout_ms: Option<u64>,
    /// Whether the server drops a repeated call with the same idempotency
    /// key (sent in `_meta` as `wakeful/idempotency-key`). Default false: a
    /// call whose outcome is unknown is never sent again without an
    /// operator.
    #[serde(default)]
    pub idempotent: bool,
    #[serde(default)]
    pub description: Option<String>,
}
