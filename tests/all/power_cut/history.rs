//! Recorded histories: real `wakeful` processes on a store whose every
//! file change goes to the power log, and, marked in the same log at the
//! moment the test sees them, what the host acknowledged (a start, a step
//! reported, an answer, a callback's POST answered) and every call that
//! reached the world.

use std::collections::BTreeMap;
use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use serde_json::{Value, json};

use super::log;
use crate::fake_servers::{FakeServer, Reply};
use crate::harness::Env;

/// The tools every history's host has, all on one loopback server:
/// `pager` drops repeated keys; `llm`, `approvals` and `refunds` cannot.
pub fn tools_config(url: &str) -> String {
    format!(
        "[limits]\nclaim_ms = 1500\nstep_deadline_ms = 1200\nretry_backoff_ms = 0\n\
         max_attempts = 50\n\
         [tools.pager]\nkind = \"http\"\nurl = \"{url}/notify\"\ntimeout_ms = 1000\n\
         idempotent = true\n\
         [tools.llm]\nkind = \"http\"\nurl = \"{url}/pay\"\ntimeout_ms = 1000\n\
         [tools.approvals]\nkind = \"http\"\nurl = \"{url}/approvals\"\ntimeout_ms = 1000\n\
         [tools.refunds]\nkind = \"http\"\nurl = \"{url}/refunds\"\ntimeout_ms = 1000\n"
    )
}

/// The world the tools reach: a loopback server that applies every call,
/// marks it in the power log when it is given one (the moment the world
/// saw it), and keeps the callback links the refund agent sends it.
pub struct World {
    pub server: FakeServer,
    pub links: Arc<Mutex<Vec<(String, String)>>>,
}

/// What a call to the world was: (tool, run, the guest's key, the steps of
/// the run committed before it left).
pub fn call_of(req: &crate::fake_servers::Request) -> (String, String, String, u64) {
    let body = req.json();
    match req.path.as_str() {
        "/notify" | "/pay" => {
            let run = body["run"].as_str().unwrap().to_string();
            let call = body["call"].as_u64().unwrap();
            let tool = if req.path == "/notify" {
                "pager"
            } else {
                "llm"
            };
            (tool.into(), run, format!("k{call}"), call - 1)
        }
        "/approvals" | "/refunds" => {
            let order = body["order"].as_str().unwrap();
            let run = format!("refund-{order}");
            let (tool, what, steps) = match req.path.as_str() {
                "/approvals" => ("approvals", "ask", 0),
                _ => ("refunds", "pay", 1),
            };
            (tool.into(), run, format!("refund-{order}:{what}"), steps)
        }
        other => panic!("a call to {other}, which no tool names"),
    }
}

impl World {
    pub fn start(log: Option<PathBuf>) -> World {
        let links: Arc<Mutex<Vec<(String, String)>>> = Arc::default();
        let kept = Arc::clone(&links);
        let server = FakeServer::start(move |req| {
            let (tool, run, key, steps) = call_of(req);
            if let Some(log) = &log {
                log::mark(log, &format!("effect {tool} {run} {key} {steps}"));
            }
            if let Some(url) = req.json()["callback_url"].as_str() {
                kept.lock().unwrap().push((run, url.to_string()));
            }
            Reply::Json(200, json!({"applied": true}))
        });
        World { server, links }
    }

    /// How many times the world saw each (tool, run, key).
    pub fn effects(&self) -> BTreeMap<(String, String, String), usize> {
        let mut seen = BTreeMap::new();
        for req in self.server.requests() {
            let (tool, run, key, _) = call_of(&req);
            *seen.entry((tool, run, key)).or_default() += 1;
        }
        seen
    }
}

/// A host whose every process writes the power log, from an empty data
/// directory.
pub struct Recording {
    pub env: Env,
    pub log: PathBuf,
    pub world: World,
}

/// The start input of a caller run: a call to `pager`, one to `llm` (which
/// cannot drop a repeat), one to `pager`.
pub fn caller_input(run: &str) -> Value {
    let call =
        |tool: &str, n: u64| json!({"tool": tool, "args": {"body": {"run": run, "call": n}}});
    json!({"calls": [call("pager", 1), call("llm", 2), call("pager", 3)]})
}

impl Recording {
    pub fn new(name: &str) -> Recording {
        let env = Env::sqlite(name, "");
        let log = env.dir.join("power.log");
        let world = World::start(Some(log.clone()));
        std::fs::write(
            env.dir.join("wakeful.toml"),
            tools_config(&world.server.url),
        )
        .unwrap();
        let env = env.clone_with_env(log::ENV, log.to_str().unwrap());
        Recording { env, log, world }
    }

    pub fn mark(&self, text: &str) {
        log::mark(&self.log, text);
    }

    /// The data directory's compiled agents, for hosts on its images.
    pub fn cache(&self) -> PathBuf {
        self.env.dir.join("data/cache")
    }

    /// `start` on the command line, acknowledged when it exits.
    pub fn start(&self, agent: &str, run: &str, input: &Value) {
        self.env.start(agent, run, input.clone());
        self.mark(&format!("start {run}"));
    }

    /// `approve` on the command line, acknowledged when it exits.
    pub fn approve(&self, run: &str, id: &str) {
        self.env.approve(run, id, &["--by", "bob"]);
        self.mark(&format!("answer {run} {id}"));
    }

    /// `wakeful ARGS` with `--json` steps on its standard output: each step
    /// reported committed is marked as it is read. Returns whether the
    /// process exited 0, and its standard error.
    pub fn work_with(&self, env: &Env, args: &[&str]) -> (bool, String) {
        let mut child = env
            .command(args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let stdout = std::io::BufReader::new(child.stdout.take().unwrap());
        for line in stdout.lines() {
            let step: Value = serde_json::from_str(&line.unwrap()).unwrap();
            if step["result"] == "committed" {
                self.mark(&format!(
                    "step {} {}",
                    step["run_id"].as_str().unwrap(),
                    step["seq"]
                ));
            }
        }
        let out = child.wait_with_output().unwrap();
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stderr).to_string(),
        )
    }

    /// `work --until-idle --json`, which must succeed.
    pub fn work(&self) {
        let (ok, stderr) = self.work_with(&self.env, &["work", "--until-idle", "--json"]);
        assert!(ok, "work failed: {stderr}");
    }
}

/// Whether `file` in the data directory `data` holds exactly `contents`.
pub fn same_file(data: &Path, file: &str, contents: &[u8]) -> Result<(), String> {
    let real = std::fs::read(data.join(file)).map_err(|e| format!("{file}: {e}"))?;
    if real == contents {
        return Ok(());
    }
    let first = real.iter().zip(contents).position(|(a, b)| a != b);
    Err(format!(
        "{file}: {} bytes on disk, {} replayed; first difference at {first:?}",
        real.len(),
        contents.len()
    ))
}
