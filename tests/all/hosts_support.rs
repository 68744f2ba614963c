//! What the multi-host tests share: a PostgreSQL schema of their own, `serve`
//! hosts on it (each with its own data directory, as on separate machines),
//! an approver answering over the hosts' APIs, and readings of the store and
//! of the hosts' JSON logs.

use std::collections::{BTreeMap, BTreeSet};
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::harness::{API_TOKEN, Env, INCIDENT_TOOLS, Server};

/// The fallback server, used only when it answers.
const LOCAL_POSTGRES: &str = "postgres://postgres@127.0.0.1:5432/test";

/// The URL the tests administer PostgreSQL with: `WAKEFUL_TEST_POSTGRES`,
/// else the local server if it answers. These tests are about PostgreSQL:
/// without one they fail, saying how to give one.
pub fn admin_url() -> String {
    if let Ok(url) = std::env::var("WAKEFUL_TEST_POSTGRES") {
        return url;
    }
    match postgres::Client::connect(LOCAL_POSTGRES, postgres::NoTls) {
        Ok(_) => LOCAL_POSTGRES.to_string(),
        Err(e) => panic!(
            "the multi-host tests need PostgreSQL: set WAKEFUL_TEST_POSTGRES=postgres://USER@HOST:PORT/DB \
             (a database the tests may create schemas in); {LOCAL_POSTGRES} did not answer: {e}"
        ),
    }
}

static NEXT_SCHEMA: AtomicUsize = AtomicUsize::new(0);

/// A schema of its own for one test, so that tests sharing a server never
/// see each other's rows. Dropped with the test, kept when it failed (for a
/// look at what the hosts left).
pub struct Schema {
    admin: String,
    pub name: String,
}

impl Schema {
    pub fn new(tag: &str) -> Schema {
        let admin = admin_url();
        let n = NEXT_SCHEMA.fetch_add(1, Ordering::SeqCst);
        let name = format!("e2e_{tag}_{}_{n}", std::process::id());
        let mut client = postgres::Client::connect(&admin, postgres::NoTls)
            .unwrap_or_else(|e| panic!("connecting to {admin}: {e}"));
        client
            .batch_execute(&format!(
                "DROP SCHEMA IF EXISTS {name} CASCADE; CREATE SCHEMA {name}"
            ))
            .unwrap();
        Schema { admin, name }
    }

    /// The store URL of the schema on the server the admin URL names.
    pub fn url(&self) -> String {
        let sep = if self.admin.contains('?') { '&' } else { '?' };
        format!(
            "{}{sep}options=-c%20search_path%3D{}",
            self.admin, self.name
        )
    }

    /// The store URL of the schema reached through `127.0.0.1:port`.
    pub fn url_via(&self, port: u16) -> String {
        let config = postgres::Config::from_str(&self.admin).unwrap();
        let user = config.get_user().unwrap_or("postgres");
        let password = config
            .get_password()
            .map(|p| format!(":{}", String::from_utf8_lossy(p)))
            .unwrap_or_default();
        let db = config.get_dbname().unwrap_or(user);
        format!(
            "postgres://{user}{password}@127.0.0.1:{port}/{db}?options=-c%20search_path%3D{}",
            self.name
        )
    }

    /// Where the server listens, for a proxy in front of it.
    pub fn server_addr(&self) -> std::net::SocketAddr {
        let config = postgres::Config::from_str(&self.admin).unwrap();
        let host = match config.get_hosts().first() {
            Some(postgres::config::Host::Tcp(h)) => h.clone(),
            other => panic!("the admin URL must name a TCP host: {other:?}"),
        };
        let port = config.get_ports().first().copied().unwrap_or(5432);
        std::net::ToSocketAddrs::to_socket_addrs(&(host.as_str(), port))
            .unwrap()
            .next()
            .unwrap()
    }

    /// A connection reading and writing the schema's tables.
    pub fn client(&self) -> postgres::Client {
        postgres::Client::connect(&self.url(), postgres::NoTls)
            .unwrap_or_else(|e| panic!("connecting to schema {}: {e}", self.name))
    }

    /// A connection to the server itself (`pg_stat_activity`).
    pub fn admin_client(&self) -> postgres::Client {
        postgres::Client::connect(&self.admin, postgres::NoTls).unwrap()
    }

    pub fn admin(&self) -> &str {
        &self.admin
    }
}

impl Drop for Schema {
    fn drop(&mut self) {
        if std::thread::panicking() {
            eprintln!("kept schema {} for a look", self.name);
            return;
        }
        if let Ok(mut client) = postgres::Client::connect(&self.admin, postgres::NoTls) {
            let _ = client.batch_execute(&format!("DROP SCHEMA IF EXISTS {} CASCADE", self.name));
        }
    }
}

/// A `wakeful serve` host on the shared store: a data directory of its
/// own, JSON logs, and every log it wrote across restarts.
pub struct Host {
    pub env: Env,
    pub server: Option<Server>,
    /// `<hostname>:<pid>` of the current process, as it registered.
    pub id: String,
    args: Vec<String>,
    /// The logs of earlier processes of this host, oldest first.
    past_logs: Vec<String>,
}

