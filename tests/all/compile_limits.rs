//! Compiles are bounded by `[limits]`: a component whose compile would take
//! too long or too much memory is refused, naming the limit and its value,
//! while the host goes on stepping what it already runs; a function too
//! large to compile is refused before anything is compiled.
//!
//! The hostile component is made here from a real agent: one more function,
//! which nothing calls, of `if` blocks one after another: a valid component
//! whose shape (imports, exports) is the agent's own, and whose one function
//! costs the compiler minutes and gigabytes.

use std::path::{Path, PathBuf};

use serde_json::json;

use crate::api::{api_config, deploy};
use crate::api_guard::error_of;
use crate::harness::{API_TOKEN, Env, agent};

/// `leb128(n)`, unsigned.
fn leb(mut n: usize) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let byte = (n & 0x7f) as u8;
        n >>= 7;
        if n == 0 {
            out.push(byte);
            return out;
        }
        out.push(byte | 0x80);
    }
}

/// Reads an unsigned LEB128 at `*at`, moving past it.
fn read_leb(bytes: &[u8], at: &mut usize) -> usize {
    let (mut value, mut shift) = (0, 0);
    loop {
        let byte = bytes[*at];
        *at += 1;
        value |= usize::from(byte & 0x7f) << shift;
        shift += 7;
        if byte < 0x80 {
            return value;
        }
    }
}

/// The sections of a module or component (after its 8-byte header), as
/// (id, contents).
fn sections(binary: &[u8]) -> Vec<(u8, &[u8])> {
    let mut found = Vec::new();
    let mut at = 8;
    while at < binary.len() {
        let id = binary[at];
        at += 1;
        let len = read_leb(binary, &mut at);
        found.push((id, &binary[at..at + len]));
        at += len;
    }
    found
}

fn push_section(out: &mut Vec<u8>, id: u8, contents: &[u8]) {
    out.push(id);
    out.extend(leb(contents.len()));
    out.extend_from_slice(contents);
}

/// A vector section's contents with its count raised by one and `entry`
/// appended.
fn with_entry(contents: &[u8], entry: &[u8]) -> Vec<u8> {
    let mut at = 0;
    let count = read_leb(contents, &mut at);
    let mut out = leb(count + 1);
    out.extend_from_slice(&contents[at..]);
    out.extend_from_slice(entry);
    out
}

/// The body of a function of type `() -> ()` with two i32 locals: the
/// first set from `memory.size` (a value the compiler cannot fold), then
/// `local.get 0; if; local.get 1; i32.const 1; i32.add; local.set 1; end`
/// repeated to about `bytes` bytes.
fn blocks_body(bytes: usize) -> Vec<u8> {
    let head = [1, 2, 0x7f, 0x3f, 0, 0x21, 0];
    let unit = [0x20, 0, 0x04, 0x40, 0x20, 1, 0x41, 1, 0x6a, 0x21, 1, 0x0b];
    let mut body = head.to_vec();
    while body.len() + unit.len() < bytes {
        body.extend_from_slice(&unit);
    }
    body.push(0x0b);
    body
}

/// `module` with one more function (a new type `() -> ()`, `body`), or
/// `None` if it has no memory of its own (the body reads its size).
fn module_with_function(module: &[u8], body: &[u8]) -> Option<Vec<u8>> {
    let sections = sections(module);
    if !sections.iter().any(|(id, _)| *id == 5) {
        return None;
    }
    let mut out = module[..8].to_vec();
    let mut types = None;
    for (id, contents) in sections {
        let contents = match id {
            1 => {
                let mut at = 0;
                types = Some(read_leb(contents, &mut at));
                with_entry(contents, &[0x60, 0, 0])
            }
            3 => with_entry(contents, &leb(types.expect("types come first"))),
            10 => {
                let mut entry = leb(body.len());
                entry.extend_from_slice(body);
                with_entry(contents, &entry)
            }
            _ => contents.to_vec(),
        };
        push_section(&mut out, id, &contents);
    }
    Some(out)
}

/// The component `component` with an unused function of about
/// `body_bytes` bytes added to its first core module that has a memory.
pub fn with_unused_function(component: &[u8], body_bytes: usize) -> Vec<u8> {
    let body = blocks_body(body_bytes);
    let mut out = component[..8].to_vec();
    let mut added = false;
    for (id, contents) in sections(component) {
        // Section 1 of a component is a core module.
        let changed = (id == 1 && !added)
            .then(|| module_with_function(contents, &body))
            .flatten();
        added |= changed.is_some();
        push_section(&mut out, id, changed.as_deref().unwrap_or(contents));
    }
    assert!(added, "the component has no core module with a memory");
    out
}

