//! The incident load the multi-host tests put on their hosts: services
//! and runs made over the hosts' APIs, an approver answering over them, a
//! view of the progress, and the checks of the outcome in the store.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::harness::{INCIDENT_TOOLS, api_token_config, token_config};
use crate::hosts_support::{Api, Host, Schema};

/// The incident's world for service `svc`: degraded, nothing applied yet.
pub fn degraded() -> Value {
    json!({"status": "degraded", "memory_pct": 97, "actions_applied": 0})
}

/// Puts service `svc-n`'s kv and starts incident run `inc-n` on it, both
/// over the API at `base`.
pub fn start_incident(api: &Api, base: &str, n: usize) {
    let put = format!("/v1/kv/agent/incident/service/svc-{n}?expected_version=0");
    api.expect(base, "PUT", &put, &degraded(), 200);
    let start = json!({
        "agent": "incident",
        "id": format!("inc-{n}"),
        "input": {"incident": format!("INC-{n}"), "service": format!("svc-{n}")},
    });
    api.expect(base, "POST", "/v1/runs", &start, 201);
}

/// Answers every pending `approve-scale_out` request over the APIs of the
/// hosts in `bases`, round robin, until dropped. The requests are found in
/// the store (a read); the answers go through the hosts as an approver's
/// would. A host that does not answer (it was killed) is skipped.
pub struct Approver {
    pub bases: Arc<Mutex<Vec<String>>>,
    stop: Arc<AtomicBool>,
    pub approved: Arc<AtomicUsize>,
    failure: Arc<Mutex<Option<String>>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Approver {
    pub fn start(store: String, bases: Vec<String>) -> Approver {
        let bases = Arc::new(Mutex::new(bases));
        let stop = Arc::new(AtomicBool::new(false));
        let approved = Arc::new(AtomicUsize::new(0));
        let failure = Arc::new(Mutex::new(None));
        let thread = {
            let (bases, stop, approved, failure) = (
                bases.clone(),
                stop.clone(),
                approved.clone(),
                failure.clone(),
            );
            std::thread::spawn(move || {
                if let Err(why) = approve_until(&store, &bases, &stop, &approved) {
                    *failure.lock().unwrap() = Some(why);
                }
            })
        };
        Approver {
            bases,
            stop,
            approved,
            failure,
            thread: Some(thread),
        }
    }

    /// Replaces the hosts answers go to.
    pub fn set_bases(&self, bases: Vec<String>) {
        *self.bases.lock().unwrap() = bases;
    }

    /// Panics if the approver met an answer it should not have.
    pub fn check(&self) {
        if let Some(why) = self.failure.lock().unwrap().clone() {
            panic!("the approver failed: {why}");
        }
    }
}

impl Drop for Approver {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn approve_until(
    store: &str,
    bases: &Mutex<Vec<String>>,
    stop: &AtomicBool,
    approved: &AtomicUsize,
) -> Result<(), String> {
    let api = Api::new().with_token(APPROVER_TOKEN);
    let mut client: Option<postgres::Client> = None;
    let mut turn = 0usize;
    while !stop.load(Ordering::SeqCst) {
        // The server may restart under the test: a failed read reconnects.
        if client.is_none() {
            client = postgres::Client::connect(store, postgres::NoTls).ok();
        }
        let rows = client.as_mut().map(|c| {
            c.query(
                "SELECT run_id, details_digest FROM approvals \
                 WHERE answered = 0 AND id = 'approve-scale_out' \
                 ORDER BY rowid LIMIT 100",
                &[],
            )
        });
        let pending: Vec<(String, String)> = match rows {
            Some(Ok(rows)) => rows.iter().map(|r| (r.get(0), r.get(1))).collect(),
            _ => {
                client = None;
                std::thread::sleep(Duration::from_millis(200));
                continue;
            }
        };
        if pending.is_empty() {
            std::thread::sleep(Duration::from_millis(100));
            continue;
        }
        for (run, digest) in pending {
            let answer = json!({"by": "tester", "approved": true, "digest": digest});
            let path = format!("/v1/runs/{run}/approvals/approve-scale_out");
            let give_up = Instant::now() + Duration::from_secs(60);
            loop {
                if stop.load(Ordering::SeqCst) {
                    return Ok(());
                }
                let live = bases.lock().unwrap().clone();
                turn += 1;
                let base = &live[turn % live.len()];
                match api.call(base, "POST", &path, Some(&answer)) {
                    Ok((200, _)) => {
                        approved.fetch_add(1, Ordering::SeqCst);
                        break;
                    }
                    // A retry of an answer that went through before its
                    // connection broke.
                    Ok((409, body)) if body.to_string().contains("already answered") => break,
                    // The host is gone, or its store is unreachable for a
                    // moment: another host, or later.
                    Ok((500, _)) | Err(_) if Instant::now() < give_up => {
                        std::thread::sleep(Duration::from_millis(100));
                    }
                    Ok((status, body)) => return Err(format!("{path}: {status} {body}")),
                    Err(e) => return Err(format!("{path}: no host took the answer: {e}")),
                }
            }
        }
    }
    Ok(())
}

/// Runs by status.
pub fn statuses(client: &mut postgres::Client) -> Result<BTreeMap<String, i64>, postgres::Error> {
    let rows = client.query("SELECT status, COUNT(*) FROM runs GROUP BY status", &[])?;
    Ok(rows.iter().map(|r| (r.get(0), r.get(1))).collect())
}

/// Checkpoint seqs of every run, in order, as the host at `base` reads
/// them (an ended run's checkpoints are in its archive row).
pub fn checkpoint_seqs(runs: &[String], base: &str) -> BTreeMap<String, Vec<i64>> {
    let api = Api::new();
    runs.iter()
        .map(|id| {
            let (status, history) = api
                .call(base, "GET", &format!("/v1/runs/{id}/history"), None)
                .unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(status, 200, "history of {id}: {history}");
            let seqs = history
                .as_array()
                .unwrap_or_else(|| panic!("history of {id}: {history}"))
                .iter()
                .map(|c| c["seq"].as_i64().unwrap())
                .collect();
            (id.clone(), seqs)
        })
        .collect()
}

/// Asserts every run ended `done` with `outcome`, its checkpoints are
/// 1..=n with the same n for all (no step taken twice or skipped), and
/// every service's action was applied exactly once. Returns n.
pub fn assert_all_resolved_once(client: &mut postgres::Client, runs: usize, base: &str) -> usize {
    let rows = client
        .query("SELECT run_id, status, outcome FROM runs", &[])
        .unwrap();
    assert_eq!(rows.len(), runs);
    for r in &rows {
        let (id, status, outcome): (String, String, Option<String>) =
            (r.get(0), r.get(1), r.get(2));
        assert_eq!(
            (status.as_str(), outcome.as_deref()),
            ("done", Some("resolved")),
            "run {id}"
        );
    }
    let ids: Vec<String> = rows.iter().map(|r| r.get(0)).collect();
    let seqs = checkpoint_seqs(&ids, base);
    assert_eq!(seqs.len(), runs, "every run has checkpoints");
    let n = seqs.values().next().unwrap().len();
    let expected: Vec<i64> = (1..=n as i64).collect();
    for (run, s) in &seqs {
        assert_eq!(s, &expected, "checkpoints of {run}");
    }
    let kv = client
        .query(
            "SELECT key, value FROM kv WHERE key LIKE 'agent/incident/service/svc-%'",
            &[],
        )
        .unwrap();
    assert_eq!(kv.len(), runs);
    for row in kv {
        let (key, value): (String, String) = (row.get(0), row.get(1));
        let value: Value = serde_json::from_str(&value).unwrap();
        assert_eq!(value["actions_applied"], 1, "{key}: {value}");
    }
    n
}

/// Asserts no `(run, step)` was committed twice across `steps`, and
/// returns them as a set.
pub fn distinct_steps(steps: &[(String, u64)]) -> BTreeSet<(String, u64)> {
    let mut seen = BTreeSet::new();
    for s in steps {
        assert!(seen.insert(s.clone()), "step {s:?} was committed twice");
    }
    seen
}

/// Short claims, so that a dead host's runs are taken over within seconds.
const SHORT_CLAIMS: &str =
    "[limits]\nclaim_ms = 3000\nstep_deadline_ms = 2500\nretry_backoff_ms = 0\n";

/// The approver's token: not the one that deploys (separation of duties).
const APPROVER_TOKEN: &str = "approver-token-3e7d";

pub fn incident_config() -> String {
    format!(
        "{}{}{INCIDENT_TOOLS}\n{SHORT_CLAIMS}",
        api_token_config(),
        token_config("approver", APPROVER_TOKEN, &["approve", "read"])
    )
}

/// A look at the runs' progress: the count of done runs, and the counts
/// by status printed every few seconds.
pub struct Progress {
    url: String,
    client: postgres::Client,
    /// The last counts read: done runs, and committed steps.
    last: (usize, usize),
    began: Instant,
    printed: Instant,
}

impl Progress {
    pub fn new(schema: &Schema) -> Progress {
        Progress {
            url: schema.url(),
            client: schema.client(),
            last: (0, 0),
            began: Instant::now(),
            printed: Instant::now(),
        }
    }

