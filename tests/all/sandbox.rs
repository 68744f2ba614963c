//! Each sandbox limit proven with a real hostile guest (agents/testing/),
//! and the budgets that park a run instead of letting it loop.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::harness::Env;
use crate::paging::{Swap, page_out, swapped_bytes};

/// One attempt per step, so a failing step parks its run at once.
const STRICT: &str = "[limits]\nmax_attempts = 1\nfuel_per_step = 300000000\nmemory_mib = 32\nstep_deadline_ms = 8000\nclaim_ms = 20000\n";

/// Starts the hostile agent in `mode` and works until idle.
fn hostile(env: &Env, run: &str, mode: &str) -> Value {
    env.ok(&[
        "start",
        "hostile",
        "--id",
        run,
        "--input",
        &json!({"mode": mode}).to_string(),
    ]);
    env.work();
    env.show(run)
}

fn parked_with(show: &Value, needle: &str) {
    assert_eq!(show["status"], "parked", "{show}");
    let error = show["last_error"]
        .as_str()
        .unwrap_or_default()
        .to_lowercase();
    assert!(error.contains(needle), "expected `{needle}` in: {error}");
    assert_eq!(show["steps"], 0, "a failed step writes no checkpoint");
}

#[test]
fn hostile_guests_hit_each_limit_and_are_parked() {
    let env = Env::new("hostile", STRICT);
    env.deploy("hostile", &["kv"]);
    parked_with(&hostile(&env, "spin", "spin"), "fuel");
    parked_with(&hostile(&env, "membomb", "membomb"), "memory");
    parked_with(&hostile(&env, "recurse", "recurse"), "call stack");
    parked_with(&hostile(&env, "bigstate", "bigstate"), "state");
    parked_with(&hostile(&env, "error", "error"), "hostile error");
    let panic = hostile(&env, "panic", "panic");
    parked_with(
        &panic,
        "panic: hostile panic (at testing/hostile/src/lib.rs",
    );
    let logs = env.audit_rows("panic", "log");
    assert!(
        logs.iter().any(|l| l["data"]["message"]
            .as_str()
            .unwrap_or("")
            .contains("hostile panic")),
        "the panic message reaches the audit log: {logs:?}"
    );
}

#[test]
fn a_step_past_its_deadline_is_stopped() {
    let config =
        "[limits]\nmax_attempts = 1\nfuel_per_step = 1000000000000\nstep_deadline_ms = 300\n";
    let env = Env::new("deadline", config);
    env.deploy("hostile", &["kv"]);
    parked_with(&hostile(&env, "spin", "spin"), "deadline");
}

#[test]
fn fuel_stops_work_a_compiler_hoisted_out_of_a_branch_that_never_runs() {
    // Each pass of the guest's loop enters an inner loop whose never-taken
    // branch holds ~1,000 pure operations. Were they hoisted out of the
    // branch unmetered, the step would do ~50 times the work its fuel pays
    // for, and its deadline, not its fuel, would stop it.
    let config = "[limits]\nmax_attempts = 1\nfuel_per_step = 2000000000\nstep_deadline_ms = 30000\nclaim_ms = 60000\n";
    let env = Env::new("hoist", config);
    env.deploy("hostile", &["kv"]);
    parked_with(&hostile(&env, "hoist", "hoist"), "fuel");
}

#[test]
fn guest_output_is_bounded() {
    let env = Env::new("chatty", STRICT);
    env.deploy("hostile", &["kv"]);
    let show = hostile(&env, "chatty", "chatty");
    assert_eq!(
        show["status"], "waiting",
        "printing a lot is not an error: {show}"
    );
    let logs = env.audit_rows("chatty", "log");
    let bytes: usize = logs
        .iter()
        .map(|l| l["data"]["message"].as_str().unwrap_or("").len())
        .sum();
    assert!(
        bytes > 0 && bytes <= 70 * 1024,
        "{bytes} bytes of logs kept"
    );
    assert!(
        logs.iter().any(|l| l["data"]["message"]
            .as_str()
            .unwrap_or("")
            .contains("dropped")),
        "the excess is reported"
    );
}

#[test]
fn every_guest_output_is_bounded_and_refused_by_name() {
    let env = Env::new("bounds", STRICT);
    env.deploy("hostile", &["kv"]);
    for (mode, needle) in [
        ("manywaits", "the step waits for 17 things; the limit is 16"),
        (
            "bigquestion",
            "the question of approval request `q` is 5120 bytes",
        ),
        ("bigdetails", "the details of approval request `q` is"),
        (
            "longtopic",
            "an event wait's topic is 300 bytes; the limit is 256",
        ),
        ("forever", "(`[limits] max_approval_valid_ms`)"),
        ("bigoutcome", "the `done` outcome is 17408 bytes"),
    ] {
        let show = hostile(&env, mode, mode);
        parked_with(&show, &needle.to_lowercase());
    }
    let show = hostile(&env, "longkey", "longkey");
    assert_eq!(show["status"], "done", "{show}");
    let outcome = show["outcome"].as_str().unwrap();
    assert!(
        outcome.contains("idempotency keys may be 512 bytes") && outcome.contains("600-byte key"),
        "{outcome}"
    );
}

