//! What an agent author meets before deploying: `wakeful wit` prints the
//! contract, `wakeful check FILE` says whether this host would accept a
//! component and why not, and `deploy` refuses a component whose imports or
//! exports are wrong before compiling anything.

use serde_json::Value;

use crate::harness::{Env, INCIDENT_TOOLS, agent, repo};

#[test]
fn wit_prints_the_contract_the_host_speaks() {
    let env = Env::new("wit", "");
    let printed = env.ok(&["wit"]);
    let file = std::fs::read_to_string(repo().join("wit/agent.wit")).unwrap();
    assert_eq!(printed, file);
    assert!(printed.starts_with("package wakeful:agent@0.2.0;"));
    // It needs no store: nothing is created in the data directory.
    assert!(!env.dir.join("data").exists());
}

/// The `--flags` a help text lists as options.
fn help_flags(help: &str) -> Vec<String> {
    let mut flags: Vec<String> = help
        .lines()
        .filter(|line| line.trim_start().starts_with('-'))
        .filter_map(|line| {
            line.split(|c: char| c.is_whitespace() || c == ',')
                .find(|t| t.starts_with("--"))
        })
        .map(String::from)
        .collect();
    flags.sort();
    flags
}

#[test]
fn new_help_lists_only_the_options_new_uses() {
    let env = Env::new("new-help", "");
    assert_eq!(
        help_flags(&env.ok(&["new", "--help"])),
        ["--dir", "--help", "--json", "--lang"]
    );
    assert_eq!(
        help_flags(&env.ok(&["help", "new"])),
        help_flags(&env.ok(&["new", "--help"]))
    );
    // Every other command keeps the global options.
    let deploy = help_flags(&env.ok(&["deploy", "--help"]));
    for global in ["--data", "--store", "--cache", "--config", "--by", "--json"] {
        assert!(
            deploy.iter().any(|f| f == global),
            "deploy lost {global}: {deploy:?}"
        );
    }
    // It reads no config: a broken one where it runs does not stop it.
    std::fs::write(env.dir.join("broken.toml"), "[api\n").unwrap();
    let project = env.dir.join("p");
    env.ok(&[
        "new",
        "p",
        "--lang",
        "python",
        "--dir",
        project.to_str().unwrap(),
        "--config",
        env.dir.join("broken.toml").to_str().unwrap(),
    ]);
    assert!(project.join("app.py").exists());
}

#[test]
fn check_accepts_an_agent_and_names_its_tools() {
    let env = Env::new("check-ok", INCIDENT_TOOLS);
    let incident = agent("incident");
    let out = env.ok(&["check", incident.to_str().unwrap()]);
    assert!(out.contains("contract  wakeful:agent@0.2.0"), "{out}");
    assert!(out.contains("exports   info, step, migrate"), "{out}");
    assert!(out.contains("agent     incident 0.1.0"), "{out}");
    assert!(
        out.contains("kv (built in), lease (built in), llm (configured)"),
        "{out}"
    );
    assert!(out.ends_with("ok: this host would accept it\n"), "{out}");

    // Without the llm tool configured, the check says so but still accepts
    // (deploy does too: calls fail with `unknown` until it is configured).
    let bare = Env::new("check-bare", "");
    let report: Value = bare.json(&["check", incident.to_str().unwrap()]);
    assert_eq!(report["accepted"], true, "{report}");
    assert_eq!(report["check"]["info"]["name"], "incident");
    assert_eq!(report["check"]["tools"][2]["name"], "llm");
    assert_eq!(
        report["check"]["tools"][2]["on_this_host"],
        "not configured"
    );
    assert_eq!(report["check"]["problems"], serde_json::json!([]));
    // Checking needs no store: nothing but the compile cache was written.
    let data: Vec<String> = std::fs::read_dir(bare.dir.join("data"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .collect();
    assert_eq!(data, ["cache"], "{data:?}");

    // The compiled artifact is kept: a deploy after the check reuses it.
    bare.ok(&["deploy", incident.to_str().unwrap(), "--grant-all"]);

    // Reading only: no compile, no info, and it says what it left out.
    let quick = Env::new("check-quick", "");
    let out = quick.ok(&["check", incident.to_str().unwrap(), "--no-compile"]);
    assert!(out.contains("exports   info, step, migrate"), "{out}");
    assert!(!out.contains("compiled  in"), "{out}");
    assert!(
        out.contains("not compiled: its info and tools are unchecked"),
        "{out}"
    );
    assert!(!quick.dir.join("data").exists(), "nothing was written");
}

#[test]
fn check_and_deploy_refuse_a_foreign_import_before_compiling() {
    let env = Env::new("check-refuse", "");
    let bad = agent("bad-import");
    let out = env.output(&["check", bad.to_str().unwrap()]);
    assert!(!out.status.success());
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stdout.contains("imports   15; not provided: acme:missing/thing@1.0.0"),
        "{stdout}"
    );
    assert!(
        stdout.contains("refused   it imports `acme:missing/thing@1.0.0`"),
        "{stdout}"
    );
    assert!(
        stderr.contains("this host would refuse")
            && stderr.contains("wasi:io/{error,poll,streams}@0.2"),
        "{stderr}"
    );
    assert!(!stdout.contains("compiled"), "{stdout}");

    let err = env.fails(&["deploy", bad.to_str().unwrap(), "--grant-all"]);
    assert!(err.contains("acme:missing/thing@1.0.0"), "{err}");
    assert!(err.contains("not an agent this host can run"), "{err}");
    // Refused before compiling: no artifact was written.
    let cache = env.dir.join("data/cache");
    let artifacts = std::fs::read_dir(&cache)
        .map(|d| {
            d.filter(|e| {
                e.as_ref()
                    .unwrap()
                    .file_name()
                    .to_string_lossy()
                    .ends_with(".cwasm")
            })
            .count()
        })
        .unwrap_or(0);
    assert_eq!(artifacts, 0);
    assert!(env.ok(&["agents"]).lines().count() <= 1);
}

#[test]
fn check_names_what_is_wrong_with_files_that_are_no_component() {
    let env = Env::new("check-junk", "");
    let junk = env.dir.join("junk.wasm");
    std::fs::write(&junk, b"this is not wasm").unwrap();
    let err = env.fails(&["check", junk.to_str().unwrap()]);
    assert!(err.contains("not a WebAssembly file"), "{err}");

    let core = env.dir.join("core.wasm");
    std::fs::write(&core, b"\0asm\x01\0\0\0").unwrap();
    let err = env.fails(&["check", core.to_str().unwrap()]);
    assert!(err.contains("core WebAssembly module"), "{err}");

    let cut = env.dir.join("cut.wasm");
    let whole = std::fs::read(agent("incident")).unwrap();
    std::fs::write(&cut, &whole[..whole.len() / 2]).unwrap();
    let err = env.fails(&["check", cut.to_str().unwrap()]);
    assert!(err.contains("this host would refuse"), "{err}");

    let err = env.fails(&["check", "/nonexistent/agent.wasm"]);
    assert!(err.contains("cannot read /nonexistent/agent.wasm"), "{err}");
}

/// Runs a command of an author's toolchain in `dir`; it must succeed.
/// Returns what it printed on stdout and stderr.
fn run_in(dir: &std::path::Path, program: &str, args: &[&str], env: &[(&str, String)]) -> String {
    let mut cmd = std::process::Command::new(program);
    cmd.args(args).current_dir(dir);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("{program} {args:?}: {e}"));
    let printed = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.status.success(),
        "{program} {args:?} in {} failed:\n{printed}",
        dir.display(),
    );
    printed
}

