//! A wake crosses hosts by PostgreSQL `NOTIFY`: an event taken by one
//! host's API wakes the idle workers of another at once. When the
//! notification is lost, the other host still finds the run at its next
//! re-check: the run is late by at most that interval, never lost.

use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::json;

use crate::api::deploy;
use crate::harness::api_token_config;
use crate::hosts_support::{Api, Host, Schema, committed_steps, one_at_a_time};
use crate::pg_proxy::PgProxy;

/// How often an idle worker looks when nothing wakes it.
const RECHECK_MS: u64 = 4000;

/// A loopback server that takes connections and never answers: a call to
/// it holds its step until the test ends.
struct Silent {
    url: String,
    held: Arc<Mutex<Vec<TcpStream>>>,
}

impl Silent {
    fn start() -> Silent {
        let socket = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}", socket.local_addr().unwrap());
        let held: Arc<Mutex<Vec<TcpStream>>> = Arc::default();
        let keep = held.clone();
        std::thread::spawn(move || {
            for stream in socket.incoming().flatten() {
                keep.lock().unwrap().push(stream);
            }
        });
        Silent { url, held }
    }

    fn calls(&self) -> usize {
        self.held.lock().unwrap().len()
    }
}

/// Starts a waiter run on `b` (whose own API wakes its workers), waits
/// until it waits for its event, then sends the event through `a` and
/// returns how long the run took to end after that.
fn event_latency(api: &Api, a: &Host, b: &Host, run: &str) -> Duration {
    let start = json!({"agent": "waiter", "id": run, "input": {"topic": "go"}});
    api.expect(&b.base(), "POST", "/v1/runs", &start, 201);
    b.server()
        .wait_run(run, "its first step", |r| r["status"] == "waiting");
    // The worker that took the step is idle again before the event comes.
    std::thread::sleep(Duration::from_millis(300));
    let sent = Instant::now();
    let event = json!({"topic": "go", "id": "e1", "payload": 1});
    api.expect(
        &a.base(),
        "POST",
        &format!("/v1/runs/{run}/events"),
        &event,
        200,
    );
    loop {
        let (status, show) = api
            .call(&a.base(), "GET", &format!("/v1/runs/{run}"), None)
            .unwrap();
        assert_eq!(status, 200, "{show}");
        if show["status"] == "done" {
            assert_eq!(show["outcome"], "event e1 on go");
            return sent.elapsed();
        }
        assert!(
            sent.elapsed() < Duration::from_secs(30),
            "run {run} was never stepped after its event: {show}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Waits until `proxy` has a listening connection that PostgreSQL shows
/// as having run its `LISTEN`.
fn wait_listening(proxy: &PgProxy, schema: &Schema) {
    let mut admin = schema.admin_client();
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let ports: Vec<i32> = proxy
            .healthy_listener_ports()
            .iter()
            .map(|p| i32::from(*p))
            .collect();
        let listening = admin
            .query(
                "SELECT 1 FROM pg_stat_activity WHERE application_name = 'wakeful-listen' \
                 AND client_port = ANY($1) AND query LIKE 'LISTEN%'",
                &[&ports],
            )
            .unwrap();
        if !listening.is_empty() {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "host B never listened again through the proxy"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn a_lost_notification_delays_a_run_by_at_most_the_recheck_interval() {
    let _serial = one_at_a_time();
    let schema = Schema::new("lost_wake");
    // Host A's one worker is held inside a tool call for the whole test,
    // so that only host B can step the runs the events wake.
    let held = Silent::start();
    let config = format!(
        "{}\
         [limits]\nidle_recheck_ms = {RECHECK_MS}\nclaim_ms = 120000\nstep_deadline_ms = 110000\n\
         [tools.pager]\nkind = \"http\"\nurl = \"{}/hold\"\ntimeout_ms = 100000\nidempotent = true\n",
        api_token_config(),
        held.url
    );
    let a = Host::start("wakes-a", &config, &schema.url(), 1);
    deploy(a.server(), "caller", &["pager", "llm", "kv"]);
    deploy(a.server(), "waiter", &[]);
    let api = Api::new();
    let hold = json!({"agent": "caller", "id": "hold", "input": {"calls": [{"tool": "pager", "args": {}}]}});
    api.expect(&a.base(), "POST", "/v1/runs", &hold, 201);
    let deadline = Instant::now() + Duration::from_secs(20);
    while held.calls() == 0 {
        assert!(Instant::now() < deadline, "host A never called the tool");
        std::thread::sleep(Duration::from_millis(20));
    }
    // B reaches the store through a proxy that can cut its listener.
    let proxy = PgProxy::start(schema.server_addr());
    let b = Host::start("wakes-b", &config, &schema.url_via(proxy.port), 2);
    wait_listening(&proxy, &schema);

    // The fast path: the notification wakes B's idle workers at once.
    let recheck = Duration::from_millis(RECHECK_MS);
    let fast: Vec<Duration> = (0..3)
        .map(|n| event_latency(&api, &a, &b, &format!("fast-{n}")))
        .collect();
    eprintln!("notified: {fast:?}");
    // A quarter of the interval: three runs that all happened to come just
    // before a re-check would be a 1-in-64 coincidence.
    for (n, t) in fast.iter().enumerate() {
        assert!(
            *t < recheck / 4,
            "fast-{n} took {t:?} with its notification delivered"
        );
    }

    // The notifications are lost: B's re-check still finds each run.
    assert_eq!(proxy.cut_listeners(), 1, "host B listens on one connection");
    let lost: Vec<Duration> = (0..3)
        .map(|n| event_latency(&api, &a, &b, &format!("lost-{n}")))
        .collect();
    eprintln!("notifications lost: {lost:?}");
    for (n, t) in lost.iter().enumerate() {
        assert!(
            *t < recheck + Duration::from_secs(2),
            "lost-{n} took {t:?}: more than the re-check interval and a margin"
        );
        // B's workers last looked when its API took the run's start, a
        // moment before the event: nothing but the re-check can find the
        // run this soon after that, unless a wake got through after all.
        assert!(
            *t > recheck / 4,
            "lost-{n} took only {t:?}: something woke host B though its notifications were cut"
        );
    }
    // What B missed: the wakes were sent, and lost on the way.
    let missed = String::from_utf8_lossy(&proxy.lost())
        .matches("wakeful_wake")
        .count();
    assert!(
        missed >= 3,
        "{missed} notifications were lost, not 3 or more"
    );

    // The network comes back: B listens again and wakes at once again.
    proxy.close_cut();
    wait_listening(&proxy, &schema);
    let again = event_latency(&api, &a, &b, "again");
    eprintln!("listening again: {again:?}");
    assert!(
        again < recheck / 4,
        "after reconnecting the run took {again:?}"
    );

    // Every run was B's: A's worker never left its tool call.
    let by_b = committed_steps(&b.log_lines());
    let by_a = committed_steps(&a.log_lines());
    assert!(by_a.is_empty(), "host A stepped {by_a:?}");
    for run in [
        "fast-0", "fast-1", "fast-2", "lost-0", "lost-1", "lost-2", "again",
    ] {
        let steps: Vec<u64> = by_b.iter().filter(|(r, _)| r == run).map(|s| s.1).collect();
        assert_eq!(steps, vec![1, 2], "host B's steps of {run}");
    }
    assert_eq!(held.calls(), 1, "host A's one call is still held");
}