#[test]
fn the_sandbox_pins_time_and_hides_the_host() {
    let env = Env::new("pinned", STRICT);
    env.deploy("hostile", &["kv"]);
    let clock = hostile(&env, "clock", "clock");
    assert_eq!(clock["status"], "done", "{clock}");
    assert_eq!(
        clock["state"]["now"], clock["state"]["wall"],
        "WASI's clock is the step's time"
    );
    let files = hostile(&env, "files", "files");
    assert_eq!(files["status"], "done", "{files}");
    let state = files["state"].to_string();
    assert!(
        !state.contains("etc") && !state.contains("PATH"),
        "the guest saw the host: {state}"
    );
}

#[test]
fn a_step_in_an_instance_made_ahead_of_it_sees_only_its_own_run() {
    // One process steps the three runs one after another, so the second
    // and third each take the instance that the call before them left
    // ready: each must see its own run's clock and randomness, and burn
    // the fuel a fresh instance would.
    let env = Env::new("spares", STRICT);
    env.deploy("hostile", &["kv"]);
    let runs = ["clock-a", "clock-b", "clock-c"];
    for run in runs.iter().chain(&["chatty-a", "chatty-b"]) {
        let mode = run.split('-').next().unwrap();
        let input = json!({ "mode": mode }).to_string();
        env.ok(&["start", "hostile", "--id", run, "--input", &input]);
    }
    env.work();
    for run in ["chatty-a", "chatty-b"] {
        let logs = env.audit_rows(run, "log");
        assert!(
            logs.iter().any(|l| l["data"]["message"]
                .as_str()
                .unwrap_or("")
                .contains("chatty")),
            "{run}'s output is in its own log: {logs:?}"
        );
    }
    let shows = runs.map(|run| env.show(run));
    for show in &shows {
        assert_eq!(show["status"], "done", "{show}");
        let state = &show["state"];
        assert!(state["now"].as_u64().unwrap() > 0, "{show}");
        assert_eq!(
            state["now"], state["wall"],
            "WASI's clock is the step's: {show}"
        );
        assert_eq!(state["run"], show["run_id"], "{show}");
        let run = show["run_id"].as_str().unwrap();
        let said = format!("clocks read by {run}");
        let logs = env.audit_rows(run, "log");
        assert!(
            logs.iter().any(|l| l["data"]["message"] == said.as_str()),
            "{run}'s host.log line is in its own log: {logs:?}"
        );
    }
    let randoms: std::collections::HashSet<String> = shows
        .iter()
        .map(|s| s["state"]["random"].to_string())
        .collect();
    assert_eq!(
        randoms.len(),
        3,
        "each run draws its own numbers: {randoms:?}"
    );

    // The same run stepped alone, by a process with nothing made ahead.
    let alone = Env::new("spares-alone", STRICT);
    alone.deploy("hostile", &["kv"]);
    let input = json!({"mode": "clock"}).to_string();
    alone.ok(&["start", "hostile", "--id", "clock-c", "--input", &input]);
    alone.work();
    let alone = alone.show("clock-c");
    assert_eq!(
        alone["state"]["random"], shows[2]["state"]["random"],
        "randomness is the run's and the step's, however the instance was made"
    );
    assert_eq!(alone["fuel_used"], shows[2]["fuel_used"], "{alone}");
}

#[test]
fn no_memory_outlives_a_step() {
    // One process steps every run, one after another, so instances reuse
    // the pooled memory of the ones before: each must find it as the
    // component's image left it, also after a guest grew it to its limit.
    let env = Env::new("fresh", STRICT);
    env.deploy("hostile", &["kv"]);
    let runs = ["m1", "m2", "membomb", "m3", "m4"];
    for run in runs {
        let mode = if run == "membomb" {
            "membomb"
        } else {
            "memory"
        };
        let input = json!({"mode": mode}).to_string();
        env.ok(&["start", "hostile", "--id", run, "--input", &input]);
    }
    env.work();
    for run in runs {
        let show = env.show(run);
        if run == "membomb" {
            parked_with(&show, "memory");
        } else {
            assert_eq!(show["status"], "done", "{show}");
            assert_eq!(
                show["state"],
                json!({"data": 8, "bss": 1, "scattered": 64}),
                "{show}"
            );
        }
    }
}