impl Host {
    /// Starts `serve --workers N --log-format json` on `store` and waits
    /// until the host is registered.
    pub fn start(name: &str, config: &str, store: &str, workers: usize) -> Host {
        let env = Env::new(name, config).clone_with_env("WAKEFUL_STORE", store);
        let args = vec![
            "--workers".to_string(),
            workers.to_string(),
            "--log-format".to_string(),
            "json".to_string(),
        ];
        let mut host = Host {
            env,
            server: None,
            id: String::new(),
            args,
            past_logs: vec![],
        };
        host.serve();
        host
    }

    fn serve(&mut self) {
        let args: Vec<&str> = self.args.iter().map(String::as_str).collect();
        let server = self.env.serve_with(&args);
        self.id = registered_id(&server);
        self.server = Some(server);
    }

    pub fn server(&self) -> &Server {
        self.server.as_ref().expect("the host is running")
    }

    pub fn base(&self) -> String {
        self.server().base.clone()
    }

    pub fn pid(&self) -> u32 {
        self.server().pid()
    }

    /// Sends `signal` (`STOP`, `CONT`, `KILL`, `TERM`) to the process.
    pub fn signal(&self, signal: &str) {
        let status = std::process::Command::new("kill")
            .args([&format!("-{signal}"), &self.pid().to_string()])
            .status()
            .unwrap();
        assert!(status.success(), "kill -{signal} {}", self.pid());
    }

    /// SIGKILL: no destructor, no clean stop recorded.
    pub fn kill(&mut self) {
        self.signal("KILL");
        let mut server = self.server.take().unwrap();
        let status = server
            .wait_exit(Duration::from_secs(10))
            .expect("a SIGKILLed serve exits");
        assert!(!status.success(), "{status}");
        self.past_logs.push(self.env.serve_log());
    }

    /// SIGTERM, as an init system stops it: it must exit cleanly.
    pub fn terminate(&mut self) {
        self.signal("TERM");
        let mut server = self.server.take().unwrap();
        let status = server
            .wait_exit(Duration::from_secs(30))
            .expect("wakeful serve did not exit within 30 s of SIGTERM");
        assert!(status.success(), "{status}\n{}", self.env.serve_log());
        self.past_logs.push(self.env.serve_log());
    }

    /// A new process on the same data directory and store.
    pub fn restart(&mut self) {
        assert!(self.server.is_none(), "stop the host first");
        self.serve();
    }

    /// The logs of the processes of this host that ended, oldest first.
    pub fn past_logs(&self) -> &[String] {
        &self.past_logs
    }

    /// Every log line this host's processes wrote, as JSON, oldest first.
    pub fn log_lines(&self) -> Vec<Value> {
        let mut all: Vec<String> = self.past_logs.clone();
        if self.server.is_some() {
            all.push(self.env.serve_log());
        }
        all.iter().flat_map(|log| parse_log(log)).collect()
    }

    /// The last lines of the current (or last) log, for a failure message.
    pub fn log_tail(&self, lines: usize) -> String {
        let log = if self.server.is_some() {
            self.env.serve_log()
        } else {
            self.past_logs.last().cloned().unwrap_or_default()
        };
        let all: Vec<&str> = log.lines().collect();
        all[all.len().saturating_sub(lines)..].join("\n")
    }
}

/// A JSON log, line by line; a line that is not JSON (a panic's own
/// output) is kept as a string.
pub fn parse_log(log: &str) -> Vec<Value> {
    log.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|_| Value::String(l.to_string())))
        .collect()
}

/// `(run, step)` of every step the lines say was committed.
pub fn committed_steps(lines: &[Value]) -> Vec<(String, u64)> {
    lines
        .iter()
        .filter(|l| l["result"] == "committed")
        .map(|l| {
            let run = l["run"].as_str().expect("a step names its run").to_string();
            (run, l["step"].as_u64().expect("a numeric step"))
        })
        .collect()
}

