//! The database server restarts under hosts that are stepping runs: every
//! store connection they hold breaks at once. The hosts must come back to
//! it on their own, and the runs must finish with nothing done twice.

use std::time::{Duration, Instant};

use crate::api::deploy;
use crate::hosts_support::{
    Api, Approver, Host, Progress, Schema, assert_all_resolved_once, committed_steps,
    distinct_steps, incident_config, start_incident,
};

/// The command that restarts the server the admin URL names. Only a local
/// cluster run by `pg_ctlcluster` can be restarted from here; anything else
/// fails the test, saying what it needs, rather than passing untested.
fn restart_command(admin: &str) -> Vec<String> {
    use std::str::FromStr;
    let config = postgres::Config::from_str(admin).unwrap();
    let local = matches!(
        config.get_hosts().first(),
        Some(postgres::config::Host::Tcp(h)) if h == "127.0.0.1" || h == "localhost"
    );
    let port = config.get_ports().first().copied().unwrap_or(5432);
    let needs = "this test restarts the PostgreSQL server under the hosts: it needs \
                 WAKEFUL_TEST_POSTGRES (or the fallback) to name a local cluster that \
                 `pg_ctlcluster` manages (Debian's postgresql-common), run as root";
    assert!(local, "{needs}; {admin} is not on this machine");
    assert!(
        std::path::Path::new("/usr/bin/pg_ctlcluster").exists(),
        "{needs}; pg_ctlcluster is not installed"
    );
    // The cluster whose configuration listens on the admin URL's port.
    let versions = std::fs::read_dir("/etc/postgresql")
        .unwrap_or_else(|e| panic!("{needs}; /etc/postgresql: {e}"));
    for version in versions.flatten() {
        let conf = version.path().join("main/postgresql.conf");
        let text = std::fs::read_to_string(&conf).unwrap_or_default();
        let listens_here = text.lines().any(|l| {
            let l: String = l
                .split('#')
                .next()
                .unwrap_or("")
                .split_whitespace()
                .collect();
            l == format!("port={port}")
        });
        if listens_here {
            let version = version.file_name().to_string_lossy().to_string();
            return ["--skip-systemctl-redirect", &version, "main", "restart"]
                .map(String::from)
                .to_vec();
        }
    }
    panic!("{needs}; no cluster in /etc/postgresql listens on port {port}");
}

#[test]
fn hosts_reconnect_when_postgres_restarts() {
    const RUNS: usize = 30;
    let schema = Schema::new("pg_restart");
    let restart = restart_command(schema.admin());
    let config = incident_config();
    let hosts: Vec<Host> = (0..2)
        .map(|n| Host::start(&format!("restart-{n}"), &config, &schema.url(), 2))
        .collect();
    deploy(hosts[0].server(), "incident", &["kv", "lease", "llm"]);
    let bases: Vec<String> = hosts.iter().map(Host::base).collect();
    let approver = Approver::start(schema.url(), bases.clone());
    let api = Api::new();
    for n in 0..RUNS {
        start_incident(&api, &bases[n % 2], n);
    }

    let mut progress = Progress::new(&schema);
    let mut restarted = None;
    loop {
        approver.check();
        let done = progress.done();
        if done == RUNS {
            break;
        }
        progress.check_time(Duration::from_secs(120), &hosts);
        if restarted.is_none() && done >= RUNS / 4 {
            let took = Instant::now();
            let out = std::process::Command::new("pg_ctlcluster")
                .args(&restart)
                .output()
                .expect("run pg_ctlcluster");
            assert!(
                out.status.success(),
                "pg_ctlcluster {restart:?}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            eprintln!(
                "restarted PostgreSQL at {done} done in {:?}",
                took.elapsed()
            );
            restarted = Some(Instant::now());
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    let restarted = restarted.expect("the runs ended before the restart");
    eprintln!("every run done {:?} after the restart", restarted.elapsed());
    drop(approver);

    let mut client = schema.client();
    assert_all_resolved_once(&mut client, RUNS);
    let all: Vec<(String, u64)> = hosts
        .iter()
        .flat_map(|h| committed_steps(&h.log_lines()))
        .collect();
    distinct_steps(&all);
    // Both hosts are back: their heartbeats go through again.
    std::thread::sleep(Duration::from_secs(3));
    let listed = hosts[0].env.json(&["hosts"]);
    for h in &hosts {
        let row = listed
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["id"] == h.id.as_str());
        assert_eq!(
            row.map(|r| r["state"].clone()),
            Some("live".into()),
            "{}: {listed}",
            h.id
        );
    }
}
