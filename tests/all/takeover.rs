//! A host whose process is gone: a restarted `serve` takes over the claims
//! it left at once, instead of leaving its runs until they run out
//! (`[limits] claim_ms`, a minute here); and while a claim holds a run,
//! `show` and the console name its holder and never ask an operator to
//! settle a call the host sends again itself.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::console::Browser;
use crate::fake_servers::{FakeServer, Reply, Request};
use crate::harness::{Env, Server};

/// Claims long enough that a test waiting for them to run out fails.
const LONG_CLAIMS: &str = "[limits]\nclaim_ms = 60000\nstep_deadline_ms = 50000\n\
                           retry_backoff_ms = 0\nsteps_per_commit = 1\n";

/// A tool that cannot drop a repeated call (`pager`), and a payment
/// service that can (`llm`, an `http` tool configured idempotent): the
/// `caller` agent calls them by those names.
fn config(pager: &str, payments: &str) -> String {
    format!(
        "{LONG_CLAIMS}\
         [tools.pager]\nkind = \"http\"\nurl = \"{pager}/page\"\ntimeout_ms = 5000\n\
         [tools.llm]\nkind = \"http\"\nurl = \"{payments}/pay\"\ntimeout_ms = 40000\n\
         idempotent = true\n"
    )
}

/// A payment service that holds every request while `holding` is set,
/// then answers.
fn payments(holding: Arc<AtomicBool>) -> FakeServer {
    FakeServer::start(move |r| {
        let deadline = Instant::now() + Duration::from_secs(120);
        while holding.load(Ordering::SeqCst) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
        Reply::Json(200, json!({"paid": r.path}))
    })
}

/// One step pages (once: the pager cannot tell a repeat) and then pays.
fn page_then_pay(n: usize) -> Value {
    json!({"batch": true, "calls": [
        {"tool": "pager", "args": {"path": format!("/p{n}")}},
        {"tool": "llm", "args": {"path": format!("/p{n}")}},
    ]})
}

fn wait_for(what: &str, limit: Duration, mut done: impl FnMut() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(start.elapsed() < limit, "{what}: not after {limit:?}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn kill(server: &mut Server) {
    let killed = std::process::Command::new("kill")
        .args(["-KILL", &server.pid().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    server
        .wait_exit(Duration::from_secs(20))
        .expect("wakeful serve outlived SIGKILL");
}

/// Requests by their path.
fn by_path(requests: &[Request]) -> BTreeMap<String, Vec<Request>> {
    let mut map: BTreeMap<String, Vec<Request>> = BTreeMap::new();
    for r in requests {
        map.entry(r.path.clone()).or_default().push(r.clone());
    }
    map
}

#[test]
fn a_restarted_serve_takes_over_the_claims_its_killed_predecessor_left() {
    const RUNS: usize = 20;
    let pager = FakeServer::start(|r| Reply::Json(200, json!({"paged": r.path})));
    let holding = Arc::new(AtomicBool::new(true));
    let pay = payments(holding.clone());
    let env = Env::new("takeover", &config(&pager.url, &pay.url));
    env.deploy("caller", &["pager", "llm", "kv"]);
    for n in 0..RUNS {
        env.start("caller", &format!("p{n}"), page_then_pay(n));
    }
    let workers = RUNS.to_string();
    let mut server = env.serve_with(&["--workers", &workers]);
    // Every run has paged and is waiting for its payment's answer.
    wait_for("20 payments in flight", Duration::from_secs(120), || {
        pay.requests().len() == RUNS
    });
    kill(&mut server);
    holding.store(false, Ordering::SeqCst);

    let restarted_at = Instant::now();
    let server = env.serve_with(&["--workers", "4"]);
    // Well inside the dead process's claims, which last a minute.
    wait_for(
        "every run done after the restart",
        Duration::from_secs(25),
        || {
            (0..RUNS).all(|n| {
                let (_, run) = server.get(&format!("/v1/runs/p{n}"));
                run["status"] == "done"
            })
        },
    );
    eprintln!(
        "{RUNS} runs done {:.1} s after the restart",
        restarted_at.elapsed().as_secs_f64()
    );

    // The pager, which cannot drop a repeat, got each page once: the
    // retried steps replayed its recorded result.
    let pages = by_path(&pager.requests());
    assert_eq!(pages.len(), RUNS, "{:?}", pages.keys());
    assert!(pages.values().all(|p| p.len() == 1), "a page sent twice");
    // Each payment left in flight was sent again, with the same key.
    let paid = by_path(&pay.requests());
    assert_eq!(paid.len(), RUNS);
    for (path, sent) in &paid {
        assert_eq!(sent.len(), 2, "{path}: sent {} times", sent.len());
        let key = sent[0].header("Idempotency-Key").expect("a key");
        assert_eq!(sent[1].header("Idempotency-Key"), Some(key), "{path}");
    }
    // Taken over, not left to run out: each run says so.
    for n in 0..RUNS {
        let run = format!("p{n}");
        let taken = env.audit_rows(&run, "takeover");
        assert_eq!(taken.len(), 1, "{run}: {taken:?}");
        assert_eq!(taken[0]["data"]["why"], "its process is gone");
    }
    server.terminate();
}

/// The text `wakeful show` prints for `run`.
fn show_text(env: &Env, run: &str) -> String {
    env.ok(&["show", run])
}

#[test]
fn a_run_under_a_live_claim_names_its_holder_and_asks_no_resolve_for_a_resent_call() {
    let pager = FakeServer::start(|r| Reply::Json(200, json!({"paged": r.path})));
    let holding = Arc::new(AtomicBool::new(true));
    let pay = payments(holding.clone());
    let env = Env::new("claim-shown", &config(&pager.url, &pay.url));
    env.deploy("caller", &["pager", "llm", "kv"]);
    env.start("caller", "r", page_then_pay(0));
    let mut server = env.serve_with(&["--workers", "1"]);
    wait_for("the payment in flight", Duration::from_secs(60), || {
        !pay.requests().is_empty()
    });

    // While the step runs, and once its process is killed: the claim
    // holds the run for a minute either way.
    for alive in [true, false] {
        let text = show_text(&env, "r");
        assert!(
            text.contains("held by a claim of host ") && text.contains(" until "),
            "alive: {alive}:\n{text}"
        );
        assert!(!text.contains("wakeful resolve"), "alive: {alive}:\n{text}");
        let shown = env.show("r");
        let host = shown["claim"]["host"].as_str().unwrap_or_default();
        assert!(!host.is_empty(), "{shown}");
        assert!(text.contains(&format!("held by a claim of host {host} until ")));
        let unknown = &shown["unknown_outcomes"];
        assert_eq!(unknown.as_array().map(Vec::len), Some(1), "{shown}");
        assert_eq!(unknown[0]["tool"], "llm");
        assert_eq!(unknown[0]["settle"], false, "{shown}");
        if alive {
            let browser = Browser::sign_in(&server, &server.token);
            let page = browser.get("/ui/runs/r").body;
            assert!(
                page.contains(&format!("held by a claim of host {host} until ")),
                "{page}"
            );
            assert!(!page.contains("resolve-retry"), "{page}");
            kill(&mut server);
        }
    }

    // Once the claim has ended, the call is one the host sends again
    // itself: still nothing to settle.
    env.sql_execute("UPDATE runs SET lease_expires = 1 WHERE run_id = 'r'");
    let text = show_text(&env, "r");
    assert!(!text.contains("held by a claim"), "{text}");
    assert!(
        text.contains("`llm` is idempotent") && !text.contains("wakeful resolve"),
        "{text}"
    );
    holding.store(false, Ordering::SeqCst);
}
