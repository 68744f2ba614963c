//! The data file under faults: damaged or truncated files are refused
//! untouched, and a backup taken while workers run is a store that works.
//! These are about the SQLite file itself, so they run on it whatever store
//! the other tests use.

use std::path::{Path, PathBuf};

use serde_json::json;

use crate::harness::Env;

fn db(env: &Env) -> PathBuf {
    env.sqlite_file()
}

/// A host with a few runs waiting on `go`, every process closed (so the
/// write-ahead log is folded into the data file).
fn with_runs(name: &str, runs: usize) -> Env {
    let env = Env::sqlite(name, "");
    env.deploy("waiter", &[]);
    for i in 0..runs {
        let input = json!({"topic": "go"}).to_string();
        env.ok(&[
            "start",
            "waiter",
            "--id",
            &format!("r{i:03}"),
            "--input",
            &input,
        ]);
    }
    env.work();
    env
}

fn damaged(env: &Env, args: &[&str], file: &Path, needle: &str) {
    let before = std::fs::read(file).unwrap();
    let err = env.fails(args);
    assert!(err.contains(needle), "wakeful {args:?}: {err}");
    assert!(
        std::fs::read(file).unwrap() == before,
        "wakeful {args:?} changed a damaged file"
    );
}

#[test]
fn a_file_that_is_not_a_store_or_is_truncated_is_refused_untouched() {
    let env = with_runs("damaged-header", 3);
    let file = db(&env);
    let good = std::fs::read(&file).unwrap();

    let mut garbage = good.clone();
    garbage[..16].copy_from_slice(b"definitely not!!");
    std::fs::write(&file, &garbage).unwrap();
    damaged(&env, &["runs"], &file, "is not a wakeful data file");

    std::fs::write(&file, &good[..good.len() / 2]).unwrap();
    damaged(&env, &["runs"], &file, "is truncated");
    damaged(&env, &["work", "--until-idle"], &file, "is truncated");

    std::fs::write(&file, &good).unwrap();
    assert_eq!(env.json(&["runs"])["items"].as_array().unwrap().len(), 3);
}

#[test]
fn a_damaged_page_is_found_by_check_and_named_as_damage() {
    let env = with_runs("damaged-page", 40);
    let file = db(&env);
    let mut bytes = std::fs::read(&file).unwrap();
    let page = u16::from_be_bytes([bytes[16], bytes[17]]) as usize;
    assert!(bytes.len() >= page * 4, "the store has several pages");
    // Scribble over every page after the schema: b-tree pages of data.
    for at in (page * 2..bytes.len()).step_by(page) {
        bytes[at..at + 64].fill(0xA5);
    }
    std::fs::write(&file, &bytes).unwrap();
    let err = env.fails(&["check"]);
    assert!(err.contains("is damaged"), "{err}");
    assert!(err.contains("wakeful backup"), "{err}");
    let err = env.fails(&["serve", "--listen", "127.0.0.1:0"]);
    assert!(
        err.contains("is damaged"),
        "serve refuses a damaged store: {err}"
    );
}

#[test]
fn serve_answers_at_once_but_steps_nothing_before_its_check_has_passed() {
    let env = Env::sqlite("check-first", "");
    env.deploy("waiter", &[]);
    let input = json!({"topic": "go"}).to_string();
    env.ok(&["start", "waiter", "--id", "early", "--input", &input]);
    // The check is held for as long as this file exists.
    let hold = env.dir.join("hold-integrity");
    std::fs::write(&hold, "").unwrap();
    let held = env.clone_with_env("WAKEFUL_HOLD", &format!("integrity:{}", hold.display()));
    let server = held.serve();

    let (status, show) = server.get("/v1/runs/early");
    assert_eq!((status, &show["steps"]), (200, &json!(0)), "{show}");
    let (status, body) = server.post(
        "/v1/runs",
        &json!({"agent": "waiter", "id": "during", "input": {"topic": "go"}}),
    );
    assert_eq!(status, 201, "the API takes writes during the check: {body}");
    // A worker that did not wait would have stepped both runs by now.
    std::thread::sleep(std::time::Duration::from_millis(1500));
    for run in ["early", "during"] {
        let (_, show) = server.get(&format!("/v1/runs/{run}"));
        assert_eq!(show["steps"], 0, "stepped before the check passed: {show}");
    }

    std::fs::remove_file(&hold).unwrap();
    for run in ["early", "during"] {
        server.wait_run(run, "its first step", |r| r["steps"] == 1);
    }
    assert!(
        env.serve_log()
            .contains("store integrity checked; workers start"),
        "{}",
        env.serve_log()
    );
}

