//! Crashes at every persistence and effect boundary (the failpoint sweep):
//! the process is SIGKILLed there, a new one finishes the work, and nothing
//! is lost, done twice or left inconsistent.

use std::collections::{BTreeMap, BTreeSet};
use std::os::unix::process::ExitStatusExt;

use serde_json::json;

use crate::fake_servers::{FakeServer, Reply};
use crate::harness::{Env, FAST_LIMITS, StoreKind};

/// Runs a command that must die at `point`; returns whether it did.
fn crash_at(env: &Env, point: &str, args: &[&str]) -> bool {
    let out = env.clone_with_env("WAKEFUL_FAILPOINT", point).output(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let killed = out.status.signal() == Some(9);
    assert!(
        killed || out.status.success(),
        "wakeful {args:?} at {point} neither died nor succeeded: {stderr}"
    );
    killed && stderr.contains(&format!("failpoint {point}"))
}

/// The store is whole after a crash: for the SQLite file, SQLite's own
/// full check, apart from the binary's; a killed client cannot damage a
/// PostgreSQL server's files, so there the host's `check` is enough.
fn integrity_ok(env: &Env) {
    match env.store_kind() {
        StoreKind::Sqlite => {
            let db = env.sqlite_file();
            assert!(db.exists(), "{}", db.display());
            let check = env.sql_query("PRAGMA integrity_check");
            assert_eq!(check, [[json!("ok")]]);
        }
        StoreKind::Postgres => {
            env.ok(&["check"]);
        }
    }
}

/// Checkpoints numbered 1..=n with no gap or repeat.
fn checkpoints_without_gaps(env: &Env, run: &str) {
    let seqs = env.checkpoint_seqs(run);
    let expected: Vec<u64> = (1..=seqs.len() as u64).collect();
    assert_eq!(seqs, expected, "{run}");
}

/// Requests per `Idempotency-Key` a sink saw.
fn per_key(server: &FakeServer) -> BTreeMap<String, usize> {
    let mut seen = BTreeMap::new();
    for r in server.requests() {
        let key = r.header("Idempotency-Key").unwrap_or_default().to_string();
        *seen.entry(key).or_insert(0) += 1;
    }
    seen
}

/// A step with two calls to a sink that drops repeated keys: crashes
/// around the calls and the commit.
fn tool_scenario(point: &str) -> bool {
    let sink = FakeServer::start(|_| Reply::Json(200, json!({"applied": true})));
    let config = format!(
        "{FAST_LIMITS}[tools.pager]\nkind = \"http\"\nurl = \"{}/effect\"\ntimeout_ms = 1000\n\
         idempotent = true\n",
        sink.url
    );
    let env = Env::new(&format!("sweep-{point}"), &config);
    env.deploy("caller", &["pager", "llm", "kv"]);
    let calls = json!([{"tool": "pager", "args": {}}, {"tool": "pager", "args": {}}]);
    let input = json!({ "calls": calls }).to_string();
    env.ok(&["start", "caller", "--id", "r", "--input", &input]);
    let hit = crash_at(&env, point, &["work", "--until-idle"]);
    integrity_ok(&env);
    env.work();
    integrity_ok(&env);
    let show = env.show("r");
    assert_eq!(show["status"], "done", "after a crash at {point}: {show}");
    checkpoints_without_gaps(&env, "r");
    let keys = per_key(&sink);
    assert_eq!(
        keys.len(),
        2,
        "two distinct effects after a crash at {point}: {keys:?}"
    );
    // The ledger gave the guest each result once.
    assert_eq!(env.recorded_calls("r").len(), 2, "at {point}");
    hit
}

fn upgrade_scenario(point: &str) -> bool {
    let env = Env::new("sweep-upgrade", FAST_LIMITS);
    env.deploy("counter-v1", &[]);
    env.ok(&["start", "counter", "--id", "a", "--input", "{}"]);
    env.work();
    env.deploy("counter-v2", &["kv"]);
    let upgrade = ["upgrade", "a", "--to", "2.0.0", "--allow-new-tools"];
    let hit = crash_at(&env, point, &upgrade);
    integrity_ok(&env);
    assert_eq!(
        env.show("a")["version"],
        "1.0.0",
        "a crashed upgrade changes nothing"
    );
    // The dead process's claim on the run expires (claim_ms), then the
    // upgrade goes through.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while env.show("a")["version"] != "2.0.0" {
        assert!(
            std::time::Instant::now() < deadline,
            "the upgrade never went through"
        );
        env.ok(&upgrade);
        std::thread::sleep(std::time::Duration::from_millis(300));
    }
    assert_eq!(env.audit_rows("a", "upgrade").len(), 1);
    hit
}

