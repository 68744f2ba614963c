//! The compile cache stays under `[cache] max_bytes`: the least recently
//! used artifacts and compiled functions go first, and a version whose
//! artifact was pruned is compiled again from the store when a run needs it.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use serde_json::{Value, json};

use crate::harness::Env;

fn cache_dir(env: &Env) -> PathBuf {
    env.dir.join("data/cache")
}

/// The digest `deploy` printed.
pub fn deployed_digest(deploy_output: &str) -> String {
    deploy_output
        .lines()
        .find_map(|l| l.strip_prefix("digest sha256:"))
        .unwrap_or_else(|| panic!("no digest in {deploy_output}"))
        .trim()
        .to_string()
}

/// The precompiled artifact of the version with this digest, if the cache
/// holds one.
fn artifact(env: &Env, digest: &str) -> Option<PathBuf> {
    std::fs::read_dir(cache_dir(env))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| {
            let name = p.file_name().unwrap().to_string_lossy();
            name.starts_with(digest) && name.ends_with(".cwasm")
        })
}

fn set_mtime(path: &Path, at: SystemTime) {
    std::fs::File::options()
        .write(true)
        .open(path)
        .unwrap()
        .set_modified(at)
        .unwrap();
}

fn mtime(path: &Path) -> SystemTime {
    std::fs::metadata(path).unwrap().modified().unwrap()
}

fn show(env: &Env) -> Value {
    env.json(&["cache", "show"])
}

#[test]
fn the_cache_stays_under_its_bound_and_a_pruned_version_is_compiled_again() {
    let env = Env::new("cache-bound", "");
    let v1 = deployed_digest(&env.deploy("counter-v1", &[]));
    let first = show(&env);
    assert_eq!(first["artifacts"]["files"], 1, "{first}");
    let one_artifact = first["artifacts"]["bytes"].as_u64().unwrap();
    // Room for one artifact of this size and some functions, not two.
    let bound = one_artifact * 3 / 2;
    std::fs::write(
        env.dir.join("wakeful.toml"),
        format!("[cache]\nmax_bytes = {bound}\n"),
    )
    .unwrap();

    let v2 = deployed_digest(&env.deploy("counter-v2", &["kv"]));
    let after = show(&env);
    assert!(
        after["bytes"].as_u64().unwrap() <= bound,
        "the cache is above its bound of {bound} after a compile: {after}"
    );
    assert_eq!(
        after["max_bytes"], bound,
        "cache show reports the configured bound"
    );
    assert!(
        artifact(&env, &v1).is_none(),
        "the least recently used artifact (1.0.0's) was not pruned: {after}"
    );
    let v2_artifact = artifact(&env, &v2).expect("the artifact just written is kept");

    // Loading an artifact marks it used.
    env.start("counter@2.0.0", "new", json!({}));
    let long_ago = SystemTime::now() - Duration::from_secs(86_400);
    set_mtime(&v2_artifact, long_ago);
    env.work();
    assert_eq!(env.show("new")["status_text"], "v2 counted 0");
    assert!(
        mtime(&v2_artifact) > long_ago + Duration::from_secs(3600),
        "loading 2.0.0's artifact did not mark it used"
    );

    // 1.0.0 has no artifact left: a run of it compiles it again from the
    // stored component, which pushes out 2.0.0's.
    env.start("counter@1.0.0", "old", json!({}));
    env.work();
    assert_eq!(env.show("old")["status_text"], "v1 counted 0");
    assert!(
        artifact(&env, &v1).is_some(),
        "1.0.0 was not compiled again"
    );
    assert!(
        artifact(&env, &v2).is_none(),
        "2.0.0's artifact was not pruned"
    );
    let now = show(&env);
    assert!(now["bytes"].as_u64().unwrap() <= bound, "{now}");

    // Both go on stepping, each compile pruning the other's artifact.
    env.ok(&["send", "old", "--topic", "tick", "--id", "t1"]);
    env.work();
    assert_eq!(env.show("old")["status_text"], "v1 counted 1");
    env.ok(&["send", "new", "--topic", "tick", "--id", "t1"]);
    env.work();
    assert_eq!(env.show("new")["status_text"], "v2 counted 1");
    assert!(artifact(&env, &v1).is_none() && artifact(&env, &v2).is_some());
    let end = show(&env);
    assert!(end["bytes"].as_u64().unwrap() <= bound, "{end}");

    // A process that steps both keeps both: it has them loaded.
    env.ok(&["send", "--topic", "tick", "--id", "t2"]);
    env.work();
    assert_eq!(env.show("old")["status_text"], "v1 counted 2");
    assert_eq!(env.show("new")["status_text"], "v2 counted 2");
    assert!(artifact(&env, &v1).is_some() && artifact(&env, &v2).is_some());
}

