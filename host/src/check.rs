//! `wakeful check FILE.wasm`: whether this host would accept a component,
//! and why not, without deploying it. The same checks as `deploy`, in the
//! same order: [`read`] the header, the imports and exports off the bytes
//! (no compiling), then, if nothing is wrong, [`compile`] the component
//! (into the host's cache, so that a deploy after it compiles nothing) and
//! ask it for its `info`.

use std::time::Instant;

use serde::Serialize;

use crate::app::check_info;
use crate::config::{BUILTIN_TOOLS, Config};
use crate::model::AgentInfo;
use crate::runtime::inspect::{self, Shape};
use crate::runtime::{Runtime, digest};
use crate::tools::Tools;

/// What `check` found.
#[derive(Debug, Serialize)]
pub struct ComponentCheck {
    pub size: usize,
    pub digest: String,
    /// The contract this host speaks.
    pub host_contract: &'static str,
    /// `None` when the bytes are not a component at all.
    pub shape: Option<Shape>,
    /// `None` when an earlier check failed, or `info` did.
    pub info: Option<AgentInfo>,
    /// The tools the component asks for, and whether this host has each.
    pub tools: Vec<ToolCheck>,
    /// What the MCP servers of the tools it asks for say of those tools,
    /// asked at check time: their annotations (`destructiveHint`, …) are
    /// the servers' own hints, shown to the operator and never used to
    /// decide anything.
    pub mcp_tools: Vec<crate::tools::mcp::ToolListing>,
    /// MCP servers that could not be asked, and why (the host may still
    /// accept the component).
    pub mcp_unreachable: Vec<String>,
    /// How long compiling (or loading the compiled artifact) took.
    pub compile_ms: Option<u64>,
    /// Every reason the host would refuse it; empty: it would accept it.
    pub problems: Vec<String>,
}

/// A requested tool and where this host has it from.
#[derive(Debug, Serialize)]
pub struct ToolCheck {
    pub name: String,
    /// `built in`, `configured`, or `not configured` (calls fail with
    /// `unknown` until wakeful.toml adds it; deploy still accepts it).
    pub on_this_host: &'static str,
}

impl ComponentCheck {
    pub fn accepted(&self) -> bool {
        self.problems.is_empty()
    }
}

/// The checks that read the bytes without compiling them: the header and
/// size, the imports and exports. Fast for any component.
pub fn read(bytes: &[u8], config: &Config) -> ComponentCheck {
    let mut check = ComponentCheck {
        size: bytes.len(),
        digest: digest(bytes),
        host_contract: inspect::CONTRACT,
        shape: None,
        info: None,
        tools: Vec::new(),
        mcp_tools: Vec::new(),
        mcp_unreachable: Vec::new(),
        compile_ms: None,
        problems: Vec::new(),
    };
    let limits = config.runtime_limits();
    if let Err(e) = crate::runtime::check_header(bytes, limits.max_component_bytes) {
        check.problems.push(e.to_string());
        return check;
    }
    match inspect::shape(bytes) {
        Ok(shape) => {
            check.problems = shape.problems();
            if let Err(e) = inspect::check_functions(&shape, limits.max_function_bytes) {
                check.problems.push(e.to_string());
            }
            check.shape = Some(shape);
        }
        Err(e) => check.problems.push(e.to_string()),
    }
    check
}

/// Compiles the component (into the runtime's cache) and asks it for its
/// `info`: its name, version and the tools it asks for.
pub fn compile(
    check: &mut ComponentCheck,
    bytes: &[u8],
    config: &Config,
    runtime: impl FnOnce() -> anyhow::Result<std::sync::Arc<Runtime>>,
) {
    let runtime = match runtime() {
        Ok(runtime) => runtime,
        Err(e) => {
            check.problems.push(format!("{e:#}"));
            return;
        }
    };
    let started = Instant::now();
    let loaded = runtime.load(bytes);
    check.compile_ms = Some(u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX));
    let loaded = match loaded {
        Ok(loaded) => loaded,
        Err(e) => {
            check.problems.push(e.to_string());
            return;
        }
    };
    let info = match runtime.info(&loaded) {
        Ok(info) => info,
        Err(e) => {
            check
                .problems
                .push(format!("the component's `info` export failed: {e}"));
            return;
        }
    };
    if let Err(problem) = check_info(&info) {
        check.problems.push(problem);
    }
    let tools = Tools::from_config(config);
    check.tools = info
        .tools
        .iter()
        .map(|name| ToolCheck {
            name: name.clone(),
            on_this_host: if BUILTIN_TOOLS.contains(&name.as_str()) {
                "built in"
            } else if tools.knows(name) {
                "configured"
            } else if tools.mcp_refusal(name).is_some() {
                "not allowed by its MCP server's config"
            } else {
                "not configured"
            },
        })
        .collect();
    list_mcp_tools(check, &tools, &info.tools);
    check.info = Some(info);
}

/// Asks each MCP server that `asked` names a tool of for its tools, and
/// keeps what it says of those.
fn list_mcp_tools(check: &mut ComponentCheck, tools: &Tools, asked: &[String]) {
    for (server, mcp) in tools.mcp_servers() {
        let prefix = format!("{server}/");
        if !asked.iter().any(|t| t.starts_with(&prefix)) {
            continue;
        }
        match mcp.list_tools() {
            Ok(listed) => check
                .mcp_tools
                .extend(listed.into_iter().filter(|t| asked.contains(&t.name))),
            Err(why) => check.mcp_unreachable.push(why),
        }
    }
}
