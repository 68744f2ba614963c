//! One MCP session per call: start the server (stdio) or open a session
//! (streamable HTTP), shake hands, send the one request, and stop.
//!
//! A stdio server is started directly (no shell) with only the configured
//! environment, in its own process group, which is killed once the call
//! ends however it ends. An HTTP server is reached with reqwest over the
//! host's rustls (ring, the built-in roots or the tool's `ca_file`),
//! following no redirect and no proxy; the transport neither re-sends a
//! request after an expired session nor retries a dropped stream.
//!
//! The tool's timeout covers the whole session, on a thread of its own
//! with its own small runtime (the worker's thread is not async). What
//! happened before the call was sent had no effect (the handshake only);
//! after it, a missing answer is an unknown outcome.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use reqwest::header::{HeaderName, HeaderValue};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, ClientCapabilities, ClientConfig, Implementation,
    JsonObject, RequestMetaObject, Tool,
};
use rmcp::service::{RoleClient, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::common::client_side_sse::SseRetryPolicy;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::{ServiceError, ServiceExt};
use serde_json::Value;
use tokio::io::AsyncReadExt;

use crate::config::McpToolConfig;
use crate::model::ToolError;
use crate::secrets::Secrets;
use crate::tools::CallError;

/// Headers the MCP transport sets itself, which a config may not.
const RESERVED_HEADERS: &[&str] = &[
    "accept",
    "content-type",
    "mcp-session-id",
    "mcp-protocol-version",
    "last-event-id",
];

/// Bytes a server may send over one session besides the result: its
/// handshake, notifications and framing.
const SESSION_SLACK_BYTES: usize = 1 << 20;

/// How long closing a session that answered may take before it is
/// dropped.
const CLOSE_MS: u64 = 500;

/// Where a configured MCP server is, checked at start.
#[derive(Clone, Debug)]
pub(super) enum Server {
    Stdio {
        program: String,
        args: Vec<String>,
        /// The whole environment, secrets filled in.
        env: Env,
    },
    Http {
        /// The URL with its secrets: never quoted.
        url: String,
        headers: HashMap<HeaderName, HeaderValue>,
        tls: Arc<rustls::ClientConfig>,
    },
}

/// A stdio server's environment; its `Debug` names the variables only,
/// since values may be secrets.
#[derive(Clone)]
pub(super) struct Env(Vec<(String, String)>);

impl std::fmt::Debug for Env {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list()
            .entries(self.0.iter().map(|(k, _)| k))
            .finish()
    }
}

/// One call to send.
pub(super) struct Request<'a> {
    /// `<server>/<tool>`, how errors name the call.
    pub what: &'a str,
    pub tool: &'a str,
    pub arguments: JsonObject,
    /// Sent in `_meta` as [`super::META_KEY`].
    pub key: String,
    pub timeout_ms: u64,
    pub max_payload: usize,
}

/// What the server answered a call with.
pub(super) enum Answer {
    Result(rmcp::model::CallToolResult),
    /// A JSON-RPC error: the server refused or failed the request.
    Error {
        code: i32,
        message: String,
    },
    /// The server asked for input (MCP's `input_required`).
    InputRequired,
}

/// A session that ended without an answer: before the call was sent (no
/// effect anywhere), or after (an unknown outcome).
struct Unanswered {
    why: String,
    sent: bool,
}

impl Server {
    pub(super) fn new(
        name: &str,
        config: &McpToolConfig,
        secrets: &Secrets,
    ) -> Result<Server, String> {
        match (&config.command, &config.url) {
            (Some(command), None) => stdio(name, command, config, secrets),
            (None, Some(url)) => http(name, url, config, secrets),
            _ => Err(format!(
                "tools.{name}: an mcp tool needs exactly one of command (a server over stdio, \
                 e.g. command = [\"node\", \"server.js\"]) and url (a server over streamable \
                 HTTP)"
            )),
        }
    }