fn approval_scenario(point: &str) -> bool {
    let env = Env::new("sweep-approval", "");
    env.deploy("waiter", &[]);
    let input = json!({"approval_ms": 60_000}).to_string();
    env.ok(&["start", "waiter", "--id", "a", "--input", &input]);
    env.work();
    let answer = env.approve_args("a", "ok?", &["--by", "bob"]);
    let answer: Vec<&str> = answer.iter().map(String::as_str).collect();
    let hit = crash_at(&env, point, &answer);
    integrity_ok(&env);
    assert_eq!(
        env.show("a")["pending_approvals"].as_array().unwrap().len(),
        1
    );
    env.approve("a", "ok?", &["--by", "bob"]);
    env.work();
    assert_eq!(env.show("a")["status"], "done");
    assert_eq!(env.audit_rows("a", "approval").len(), 1);
    hit
}

fn schedule_scenario(point: &str) -> bool {
    let env = Env::new("sweep-schedule", FAST_LIMITS);
    env.deploy("waiter", &[]);
    env.ok(&[
        "schedule",
        "add",
        "tick",
        "waiter",
        "--cron",
        "* * * * * *",
        "--input",
        "{\"topic\":\"t\"}",
    ]);
    std::thread::sleep(std::time::Duration::from_millis(1100));
    let hit = crash_at(&env, point, &["work", "--until-idle"]);
    integrity_ok(&env);
    env.work();
    let runs = env.json(&["runs"])["items"].take();
    let ids: BTreeSet<String> = runs
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["run_id"].as_str().unwrap().to_string())
        .collect();
    assert!(
        !ids.is_empty(),
        "the schedule started its run after the crash"
    );
    assert!(ids.iter().all(|id| id.starts_with("tick-")), "{ids:?}");
    hit
}

#[test]
fn a_crash_at_every_failpoint_loses_nothing_and_repeats_nothing() {
    let listed = Env::new("sweep-list", "").ok(&["failpoints"]);
    let points: Vec<&str> = listed.lines().collect();
    assert!(
        points.len() >= 10,
        "the binary lists its failpoints: {listed}"
    );
    let mut unreached = vec![];
    for point in &points {
        let hit = match *point {
            "upgrade" => upgrade_scenario(point),
            "approval-answer" => approval_scenario(point),
            "schedule-fire" => schedule_scenario(point),
            _ => tool_scenario(point),
        };
        if !hit {
            unreached.push(point.to_string());
        }
    }
    assert!(
        unreached.is_empty(),
        "no scenario reached the failpoints {unreached:?}"
    );
}