#[test]
fn a_backup_taken_while_a_worker_runs_is_a_working_store() {
    let env = with_runs("backup", 30);
    env.ok(&["send", "--topic", "go", "--id", "g1"]);
    let copy = env.dir.join("copy.db");
    let mut worker = env.command(&["work", "--until-idle"]).spawn().unwrap();
    env.ok(&["backup", copy.to_str().unwrap()]);
    assert!(worker.wait().unwrap().success());

    let err = env.fails(&["backup", copy.to_str().unwrap()]);
    assert!(
        err.contains("exists; a backup never overwrites a file"),
        "{err}"
    );

    // The copy is a data directory of its own: every run is there, in the
    // state of some instant, and finishes there.
    let restored = Env::sqlite("backup-restored", "");
    std::fs::create_dir_all(restored.dir.join("data")).unwrap();
    std::fs::copy(&copy, db(&restored)).unwrap();
    restored.ok(&["check"]);
    assert_eq!(
        restored.json(&["runs"])["items"].as_array().unwrap().len(),
        30
    );
    restored.ok(&["send", "--topic", "go", "--id", "g1"]);
    restored.work();
    let runs = restored.json(&["runs"])["items"].take();
    assert!(
        runs.as_array()
            .unwrap()
            .iter()
            .all(|r| r["status"] == "done"),
        "{runs}"
    );
}

/// A small tmpfs mounted on a directory for one test; unmounted on drop.
struct SmallDisk {
    dir: PathBuf,
}

impl SmallDisk {
    fn mount(dir: &Path, size: &str) -> SmallDisk {
        std::fs::create_dir_all(dir).unwrap();
        let out = std::process::Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(dir)
            .output()
            .expect("run mount");
        assert!(
            out.status.success(),
            "this test mounts a small tmpfs to fill the disk under the store, which needs \
             root (or CAP_SYS_ADMIN): run the tests as root. mount said: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        SmallDisk {
            dir: dir.to_path_buf(),
        }
    }

    fn grow(&self, size: &str) {
        let status = std::process::Command::new("mount")
            .args(["-o", &format!("remount,size={size}")])
            .arg(&self.dir)
            .status()
            .unwrap();
        assert!(status.success(), "remounting {}", self.dir.display());
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = std::process::Command::new("umount")
            .arg("-l")
            .arg(&self.dir)
            .status();
    }
}

#[test]
fn a_full_disk_gives_clear_errors_keeps_everything_and_recovers_once_freed() {
    let env = Env::sqlite("disk-full", "[limits]\nretry_backoff_ms = 0\n");
    let disk = SmallDisk::mount(&env.dir.join("data"), "6m");
    env.deploy("waiter", &[]);
    let runs: Vec<String> = (0..40).map(|i| format!("r{i:02}")).collect();
    for run in &runs {
        let input = json!({"topic": "go", "slices": 1}).to_string();
        env.ok(&["start", "waiter", "--id", run, "--input", &input]);
    }
    // Events with large payloads until the disk is full.
    let file = env.dir.join("payload.json");
    std::fs::write(&file, json!({"blob": "x".repeat(200 << 10)}).to_string()).unwrap();
    let payload = format!("@{}", file.display());
    let mut refused = None;
    for (n, run) in runs.iter().enumerate() {
        let out = env.output(&[
            "send",
            run,
            "--topic",
            "go",
            "--id",
            &format!("e{n}"),
            "--payload",
            &payload,
        ]);
        if !out.status.success() {
            refused = Some((n, String::from_utf8_lossy(&out.stderr).to_string()));
            break;
        }
    }
    let (accepted, error) = refused.expect("the disk never filled up");
    assert!(accepted > 0, "some events fitted");
    assert!(error.contains("the disk is full"), "{error}");
    // Working on a full disk: steps fail clearly or go through, and no run
    // ends without its state.
    let out = env.output(&["work", "--until-idle"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() || stderr.contains("the disk is full"),
        "{stderr}"
    );
    for run in &runs {
        let show = env.show(run);
        if show["status"] == "done" {
            assert_eq!(
                show["outcome"],
                format!("event e{} on go", &run[1..].parse::<usize>().unwrap())
            );
            let history = env.json(&["history", run]);
            assert!(history.as_array().unwrap().len() >= 2, "{run}: {history}");
        }
    }

    disk.grow("64m");
    for (n, run) in runs.iter().enumerate().skip(accepted) {
        env.ok(&[
            "send",
            run,
            "--topic",
            "go",
            "--id",
            &format!("e{n}"),
            "--payload",
            &payload,
        ]);
    }
    env.work();
    for (n, run) in runs.iter().enumerate() {
        let show = env.show(run);
        assert_eq!(show["status"], "done", "{show}");
        assert_eq!(show["outcome"], format!("event e{n} on go"));
    }
    assert_eq!(env.sql_query("PRAGMA integrity_check"), [[json!("ok")]]);
}