/// Deploys the component a new project built and walks a run through it:
/// start, wait for `NAME:go`, the event, the kv write, done.
fn deploy_and_run(env: &Env, wasm: &std::path::Path, name: &str) {
    let checked = env.ok(&["check", wasm.to_str().unwrap()]);
    assert!(
        checked.contains(&format!("agent     {name} 0.1.0")),
        "{checked}"
    );
    env.ok(&["deploy", wasm.to_str().unwrap(), "--grant", "kv"]);
    env.ok(&["start", name, "--id", "r1", "--input", r#"{"ticket": 7}"#]);
    env.work();
    let show = env.show("r1");
    assert_eq!(show["status"], "waiting", "{show}");
    assert_eq!(show["wake_when"], format!("event:{name}:go"), "{show}");
    env.ok(&[
        "send",
        "r1",
        "--topic",
        &format!("{name}:go"),
        "--id",
        "e1",
        "--payload",
        r#"{"hello": "world"}"#,
    ]);
    env.work();
    let show = env.show("r1");
    assert_eq!(show["status"], "done", "{show}");
    assert_eq!(
        env.kv(&format!("agent/{name}/{name}/r1")),
        serde_json::json!({"hello": "world"})
    );
}

#[test]
fn a_new_rust_agent_tests_builds_and_runs() {
    let env = Env::new("new-rust", "");
    let project = env.dir.join("order-refund");
    let out = env.ok(&[
        "new",
        "order-refund",
        "--lang",
        "rust",
        "--dir",
        project.to_str().unwrap(),
    ]);
    assert!(
        out.contains("cargo build --release --target wasm32-wasip2"),
        "{out}"
    );
    // A second `new` into the same place writes nothing.
    let err = env.fails(&[
        "new",
        "order-refund",
        "--lang",
        "rust",
        "--dir",
        project.to_str().unwrap(),
    ]);
    assert!(err.contains("already exists and is not empty"), "{err}");
    let err = env.fails(&["new", "../escape", "--lang", "rust"]);
    assert!(err.contains("cannot name an agent"), "{err}");

    // One target directory for every run of this test, so that the SDK's
    // dependencies compile once.
    let target = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("new-rust-target");
    let cargo_env = [("CARGO_TARGET_DIR", target.display().to_string())];
    // The SDK is the crates `wakeful sdk` writes, depended on by version.
    env.ok(&["sdk", "--out", "packages"]);
    for file in [
        "wakeful-sdk/Cargo.toml",
        "wakeful-sdk/src/lib.rs",
        "wit/agent.wit",
        "wakeful-types/src/lib.rs",
    ] {
        assert_eq!(
            std::fs::read(project.join("sdk/rust").join(file)).unwrap(),
            std::fs::read(env.dir.join("packages/rust").join(file)).unwrap(),
            "{file}"
        );
    }
    assert!(
        !project.join("wakeful-sdk").exists(),
        "no copy of the sources"
    );
    let manifest = std::fs::read_to_string(project.join("Cargo.toml")).unwrap();
    let version = std::fs::read_to_string(project.join("sdk/rust/wakeful-sdk/Cargo.toml")).unwrap();
    let version = version
        .lines()
        .find(|l| l.starts_with("version = "))
        .unwrap();
    assert!(
        manifest.contains(&format!(
            "wakeful-sdk = {{ {version}, path = \"sdk/rust/wakeful-sdk\" }}"
        )),
        "{manifest}"
    );
    let tested = run_in(&project, "cargo", &["test", "--quiet"], &cargo_env);
    assert!(tested.contains("1 passed"), "{tested}");
    run_in(
        &project,
        "cargo",
        &["build", "--quiet", "--release", "--target", "wasm32-wasip2"],
        &cargo_env,
    );
    deploy_and_run(
        &env,
        &target.join("wasm32-wasip2/release/order_refund.wasm"),
        "order-refund",
    );
}

/// A new project in `lang`: written by `wakeful new`, unit-tested and built
/// with the commands `new` prints, then deployed and run by the host.
/// `passed` is what the unit test prints when its tests pass.
fn new_project_in(lang: &str, test: &[&str], passed: &str, build: &[&[&str]]) {
    let env = Env::new(&format!("new-{lang}"), "").clone_with_env(
        "WAKEFUL_CACHE",
        crate::harness::shared_cache().to_str().unwrap(),
    );
    let project = env.dir.join("triage-bot");
    let out = env.ok(&[
        "new",
        "triage-bot",
        "--lang",
        lang,
        "--dir",
        project.to_str().unwrap(),
    ]);
    for command in build {
        assert!(out.contains(&command.join(" ")), "{out}");
    }
    // The toolchain first where there is one to install (`npm install`),
    // then the unit tests, then the build.
    let (install, build) = match build.split_first() {
        Some((first, rest)) if first.contains(&"install") => (Some(*first), rest),
        _ => (None, build),
    };
    if let Some(install) = install {
        run_in(&project, install[0], &install[1..], &[]);
    }
    let tested = run_in(&project, test[0], &test[1..], &[]);
    assert!(tested.contains(passed), "{tested}");
    the_sdk_is_the_installed_package(&env, lang, &project);
    for command in build {
        run_in(&project, command[0], &command[1..], &[]);
    }
    deploy_and_run(&env, &project.join("triage_bot.wasm"), "triage-bot");
}

/// A new Python or TypeScript project holds the SDK as the package
/// `wakeful sdk` writes (a wheel, an npm tarball), not as sources of its
/// own, and its toolchain installed that package.
fn the_sdk_is_the_installed_package(env: &Env, lang: &str, project: &std::path::Path) {
    let written: serde_json::Value =
        serde_json::from_str(&env.ok(&["--json", "sdk", "--out", "packages"])).unwrap();
    let version = written["version"].as_str().unwrap();
    let (package, copy) = match lang {
        "python" => (
            format!("wakeful_sdk-{version}-py3-none-any.whl"),
            "wakeful_sdk",
        ),
        _ => (format!("wakeful-sdk-{version}.tgz"), "wakeful-sdk"),
    };
    assert_eq!(
        std::fs::read(project.join("sdk").join(&package)).unwrap(),
        std::fs::read(env.dir.join("packages").join(&package)).unwrap()
    );
    assert!(!project.join(copy).exists(), "no copy of the sources");
    let installed = if lang == "python" {
        let python = project.join(".venv/bin/python");
        let script = "import importlib.metadata as m, wakeful_sdk; \
                      print(m.version('wakeful-sdk'), wakeful_sdk.__file__)";
        run_in(project, python.to_str().unwrap(), &["-c", script], &[])
    } else {
        let installed = project.join("node_modules/wakeful-sdk");
        assert!(!installed.is_symlink(), "installed, not linked");
        let manifest = std::fs::read_to_string(installed.join("package.json")).unwrap();
        let manifest: serde_json::Value = serde_json::from_str(&manifest).unwrap();
        format!("{} node_modules", manifest["version"].as_str().unwrap())
    };
    assert!(
        installed.starts_with(&format!("{version} "))
            && (installed.contains("site-packages") || installed.contains("node_modules")),
        "{installed}"
    );
}

#[test]
fn a_new_python_agent_tests_builds_and_runs() {
    new_project_in(
        "python",
        &["./build.sh", "test"],
        "Ran 2 tests",
        &[&["./build.sh"]],
    );
}

#[test]
fn a_new_typescript_agent_tests_builds_and_runs() {
    new_project_in(
        "ts",
        &["npm", "test"],
        "pass 2",
        &[&["npm", "install"], &["npm", "run", "build"]],
    );
}