#[test]
fn cache_show_counts_the_cache_and_prune_to_zero_empties_it() {
    let env = Env::new("cache-cli", "");
    let digest = deployed_digest(&env.deploy("counter-v1", &[]));
    let dir = cache_dir(&env);

    let text = env.ok(&["cache", "show"]);
    assert!(text.contains(&dir.display().to_string()), "{text}");
    assert!(text.contains("1 precompiled agents"), "{text}");
    let usage = show(&env);
    let artifacts = usage["artifacts"]["bytes"].as_u64().unwrap();
    let functions = usage["functions"]["bytes"].as_u64().unwrap();
    assert_eq!(usage["artifacts"]["files"], 1, "{usage}");
    assert!(usage["functions"]["files"].as_u64().unwrap() > 0, "{usage}");
    assert_eq!(usage["bytes"], artifacts + functions, "{usage}");
    assert_eq!(usage["max_bytes"], 2u64 << 30, "the default bound");

    // A dead writer's temporary file goes; a live writer's stays.
    let stale = dir.join(".dead.cwasm.1.0.tmp");
    let young = dir.join(".live.cwasm.2.0.tmp");
    std::fs::write(&stale, b"half").unwrap();
    std::fs::write(&young, b"half").unwrap();
    set_mtime(&stale, SystemTime::now() - Duration::from_secs(7200));
    let out = env.ok(&["cache", "prune"]);
    assert!(
        out.contains("removed 0 artifact(s)") && out.contains("1 stale temporary file(s)"),
        "{out}"
    );
    assert!(!stale.exists() && young.exists());
    assert!(artifact(&env, &digest).is_some(), "under the bound, kept");

    let pruned = env.json(&["cache", "prune", "--max-bytes", "0"]);
    let name = artifact_name(&pruned);
    assert!(name.starts_with(&digest), "{pruned}");
    assert_eq!(pruned["pruned"]["removed"]["artifacts"]["bytes"], artifacts);
    assert_eq!(pruned["pruned"]["removed"]["functions"]["bytes"], functions);
    let empty = show(&env);
    assert_eq!(empty["bytes"], 0, "{empty}");
    assert_eq!(empty["artifacts"]["files"], 0, "{empty}");
    assert_eq!(empty["functions"]["files"], 0, "{empty}");

    // An empty cache is only a compile away.
    env.start("counter", "r1", json!({}));
    env.work();
    assert_eq!(env.show("r1")["status_text"], "v1 counted 0");
    assert!(artifact(&env, &digest).is_some());
    let out = env.ok(&["cache", "prune", "--max-bytes", "0"]);
    assert!(out.contains(&format!("removed {digest}")), "{out}");

    let err = env.fails(&["cache", "prune", "--max-bytes", "lots"]);
    assert!(err.contains("--max-bytes"), "{err}");
    std::fs::write(env.dir.join("wakeful.toml"), "[cache]\nmax_bytes = 0\n").unwrap();
    for args in [&["cache", "show"][..], &["runs"][..]] {
        let err = env.fails(args);
        assert!(err.contains("cache.max_bytes"), "{args:?}: {err}");
    }
}

/// The one artifact a prune removed.
fn artifact_name(pruned: &Value) -> String {
    let names = pruned["pruned"]["removed_artifacts"].as_array().unwrap();
    assert_eq!(names.len(), 1, "{pruned}");
    names[0].as_str().unwrap().to_string()
}