/// The id the host registered under: the row of `GET /v1/hosts` that
/// listens where the server does (written just after it prints its
/// address).
fn registered_id(server: &Server) -> String {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let (status, hosts) = server.get("/v1/hosts");
        assert_eq!(status, 200, "{hosts}");
        let found = hosts
            .as_array()
            .unwrap()
            .iter()
            .find(|h| h["listen"] == server.authority() && h["state"] == "live");
        if let Some(h) = found {
            return h["id"].as_str().unwrap().to_string();
        }
        assert!(
            Instant::now() < deadline,
            "the host never registered: {hosts}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A plain HTTP client for the hosts' APIs, usable from any thread: hosts
/// come and go under it, so each call names the base URL.
#[derive(Clone)]
pub struct Api {
    http: ureq::Agent,
}

impl Api {
    pub fn new() -> Api {
        let http = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .max_idle_connections(0)
            .max_idle_connections_per_host(0)
            .timeout_global(Some(Duration::from_secs(20)))
            .build()
            .into();
        Api { http }
    }

    /// One authenticated request; `Err` when no answer came (the host is
    /// down), else the status and the body as JSON.
    pub fn call(
        &self,
        base: &str,
        method: &str,
        path: &str,
        body: Option<&Value>,
    ) -> Result<(u16, Value), String> {
        let url = format!("{base}{path}");
        let auth = format!("Bearer {API_TOKEN}");
        let response = match (method, body) {
            ("GET", None) => self.http.get(&url).header("Authorization", &auth).call(),
            ("POST" | "PUT", Some(body)) => {
                let req = if method == "POST" {
                    self.http.post(&url)
                } else {
                    self.http.put(&url)
                };
                req.header("Authorization", &auth)
                    .header("Content-Type", "application/json")
                    .send(body.to_string().as_bytes())
            }
            other => panic!("no such request in these tests: {other:?}"),
        };
        let mut response = response.map_err(|e| format!("{method} {url}: {e}"))?;
        let status = response.status().as_u16();
        let text = response
            .body_mut()
            .read_to_string()
            .map_err(|e| format!("{method} {url}: {e}"))?;
        Ok((
            status,
            serde_json::from_str(&text).unwrap_or(Value::String(text)),
        ))
    }

    /// A request that must get `expected` from the host at `base`.
    pub fn expect(&self, base: &str, method: &str, path: &str, body: &Value, expected: u16) {
        let (status, answer) = self
            .call(base, method, path, Some(body))
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(status, expected, "{method} {path}: {answer}");
    }
}

/// The incident's world for service `svc`: degraded, nothing applied yet.
pub fn degraded() -> Value {
    json!({"status": "degraded", "memory_pct": 97, "actions_applied": 0})
}

/// Puts service `svc-n`'s kv and starts incident run `inc-n` on it, both
/// over the API at `base`.
pub fn start_incident(api: &Api, base: &str, n: usize) {
    let put = format!("/v1/kv/service/svc-{n}?expected_version=0");
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
    let api = Api::new();
    let mut client: Option<postgres::Client> = None;
    let mut turn = 0usize;
    let answer = json!({"by": "tester", "approved": true});
    while !stop.load(Ordering::SeqCst) {
        // The server may restart under the test: a failed read reconnects.
        if client.is_none() {
            client = postgres::Client::connect(store, postgres::NoTls).ok();
        }
        let rows = client.as_mut().map(|c| {
            c.query(
                "SELECT run_id FROM approvals WHERE answered = 0 AND id = 'approve-scale_out' \
                 ORDER BY rowid LIMIT 100",
                &[],
            )
        });
        let pending: Vec<String> = match rows {
            Some(Ok(rows)) => rows.iter().map(|r| r.get(0)).collect(),
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
        for run in pending {
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

/// Checkpoint seqs of every run, in order.
pub fn checkpoint_seqs(client: &mut postgres::Client) -> BTreeMap<String, Vec<i64>> {
    let mut seqs: BTreeMap<String, Vec<i64>> = BTreeMap::new();
    for row in client
        .query(
            "SELECT run_id, seq FROM checkpoints ORDER BY run_id, seq",
            &[],
        )
        .unwrap()
    {
        seqs.entry(row.get(0)).or_default().push(row.get(1));
    }
    seqs
}

/// Asserts every run ended `done` with `outcome`, its checkpoints are
/// 1..=n with the same n for all (no step taken twice or skipped), and
/// every service's action was applied exactly once. Returns n.
pub fn assert_all_resolved_once(client: &mut postgres::Client, runs: usize) -> usize {
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
    let seqs = checkpoint_seqs(client);
    assert_eq!(seqs.len(), runs, "every run has checkpoints");
    let n = seqs.values().next().unwrap().len();
    let expected: Vec<i64> = (1..=n as i64).collect();
    for (run, s) in &seqs {
        assert_eq!(s, &expected, "checkpoints of {run}");
    }
    let kv = client
        .query(
            "SELECT key, value FROM kv WHERE key LIKE 'service/svc-%'",
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

pub fn incident_config() -> String {
    format!("[api]\ntoken = \"{API_TOKEN}\"\n{INCIDENT_TOOLS}\n{SHORT_CLAIMS}")
}

/// A look at the runs' progress: the count of done runs, and the counts
/// by status printed every few seconds.
pub struct Progress {
    url: String,
    client: postgres::Client,
    last: usize,
    began: Instant,
    printed: Instant,
}

impl Progress {
    pub fn new(schema: &Schema) -> Progress {
        Progress {
            url: schema.url(),
            client: schema.client(),
            last: 0,
            began: Instant::now(),
            printed: Instant::now(),
        }
    }

    /// Done runs; the last count while the database does not answer
    /// (it restarts), reconnecting for the next look.
    pub fn done(&mut self) -> usize {
        let counts = match statuses(&mut self.client) {
            Ok(counts) => counts,
            Err(_) => {
                if let Ok(client) = postgres::Client::connect(&self.url, postgres::NoTls) {
                    self.client = client;
                }
                return self.last;
            }
        };
        if self.printed.elapsed() > Duration::from_secs(5) {
            eprintln!("{:>5.1}s {counts:?}", self.began.elapsed().as_secs_f64());
            self.printed = Instant::now();
        }
        self.last = counts.get("done").copied().unwrap_or(0) as usize;
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
