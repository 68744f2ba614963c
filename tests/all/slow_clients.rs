//! No client starves the others. One address (loopback, as everything in
//! these tests is) holds 1,500 connections that trickle their requests'
//! bodies to `POST /v1/callback/x`, reopening each one the server closes,
//! while an answer link, a callback link and `/v1/health` from the same
//! address must each be answered, and succeed, before the flood ends. The
//! slow connections themselves get answers that name the limit they broke.

use std::io::{ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::fake_servers::{FakeServer, Reply};
use crate::harness::{Env, Server};

/// Connections the flood holds open at once.
const FLOOD: usize = 1_500;
/// Threads that hold them.
const ATTACKERS: usize = 4;
/// Connections one attacker opens per round at most, so that the flood's
/// own load stays bounded (at most 4 × 125 every half second).
const OPENS_PER_ROUND: usize = 125;
/// How long the flood lasts; every answer must come before its end.
const HELD: Duration = Duration::from_secs(25);

/// Connections from this process that send a request's headers and then a
/// byte of its body per attacker round, reopened when the server closes
/// them, until told to stop or `until`.
struct Flood {
    stop: Arc<AtomicBool>,
    opened: Arc<AtomicUsize>,
    attackers: Vec<JoinHandle<Vec<String>>>,
}

impl Flood {
    fn start(server: &Server, path: &str, until: Instant) -> Flood {
        let head = format!(
            "POST {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\n\
             Content-Length: 100000\r\n\r\n{{\"approved\": \"",
            server.authority()
        );
        let addr: SocketAddr = server.authority().parse().unwrap();
        let stop = Arc::new(AtomicBool::new(false));
        let opened = Arc::new(AtomicUsize::new(0));
        let attackers = (0..ATTACKERS)
            .map(|_| {
                let (head, stop, opened) = (head.clone(), stop.clone(), opened.clone());
                std::thread::spawn(move || {
                    attack(
                        addr,
                        head.as_bytes(),
                        FLOOD / ATTACKERS,
                        until,
                        &stop,
                        &opened,
                    )
                })
            })
            .collect();
        Flood {
            stop,
            opened,
            attackers,
        }
    }

    /// Connections opened so far.
    fn opened(&self) -> usize {
        self.opened.load(Ordering::SeqCst)
    }

    /// Ends the flood, closing its connections; returns the answers the
    /// server wrote on the connections it closed (the first 100 of each
    /// attacker).
    fn stop(self) -> Vec<String> {
        self.stop.store(true, Ordering::SeqCst);
        (self.attackers.into_iter())
            .flat_map(|a| a.join().unwrap())
            .collect()
    }
}

/// One attacker: `n` connections, each sent a byte every half second.
fn attack(
    addr: SocketAddr,
    head: &[u8],
    n: usize,
    until: Instant,
    stop: &AtomicBool,
    opened: &AtomicUsize,
) -> Vec<String> {
    let mut conns: Vec<Option<TcpStream>> = (0..n).map(|_| None).collect();
    let mut answers = Vec::new();
    while !stop.load(Ordering::SeqCst) && Instant::now() < until {
        let mut opens = 0;
        for slot in conns.iter_mut() {
            if let Some(conn) = slot
                && !trickle(conn, &mut answers)
            {
                *slot = None;
            }
            if slot.is_none() && opens < OPENS_PER_ROUND {
                opens += 1;
                *slot = open(addr, head);
                if slot.is_some() {
                    opened.fetch_add(1, Ordering::SeqCst);
                }
            }
        }
        std::thread::sleep(Duration::from_millis(500));
    }
    answers
}

fn open(addr: SocketAddr, head: &[u8]) -> Option<TcpStream> {
    let mut conn = TcpStream::connect_timeout(&addr, Duration::from_millis(250)).ok()?;
    conn.write_all(head).ok()?;
    conn.set_nonblocking(true).ok()?;
    Some(conn)
}

/// Sends one more byte; `false` once the server has closed the connection
/// (keeping what it answered, if anything).
fn trickle(conn: &mut TcpStream, answers: &mut Vec<String>) -> bool {
    let mut buf = [0u8; 2048];
    match conn.read(&mut buf) {
        Err(e) if e.kind() == ErrorKind::WouldBlock => {}
        Ok(n) if n > 0 => {
            if answers.len() < 100 {
                answers.push(String::from_utf8_lossy(&buf[..n]).to_string());
            }
            return false;
        }
        _ => return false,
    }
    match conn.write(b" ") {
        Ok(n) => n == 1,
        Err(e) => e.kind() == ErrorKind::WouldBlock,
    }
}

/// The soft limit on open files, raised (with `prlimit`) to hold `needed`
/// when it is lower.
fn ensure_open_files(needed: u64) {
    let soft = || -> u64 {
        let limits = std::fs::read_to_string("/proc/self/limits").unwrap();
        let line = limits
            .lines()
            .find(|l| l.starts_with("Max open files"))
            .unwrap();
        line.split_whitespace().nth(3).unwrap().parse().unwrap()
    };
    if soft() >= needed {
        return;
    }
    let _ = std::process::Command::new("prlimit")
        .args([
            "--pid",
            &std::process::id().to_string(),
            &format!("--nofile={needed}:"),
        ])
        .status();
    assert!(
        soft() >= needed,
        "this test holds {needed} open files; raise the limit (ulimit -n {needed})"
    );
}

/// `request` must succeed before `end`: answered while the flood holds.
fn answered_before(end: Instant, what: &str, request: impl FnOnce() -> (u16, Value)) -> Value {
    let asked = Instant::now();
    let (status, body) = request();
    let took = asked.elapsed();
    eprintln!("{what}: answered {status} in {took:?} during the flood");
    assert!(
        Instant::now() < end,
        "{what} was answered only after the flood ended (it took {took:?}): a slow client \
         starved it"
    );
    assert_eq!(status, 200, "{what}: {body}");
    body
}

/// A host with `rounds` runs waiting on an answer link and `rounds` waiting
/// on a callback link; returns the paths of the callback links, and the
/// refund service.
fn host_with_waiting_runs(env: &Env, rounds: usize) -> (Vec<String>, FakeServer) {
    let approvals = FakeServer::start(|_| Reply::Json(200, json!({"asked": true})));
    let refunds = FakeServer::start(|_| Reply::Json(200, json!({"refund": "r-1"})));
    let config = format!(
        "[tools.approvals]\nkind = \"http\"\nurl = \"{}/approvals\"\n\n\
         [tools.refunds]\nkind = \"http\"\nurl = \"{}/refunds\"\n",
        approvals.url, refunds.url
    );
    std::fs::write(env.dir.join("wakeful.toml"), config).unwrap();
    env.deploy("waiter", &[]);
    env.deploy("refund-approval", &["callback", "approvals", "refunds"]);
    for i in 0..rounds {
        let waiter = json!({"approval_ms": 600_000, "topic": "go"});
        env.start("waiter", &format!("w{i}"), waiter);
        let refund = json!({"order": format!("o{i}"), "amount_usd": 10.0, "customer": "ann"});
        env.start("refund-approval", &format!("cb{i}"), refund);
    }
    env.work();
    let callback_links = (approvals.requests().iter())
        .map(|r| {
            let url = r.json()["callback_url"].as_str().unwrap().to_string();
            let at = url.find("/v1/callback/").unwrap();
            url[at..].to_string()
        })
        .collect::<Vec<_>>();
    assert_eq!(callback_links.len(), rounds);
    (callback_links, refunds)
}

/// The path of the answer link of run `run`'s pending approval.
fn answer_link(server: &Server, run: &str) -> String {
    let (_, show) = server.get(&format!("/v1/runs/{run}"));
    let link = show["pending_approvals"][0]["answer_url"].as_str();
    link.unwrap_or_else(|| panic!("no answer link: {show}"))
        .to_string()
}

#[test]
fn a_flood_of_slow_connections_from_one_address_leaves_answer_links_callbacks_and_health_answered()
{
    const ROUNDS: usize = 3;
    ensure_open_files(FLOOD as u64 + 512);
    let env = Env::new("slow-clients-flood", "");
    let (callback_links, refunds) = host_with_waiting_runs(&env, ROUNDS);
    let server = env.serve();
    let answer_links: Vec<String> = (0..ROUNDS)
        .map(|i| answer_link(&server, &format!("w{i}")))
        .collect();

    let end = Instant::now() + HELD;
    let flood = Flood::start(&server, "/v1/callback/x", end);
    // The flood is up once it has opened as many connections as it holds,
    // or has held the server's for a while (a server that stops accepting
    // lets it open only as many as its slots and the kernel's queue hold).
    let warm = Instant::now() + Duration::from_secs(5);
    while flood.opened() < FLOOD && Instant::now() < warm {
        std::thread::sleep(Duration::from_millis(100));
    }
    for round in 0..ROUNDS {
        let health = answered_before(end, "GET /v1/health", || {
            server.request("GET", "/v1/health", None, None)
        });
        assert_eq!(health, json!({"ok": true}));
        let approved = json!({"by": "ann", "approved": true});
        answered_before(end, "an answer link", || {
            server.post_as(&answer_links[round], None, &approved)
        });
        let answer = json!({"approved": true, "by": "finance"});
        let delivered = answered_before(end, "a callback link", || {
            server.post_as(&callback_links[round], None, &answer)
        });
        assert_eq!(delivered["delivered"], true, "{delivered}");
        std::thread::sleep(Duration::from_secs(2));
    }
    assert!(
        Instant::now() < end,
        "the flood ended before the last answer"
    );
    let opened = flood.opened();
    let answers = flood.stop();
    eprintln!(
        "the flood opened {opened} connections; {} of those closed were read an answer",
        answers.len()
    );

    // The flood's connections were closed, each with an answer naming the
    // limit it broke.
    assert!(
        opened > FLOOD,
        "the flood opened {opened} connections: the server closed none of its first {FLOOD}"
    );
    assert!(
        answers.iter().any(|a| a.starts_with("HTTP/1.1 429")
            && a.contains("[api] max_connections_per_client = 64")),
        "no closed connection was told why: {answers:?}"
    );
    for i in 0..ROUNDS {
        let show = server.wait_run(&format!("w{i}"), "done", |r| r["status"] == "done");
        assert!(
            show["outcome"]
                .as_str()
                .unwrap()
                .starts_with("approved=true by link:"),
            "{show}"
        );
        let show = server.wait_run(&format!("cb{i}"), "done", |r| r["status"] == "done");
        assert!(
            show["outcome"].as_str().unwrap().starts_with("refunded"),
            "{show}"
        );
    }
    assert_eq!(refunds.requests().len(), ROUNDS);
}

/// Reads from `conn` until it is closed or `limit` passes, sending a byte
/// of the body every half second while nothing comes.
fn trickle_until_answered(conn: &mut TcpStream, limit: Duration) -> String {
    conn.set_read_timeout(Some(Duration::from_millis(500)))
        .unwrap();
    let start = Instant::now();
    let mut answer = Vec::new();
    let mut buf = [0u8; 4096];
    while start.elapsed() < limit {
        match conn.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => answer.extend_from_slice(&buf[..n]),
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                if answer.is_empty() {
                    let _ = conn.write_all(b" ");
                }
            }
            Err(_) => break,
        }
    }
    String::from_utf8_lossy(&answer).to_string()
}