/// Writes `counter-v2` with an unused function of `body_bytes` to the
/// host's directory.
fn bomb(env: &Env, body_bytes: usize) -> PathBuf {
    let real = std::fs::read(agent("counter-v2")).unwrap();
    let path = env.dir.join(format!("bomb-{body_bytes}.wasm"));
    std::fs::write(&path, with_unused_function(&real, body_bytes)).unwrap();
    path
}

/// The cache's files that are not function entries nor the key: artifacts,
/// and whatever a compile left behind.
fn cache_files(env: &Env) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(env.dir.join("data/cache"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name != "functions" && name != "key")
        .collect();
    names.sort();
    names
}

#[test]
fn a_compile_bomb_is_refused_at_its_time_limit_while_runs_keep_stepping() {
    let env = Env::new(
        "compile-bomb-time",
        &api_config("[limits]\ncompile_timeout_ms = 8000\nmax_function_bytes = 8000000\n"),
    );
    let server = env.serve();
    deploy(&server, "counter-v1", &[]);
    let (status, run) = server.post("/v1/runs", &json!({"agent": "counter", "id": "steady"}));
    assert_eq!(status, 201, "{run}");
    server.wait_run("steady", "its first step", |r| {
        r["status_text"] == "v1 counted 0"
    });
    let bomb = std::fs::read(bomb(&env, 2 << 20)).unwrap();

    let (refused, stepped) = std::thread::scope(|scope| {
        let deploying = scope.spawn(|| {
            server.request(
                "POST",
                "/v1/agents?grant=kv",
                Some(API_TOKEN),
                Some(("application/wasm", bomb)),
            )
        });
        // While the bomb compiles, the deployed agent steps (a few times:
        // a run has a step budget) and the API answers.
        let mut stepped = 0;
        while !deploying.is_finished() && stepped < 5 {
            let tick = json!({"topic": "tick", "id": format!("t{stepped}")});
            let (status, sent) = server.post("/v1/runs/steady/events", &tick);
            assert_eq!(status, 200, "{sent}");
            let counted = format!("v1 counted {}", stepped + 1);
            server.wait_run("steady", &counted, |r| r["status_text"] == counted);
            let (status, _) = server.request("GET", "/v1/health", None, None);
            assert_eq!(status, 200);
            if !deploying.is_finished() {
                stepped += 1;
            }
        }
        (deploying.join().unwrap(), stepped)
    });
    let (status, body) = refused;
    assert_eq!(status, 422, "{body}");
    let said = error_of(&body);
    assert!(
        said.contains("compiling took longer than [limits] compile_timeout_ms = 8000"),
        "{said}"
    );
    assert!(stepped > 0, "no step was taken while the bomb compiled");

    // Nothing of the bomb is kept: no version, no artifact, no input file.
    let (_, agents) = server.get("/v1/agents");
    assert_eq!(agents.as_array().unwrap().len(), 1, "{agents}");
    assert_eq!(cache_files(&env).len(), 1, "{:?}", cache_files(&env));
    // And the compiler is free again: a real agent deploys.
    deploy(&server, "counter-v2", &["kv"]);
}

#[test]
fn a_compile_bomb_is_refused_at_its_memory_limit() {
    let env = Env::new(
        "compile-bomb-memory",
        "[limits]\ncompile_memory_mib = 512\ncompile_timeout_ms = 3600000\nmax_function_bytes = 8000000\n",
    );
    // A real agent compiles within the limit.
    env.deploy("counter-v1", &[]);
    let bomb = bomb(&env, 2 << 20);
    let err = env.fails(&["deploy", bomb.to_str().unwrap(), "--grant", "kv"]);
    assert!(
        err.contains("compiling needed more memory than [limits] compile_memory_mib = 512 allows"),
        "{err}"
    );
    assert!(err.contains("nothing was deployed"), "{err}");
    assert_eq!(env.json(&["agents"]).as_array().unwrap().len(), 1);
    assert_eq!(cache_files(&env).len(), 1, "{:?}", cache_files(&env));
}

