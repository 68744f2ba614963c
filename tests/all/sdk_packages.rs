//! `wakeful sdk`: the Python and TypeScript SDKs as installable packages,
//! versioned with the WIT contract, installed here by the languages' own
//! tools offline: the wheel by pip into a fresh virtual environment, where
//! an agent written against it takes a step; the tarball by npm into a
//! fresh project, which gets the SDK's sources as they are in the repo.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

use crate::harness::{Env, FAST_LIMITS, repo};

/// Runs `program` in `dir`; it must succeed. Returns its stdout.
fn run(dir: &Path, program: &str, args: &[&str]) -> String {
    let out = Command::new(program)
        .args(args)
        .current_dir(dir)
        .env_remove("PYTHONPATH")
        .output()
        .unwrap_or_else(|e| panic!("{program}: {e}"));
    assert!(
        out.status.success(),
        "{program} {args:?} failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The version in the WIT contract `wakeful wit` prints.
fn wit_version(env: &Env) -> String {
    let wit = env.ok(&["wit"]);
    let line = wit
        .lines()
        .find_map(|l| l.strip_prefix("package wakeful:agent@"))
        .unwrap_or_else(|| panic!("no package line in:\n{wit}"));
    line.trim_end_matches(';').to_owned()
}

/// A Python agent written against the installed SDK, stepped once by the
/// SDK's fake host; prints the SDK's installed version and the outcome.
const AGENT: &str = r#"
import importlib.metadata
from wakeful_sdk import Agent, Start, Step, testing

class Hello(Agent):
    name = "hello"
    version = "0.1.0"
    def init(self):
        return {}
    def step(self, state, wake):
        return Step.done("hello " + wake.input["who"])

_, step = testing.step(Hello, None, Start({"who": "pip"}))
print(importlib.metadata.version("wakeful-sdk"), step.outcome)
"#;

#[test]
fn the_sdk_packages_install_with_pip_and_npm_and_carry_the_wit_version() {
    let env = Env::new("sdk-packages", FAST_LIMITS);
    let version = wit_version(&env);
    let said = env.ok(&["sdk", "--out", "sdk"]);
    let wheel = env
        .dir
        .join(format!("sdk/wakeful_sdk-{version}-py3-none-any.whl"));
    let tarball = env.dir.join(format!("sdk/wakeful-sdk-{version}.tgz"));
    assert!(said.contains(&format!("wakeful:agent@{version}")), "{said}");
    let (first_wheel, first_tarball) = (
        std::fs::read(&wheel).unwrap(),
        std::fs::read(&tarball).unwrap(),
    );
    // Written again, byte for byte the same: a package's hash names it.
    let again: Value = serde_json::from_str(&env.ok(&["--json", "sdk", "--out", "sdk"])).unwrap();
    assert_eq!(again["version"], version.as_str(), "{again}");
    assert_eq!(std::fs::read(&wheel).unwrap(), first_wheel);
    assert_eq!(std::fs::read(&tarball).unwrap(), first_tarball);

    run(&env.dir, "python3", &["-m", "venv", "venv"]);
    let pip = env.dir.join("venv/bin/pip");
    let wheel_arg = wheel.to_str().unwrap();
    run(
        &env.dir,
        pip.to_str().unwrap(),
        &["install", "--quiet", "--no-index", "--no-deps", wheel_arg],
    );
    std::fs::write(env.dir.join("hello.py"), AGENT).unwrap();
    let python = env.dir.join("venv/bin/python");
    let printed = run(&env.dir, python.to_str().unwrap(), &["hello.py"]);
    assert_eq!(printed.trim(), format!("{version} hello pip"));

    let project = env.dir.join("npm-project");
    std::fs::create_dir(&project).unwrap();
    std::fs::write(
        project.join("package.json"),
        r#"{"name": "t", "private": true}"#,
    )
    .unwrap();
    let flags = ["--offline", "--no-audit", "--no-fund", "--ignore-scripts"];
    let mut args = vec!["install"];
    args.extend(flags);
    args.push(tarball.to_str().unwrap());
    run(&project, "npm", &args);
    let installed = project.join("node_modules/wakeful-sdk");
    let manifest: Value =
        serde_json::from_str(&std::fs::read_to_string(installed.join("package.json")).unwrap())
            .unwrap();
    assert_eq!(manifest["name"], "wakeful-sdk");
    assert_eq!(manifest["version"], version.as_str());
    for file in ["index.ts", "agent_loop.ts", "testing.ts", "cassette.ts"] {
        assert_eq!(
            std::fs::read(installed.join("src").join(file)).unwrap(),
            std::fs::read(repo().join("guest-sdk/ts/src").join(file)).unwrap(),
            "{file}"
        );
    }
}