#[test]
fn a_body_trickled_slower_than_the_minimum_rate_is_answered_408_naming_the_limit() {
    // The defaults: 256 bytes a second after 5 s.
    let env = Env::new("slow-clients-rate", "");
    let server = env.serve();
    let mut conn = TcpStream::connect(server.authority()).unwrap();
    let head = format!(
        "POST /v1/callback/x HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\n\
         Content-Length: 1000\r\n\r\n{{",
        server.authority()
    );
    conn.write_all(head.as_bytes()).unwrap();
    // Generous: the request's own deadline for links is 30 s.
    let answer = trickle_until_answered(&mut conn, Duration::from_secs(60));
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer:?}");
    assert!(
        answer.contains(
            "slower than 256 bytes a second after 5000 ms ([api] min_bytes_per_s, slow_grace_ms)"
        ),
        "{answer:?}"
    );
    let (status, _) = server.request("GET", "/v1/health", None, None);
    assert_eq!(status, 200);
}

#[test]
fn a_connection_past_the_per_client_cap_closes_that_clients_longest_waiting_one_with_429() {
    // The default: 64 waiting connections per client.
    let env = Env::new("slow-clients-cap", "");
    let server = env.serve();
    let head = format!(
        "POST /v1/callback/x HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\n\
         Content-Length: 1000\r\n\r\n{{",
        server.authority()
    );
    let mut oldest = TcpStream::connect(server.authority()).unwrap();
    oldest.write_all(head.as_bytes()).unwrap();
    // The server has read the first one's headers once its answer to a
    // request sent after it has come back.
    let (status, _) = server.request("GET", "/v1/health", None, None);
    assert_eq!(status, 200);
    let mut others: Vec<TcpStream> = (0..64)
        .map(|_| {
            let mut c = TcpStream::connect(server.authority()).unwrap();
            c.write_all(head.as_bytes()).unwrap();
            c
        })
        .collect();
    let answer = trickle_until_answered(&mut oldest, Duration::from_secs(20));
    assert!(answer.starts_with("HTTP/1.1 429"), "{answer:?}");
    assert!(
        answer.contains(
            "more than 64 connections sending requests, reading answers or idle \
             ([api] max_connections_per_client = 64)"
        ),
        "{answer:?}"
    );
    // A request that arrives whole is still answered from the same address.
    let (status, _) = server.request("GET", "/v1/health", None, None);
    assert_eq!(status, 200);
    others.clear();
}