/// `wakeful check` and `deploy` refuse it from reading it, before any
/// compile: no artifact and no compiled function is written.
#[test]
fn a_function_over_the_size_limit_is_refused_before_compiling() {
    let env = Env::new(
        "compile-function-size",
        "[limits]\nmax_function_bytes = 100000\n",
    );
    let bomb = bomb(&env, 1 << 20);
    let expected = "the largest this host compiles is [limits] max_function_bytes = 100000";
    let out = env.output(&["check", "--no-compile", bomb.to_str().unwrap()]);
    assert!(!out.status.success());
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains(expected), "{said}");
    assert!(said.contains("one of its functions is 10"), "{said}");
    let err = env.fails(&["deploy", bomb.to_str().unwrap(), "--grant", "kv"]);
    assert!(err.contains(expected), "{err}");
    assert_eq!(env.json(&["agents"]), json!([]));
    assert_eq!(function_entries(&env.dir.join("data/cache")), 0);

    // The same agent without the function is under the limit.
    env.deploy("counter-v2", &["kv"]);
    assert!(function_entries(&env.dir.join("data/cache")) > 0);
}

/// How many compiled functions the cache `dir` holds.
fn function_entries(dir: &Path) -> usize {
    let Ok(shards) = std::fs::read_dir(dir.join("functions")) else {
        return 0;
    };
    shards
        .map(|shard| std::fs::read_dir(shard.unwrap().path()).unwrap().count())
        .sum()
}

/// The `wakeful compile-component` processes `parent` runs now.
fn compilers_of(parent: u32) -> usize {
    let Ok(procs) = std::fs::read_dir("/proc") else {
        return 0;
    };
    procs
        .filter_map(|p| p.ok())
        .filter(|p| {
            p.file_name()
                .to_string_lossy()
                .bytes()
                .all(|b| b.is_ascii_digit())
        })
        .filter(|p| {
            let stat = std::fs::read_to_string(p.path().join("stat")).unwrap_or_default();
            // pid (comm) state ppid ...: the comm may hold spaces.
            let after = stat.rsplit_once(')').map(|(_, rest)| rest).unwrap_or("");
            let ppid = after.split_whitespace().nth(1).unwrap_or("");
            let cmdline = std::fs::read(p.path().join("cmdline")).unwrap_or_default();
            ppid == parent.to_string()
                && String::from_utf8_lossy(&cmdline).contains("compile-component")
        })
        .count()
}

/// With `compiles_at_once = 1`, a deploy that comes while a compile runs
/// waits for it to end: never two compilers at once.
#[test]
fn compiles_beyond_the_cap_wait_for_their_turn() {
    let env = Env::new(
        "compile-turns",
        &api_config(
            "[limits]\ncompiles_at_once = 1\ncompile_timeout_ms = 6000\nmax_function_bytes = 8000000\n",
        ),
    );
    let server = env.serve();
    let bomb = std::fs::read(bomb(&env, 2 << 20)).unwrap();
    let counter = std::fs::read(agent("counter-v2")).unwrap();
    let post = |bytes: Vec<u8>| {
        let answer = server.request(
            "POST",
            "/v1/agents?grant=kv",
            Some(API_TOKEN),
            Some(("application/wasm", bytes)),
        );
        (answer, std::time::Instant::now())
    };
    let (most, bomb_answer, counter_answer) = std::thread::scope(|scope| {
        let bombing = scope.spawn(|| post(bomb));
        let started = std::time::Instant::now();
        while compilers_of(server.pid()) == 0 {
            assert!(
                started.elapsed() < std::time::Duration::from_secs(30),
                "the bomb's compiler never started"
            );
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        let deploying = scope.spawn(|| post(counter));
        let mut most = 0;
        while !(bombing.is_finished() && deploying.is_finished()) {
            most = most.max(compilers_of(server.pid()));
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        (most, bombing.join().unwrap(), deploying.join().unwrap())
    });
    assert_eq!(most, 1, "compilers ran at once");
    let ((status, body), bomb_done) = bomb_answer;
    assert_eq!(status, 422, "{body}");
    assert!(
        error_of(&body).contains("compile_timeout_ms = 6000"),
        "{body}"
    );
    let ((status, body), counter_done) = counter_answer;
    assert_eq!(status, 201, "{body}");
    assert!(
        counter_done > bomb_done,
        "the second deploy compiled before the first compile ended"
    );
}
