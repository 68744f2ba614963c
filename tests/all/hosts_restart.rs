//! The database server restarts under hosts that are stepping runs: every
//! store connection they hold breaks at once. The hosts must come back to
//! it on their own, and the runs must finish with nothing done twice. The
//! server is one of the test's own, so that no one else's is restarted.

use std::time::{Duration, Instant};

use crate::api::deploy;
use crate::hosts_incidents::{
    Approver, Progress, assert_all_resolved_once, distinct_steps, incident_config, start_incident,
};
use crate::hosts_support::{Api, Host, Schema, committed_steps, one_at_a_time};
use crate::pg_cluster::Cluster;

#[test]
fn hosts_reconnect_when_postgres_restarts() {
    const RUNS: usize = 30;
    let _serial = one_at_a_time();
    let cluster = Cluster::start("restart");
    let schema = Schema::on(cluster.url(), "pg_restart");
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
        let (done, _) = progress.look();
        if done == RUNS {
            break;
        }
        progress.check_time(Duration::from_secs(120), &hosts);
        if restarted.is_none() && done >= RUNS / 4 {
            let took = Instant::now();
            cluster.restart();
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
    assert_all_resolved_once(&mut client, RUNS, &hosts[0].base());
    let all: Vec<(String, u64)> = hosts
        .iter()
        .flat_map(|h| committed_steps(&h.log_lines()))
        .collect();
    distinct_steps(&all);
    for h in &hosts {
        // The restart reached each host: its listener lost the server.
        let lost = h.log_lines().iter().any(|l| {
            l["message"]
                .as_str()
                .is_some_and(|m| m.starts_with("listening for other hosts' wakes failed"))
        });
        assert!(
            lost,
            "{} never noticed the restart:\n{}",
            h.id,
            h.log_tail(20)
        );
    }
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