    /// Done runs and committed steps (the runs' step counts); the last counts while
    /// the database does not answer (it restarts), reconnecting for the
    /// next look.
    pub fn look(&mut self) -> (usize, usize) {
        let read = statuses(&mut self.client).and_then(|counts| {
            let steps: i64 = self
                .client
                .query_one(
                    "SELECT CAST(COALESCE(SUM(steps), 0) AS BIGINT) FROM runs",
                    &[],
                )?
                .get(0);
            Ok((counts, steps as usize))
        });
        let (counts, steps) = match read {
            Ok(read) => read,
            Err(_) => {
                if let Ok(client) = postgres::Client::connect(&self.url, postgres::NoTls) {
                    self.client = client;
                }
                return self.last;
            }
        };
        if self.printed.elapsed() > Duration::from_secs(5) {
            eprintln!(
                "{:>5.1}s {counts:?}, {steps} steps",
                self.began.elapsed().as_secs_f64()
            );
            self.printed = Instant::now();
        }
        // No run of this load has a reason to stop short of done: a parked
        // one never finishes, so say why now rather than at the time limit.
        if counts.get("parked").is_some_and(|n| *n > 0) {
            let parked: Vec<(String, Option<String>)> = self
                .client
                .query(
                    "SELECT run_id, last_error FROM runs WHERE status = 'parked' LIMIT 5",
                    &[],
                )
                .map(|rows| rows.iter().map(|r| (r.get(0), r.get(1))).collect())
                .unwrap_or_default();
            panic!("runs were parked: {parked:?}");
        }
        self.last = (counts.get("done").copied().unwrap_or(0) as usize, steps);
        self.last
    }

    /// Fails when `limit` has passed, with the statuses and the hosts' last
    /// log lines.
    pub fn check_time(&mut self, limit: Duration, hosts: &[Host]) {
        if self.began.elapsed() < limit {
            return;
        }
        let counts = statuses(&mut self.client);
        let tails: Vec<String> = hosts
            .iter()
            .map(|h| format!("--- {}:\n{}", h.id, h.log_tail(15)))
            .collect();
        panic!(
            "not every run is done after {limit:?}: {counts:?}\n{}",
            tails.join("\n")
        );
    }
}
