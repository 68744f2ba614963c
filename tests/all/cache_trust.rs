//! The compile cache holds native code the host runs, so nothing in it is
//! taken on trust: a cache directory another user could write is refused,
//! naming its owner and mode, and a file of code that is not the genuine
//! one of its key (changed on disk, renamed over another, sealed by another
//! cache) is refused, logged and compiled again: what runs is always what
//! the component compiles to.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use serde_json::json;

use crate::api::api_config;
use crate::cache_prune::deployed_digest;
use crate::compiler::{age_entries, compile, function_entries, unused_entries};
use crate::harness::{Env, agent};

fn chmod(path: &Path, mode: u32) {
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

fn chown(path: &Path, uid: u32) {
    std::os::unix::fs::chown(path, Some(uid), None).unwrap();
}

/// Every file and directory below `dir`, with its permission bits.
fn modes(dir: &Path) -> Vec<(PathBuf, u32)> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let meta = std::fs::symlink_metadata(&path).unwrap();
        found.push((path.clone(), meta.permissions().mode() & 0o7777));
        if meta.is_dir() {
            found.extend(modes(&path));
        }
    }
    found
}

#[test]
fn a_cache_directory_another_user_could_write_is_refused() {
    let env = Env::new("cache-refused", "");
    let wasm = agent("counter-v1");
    let deploy = |cache: &Path| {
        env.output(&[
            "--cache",
            cache.to_str().unwrap(),
            "deploy",
            wasm.to_str().unwrap(),
        ])
    };
    let refused = |cache: &Path, owner_and_mode: &str| {
        let out = deploy(cache);
        assert!(!out.status.success(), "{cache:?} {owner_and_mode} was used");
        let err = String::from_utf8_lossy(&out.stderr).to_string();
        assert!(err.contains(&cache.display().to_string()), "{err}");
        assert!(err.contains(owner_and_mode), "{err}");
        err
    };

    let cache = env.dir.join("cache");
    std::fs::create_dir(&cache).unwrap();
    chmod(&cache, 0o777);
    let err = refused(&cache, "belongs to uid 0 with mode 0777");
    assert!(err.contains("writable by no one else"), "{err}");
    chmod(&cache, 0o770);
    refused(&cache, "belongs to uid 0 with mode 0770");
    chmod(&cache, 0o700);
    chown(&cache, 65534);
    let err = refused(&cache, "belongs to uid 65534 with mode 0700");
    assert!(err.contains("this host's user (uid 0)"), "{err}");
    assert_eq!(std::fs::read_dir(&cache).unwrap().count(), 0);
    assert_eq!(env.json(&["agents"]), json!([]));

    // A private directory under one another user could replace it from.
    chown(&cache, 0);
    let open = env.dir.join("open");
    std::fs::create_dir(&open).unwrap();
    chmod(&open, 0o777);
    let inner = open.join("cache");
    std::fs::create_dir(&inner).unwrap();
    chmod(&inner, 0o700);
    let err = refused(&inner, "with mode 0777");
    assert!(err.contains(&open.display().to_string()), "{err}");

    // A subdirectory of compiled functions another user could write.
    let shard = cache.join("functions/ab");
    std::fs::create_dir_all(&shard).unwrap();
    chmod(&cache.join("functions"), 0o700);
    chmod(&shard, 0o777);
    let err = refused(&cache, "belongs to uid 0 with mode 0777");
    assert!(err.contains(&shard.display().to_string()), "{err}");
    chmod(&shard, 0o700);

    // Private, it is used, and everything written there is private.
    let out = deploy(&cache);
    assert!(out.status.success(), "{out:?}");
    let written = modes(&cache);
    assert!(written.len() > 10, "{written:?}");
    for (path, mode) in written {
        let expected = if path.is_dir() { 0o700 } else { 0o600 };
        assert_eq!(mode, expected, "{path:?} is {mode:04o}");
    }
    assert!(cache.join("key").exists());
}