/// A call sent, then the process SIGKILLed before its result was recorded:
/// both sends are in the audit with the `Idempotency-Key` the system got,
/// the second as a resend, and `show` names that key for a call whose
/// outcome an operator must settle.
#[test]
fn every_send_is_audited_with_the_key_it_carried_a_resend_after_a_kill_too() {
    let sink = FakeServer::start(|_| Reply::Json(200, json!({"applied": true})));
    let pager = |idempotent: bool| {
        format!(
            "{FAST_LIMITS}[tools.pager]\nkind = \"http\"\nurl = \"{}/effect\"\n\
             timeout_ms = 1000\nidempotent = {idempotent}\n",
            sink.url
        )
    };
    let env = Env::new("sent-keys", &pager(true));
    env.deploy("caller", &["pager", "llm", "kv"]);
    let input = json!({"calls": [{"tool": "pager", "args": {}, "key": "page:1"}]}).to_string();
    env.ok(&["start", "caller", "--id", "r", "--input", &input]);
    assert!(crash_at(&env, "before-result", &["work", "--until-idle"]));
    env.work();
    assert_eq!(env.show("r")["status"], "done");
    let sent: Vec<String> = sink
        .requests()
        .iter()
        .map(|r| r.header("Idempotency-Key").unwrap().to_string())
        .collect();
    assert_eq!(sent.len(), 2, "sent, then sent again: {sent:?}");
    assert_eq!(sent[0], sent[1]);
    let rows: Vec<_> = env
        .audit_rows("r", "tool sent")
        .into_iter()
        .map(|r| r["data"].clone())
        .collect();
    assert_eq!(rows.len(), 2, "{rows:?}");
    for (row, resend) in rows.iter().zip([false, true]) {
        assert_eq!(row["tool"], "pager", "{row}");
        assert_eq!(row["key"], "page:1", "{row}");
        assert_eq!(row["sent_key"], sent[0].as_str(), "{row}");
        assert_eq!(row["resend"], resend, "{row}");
    }
    // `show` lists the call with the key it was sent with.
    let show = env.show("r");
    assert_eq!(show["sent_calls"][0]["key"], "page:1", "{show}");
    assert_eq!(
        show["sent_calls"][0]["sent_key"],
        sent[0].as_str(),
        "{show}"
    );
    let line = format!(
        "sent       pager call page:1 (ok) as Idempotency-Key {}",
        sent[0]
    );
    assert!(env.ok(&["show", "r"]).contains(&line));
    let text = env.ok(&["audit", "r"]);
    let line = format!("pager key=page:1 sent again as Idempotency-Key {}", sent[0]);
    assert!(text.contains(&line), "{text}");

    // A tool that cannot drop a repeat is not sent again: the run is
    // parked, and `show` names the key to ask the other system about.
    let env = Env::new("sent-keys-parked", &pager(false));
    env.deploy("caller", &["pager", "llm", "kv"]);
    env.ok(&["start", "caller", "--id", "p", "--input", &input]);
    assert!(crash_at(&env, "before-result", &["work", "--until-idle"]));
    env.work();
    let show = env.show("p");
    assert_eq!(show["status"], "parked", "{show}");
    let requests = sink.requests();
    assert_eq!(requests.len(), 3, "sent once");
    let paid = requests[2].header("Idempotency-Key").unwrap().to_string();
    assert_ne!(paid, sent[0], "another run, another key");
    assert_eq!(
        show["unknown_outcomes"][0]["sent_key"],
        paid.as_str(),
        "{show}"
    );
    let text = env.ok(&["show", "p"]);
    assert!(
        text.contains(&format!("as Idempotency-Key {paid}")),
        "{text}"
    );
    let rows: Vec<_> = env
        .audit_rows("p", "tool sent")
        .into_iter()
        .map(|r| r["data"].clone())
        .collect();
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(rows[0]["sent_key"], paid.as_str());
}

/// A loopback system with effects: applies each `Idempotency-Key` once,
/// slowly (so that kills land while calls are out), and counts repeats.
struct Sink {
    server: FakeServer,
}

impl Sink {
    fn start() -> Sink {
        let server = FakeServer::start(|_| {
            std::thread::sleep(std::time::Duration::from_millis(15));
            Reply::Json(200, json!({"applied": true}))
        });
        Sink { server }
    }

    /// (run, call) -> requests that reached the sink for it, by key.
    fn effects(&self) -> BTreeMap<(String, u64), BTreeMap<String, usize>> {
        let mut effects: BTreeMap<(String, u64), BTreeMap<String, usize>> = BTreeMap::new();
        for r in self.server.requests() {
            let body = r.json();
            let what = (
                body["run"].as_str().unwrap().to_string(),
                body["call"].as_u64().unwrap(),
            );
            let key = r.header("Idempotency-Key").unwrap().to_string();
            *effects.entry(what).or_default().entry(key).or_insert(0) += 1;
        }
        effects
    }
}

