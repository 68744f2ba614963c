//! What a measurement runs: an agent component, each run's start input, the
//! kv values its runs expect to find, and the wake each run gets after its
//! first steps. The repository's agents are built-in workloads by name
//! ([`WORKLOADS`]); any other component is measured with the input and
//! event the operator gives.

use std::path::{Path, PathBuf};

use crate::app::{App, AppError};
use crate::config::{Config, ToolConfig};
use crate::store::KvOp;

/// The wake each run gets once its first steps are taken.
#[derive(Clone, Debug)]
pub enum BenchWake {
    /// An event on `topic` with a JSON `payload`.
    Event { topic: String, payload: String },
    /// An approving answer to the approval request `request`.
    Approval { request: String },
}

/// What a benchmark measures.
pub struct Workload {
    /// The agent component.
    pub wasm: PathBuf,
    /// The start input of run `i` (JSON text).
    pub input: Box<dyn Fn(usize) -> String>,
    /// The kv keys and JSON values run `i` expects, written before the
    /// runs start (not timed).
    pub world: Box<dyn Fn(usize) -> Vec<(String, String)>>,
    pub wake: Option<BenchWake>,
    /// Tools the workload needs, set on the scratch host whatever the
    /// operator's config says (a canned model answer rather than a paid
    /// model).
    pub tools: Vec<(String, ToolConfig)>,
}

impl Workload {
    /// Writes the kv keys run `i` expects.
    pub fn write_world(&self, app: &mut App, i: usize) -> Result<(), AppError> {
        for (key, value) in (self.world)(i) {
            let put = KvOp::Put {
                key,
                value,
                expected_version: None,
            };
            app.kv(&put, "bench")?;
        }
        Ok(())
    }
}

/// The built-in workloads: the repository's agents, as
/// `scripts/build-agents.sh` builds them; `-py` and `-ts` are the same
/// agents written in Python and TypeScript.
pub const WORKLOADS: &[&str] = &[
    "invoice",
    "incident",
    "invoice-py",
    "incident-py",
    "invoice-ts",
    "incident-ts",
];

/// Where the build scripts put the components of each language, below the
/// repository's root, by workload suffix, and the script that builds them.
const BUILT_AGENTS: &[(&str, &str, &str)] = &[
    (
        "",
        "agents/target/wasm32-wasip2/release",
        "scripts/build-agents.sh",
    ),
    (
        "-py",
        "agents/target/python",
        "scripts/build-python-agents.sh",
    ),
    ("-ts", "agents/target/ts", "scripts/build-ts-agents.sh"),
];

/// The incident agent's model answer (as in `agents/incident/wakeful.toml`).
const INCIDENT_LLM: &str = r#"
[tools.llm]
kind = "static"
description = "A fixed model answer: the benchmark measures the host, not a model."
result = { action = "scale_out", reason = "memory at 97% after an OutOfMemoryError; scale out" }
"#;

/// The built-in workload `name`, its component looked up below the
/// current directory's and this executable's ancestors.
pub fn workload(name: &str) -> Result<Workload, AppError> {
    let (base, dir, script) = BUILT_AGENTS
        .iter()
        .rev()
        .find_map(|(suffix, dir, script)| Some((name.strip_suffix(suffix)?, *dir, *script)))
        .unwrap_or((name, BUILT_AGENTS[0].1, BUILT_AGENTS[0].2));
    let file = match base {
        "invoice" => "invoice_mail.wasm",
        "incident" => "incident.wasm",
        _ => {
            return Err(AppError::Invalid(format!(
                "there is no workload `{name}`: name one of {}, or give an agent component \
                 (a .wasm file)",
                WORKLOADS.join(", ")
            )));
        }
    };
    let wasm = find_built(dir, file).ok_or_else(|| {
        AppError::Invalid(format!(
            "workload `{name}` runs {dir}/{file}, which is not built here: run \
             {script} in the repository (it is looked for below the current \
             directory and the wakeful executable), or give the .wasm file's path"
        ))
    })?;
    Ok(match base {
        "invoice" => Workload {
            wasm,
            input: Box::new(|_| "null".into()),
            world: Box::new(|_| vec![]),
            wake: Some(BenchWake::Event {
                topic: "mail:invoice".into(),
                payload: r#"{"amount":120}"#.into(),
            }),
            tools: vec![],
        },
        _ => {
            // One service per run: runs acting on one service would find
            // the world changed by each other and stop short.
            let agent = name.to_string();
            let llm = Config::parse(INCIDENT_LLM)
                .map_err(AppError::Invalid)?
                .tools
                .into_iter()
                .collect();
            Workload {
                wasm,
                input: Box::new(|i| {
                    serde_json::json!({"incident": format!("BENCH-{i}"), "service": format!("svc-{i}")})
                        .to_string()
                }),
                // Keys of the agent's own namespace: the workload's name is
                // the name its agent deploys under (`incident`, `incident-py`).
                world: Box::new(move |i| {
                    vec![(
                        format!("agent/{agent}/service/svc-{i}"),
                        r#"{"status":"degraded","memory_pct":97,"actions_applied":0}"#.into(),
                    )]
                }),
                wake: Some(BenchWake::Approval {
                    request: "approve-scale_out".into(),
                }),
                tools: llm,
            }
        }
    })
}

/// Any agent component: started with a null input and sent no wake until
/// the operator says otherwise.
pub fn file_workload(wasm: &Path) -> Workload {
    Workload {
        wasm: wasm.to_path_buf(),
        input: Box::new(|_| "null".into()),
        world: Box::new(|_| vec![]),
        wake: None,
        tools: vec![],
    }
}

fn find_built(dir: &str, file: &str) -> Option<PathBuf> {
    let cwd = std::env::current_dir().ok();
    let exe = std::env::current_exe().ok();
    let roots = cwd.iter().chain(exe.iter()).flat_map(|p| p.ancestors());
    roots
        .map(|root| root.join(dir).join(file))
        .find(|path| path.is_file())
}