#[test]
fn a_page_swapped_out_during_a_step_is_reset_before_the_slot_is_reused() {
    // A step writes a secret on 64 scattered pages and spins until its
    // deadline while the test pushes the process's memory out to swap, as
    // memory pressure would: at the reset that follows, the written pages
    // are in swap, not in memory. The next run in that pool slot scans its
    // whole linear memory for the secret and must find none.
    let env = Env::sqlite(
        "swapped",
        "[limits]\nmax_attempts = 1\nfuel_per_step = 1000000000000\nstep_deadline_ms = 3000\nclaim_ms = 20000\n",
    );
    let _swap = Swap::enable(&env.dir.join("swapfile"), 256);
    env.deploy("hostile", &["kv"]);
    // The scan finds the secret where it is.
    assert_eq!(
        hostile(&env, "seen", "secret_seen")["state"],
        json!({"secrets": 64})
    );
    env.ok(&[
        "start",
        "hostile",
        "--id",
        "writer",
        "--input",
        r#"{"mode":"secret"}"#,
    ]);
    let mut work = env.command(&["work"]).spawn().unwrap();
    let pid = work.id();
    let mut most_swapped = 0;
    let deadline = Instant::now() + Duration::from_secs(120);
    while env.show("writer")["status"] != "parked" {
        assert!(Instant::now() < deadline, "the writer never ended");
        assert!(page_out(pid), "`work` exited while the writer was stepping");
        most_swapped = most_swapped.max(swapped_bytes(pid));
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(
        most_swapped >= 256 << 10,
        "the process never had its 64 pages in swap ({most_swapped} bytes)"
    );
    parked_with(&env.show("writer"), "deadline");
    env.ok(&[
        "start",
        "hostile",
        "--id",
        "snoop",
        "--input",
        r#"{"mode":"snoop"}"#,
    ]);
    let deadline = Instant::now() + Duration::from_secs(60);
    while env.show("snoop")["status"] != "done" {
        assert!(Instant::now() < deadline, "the snooping run never ended");
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = work.kill();
    let _ = work.wait();
    assert_eq!(env.show("snoop")["state"], json!({"secrets": 0}));
}

#[test]
fn a_failing_step_is_retried_then_parked_and_can_be_resumed() {
    let env = Env::new(
        "retry",
        "[limits]\nmax_attempts = 3\nretry_backoff_ms = 0\n",
    );
    env.deploy("hostile", &["kv"]);
    let show = hostile(&env, "err", "error");
    assert_eq!(show["status"], "parked", "{show}");
    assert_eq!(show["attempts"], 3);
    assert_eq!(env.audit_rows("err", "step failed").len(), 3);
    env.ok(&["resume", "--run", "err"]);
    assert_eq!(env.show("err")["status"], "active");
    env.work();
    assert_eq!(env.audit_rows("err", "step failed").len(), 6);
}

#[test]
fn a_run_that_spends_its_step_budget_is_parked() {
    let env = Env::new("budget", "[limits]\nsteps_per_run = 1\n");
    env.deploy("invoice-mail", &["kv"]);
    env.ok(&["start", "invoice-mail", "--id", "b"]);
    env.ok(&["send", "b", "--topic", "mail:invoice", "--id", "m1"]);
    env.work();
    let show = env.show("b");
    assert_eq!(show["status"], "parked", "{show}");
    assert!(
        show["status_text"]
            .as_str()
            .unwrap()
            .contains("step budget of 1"),
        "{show}"
    );
    assert_eq!(show["steps"], 1);
    assert_eq!(
        env.kv("agent/invoice-mail/invoices/m1"),
        Value::Null,
        "no step ran past the budget"
    );
}

#[test]
fn a_run_that_spends_its_fuel_budget_is_parked_without_retries() {
    let env = Env::new(
        "fuel-budget",
        "[limits]\nfuel_per_run = 50000\nretry_backoff_ms = 0\n",
    );
    env.deploy("hostile", &["kv"]);
    let show = hostile(&env, "fuel", "spin");
    assert_eq!(show["status"], "parked", "{show}");
    assert!(
        show["last_error"]
            .as_str()
            .unwrap()
            .contains("fuel budget of 50000 is spent"),
        "{show}"
    );
    assert_eq!(show["attempts"], 1, "a spent budget is not retried");
    assert!(show["fuel_used"].as_u64().unwrap() >= 50000, "{show}");
}

#[test]
fn resuming_a_run_parked_on_its_budget_grants_more_and_delivers_its_wake() {
    let env = Env::new("budget-resume", "[limits]\nsteps_per_run = 1\n");
    env.deploy("invoice-mail", &["kv"]);
    env.ok(&["start", "invoice-mail", "--id", "b"]);
    env.ok(&["send", "b", "--topic", "mail:invoice", "--id", "m1"]);
    env.work();
    assert_eq!(env.show("b")["status"], "parked");
    env.ok(&["resume", "--run", "b"]);
    let show = env.show("b");
    assert_eq!(show["step_budget"], 2, "{show}");
    env.work();
    let show = env.show("b");
    assert_eq!(
        show["status"], "done",
        "the parked-on event was delivered: {show}"
    );
    assert_eq!(
        env.kv("agent/invoice-mail/invoices/m1")["from"],
        Value::Null
    );
    assert_eq!(
        env.json(&["kv", "get", "agent/invoice-mail/invoices/m1"])["version"],
        1
    );
}

/// The component at `path` with a custom section of `extra` bytes appended:
/// as large as a Python or JavaScript agent, without the build.
fn padded_component(env: &Env, path: &std::path::Path, extra: usize) -> std::path::PathBuf {
    let mut bytes = std::fs::read(path).unwrap();
    let name = b"padding";
    let mut section = vec![name.len() as u8];
    section.extend_from_slice(name);
    section.resize(section.len() + extra, 0);
    bytes.push(0); // custom section id
    let mut size = section.len();
    loop {
        let byte = (size & 0x7f) as u8;
        size >>= 7;
        bytes.push(if size == 0 { byte } else { byte | 0x80 });
        if size == 0 {
            break;
        }
    }
    bytes.extend_from_slice(&section);
    let out = env.dir.join("padded.wasm");
    std::fs::write(&out, bytes).unwrap();
    out
}

#[test]
fn components_as_large_as_python_or_javascript_agents_deploy() {
    let env = Env::new("large", "[limits]\nmax_component_mib = 48\n");
    let big = padded_component(&env, &crate::harness::agent("invoice-mail"), 40 << 20);
    env.ok(&["deploy", big.to_str().unwrap(), "--grant", "kv"]);
    env.ok(&["start", "invoice-mail", "--id", "big"]);
    env.work();
    assert_eq!(env.show("big")["status"], "waiting");

    let small_limit = Env::new("too-large", "[limits]\nmax_component_mib = 16\n");
    let err = small_limit.fails(&["deploy", big.to_str().unwrap(), "--grant", "kv"]);
    assert!(err.contains("the limit is 16777216 bytes"), "{err}");
    assert_eq!(small_limit.json(&["agents"]), serde_json::json!([]));
}

#[test]
fn a_python_step_draws_its_runs_own_numbers_and_seeds_only_when_it_draws() {
    use crate::harness::{FAST_LIMITS, Lang};
    let start = |env: &Env, run: &str, input: Value| {
        env.ok(&[
            "start",
            "faulty-py",
            "--id",
            run,
            "--input",
            &input.to_string(),
        ]);
    };
    let env = Env::new("py-random", FAST_LIMITS).deploy_in(Lang::Python, "faulty", &[]);
    start(&env, "draw-a", json!({"draw": true}));
    start(&env, "draw-b", json!({"draw": true}));
    start(&env, "plain", json!({}));
    env.work();
    let [a, b, plain] = ["draw-a", "draw-b", "plain"].map(|run| env.show(run));
    for show in [&a, &b, &plain] {
        assert_eq!(show["status"], "done", "{show}");
    }
    assert_ne!(
        a["state"]["draws"], b["state"]["draws"],
        "each run draws its own numbers"
    );

    // The same run in another host: the numbers are the run's and the
    // step's, not the snapshot's or the process's.
    let again = Env::new("py-random-again", FAST_LIMITS).deploy_in(Lang::Python, "faulty", &[]);
    start(&again, "draw-a", json!({"draw": true}));
    again.work();
    let again = again.show("draw-a");
    assert_eq!(again["state"]["draws"], a["state"]["draws"], "{again}");
    assert_eq!(again["fuel_used"], a["fuel_used"], "{again}");

    // Seeding `random` (reading 2.5 KB of the host's randomness into the
    // Mersenne Twister) is about 100,000 instructions: only a step that
    // draws pays it. Drawing itself is about 60,000 (cold code), so with
    // every step seeding the two differed by that much (357,277 against
    // 297,675); with seeding deferred, by 164,108. Fuel counts
    // instructions, so this does not move with the machine.
    let fuel = |show: &Value| show["fuel_used"].as_u64().unwrap();
    assert!(
        fuel(&plain) + 120_000 < fuel(&a),
        "a step that does not draw does not seed: {} against {} for one that draws",
        fuel(&plain),
        fuel(&a)
    );
}