/// The artifact of the version with this digest.
fn artifact(env: &Env, digest: &str) -> PathBuf {
    std::fs::read_dir(env.dir.join("data/cache"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| {
            let name = p.file_name().unwrap().to_string_lossy();
            name.starts_with(digest) && name.ends_with(".cwasm")
        })
        .unwrap_or_else(|| panic!("no artifact of {digest}"))
}

/// Starts a `serve`, runs `agent` once as `run` and returns what its first
/// step said, and the log of that `serve`.
fn first_step(env: &Env, agent: &str, run: &str) -> (String, String) {
    let server = env.serve();
    let (status, body) = server.post("/v1/runs", &json!({"agent": agent, "id": run}));
    assert_eq!(status, 201, "{body}");
    let shown = server.wait_run(run, "its first step", |r| r["status"] == "waiting");
    server.terminate();
    let said = shown["status_text"].as_str().unwrap().to_string();
    (said, env.serve_log())
}

/// Whether `log` has a line refusing `file` for `reason`.
fn refused_in_log(log: &str, file: &Path, reason: &str) -> bool {
    let name = file.file_name().unwrap().to_string_lossy();
    log.lines().any(|line| {
        line.contains("refused a precompiled agent")
            && line.contains(&*name)
            && line.contains(reason)
    })
}

#[test]
fn a_precompiled_agent_swapped_renamed_or_changed_is_refused_logged_and_compiled_again() {
    let env = Env::new("cache-swapped", &api_config(""));
    let v1 = deployed_digest(&env.deploy("counter-v1", &[]));
    let v2 = deployed_digest(&env.deploy("counter-v2", &["kv"]));
    let (one, two) = (artifact(&env, &v1), artifact(&env, &v2));

    // 1.0.0's genuine artifact in place of 2.0.0's.
    std::fs::copy(&one, &two).unwrap();
    let (said, log) = first_step(&env, "counter@2.0.0", "swapped");
    assert_eq!(said, "v2 counted 0", "2.0.0 ran 1.0.0's code");
    assert!(refused_in_log(&log, &two, "another key"), "{log}");
    assert_ne!(std::fs::read(&two).unwrap(), std::fs::read(&one).unwrap());

    // Renamed over it.
    std::fs::rename(&one, &two).unwrap();
    let (said, log) = first_step(&env, "counter@2.0.0", "renamed");
    assert_eq!(said, "v2 counted 0", "2.0.0 ran 1.0.0's code");
    assert!(refused_in_log(&log, &two, "another key"), "{log}");
    let (said, _) = first_step(&env, "counter@1.0.0", "one");
    assert_eq!(said, "v1 counted 0");

    // One byte of its code changed.
    let mut changed = std::fs::read(&one).unwrap();
    let at = changed.len() * 3 / 4;
    changed[at] ^= 0x40;
    std::fs::write(&one, &changed).unwrap();
    let (said, log) = first_step(&env, "counter@1.0.0", "changed");
    assert_eq!(said, "v1 counted 0");
    assert!(refused_in_log(&log, &one, "MAC does not match"), "{log}");
}

/// Every entry of `cache`'s compiled functions, by name, with its bytes.
fn entries(cache: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    function_entries(cache)
        .into_iter()
        .map(|name| {
            let path = cache.join("functions").join(name);
            let bytes = std::fs::read(&path).unwrap();
            (path, bytes)
        })
        .collect()
}

/// The entries a compile used (found or wrote) since `age_entries` must
/// each be genuine; and almost every entry was used (a few percent of
/// wasmtime's keys change from one compile to the next).
fn check_used_entries_are_genuine(cache: &Path, genuine: &[(PathBuf, Vec<u8>)]) {
    let unused = unused_entries(cache);
    assert!(
        unused.len() * 10 < genuine.len(),
        "{} of {} entries were not used",
        unused.len(),
        genuine.len()
    );
    let mut wrong = Vec::new();
    for (path, bytes) in genuine {
        let name = path.strip_prefix(cache.join("functions")).unwrap();
        let used = !unused.contains(&name.to_string_lossy().into_owned());
        if used && std::fs::read(path).unwrap() != *bytes {
            wrong.push(path.clone());
        }
    }
    assert!(
        wrong.is_empty(),
        "{} entries a compile used are not the genuine ones, e.g. {:?}",
        wrong.len(),
        &wrong[..wrong.len().min(3)]
    );
}

/// A compile takes no function entry that is not the genuine one of its
/// key: the artifact made from a cache of entries renamed over each other,
/// changed, or sealed by another cache is byte for byte a cold compile's,
/// and each such entry it looks up is compiled and written again.
#[test]
fn a_compiled_function_renamed_changed_or_foreign_is_not_taken() {
    let env = Env::new("cache-functions", "");
    let cache = env.dir.join("data/cache");
    let wasm = agent("invoice-mail");
    let cold = compile(&env, &cache, &wasm);
    let genuine = entries(&cache);
    assert!(genuine.len() > 50, "{} entries", genuine.len());

    // Every other entry replaced by the next one's genuine file, the others
    // with one byte of their code changed.
    for (i, (path, bytes)) in genuine.iter().enumerate() {
        let tampered = if i % 2 == 0 {
            genuine[(i + 1) % genuine.len()].1.clone()
        } else {
            let mut changed = bytes.clone();
            *changed.last_mut().unwrap() ^= 0x01;
            changed
        };
        std::fs::write(path, tampered).unwrap();
    }
    age_entries(&cache);
    let again = compile(&env, &cache, &wasm);
    assert!(again == cold, "a changed or renamed entry was taken");
    check_used_entries_are_genuine(&cache, &genuine);

    // Entries sealed under another cache's key, under the same names,
    // found by a deploy through `serve`, which logs each it refuses.
    let other = Env::new("cache-functions-other", "");
    let other_cache = other.dir.join("data/cache");
    compile(&other, &other_cache, &wasm);
    let mut copied = 0;
    for (path, _) in &genuine {
        let name = path.strip_prefix(&cache).unwrap();
        if std::fs::copy(other_cache.join(name), path).is_ok() {
            copied += 1;
        }
    }
    assert!(copied * 10 > genuine.len() * 9, "{copied} entries copied");
    age_entries(&cache);
    let server = env.serve();
    let bytes = std::fs::read(&wasm).unwrap();
    let (status, body) = server.request(
        "POST",
        "/v1/agents?grant=kv",
        Some(&server.token),
        Some(("application/wasm", bytes)),
    );
    assert_eq!(status, 201, "{body}");
    server.terminate();
    check_used_entries_are_genuine(&cache, &genuine);
    let log = env.serve_log();
    assert!(
        log.lines()
            .any(|l| l.contains("refused a compiled function")
                && l.contains("another host key")
                && l.contains(&cache.join("functions").display().to_string())),
        "{log}"
    );
}
