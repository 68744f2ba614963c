//! The host compiles components in a child process: a compiler that dies
//! takes nothing of the host's with it, and is named.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::time::{Duration, SystemTime};

use serde_json::json;

use crate::harness::{Env, Lang, agent, agent_in};

/// Files in the cache directory, without the compiled functions' folder
/// and the key.
fn cache_files(env: &Env) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(env.dir.join("data/cache"))
        .map(|dir| {
            dir.map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .filter(|name| name != "functions" && name != "key")
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

#[test]
fn a_compiler_killed_mid_compile_is_named_and_deploys_nothing() {
    let env = Env::new("compiler-killed", "");
    env.deploy("waiter", &[]);
    env.start("waiter", "kept", json!({"topic": "tick"}));
    env.work();
    let kept = env.show("kept");
    let artifacts = cache_files(&env);
    assert_eq!(artifacts.len(), 1, "{artifacts:?}");

    // The child compiling `invoice-mail` is SIGKILLed, as the kernel's
    // out-of-memory killer would.
    let wasm = agent("invoice-mail");
    let crashing = env.clone_with_env("WAKEFUL_FAILPOINT", "compile");
    let err = crashing.fails(&["deploy", wasm.to_str().unwrap(), "--grant", "kv"]);
    assert!(
        err.contains("the compiler process was killed by signal 9"),
        "{err}"
    );
    assert!(err.contains("nothing was deployed"), "{err}");

    // Nothing half-done: no version, no artifact, no leftover input file;
    // what was there is as it was, and still steps.
    let agents = env.json(&["agents"]);
    assert_eq!(agents.as_array().unwrap().len(), 1, "{agents}");
    assert_eq!(cache_files(&env), artifacts);
    assert_eq!(env.show("kept"), kept);
    env.ok(&["send", "kept", "--topic", "tick", "--id", "t1"]);
    env.work();
    assert_eq!(env.show("kept")["status"], "done", "{}", env.show("kept"));

    // The same deploy without the crash goes through.
    env.ok(&["deploy", wasm.to_str().unwrap(), "--grant", "kv"]);
    assert_eq!(env.json(&["agents"]).as_array().unwrap().len(), 2);
    assert_eq!(cache_files(&env).len(), 2, "{:?}", cache_files(&env));
}

#[test]
fn code_the_compiler_refuses_is_named_with_its_function_and_leaves_nothing() {
    let env = Env::new("compiler-refuses", "");
    // Sixteen bytes in the middle of the agent's largest function body
    // overwritten: the component's imports and exports still read well, so
    // the host hands it to the compiler process, which refuses that body.
    let mut bytes = std::fs::read(agent("invoice-mail")).unwrap();
    let body = largest_function_body(&bytes);
    let at = body.start + body.len() / 2;
    bytes[at..at + 16].fill(0xff);
    let broken = env.dir.join("broken.wasm");
    std::fs::write(&broken, &bytes).unwrap();
    let err = env.fails(&["deploy", broken.to_str().unwrap(), "--grant", "kv"]);
    assert!(
        err.contains("invalid agent component: failed to compile: wasm[0]::function["),
        "{err}"
    );
    assert!(
        err.contains("Invalid input WebAssembly code at offset"),
        "{err}"
    );
    assert_eq!(env.json(&["agents"]), serde_json::json!([]));
    assert_eq!(cache_files(&env), Vec::<String>::new());
}

/// Where the largest function body of the component's core modules lies.
fn largest_function_body(component: &[u8]) -> std::ops::Range<usize> {
    let bodies =
        wasmparser::Parser::new(0)
            .parse_all(component)
            .filter_map(|payload| match payload.unwrap() {
                wasmparser::Payload::CodeSectionEntry(body) => Some(body.range()),
                _ => None,
            });
    bodies
        .max_by_key(std::ops::Range::len)
        .expect("the component has code")
}

/// Runs `wakeful work` with `WAKEFUL_PERF_MAP` set to `value` (or unset)
/// and returns the perf map its process left, if any (removed).
fn perf_map_of_work(env: &Env, value: Option<&str>) -> Option<String> {
    let mut cmd = env.command(&["work", "--until-idle"]);
    match value {
        Some(value) => cmd.env("WAKEFUL_PERF_MAP", value),
        None => cmd.env_remove("WAKEFUL_PERF_MAP"),
    };
    let child = cmd
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let map = std::path::PathBuf::from(format!("/tmp/perf-{}.map", child.id()));
    let status = child.wait_with_output().unwrap().status;
    assert!(status.success(), "wakeful work: {status}");
    let text = std::fs::read_to_string(&map).ok();
    let _ = std::fs::remove_file(&map);
    text
}

#[test]
fn perf_names_guest_functions_only_when_asked() {
    let env = Env::new("perf-map", "");
    env.deploy("waiter", &[]);
    env.start("waiter", "asked", json!({"topic": "tick"}));
    let map = perf_map_of_work(&env, Some("1")).expect("a perf map with WAKEFUL_PERF_MAP=1");
    assert!(
        map.lines().any(|line| line.contains("wasm[")),
        "the map names the agent's functions: {}",
        &map[..map.len().min(500)]
    );
    env.start("waiter", "unasked", json!({"topic": "tick"}));
    assert_eq!(perf_map_of_work(&env, None), None);
    env.start("waiter", "zero", json!({"topic": "tick"}));
    assert_eq!(perf_map_of_work(&env, Some("0")), None);
}

/// The compiled functions' entries under `cache`, by name.
pub fn function_entries(cache: &Path) -> std::collections::BTreeSet<String> {
    let mut names = std::collections::BTreeSet::new();
    for shard in std::fs::read_dir(cache.join("functions")).unwrap() {
        let shard = shard.unwrap();
        for entry in std::fs::read_dir(shard.path()).unwrap() {
            let entry = entry.unwrap();
            if entry.file_name().to_string_lossy().starts_with('.') {
                continue;
            }
            names.insert(format!(
                "{}/{}",
                shard.file_name().to_string_lossy(),
                entry.file_name().to_string_lossy()
            ));
        }
    }
    names
}

/// Compiles `wasm` with `wakeful check` into `cache` and returns the
/// artifact's bytes, removing it so that the next check compiles again.
pub fn compile(env: &Env, cache: &Path, wasm: &Path) -> Vec<u8> {
    env.ok(&[
        "--cache",
        cache.to_str().unwrap(),
        "check",
        wasm.to_str().unwrap(),
    ]);
    let artifacts: Vec<_> = std::fs::read_dir(cache)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "cwasm"))
        .collect();
    assert_eq!(artifacts.len(), 1, "the check compiled it: {artifacts:?}");
    let bytes = std::fs::read(&artifacts[0]).unwrap();
    std::fs::remove_file(&artifacts[0]).unwrap();
    bytes
}

