//! What a step costs the disk, counted on the real `wakeful` process: every
//! `fsync`/`fdatasync` it makes, traced by `strace`. A step commits with
//! one flush of SQLite's WAL; claims and built-in tool calls (`kv`,
//! `lease`) add none; a group of steps shares one; a start and an approval
//! are one each. Counts, not times: they do not depend on the machine's
//! speed.

use std::path::Path;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::json;

use crate::harness::{Env, INCIDENT_TOOLS};

/// Incidents stepped in each count.
const INCIDENTS: usize = 12;

/// Commits flushed to disk by `wakeful ARGS` on `env`, from its flushes
/// counted by strace. SQLite flushes its WAL at each commit, and also twice
/// for what a short-lived process does around its commits: creating the
/// WAL (its header, flushed with the directory that holds it) and copying
/// the WAL into the data file when it closes it (the WAL, then the data
/// file). So each flush of the directory and each of the data file stands
/// for one flush of the WAL that is not a commit. The command must succeed.
pub(crate) fn commits(env: &Env, args: &[&str]) -> usize {
    static TRACES: AtomicUsize = AtomicUsize::new(0);
    let n = TRACES.fetch_add(1, Ordering::SeqCst);
    let trace = env.dir.join(format!("strace-{n}-{}.txt", args[0]));
    let plain = env.command(args);
    let mut cmd = Command::new("strace");
    cmd.args([
        "-f",
        "-qq",
        "-y",
        "-e",
        "trace=fsync,fdatasync,sync_file_range",
    ])
    .arg("-o")
    .arg(&trace)
    .arg(plain.get_program())
    .args(plain.get_args())
    .current_dir(plain.get_current_dir().unwrap_or(Path::new(".")));
    for (k, v) in plain.get_envs() {
        match v {
            Some(v) => cmd.env(k, v),
            None => cmd.env_remove(k),
        };
    }
    let out = cmd.output().unwrap_or_else(|e| {
        panic!(
            "cannot run strace ({e}): this test counts the host's flushes to disk with it; \
             install it (Debian: apt-get install strace; scripts/test.sh does so as root)"
        )
    });
    assert!(
        out.status.success(),
        "strace wakeful {args:?} failed ({}):\n{}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&trace).unwrap();
    let data = env.sqlite_file();
    let flushed = |file: &Path| {
        let name = format!("<{}>", file.display());
        text.lines()
            .filter(|l| l.contains(&name) && !l.contains("resumed>"))
            .count()
    };
    let wal = flushed(&data.with_extension("db-wal"));
    let not_commits = flushed(&data) + flushed(data.parent().unwrap());
    assert!(
        wal >= not_commits,
        "wakeful {args:?}: fewer flushes of the WAL than of the file and its directory:\n{text}"
    );
    wal - not_commits
}

/// A host with the incident agent deployed and `INCIDENTS` services
/// degraded, one run started for each; `limits` is the `[limits]` table.
fn incidents(name: &str, limits: &str) -> (Env, Vec<usize>) {
    let env = Env::sqlite(name, &format!("{INCIDENT_TOOLS}\n[limits]\n{limits}"));
    let degraded = json!({"status": "degraded", "memory_pct": 97, "actions_applied": 0});
    for i in 0..INCIDENTS {
        env.ok(&[
            "kv",
            "put",
            &format!("agent/incident/service/svc-{i}"),
            &degraded.to_string(),
        ]);
    }
    env.deploy("incident", &["kv", "lease", "llm"]);
    let starts = (0..INCIDENTS)
        .map(|i| {
            let input = json!({"incident": format!("INC-{i}"), "service": format!("svc-{i}")});
            commits(
                &env,
                &[
                    "start",
                    "incident",
                    "--id",
                    &format!("inc-{i}"),
                    "--input",
                    &input.to_string(),
                ],
            )
        })
        .collect();
    (env, starts)
}

/// Steps taken by every run so far.
fn steps(env: &Env) -> u64 {
    (0..INCIDENTS)
        .map(|i| env.show(&format!("inc-{i}"))["steps"].as_u64().unwrap())
        .sum()
}

fn approve_all(env: &Env) -> Vec<usize> {
    (0..INCIDENTS)
        .map(|i| {
            let args = env.approve_args(
                &format!("inc-{i}"),
                "approve-scale_out",
                &["--by", "on-call engineer"],
            );
            commits(env, &args.iter().map(String::as_str).collect::<Vec<_>>())
        })
        .collect()
}

fn all_done(env: &Env) {
    for i in 0..INCIDENTS {
        let show = env.show(&format!("inc-{i}"));
        assert_eq!(show["status"], "done", "{show}");
        assert_eq!(show["outcome"], "resolved", "{show}");
    }
}

#[test]
fn a_step_alone_costs_one_flush_and_claims_and_built_in_tools_none() {
    // Each step committed alone: no group commit to hide extra flushes.
    let (env, starts) = incidents("fsyncs-alone", "steps_per_commit = 1");
    let first = commits(&env, &["work", "--until-idle"]);
    let to_approval = steps(&env);
    assert_eq!(to_approval, 3 * INCIDENTS as u64, "triage, diagnose, ask");
    let approvals = approve_all(&env);
    let second = commits(&env, &["work", "--until-idle"]);
    let total = steps(&env);
    all_done(&env);
    let per_step = (first + second) as f64 / total as f64;
    // Each step reads kv, takes a lease or calls the model: were claims or
    // those calls flushed, this would be 2 or more.
    assert!(
        per_step <= 1.1,
        "{first} + {second} flushes for {total} steps ({per_step:.2} per step)"
    );
    assert!(
        first + second >= total as usize,
        "every committed step is flushed: {first} + {second} flushes for {total} steps"
    );
    // A start and an approval are one commit each.
    for (what, counts) in [("start", &starts), ("approve", &approvals)] {
        assert!(
            counts.iter().all(|&n| n == 1),
            "flushed commits per `{what}` process: {counts:?}"
        );
    }
}

#[test]
fn steps_due_together_share_one_flush() {
    let (env, _) = incidents("fsyncs-group", "steps_per_commit = 16");
    let first = commits(&env, &["work", "--until-idle"]);
    approve_all(&env);
    let second = commits(&env, &["work", "--until-idle"]);
    let total = steps(&env);
    all_done(&env);
    // Twelve runs due at once: a worker pass steps them all and commits
    // them in one transaction.
    assert!(
        ((first + second) as u64) * 4 <= total,
        "{first} + {second} flushes for {total} steps due together"
    );
}