    /// Sends one call in a session of its own.
    pub(super) fn call(&self, request: &Request<'_>) -> Result<Answer, CallError> {
        let mut params = CallToolRequestParams::new(request.tool.to_string())
            .with_arguments(request.arguments.clone());
        let mut meta = RequestMetaObject::new();
        meta.0
            .0
            .insert(super::META_KEY.into(), Value::String(request.key.clone()));
        params.meta = Some(meta);
        let sent = AtomicBool::new(false);
        let limit = request.max_payload + SESSION_SLACK_BYTES;
        let outcome = self.in_session(request.timeout_ms, limit, |client| {
            let sent = &sent;
            async move {
                sent.store(true, Ordering::SeqCst);
                let called = client.peer().call_tool_once(params).await;
                let answer = match called {
                    Ok(CallToolResponse::Complete(result)) => Ok(Answer::Result(result)),
                    Ok(CallToolResponse::InputRequired(_)) => Ok(Answer::InputRequired),
                    Ok(CallToolResponse::Task(_)) => Err(
                        "the server made the call a task to poll, which wakeful does not do"
                            .to_string(),
                    ),
                    Ok(_) => Err("the server answered with something other than a result".into()),
                    Err(ServiceError::McpError(e)) => Ok(Answer::Error {
                        code: e.code.0,
                        message: e.message.into_owned(),
                    }),
                    Err(e) => Err(e.to_string()),
                };
                if answer.is_ok() {
                    close(client).await;
                }
                answer
            }
        });
        outcome.map_err(|unanswered| {
            let Unanswered { why, sent: in_call } = unanswered;
            let sent = in_call || sent.load(Ordering::SeqCst);
            let why = if sent {
                format!(
                    "{}: {why}; the call was sent and its outcome is unknown",
                    request.what
                )
            } else {
                format!("{}: {why}; the call was not sent", request.what)
            };
            CallError {
                error: ToolError::Failed(why),
                unsent: !sent,
            }
        })
    }

    /// The server's tools (every page of them).
    pub(super) fn list_tools(&self, name: &str, timeout_ms: u64) -> Result<Vec<Tool>, String> {
        let listed = self.in_session(timeout_ms, 16 << 20, |client| async move {
            let tools = client
                .peer()
                .list_all_tools()
                .await
                .map_err(|e| e.to_string());
            close(client).await;
            tools
        });
        listed.map_err(|u| format!("MCP server `{name}`: {}", u.why))
    }

    /// Runs `work` in a new session, on a thread of its own, within
    /// `timeout_ms` from the server's start; a stdio server is stopped
    /// after it. An `Err` from `work` is a failure after its request was
    /// sent.
    fn in_session<T, F, Fut>(&self, timeout_ms: u64, limit: usize, work: F) -> Result<T, Unanswered>
    where
        T: Send,
        F: FnOnce(RunningService<RoleClient, ClientConfig>) -> Fut + Send,
        Fut: Future<Output = Result<T, String>>,
    {
        std::thread::scope(|scope| {
            let thread = scope.spawn(|| {
                let runtime = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .map_err(|e| Unanswered {
                        why: format!("cannot start a runtime for the call: {e}"),
                        sent: false,
                    })?;
                runtime.block_on(self.session(timeout_ms, limit, work))
            });
            thread.join().unwrap_or_else(|_| {
                Err(Unanswered {
                    why: "the call's thread panicked".into(),
                    sent: true,
                })
            })
        })
    }

    async fn session<T, F, Fut>(
        &self,
        timeout_ms: u64,
        limit: usize,
        work: F,
    ) -> Result<T, Unanswered>
    where
        F: FnOnce(RunningService<RoleClient, ClientConfig>) -> Fut,
        Fut: Future<Output = Result<T, String>>,
    {
        let mut child = None;
        let deadline = Duration::from_millis(timeout_ms);
        let ran = tokio::time::timeout(deadline, async {
            let client = self.connect(limit, &mut child).await?;
            work(client)
                .await
                .map_err(|why| Unanswered { why, sent: true })
        })
        .await;
        if let Some(child) = child {
            stop(child).await;
        }
        match ran {
            Ok(done) => done,
            // Whether the call was sent by then, the caller knows.
            Err(_) => Err(Unanswered {
                why: format!("no answer within {timeout_ms} ms (the tool's timeout_ms)"),
                sent: false,
            }),
        }
    }

