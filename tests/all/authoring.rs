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
