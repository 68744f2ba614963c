//! The API under hostile clients: connections that trickle their headers,
//! oversized and malformed bodies, replayed answer links and forged tokens.
//! Answers and events must still be served, memory must stay bounded, and
//! nothing stored may change for a bad request.

use std::io::Write;
use std::net::TcpStream;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::harness::{Env, Server};

/// What the connection rules answer a request they close before reading it.
const SHED: [u16; 3] = [408, 429, 503];

/// The server's resident memory, from `/proc`.
fn rss_kib(server: &Server) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{}/status", server.pid())).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmRSS in /proc/<pid>/status")
}

/// Connections that send half a request line and then a byte now and then.
fn trickle(server: &Server, n: usize) -> Vec<TcpStream> {
    (0..n)
        .filter_map(|_| {
            let mut s = TcpStream::connect(server.authority()).ok()?;
            s.write_all(b"POST /v1/events HTTP/1.1\r\nHost: ").ok()?;
            Some(s)
        })
        .collect()
}

fn answer_link(show: &Value) -> String {
    show["pending_approvals"][0]["answer_url"]
        .as_str()
        .unwrap()
        .to_string()
}

#[test]
fn hostile_clients_leave_answers_and_events_served_and_nothing_changed() {
    let env = Env::new("hostile-clients", "");
    env.deploy("waiter", &[]);
    for i in 0..20 {
        let input = json!({"approval_ms": 600_000, "topic": "go"}).to_string();
        env.ok(&[
            "start",
            "waiter",
            "--id",
            &format!("r{i:02}"),
            "--input",
            &input,
        ]);
    }
    env.work();
    let server = env.serve();
    let links: Vec<String> = (0..20)
        .map(|i| answer_link(&server.get(&format!("/v1/runs/r{i:02}")).1))
        .collect();
    let rss_before = rss_kib(&server);
    let audit_before = env.audit_json(&["audit"]).as_array().unwrap().len();

    // More trickling connections than the server holds at once: it must
    // drop them after its header deadline and go on serving.
    let mut tricklers = trickle(&server, 600);
    let hostile = std::thread::scope(|scope| {
        let oversized = scope.spawn(|| {
            let big = vec![b'x'; 8 << 20];
            let path = format!("{}-forged", &links[0]);
            (0..5)
                .map(|_| {
                    server
                        .raw("POST", &path, &[("Content-Type", "application/json")], &big)
                        .0
                })
                .collect::<Vec<u16>>()
        });
        let malformed = scope.spawn(|| {
            (0..20)
                .map(|_| {
                    let auth = format!("Bearer {}", server.token);
                    server
                        .raw(
                            "POST",
                            "/v1/events",
                            &[
                                ("Content-Type", "application/json"),
                                ("Authorization", &auth),
                            ],
                            b"{\"topic\": \"go\", \"id\": ",
                        )
                        .0
                })
                .collect::<Vec<u16>>()
        });
        let forged = scope.spawn(|| {
            (0..20)
                .map(|i| {
                    let token = format!("/v1/approve/{:064x}", i);
                    server
                        .post_as(&token, None, &json!({"by": "mallory", "approved": true}))
                        .0
                })
                .collect::<Vec<u16>>()
        });
        // Meanwhile the approvers and the event source do their work.
        let started = Instant::now();
        for (i, link) in links.iter().enumerate().take(10) {
            let (status, body) =
                server.post_as(link, None, &json!({"by": "ann", "approved": true}));
            assert_eq!(status, 200, "answer {i}: {body}");
        }
        for i in 10..20 {
            let (status, body) = server.post(
                &format!("/v1/runs/r{i:02}/events"),
                &json!({"topic": "go", "id": format!("e{i}")}),
            );
            assert!(
                status == 200 || status == 201 || status == 202,
                "event {i}: {body}"
            );
        }
        // Liveness, not speed: generous enough for the slowest machine.
        assert!(started.elapsed() < Duration::from_secs(120));
        (
            oversized.join().unwrap(),
            malformed.join().unwrap(),
            forged.join().unwrap(),
        )
    });
    let (oversized, malformed, forged) = hostile;
    // Every client here shares 127.0.0.1 with the tricklers, so the
    // connection rules may shed a hostile request (429, 503, 408) before it
    // is read: a refusal too. What must never happen is a 2xx.
    let refused = |s: u16, wanted: &[u16]| wanted.contains(&s) || SHED.contains(&s);
    assert!(
        oversized.iter().all(|s| refused(*s, &[413, 404])),
        "{oversized:?}"
    );
    assert!(
        malformed.iter().all(|s| refused(*s, &[400])),
        "{malformed:?}"
    );
    assert!(forged.iter().all(|s| refused(*s, &[404])), "{forged:?}");

    // A used link replayed is refused and changes nothing.
    let (status, _) = server.post_as(
        &links[0],
        None,
        &json!({"by": "mallory", "approved": false}),
    );
    assert!(status == 409 || status == 404, "replay answered {status}");

    let rss_after = rss_kib(&server);
    assert!(
        rss_after < rss_before + 256 * 1024,
        "memory grew from {rss_before} KiB to {rss_after} KiB"
    );
    tricklers.clear();

    for i in 0..20 {
        let run = format!("r{i:02}");
        let show = server.wait_run(&run, "done", |r| r["status"] == "done");
        let expected = if i < 10 {
            // An answer link's principal is the link; "ann" is only said.
            "approved=true by link:"
        } else {
            "event"
        };
        assert!(
            show["outcome"].as_str().unwrap().starts_with(expected),
            "{run}: {show}"
        );
    }
    // Only the good requests left rows: 10 answers, 10 events, 20 steps.
    let audit = env.audit_json(&["audit"]);
    let new: Vec<&Value> = audit.as_array().unwrap()[audit_before..].iter().collect();
    assert!(
        new.iter()
            .all(|r| r["run_id"].as_str().is_some_and(|id| id.starts_with('r'))),
        "{new:?}"
    );
    let kinds = |k: &str| new.iter().filter(|r| r["kind"] == k).count();
    assert_eq!((kinds("approval"), kinds("event")), (10, 10), "{new:?}");
}
