//! What the multi-host tests share: a PostgreSQL schema of their own, `serve`
//! hosts on it (each with its own data directory, as on separate machines),
//! an approver answering over the hosts' APIs, and readings of the store and
//! of the hosts' JSON logs.

use std::str::FromStr;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::harness::{API_TOKEN, Env, Server};

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

static SERIAL: Mutex<()> = Mutex::new(());

/// Held by each multi-host test for its whole length: they load the
/// machine and the database heavily, and two of them measure how soon a
/// run is stepped, so they never run at the same time.
pub fn one_at_a_time() -> std::sync::MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

/// A schema of its own for one test, so that tests sharing a server never
/// see each other's rows. Dropped with the test, kept when it failed (for a
/// look at what the hosts left).
pub struct Schema {
    admin: String,
    pub name: String,
}

impl Schema {
    /// A schema on the shared test server.
    pub fn new(tag: &str) -> Schema {
        Schema::on(admin_url(), tag)
    }

    /// A schema on the server `admin` names.
    pub fn on(admin: String, tag: &str) -> Schema {
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
        // The harness's own store is replaced by the shared one: a host made
        // on SQLite, so that no schema of its own is made for it.
        // Hosts sharing a store share the key their approval links are
        // made with.
        let key = crate::harness::shared_link_key();
        let env = Env::sqlite(name, config)
            .clone_with_env("WAKEFUL_STORE", store)
            .clone_with_env("WAKEFUL_LINK_KEY_FILE", key.to_str().unwrap());
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
    /// The bearer token of every call.
    token: String,
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
        Api {
            http,
            token: API_TOKEN.to_string(),
        }
    }

    /// The same client, calling with another token.
    pub fn with_token(mut self, token: &str) -> Api {
        self.token = token.to_string();
        self
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
        let auth = format!("Bearer {}", self.token);
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