/// Marks every function entry as last used a day ago.
pub fn age_entries(cache: &Path) {
    let day_ago = SystemTime::now() - Duration::from_secs(86_400);
    for name in function_entries(cache) {
        let file = std::fs::File::options()
            .write(true)
            .open(cache.join("functions").join(name))
            .unwrap();
        file.set_modified(day_ago).unwrap();
    }
}

/// The entries that were neither found nor written by a compile since
/// `age_entries`.
pub fn unused_entries(cache: &Path) -> Vec<String> {
    let hour_ago = SystemTime::now() - Duration::from_secs(3_600);
    function_entries(cache)
        .into_iter()
        .filter(|name| {
            let used = std::fs::metadata(cache.join("functions").join(name))
                .unwrap()
                .modified()
                .unwrap();
            used < hour_ago
        })
        .collect()
}

/// A redeploy of a large agent is fast only if the functions it shares
/// with a build compiled before are found in the cache. Every compile
/// translates every function from its WebAssembly (and so validates it);
/// the cache is asked by a hash of the IR that makes. What comes out of the
/// cache must be exactly what compiling it makes. Every key is the same on
/// every compile, whatever the threads' order (Cranelift's patch
/// `clear-exception-tables.patch`: without it a few percent of the keys
/// changed with thread scheduling and missed on every compile).
#[test]
fn a_component_compiled_again_takes_its_functions_from_the_cache_into_the_same_artifact() {
    let env = Env::new("compiler-same-keys", "");
    let wasm = agent_in(Lang::Python, "invoice_mail");
    let cache = env.dir.join("cache");
    let cold = compile(&env, &cache, &wasm);
    let first = function_entries(&cache);
    assert!(first.len() > 10_000, "{} entries", first.len());
    age_entries(&cache);

    let again = compile(&env, &cache, &wasm);
    let new = function_entries(&cache).difference(&first).count();
    assert_eq!(
        new,
        0,
        "{new} of {} functions were compiled again",
        first.len()
    );
    let unused = unused_entries(&cache);
    assert!(
        unused.is_empty(),
        "{} of {} entries were not found by the second compile, e.g. {:?}",
        unused.len(),
        first.len(),
        &unused[..unused.len().min(3)]
    );
    assert!(
        again == cold,
        "the artifact made from the cache differs from the one compiled cold"
    );
}

/// A new build of a Python agent (here: another agent on the same
/// interpreter, whose app, memory snapshot and globals differ) compiles
/// only the functions that changed; everything taken from the cache is what
/// a cold compile of that build makes, byte for byte.
#[test]
fn another_build_on_the_same_interpreter_compiles_only_what_changed_into_the_same_artifact() {
    let env = Env::new("compiler-new-build", "");
    let warm = env.dir.join("warm");
    compile(&env, &warm, &agent_in(Lang::Python, "invoice_mail"));
    let before = function_entries(&warm);
    age_entries(&warm);
    let incident = agent_in(Lang::Python, "incident");
    let from_cache = compile(&env, &warm, &incident);
    let new = function_entries(&warm).difference(&before).count();
    assert!(
        new * 10 < before.len(),
        "{new} new entries beside {} (the interpreter's functions were compiled again)",
        before.len()
    );
    let reused = before.len() - unused_entries(&warm).len();
    assert!(
        reused * 10 > before.len() * 9,
        "only {reused} of {} entries were found by the new build",
        before.len()
    );
    // Sealed with the same key, the artifacts are the same bytes if their
    // code is.
    let cold_cache = env.dir.join("cold");
    std::fs::create_dir(&cold_cache).unwrap();
    std::fs::set_permissions(&cold_cache, std::fs::Permissions::from_mode(0o700)).unwrap();
    std::fs::copy(warm.join("key"), cold_cache.join("key")).unwrap();
    let cold = compile(&env, &cold_cache, &incident);
    assert!(
        from_cache == cold,
        "the artifact made with the other build's cache differs from the one compiled cold"
    );
}