    /// Starts the server or opens the HTTP session, and shakes hands.
    async fn connect(
        &self,
        limit: usize,
        child: &mut Option<tokio::process::Child>,
    ) -> Result<RunningService<RoleClient, ClientConfig>, Unanswered> {
        let unsent = |why: String| Unanswered { why, sent: false };
        let client = match self {
            Server::Stdio { program, args, env } => {
                let path = resolve(program).map_err(unsent)?;
                let mut command = tokio::process::Command::new(path);
                command
                    .args(args)
                    .env_clear()
                    .envs(env.0.iter().map(|(k, v)| (k, v)))
                    .stdin(std::process::Stdio::piped())
                    .stdout(std::process::Stdio::piped())
                    .stderr(std::process::Stdio::null())
                    .kill_on_drop(true);
                // Its own group, so that stopping it stops what it started.
                #[cfg(unix)]
                command.process_group(0);
                let spawned = command
                    .spawn()
                    .map_err(|e| unsent(format!("cannot start `{program}`: {e}")))?;
                let spawned = child.insert(spawned);
                let (Some(stdout), Some(stdin)) = (spawned.stdout.take(), spawned.stdin.take())
                else {
                    return Err(unsent("the server's stdio was not piped".into()));
                };
                let stdout = stdout.take(limit as u64);
                client_info().serve((stdout, stdin)).await
            }
            Server::Http { url, headers, tls } => {
                let http = reqwest::Client::builder()
                    .tls_backend_preconfigured((**tls).clone())
                    .redirect(reqwest::redirect::Policy::none())
                    .no_proxy()
                    .build()
                    .map_err(|e| unsent(format!("cannot build the HTTP client: {e}")))?;
                let mut config = StreamableHttpClientTransportConfig::with_uri(url.as_str())
                    .custom_headers(headers.clone())
                    .reinit_on_expired_session(false)
                    .max_sse_event_size(limit)
                    // A JSON answer is read whole before it is parsed: no
                    // more of it than a result may be.
                    .max_json_response_size(limit);
                config.retry_config = Arc::new(NoRetry);
                let transport = StreamableHttpClientTransport::with_client(http, config);
                client_info().serve(transport).await
            }
        };
        client.map_err(|e| unsent(format!("the MCP handshake failed: {e}")))
    }
}

/// The file a program names: itself when it holds a `/`, else the first
/// executable of that name in the host's `PATH` (the server's own
/// environment has no `PATH` unless its config gives one).
fn resolve(program: &str) -> Result<std::path::PathBuf, String> {
    if program.contains('/') {
        return Ok(program.into());
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|file| is_executable(file))
        .ok_or_else(|| format!("cannot start `{program}`: no such program in the host's PATH"))
}

fn is_executable(file: &std::path::Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        file.metadata()
            .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    }
    #[cfg(not(unix))]
    file.is_file()
}

/// Who the host says it is in the handshake.
fn client_info() -> ClientConfig {
    ClientConfig::new(
        ClientCapabilities::default(),
        Implementation::new("wakeful", env!("CARGO_PKG_VERSION")),
    )
}

/// Closes a session that answered, politely but briefly.
async fn close(client: RunningService<RoleClient, ClientConfig>) {
    let _ = tokio::time::timeout(Duration::from_millis(CLOSE_MS), client.cancel()).await;
}

/// Kills a stdio server's process group and reaps it.
async fn stop(mut child: tokio::process::Child) {
    #[cfg(unix)]
    if let Some(pid) = child.id().and_then(|pid| i32::try_from(pid).ok()) {
        // SAFETY: kill(2) on the group this host created for the server.
        #[allow(unsafe_code)]
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
    }
    let _ = child.start_kill();
    let _ = tokio::time::timeout(Duration::from_secs(1), child.wait()).await;
}

/// Never reopens a dropped stream: a reopened stream could carry an
/// answer the host no longer waits for, and the call's timeout bounds it.
#[derive(Debug)]
struct NoRetry;

