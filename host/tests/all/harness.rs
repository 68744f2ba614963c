//! Runs the real `wakeful` binary against a real data directory, one process
//! per command, as an operator would.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::Once;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::Value;

/// The repository root.
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

static BUILD: Once = Once::new();

/// The component built from `agents/<crate>`; agents are built from source
/// once per test process.
pub fn agent(crate_name: &str) -> PathBuf {
    BUILD.call_once(|| {
        let status = Command::new("bash")
            .arg(repo().join("scripts/build-agents.sh"))
            .stdout(std::process::Stdio::null())
            .status()
            .expect("run scripts/build-agents.sh");
        assert!(status.success(), "building the agents failed");
    });
    let path = repo()
        .join("agents/target/wasm32-wasip2/release")
        .join(format!("{}.wasm", crate_name.replace('-', "_")));
    assert!(path.exists(), "{} was not built", path.display());
    path
}

/// The incident demo's config: `llm` answers `scale_out` offline.
pub const INCIDENT_TOOLS: &str = r#"
[tools.llm]
kind = "static"
result = { action = "scale_out", reason = "memory at 97% after an OutOfMemoryError; scale out" }
"#;

/// Short claims so that a crashed worker's run is taken over quickly.
pub const FAST_LIMITS: &str =
    "[limits]\nclaim_ms = 3000\nstep_deadline_ms = 2500\nretry_backoff_ms = 0\n";

static NEXT: AtomicUsize = AtomicUsize::new(0);

/// One isolated host: its own data directory and config.
pub struct Env {
    pub dir: PathBuf,
    extra_env: Vec<(String, String)>,
}

impl Env {
    /// A fresh host named after the test, with the given `wakeful.toml` text.
    pub fn new(name: &str, config: &str) -> Env {
        let n = NEXT.fetch_add(1, Ordering::SeqCst);
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("e2e-{name}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("wakeful.toml"), config).unwrap();
        Env {
            dir,
            extra_env: vec![],
        }
    }

    /// The same host, with an environment variable set for its commands.
    pub fn clone_with_env(&self, key: &str, value: &str) -> Env {
        let mut extra_env = self.extra_env.clone();
        extra_env.push((key.into(), value.into()));
        Env {
            dir: self.dir.clone(),
            extra_env,
        }
    }

    pub fn command(&self, args: &[&str]) -> Command {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_wakeful"));
        cmd.args(args)
            .current_dir(&self.dir)
            .env("WAKEFUL_DATA", self.dir.join("data"))
            .env("WAKEFUL_CONFIG", self.dir.join("wakeful.toml"))
            .env_remove("WAKEFUL_FAILPOINT");
        for (k, v) in &self.extra_env {
            cmd.env(k, v);
        }
        cmd
    }

    pub fn output(&self, args: &[&str]) -> Output {
        self.command(args).output().expect("run wakeful")
    }

    /// Runs a command that must succeed; returns its stdout.
    pub fn ok(&self, args: &[&str]) -> String {
        let out = self.output(args);
        let stdout = String::from_utf8_lossy(&out.stdout).to_string();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.success(),
            "wakeful {args:?} failed ({}):\n{stdout}\n{stderr}",
            out.status
        );
        stdout
    }

    /// Runs a command that must fail; returns its stderr.
    pub fn fails(&self, args: &[&str]) -> String {
        let out = self.output(args);
        assert!(
            !out.status.success(),
            "wakeful {args:?} should have failed:\n{}",
            String::from_utf8_lossy(&out.stdout)
        );
        String::from_utf8_lossy(&out.stderr).to_string()
    }

    /// Runs a read command with `--json` and parses its output.
    pub fn json(&self, args: &[&str]) -> Value {
        let mut all = args.to_vec();
        all.push("--json");
        let out = self.ok(&all);
        serde_json::from_str(&out).unwrap_or_else(|e| panic!("{args:?}: {e}: {out}"))
    }

    pub fn show(&self, run: &str) -> Value {
        self.json(&["show", run])
    }

    pub fn deploy(&self, crate_name: &str, grants: &[&str]) -> String {
        let path = agent(crate_name);
        let mut args = vec!["deploy", path.to_str().unwrap()];
        for g in grants {
            args.push("--grant");
            args.push(g);
        }
        self.ok(&args)
    }

    pub fn work(&self) -> String {
        self.ok(&["work", "--until-idle"])
    }

    /// The kv value of `key` (`null` when absent).
    pub fn kv(&self, key: &str) -> Value {
        let out = self.ok(&["kv", "get", key]);
        let v: Value = serde_json::from_str(&out).unwrap();
        v["value"].clone()
    }

    /// Audit rows of one run with the given kind.
    pub fn audit_rows(&self, run: &str, kind: &str) -> Vec<Value> {
        let rows = self.json(&["audit", run]);
        rows.as_array()
            .unwrap()
            .iter()
            .filter(|r| r["kind"] == kind)
            .cloned()
            .collect()
    }
}
