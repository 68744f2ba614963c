//! Several `serve` hosts on one PostgreSQL store, as on separate machines,
//! share the runs and survive losing hosts: one killed mid-step (and
//! brought back), one stopped as an init system would.

use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::api::deploy;
use crate::hosts_incidents::{
    Approver, Progress, assert_all_resolved_once, distinct_steps, incident_config, start_incident,
};
use crate::hosts_support::{Api, Host, Schema, committed_steps, one_at_a_time, parse_log};

/// The runs `host` holds a live claim on, with the steps each had
/// committed, read while the process is frozen (SIGSTOP) so that it cannot
/// commit in between; empty claims thaw it for another try.
fn freeze_holding_claims(host: &Host, client: &mut postgres::Client) -> BTreeMap<String, i64> {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        host.signal("STOP");
        // A commit already on the wire still lands: let it.
        std::thread::sleep(Duration::from_millis(100));
        let held: BTreeMap<String, i64> = client
            .query(
                "SELECT run_id, steps FROM runs WHERE lease_owner LIKE $1 \
                 AND lease_expires > (extract(epoch from clock_timestamp()) * 1000)::bigint",
                &[&format!("{}:%", host.id)],
            )
            .unwrap()
            .iter()
            .map(|r| (r.get(0), r.get(1)))
            .collect();
        if !held.is_empty() {
            return held;
        }
        host.signal("CONT");
        assert!(
            Instant::now() < deadline,
            "host {} never held a claim while runs were due",
            host.id
        );
        std::thread::sleep(Duration::from_millis(37));
    }
}

/// Committed `(run, step)`s per host, over every process of each.
fn steps_by_host(hosts: &[Host]) -> Vec<Vec<(String, u64)>> {
    hosts
        .iter()
        .map(|h| committed_steps(&h.log_lines()))
        .collect()
}

#[test]
fn three_hosts_share_runs_and_survive_losing_two() {
    const RUNS: usize = 500;
    let _serial = one_at_a_time();
    let began = Instant::now();
    let schema = Schema::new("three_hosts");
    let config = incident_config();
    let mut hosts: Vec<Host> = (0..3)
        .map(|n| Host::start(&format!("hosts-{n}"), &config, &schema.url(), 2))
        .collect();
    deploy(hosts[0].server(), "incident", &["kv", "lease", "llm"]);
    let mut client = schema.client();

    // Runs enter through all three APIs at once.
    let bases: Vec<String> = hosts.iter().map(Host::base).collect();
    let approver = Approver::start(schema.url(), bases.clone());
    let api = Api::new();
    let starting = Instant::now();
    let starters: Vec<_> = bases
        .iter()
        .enumerate()
        .map(|(i, base)| {
            let (api, base) = (api.clone(), base.clone());
            std::thread::spawn(move || {
                for n in (i..RUNS).step_by(3) {
                    start_incident(&api, &base, n);
                }
            })
        })
        .collect();
    for s in starters {
        s.join().expect("starting runs failed");
    }
    eprintln!(
        "{RUNS} runs started in {:.1}s",
        starting.elapsed().as_secs_f64()
    );

    // While they run: host 1 is killed mid-step, then comes back on the
    // same data and store; host 2 is stopped as an init system would. Runs
    // move in waves (the oldest due first), so that few are done until
    // late: the moments are counted in steps.
    const STEPS: usize = RUNS * 6;
    let mut orphaned: BTreeMap<String, i64> = BTreeMap::new();
    let mut killed_id = String::new();
    let mut killed_at: Option<Instant> = None;
    let mut restarted = false;
    let mut terminated_id = String::new();
    let mut progress = Progress::new(&schema);
    loop {
        approver.check();
        let (done, steps) = progress.look();
        if done == RUNS {
            break;
        }
        progress.check_time(Duration::from_secs(480), &hosts);
        if killed_at.is_none() && steps >= STEPS / 5 {
            orphaned = freeze_holding_claims(&hosts[1], &mut client);
            killed_id = hosts[1].id.clone();
            hosts[1].kill();
            approver.set_bases(vec![hosts[0].base(), hosts[2].base()]);
            killed_at = Some(Instant::now());
            eprintln!("killed {killed_id} holding {orphaned:?} at {steps} steps");
        }
        if !restarted && killed_at.is_some_and(|t| t.elapsed() > Duration::from_secs(4)) {
            hosts[1].restart();
            approver.set_bases(hosts.iter().map(Host::base).collect());
            restarted = true;
            eprintln!("restarted host 1 as {} at {steps} steps", hosts[1].id);
        }
        if restarted && terminated_id.is_empty() && steps >= STEPS * 3 / 5 {
            approver.set_bases(vec![hosts[0].base(), hosts[1].base()]);
            terminated_id = hosts[2].id.clone();
            hosts[2].terminate();
            eprintln!("stopped {terminated_id} at {steps} steps");
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    eprintln!(
        "{RUNS} runs done {:.1}s after the test began; {} approvals",
        began.elapsed().as_secs_f64(),
        approver.approved.load(std::sync::atomic::Ordering::SeqCst)
    );
    assert!(
        restarted && !terminated_id.is_empty(),
        "the load ended before the chaos did"
    );
    drop(approver);

    let steps_per_run = assert_all_resolved_once(&mut client, RUNS, &hosts[0].base());
    assert_eq!(steps_per_run * RUNS, STEPS, "an incident takes six steps");
    let per_host = steps_by_host(&hosts);
    let all: Vec<(String, u64)> = per_host.iter().flatten().cloned().collect();
    let logged = distinct_steps(&all);
    let checkpoints = STEPS;
    // Only the killed process can have committed steps it did not live to
    // log: a worker logs a group's steps after the group's commit, so at
    // most one group (`[limits] steps_per_commit`, 64) per worker of it.
    let unlogged_at_most = 2 * 64;
    assert!(
        logged.len() <= checkpoints && logged.len() + unlogged_at_most >= checkpoints,
        "{} steps logged, {checkpoints} checkpoints",
        logged.len()
    );
    for (n, steps) in per_host.iter().enumerate() {
        assert!(!steps.is_empty(), "host {n} stepped no run");
    }
    eprintln!(
        "steps per host: {:?}",
        per_host.iter().map(Vec::len).collect::<Vec<_>>()
    );

    // What the killed process held was finished by another process (or
    // by the host's next one).
    let killed_log = committed_steps(&parse_log(&hosts[1].past_logs()[0]));
    let killed_steps: BTreeSet<(String, u64)> = killed_log.into_iter().collect();
    for (run, steps) in &orphaned {
        let next = (run.clone(), *steps as u64 + 1);
        assert!(
            !killed_steps.contains(&next) && logged.contains(&next),
            "step {next:?}, claimed by the killed host, was not finished by another"
        );
    }

    let listed = hosts[0].env.json(&["hosts"]);
    let state_of = |id: &str| -> Value {
        listed
            .as_array()
            .unwrap()
            .iter()
            .find(|h| h["id"] == id)
            .map(|h| h["state"].clone())
            .unwrap_or_else(|| panic!("{id} is not listed: {listed}"))
    };
    assert_eq!(state_of(&terminated_id), "stopped", "{listed}");
    // Killed, it never said it stopped: it fell silent, unless its next
    // process took its id back (once its heartbeat had fallen silent).
    if hosts[1].id != killed_id {
        assert_eq!(state_of(&killed_id), "silent", "{listed}");
    }
    assert_eq!(state_of(&hosts[0].id), "live", "{listed}");
    assert_eq!(state_of(&hosts[1].id), "live", "{listed}");
    eprintln!("total {:.1}s", began.elapsed().as_secs_f64());
}
