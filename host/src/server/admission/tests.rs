use std::net::IpAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::{Admission, Client, Cut, Kind, Limits};

fn admission(max_connections: usize, per_client: usize, reserved: usize) -> Arc<Admission> {
    Arc::new(Admission::new(Limits {
        max_connections,
        per_client,
        reserved,
        min_bytes_per_s: 100,
        grace: Duration::from_secs(5),
        header_timeout: Duration::from_secs(10),
    }))
}

fn ip(s: &str) -> IpAddr {
    s.parse().unwrap()
}

#[test]
fn a_client_past_its_limit_loses_its_longest_waiting_connection_never_a_handled_one() {
    let a = admission(64, 2, 0);
    let handled = a.register(ip("127.0.0.1"));
    handled.begin(Kind::Link, true).unwrap();
    let oldest = a.register(ip("127.0.0.1"));
    let other_client = a.register(ip("10.0.0.2"));
    let newer = a.register(ip("127.0.0.1"));
    assert_eq!(oldest.cut(), None, "two waiting is the limit, not past it");
    let newest = a.register(ip("127.0.0.1"));
    assert_eq!(
        oldest.cut(),
        Some((Cut::ClientFull, false)),
        "nothing was sent on it"
    );
    for kept in [&handled, &other_client, &newer, &newest] {
        assert_eq!(kept.cut(), None);
    }
    // One that was sending its request is answered.
    newer
        .moved()
        .store(40, std::sync::atomic::Ordering::Relaxed);
    let _last = a.register(ip("127.0.0.1"));
    assert_eq!(newer.cut(), Some((Cut::ClientFull, true)));
    assert_eq!(handled.cut(), None);
}

#[test]
fn past_max_connections_the_client_with_the_most_waiting_makes_room() {
    let a = admission(64, 64, 0);
    let few: Vec<_> = (0..2).map(|_| a.register(ip("10.0.0.1"))).collect();
    let many: Vec<_> = (0..3).map(|_| a.register(ip("10.0.0.2"))).collect();
    assert!(a.make_room());
    assert_eq!(many[0].cut(), Some((Cut::ServerFull, false)));
    assert!(few.iter().chain(&many[1..]).all(|c| c.cut().is_none()));
    // Two each now: the tie goes to the longest-waiting.
    assert!(a.make_room());
    assert_eq!(few[0].cut(), Some((Cut::ServerFull, false)));
    // Handled connections are never taken.
    for c in few[1..].iter().chain(&many[1..]) {
        c.begin(Kind::Other, true).unwrap();
    }
    assert!(!a.make_room());
    assert_eq!(a.open(), (0, 3));
}

#[test]
fn a_full_kind_takes_the_place_of_its_longest_waiting_request_or_is_refused_and_leaves_the_other_kind_its_reserve()
 {
    // 4 connections, 1 kept for each kind: each kind holds at most 3.
    let a = admission(4, 64, 1);
    let trickling: Vec<_> = (0..3).map(|_| a.register(ip("10.0.0.9"))).collect();
    for c in &trickling {
        c.moved().store(100, std::sync::atomic::Ordering::Relaxed);
        c.begin(Kind::Other, false).unwrap();
    }
    // A fourth request of that kind closes the longest-waiting of them.
    let fourth = a.register(ip("10.0.0.1"));
    fourth.begin(Kind::Other, true).unwrap();
    assert_eq!(trickling[0].cut(), Some((Cut::KindFull(Kind::Other), true)));
    // The other kind is not touched by it.
    let link = a.register(ip("10.0.0.9"));
    link.begin(Kind::Link, false).unwrap();
    assert!(link.cut().is_none());
    // With every request of the kind handled, one more is refused.
    for c in &trickling[1..] {
        c.received();
    }
    let refused = a.register(ip("10.0.0.3"));
    let err = refused.begin(Kind::Other, true).unwrap_err().to_string();
    assert!(
        err.contains("handling 3 operator and console requests at once")
            && err.contains("[api] max_connections - reserved_connections"),
        "{err}"
    );
    // An answer frees its place.
    trickling[1].answered();
    refused.begin(Kind::Other, true).unwrap();
    assert!(link.cut().is_none());
}

#[test]
fn a_waiting_connection_slower_than_the_minimum_past_the_grace_is_closed_and_a_handled_one_is_not()
{
    let a = admission(64, 64, 0);
    let start = Instant::now();
    let idle = a.register(ip("10.0.0.1"));
    let trickle = a.register(ip("10.0.0.1"));
    let steady = a.register(ip("10.0.0.1"));
    let handled = a.register(ip("10.0.0.1"));
    handled.begin(Kind::Link, true).unwrap();
    a.sweep(start + Duration::from_secs(5));
    assert!(idle.cut().is_none(), "within the grace");
    // 3 s past the grace at 100 bytes/s: 300 bytes due.
    trickle
        .moved()
        .store(200, std::sync::atomic::Ordering::Relaxed);
    steady
        .moved()
        .store(900, std::sync::atomic::Ordering::Relaxed);
    a.sweep(start + Duration::from_secs(8) + Duration::from_millis(100));
    assert_eq!(idle.cut(), Some((Cut::TooSlow, false)));
    assert_eq!(trickle.cut(), Some((Cut::TooSlow, true)));
    assert!(steady.cut().is_none() && handled.cut().is_none());
    // Its answer given, a handled connection waits again, from then.
    handled.answered();
    a.sweep(Instant::now() + Duration::from_secs(4));
    assert!(handled.cut().is_none());
    a.sweep(Instant::now() + Duration::from_secs(6));
    assert_eq!(
        handled.cut(),
        Some((Cut::TooSlow, false)),
        "idle after its answer"
    );
}

#[test]
fn clients_are_ipv4_addresses_and_ipv6_64s() {
    assert_eq!(
        Client::of(ip("::ffff:10.1.2.3")),
        Client::of(ip("10.1.2.3"))
    );
    assert_eq!(
        Client::of(ip("2001:db8:1:2::1")),
        Client::of(ip("2001:db8:1:2:ffff::9"))
    );
    assert_ne!(
        Client::of(ip("2001:db8:1:2::1")),
        Client::of(ip("2001:db8:1:3::1"))
    );
    assert_ne!(Client::of(ip("10.1.2.3")), Client::of(ip("10.1.2.4")));
}

#[test]
fn links_are_answer_links_callback_links_health_and_static_files() {
    for link in [
        "/v1/health",
        "/v1/approve/ab12",
        "/v1/callback/x",
        "/ui/static/app.css",
    ] {
        assert_eq!(Kind::of(link), Kind::Link, "{link}");
    }
    for other in ["/v1/runs", "/v1/events", "/ui/", "/v1/healthz", "/metrics"] {
        assert_eq!(Kind::of(other), Kind::Other, "{other}");
    }
}