/// Requests that reached the sink again for a (run, call) under a key it
/// had already seen: calls resent after a kill between them and their
/// record.
fn resent(sink: &Sink) -> usize {
    sink.effects()
        .values()
        .flat_map(|keys| keys.values())
        .map(|sent| sent - 1)
        .sum()
}

/// A small deterministic generator, seeded from the clock (printed, so a
/// failing run can be repeated with `WAKEFUL_SOAK_SEED`).
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

fn knob(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Settles, as an operator would, every parked call of unknown outcome by
/// asking the sink whether it was applied.
fn settle_unknown(env: &Env, sink: &Sink) -> usize {
    let effects = sink.effects();
    let mut settled = 0;
    for run in &runs_with_status(env, "parked") {
        let show = env.show(run);
        for unknown in show["unknown_outcomes"].as_array().unwrap() {
            if show["status"] != "parked" {
                continue;
            }
            let key = unknown["key"].as_str().unwrap();
            let call = unknown["args"]["body"]["call"].as_u64().unwrap();
            let applied = effects.contains_key(&(run.clone(), call));
            if applied {
                let result = json!({"status": 200, "body": {"applied": true}}).to_string();
                env.ok(&["resolve", run, key, "--result", &result, "--by", "soak"]);
            } else {
                env.ok(&["resolve", run, key, "--retry", "--by", "soak"]);
            }
            settled += 1;
        }
    }
    settled
}

/// The ids of the runs with `status`, read off the store (a size-proof
/// way to watch thousands of runs).
fn runs_with_status(env: &Env, status: &str) -> Vec<String> {
    env.sql_query(&format!(
        "SELECT run_id FROM runs WHERE status = '{status}' ORDER BY run_id"
    ))
    .into_iter()
    .map(|row| row[0].as_str().unwrap().to_string())
    .collect()
}

fn all_done(env: &Env, runs: &[String]) -> bool {
    runs_with_status(env, "done").len() == runs.len()
}

/// Runs lease-held right now: after a lone worker was killed, it died
/// inside a step.
pub fn runs_under_claim(env: &Env) -> i64 {
    env.sql_query("SELECT COUNT(*) FROM runs WHERE lease_owner IS NOT NULL")[0][0]
        .as_i64()
        .unwrap()
}

/// Many multi-step runs whose calls reach a sink through a tool that drops
/// repeated keys and one that cannot; hosts (`work` and `serve`, in turn)
/// SIGKILLed at random moments and restarted until every run ended. Size: `WAKEFUL_SOAK_RUNS` (50),
/// `WAKEFUL_SOAK_KILLS` (20); `scripts/soak.sh` runs a large one.
#[test]
fn soak_workers_killed_at_random_apply_every_effect_exactly_once() {
    let (n_runs, n_kills) = (
        knob("WAKEFUL_SOAK_RUNS", 50),
        knob("WAKEFUL_SOAK_KILLS", 20),
    );
    let seed = knob("WAKEFUL_SOAK_SEED", std::process::id() as u64 ^ 0x5eed);
    eprintln!("soak: {n_runs} runs, {n_kills} kills, seed {seed}");
    let mut rng = Lcg(seed);
    let sink = Sink::start();
    // `pager` drops repeated keys; `llm` (here an `http` tool: the caller
    // agent asks for these two names) cannot, so a call of unknown outcome
    // to it waits for the operator.
    let config = format!(
        "[limits]\nclaim_ms = 1500\nstep_deadline_ms = 1200\nretry_backoff_ms = 0\nmax_attempts = 50\n\
         [tools.pager]\nkind = \"http\"\nurl = \"{url}/notify\"\ntimeout_ms = 1000\nidempotent = true\n\
         [tools.llm]\nkind = \"http\"\nurl = \"{url}/pay\"\ntimeout_ms = 1000\n",
        url = sink.server.url
    );
    let env = Env::new("soak", &config);
    env.deploy("caller", &["pager", "llm", "kv"]);
    let start = |runs: &mut Vec<String>, n: usize| {
        for i in runs.len()..runs.len() + n {
            let run = format!("soak-{i:04}");
            let call = |tool: &str, n: u64| json!({"tool": tool, "args": {"body": {"run": &run, "call": n}}});
            let calls = json!([call("pager", 1), call("llm", 2), call("pager", 3)]);
            let input = json!({ "calls": calls }).to_string();
            env.ok(&["start", "caller", "--id", &run, "--input", &input]);
            runs.push(run);
        }
    };
    let mut runs: Vec<String> = vec![];
    start(&mut runs, n_runs as usize);

    let (mut kills, mut mid_step, mut settled) = (0, 0, 0);
    let mut rounds = 0;
    // At least one kill must land between a call and its record. Where
    // it lands is chance: on a slow or busy machine the first `n_kills`
    // may all miss the window, so more are made then, up to four times
    // as many, before the test gives up on reaching it.
    let max_kills = n_kills * 4;
    while kills < n_kills || (resent(&sink) + settled == 0 && kills < max_kills) {
        rounds += 1;
        assert!(
            rounds < max_kills * 20,
            "workers kept finishing before they could be killed"
        );
        // In turn a one-shot worker and `serve` with two worker threads.
        let host: &[&str] = if rounds % 2 == 0 {
            &["work", "--until-idle"]
        } else {
            &["serve", "--listen", "127.0.0.1:0", "--workers", "2"]
        };
        let mut worker = env
            .command(host)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(40 + rng.below(400)));
        if worker.try_wait().unwrap().is_none() {
            worker.kill().unwrap(); // SIGKILL
            worker.wait().unwrap();
            kills += 1;
            if runs_under_claim(&env) > 0 {
                mid_step += 1;
            }
            integrity_ok(&env);
        } else {
            worker.wait().unwrap();
        }
        settled += settle_unknown(&env, &sink);
        if all_done(&env, &runs) {
            // Every run ended before enough kills: a fast machine. More
            // runs give the remaining kills something to interrupt.
            start(&mut runs, n_runs.div_ceil(2) as usize);
        }
    }
    // Then workers that live, and an operator, until every run has ended.
    for _ in 0..20 {
        env.work();
        settled += settle_unknown(&env, &sink);
        if all_done(&env, &runs) {
            break;
        }
    }
    integrity_ok(&env);

    let effects = sink.effects();
    let mut repeats = 0;
    assert!(
        all_done(&env, &runs),
        "runs left: {:?}",
        runs_with_status(&env, "parked")
    );
    for run in runs.iter().step_by(runs.len().div_ceil(50)) {
        checkpoints_without_gaps(&env, run);
    }
    for run in &runs {
        for call in 1..=3u64 {
            let keys = effects
                .get(&(run.clone(), call))
                .unwrap_or_else(|| panic!("{run} call {call} never reached the sink"));
            assert_eq!(
                keys.len(),
                1,
                "{run} call {call} went out under two keys: {keys:?}"
            );
            let sent = *keys.values().next().unwrap();
            if call == 2 {
                assert_eq!(
                    sent, 1,
                    "{run}: a call to a tool that cannot dedup was sent twice"
                );
            }
            repeats += sent - 1;
        }
    }
    eprintln!(
        "soak: {} runs ended; {kills} kills, {mid_step} mid-step; {repeats} repeated \
         sends dropped by the sink; {settled} unknown outcomes settled",
        runs.len()
    );
    assert!(
        kills >= n_kills,
        "every run ended after {kills} kills; start more runs to reach {n_kills}"
    );
    assert!(
        mid_step * 2 > kills,
        "only {mid_step} of {kills} kills landed inside a step: the test proved little"
    );
    assert!(
        repeats + settled > 0,
        "no kill landed between a call and its record: the dangerous window was never hit"
    );
}