impl SseRetryPolicy for NoRetry {
    fn retry(&self, _times: usize) -> Option<Duration> {
        None
    }
}

/// A stdio server's program, arguments and environment, checked.
fn stdio(
    name: &str,
    command: &[String],
    config: &McpToolConfig,
    secrets: &Secrets,
) -> Result<Server, String> {
    if !config.headers.is_empty() || config.ca_file.is_some() || config.allow_plain_http {
        return Err(format!(
            "tools.{name}: headers, ca_file and allow_plain_http are for a url server; this \
             one has a command"
        ));
    }
    let Some((program, args)) = command.split_first().filter(|(p, _)| !p.is_empty()) else {
        return Err(format!(
            "tools.{name}.command is empty: name the program and its arguments, e.g. \
             [\"node\", \"server.js\"]"
        ));
    };
    let mut env = Vec::with_capacity(config.env.len());
    for (key, value) in &config.env {
        if key.is_empty() || key.contains('=') || key.contains('\0') {
            return Err(format!("tools.{name}.env: `{key}` is not a variable name"));
        }
        let (value, used) = secrets.expand(&format!("tools.{name}.env.{key}"), value)?;
        if used {
            crate::secrets::register(&value);
        }
        env.push((key.clone(), value));
    }
    Ok(Server::Stdio {
        program: program.clone(),
        args: args.to_vec(),
        env: Env(env),
    })
}

/// A streamable HTTP server's URL, headers and TLS, checked.
fn http(
    name: &str,
    url: &str,
    config: &McpToolConfig,
    secrets: &Secrets,
) -> Result<Server, String> {
    if !config.env.is_empty() {
        return Err(format!(
            "tools.{name}.env is for a command server; this one has a url"
        ));
    }
    let (expanded, _) = secrets.expand(&format!("tools.{name}.url"), url)?;
    let uri = crate::tools::endpoint::parse_url(name, &expanded, url, config.allow_plain_http)?;
    if let Some(query) = uri.query() {
        crate::secrets::register_query(query);
    }
    let mut headers = HashMap::new();
    for (header, value) in &config.headers {
        let header_name = HeaderName::from_bytes(header.as_bytes())
            .map_err(|_| format!("tools.{name}.headers: `{header}` is not a header name"))?;
        if RESERVED_HEADERS.contains(&header_name.as_str()) {
            return Err(format!(
                "tools.{name}.headers: `{header}` is set by the MCP transport itself"
            ));
        }
        let (value, _) = secrets.expand(&format!("tools.{name}.headers.{header}"), value)?;
        let mut header_value = HeaderValue::from_str(&value)
            .map_err(|_| format!("tools.{name}.headers.{header}: not a valid header value"))?;
        // Shown as `Sensitive` by `Debug`.
        header_value.set_sensitive(true);
        if header_name.as_str() != "user-agent" {
            crate::secrets::register(&value);
        }
        headers.insert(header_name, header_value);
    }
    let tls = tls_config(
        name,
        config.ca_file.as_deref(),
        uri.scheme_str() == Some("https"),
    )?;
    Ok(Server::Http {
        url: expanded,
        headers,
        tls: Arc::new(tls),
    })
}

/// rustls with ring, verifying against the built-in public roots or only
/// the CAs of `ca_file`.
fn tls_config(
    name: &str,
    ca_file: Option<&str>,
    https: bool,
) -> Result<rustls::ClientConfig, String> {
    let mut roots = rustls::RootCertStore::empty();
    match ca_file {
        None => roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned()),
        Some(_) if !https => {
            return Err(format!(
                "tools.{name}.ca_file is set but tools.{name}.url is not https://"
            ));
        }
        Some(file) => {
            for cert in crate::tools::endpoint::ca_certs(name, file)? {
                let der = rustls::pki_types::CertificateDer::from(cert.der().to_vec());
                roots
                    .add(der)
                    .map_err(|e| format!("tools.{name}.ca_file `{file}`: {e}"))?;
            }
        }
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("tools.{name}: TLS: {e}"))?
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok(config)
}
