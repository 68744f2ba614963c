//! Runs the real `wakeful` binary against a real data directory, one process
//! per command, as an operator would.
//!
//! The store is the SQLite file in the data directory, or with
//! `WAKEFUL_TEST_STORE=postgres` a schema of its own per host in the
//! PostgreSQL database `WAKEFUL_TEST_POSTGRES` names (an admin URL such as
//! `postgres://postgres@127.0.0.1:5432/test`; `scripts/postgres.sh` prints
//! one, starting a server if need be).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Once};

use serde_json::Value;

/// The repository root.
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

static BUILD: Once = Once::new();
static BUILD_HOST: Once = Once::new();

/// The `wakeful` binary, built (with the `failpoints` feature the crash
/// tests use) once per test process, so a test never runs a stale build;
/// `wakeful-bench` is built with it, on the same build of the library.
pub fn wakeful_bin() -> PathBuf {
    // target/<profile>/deps/e2e-<hash> → target/<profile>/wakeful
    let exe = std::env::current_exe().expect("the test binary's path");
    let profile_dir = exe.parent().and_then(Path::parent).unwrap().to_path_buf();
    BUILD_HOST.call_once(|| {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let mut cmd = Command::new(cargo);
        cmd.current_dir(repo())
            .args(["build", "--quiet", "-p", "wakeful", "--bin", "wakeful"])
            .args(["-p", "wakeful-bench", "--bin", "wakeful-bench"])
            .args(["--features", "wakeful/failpoints"]);
        if profile_dir.file_name().is_some_and(|n| n == "release") {
            cmd.arg("--release");
        }
        let status = cmd.status().expect("run cargo build -p wakeful");
        assert!(status.success(), "building the wakeful binary failed");
    });
    let bin = profile_dir.join("wakeful");
    assert!(bin.exists(), "{} was not built", bin.display());
    bin
}

/// The `wakeful-bench` binary, built beside [`wakeful_bin`].
pub fn wakeful_bench_bin() -> PathBuf {
    let bin = wakeful_bin().with_file_name("wakeful-bench");
    assert!(bin.exists(), "{} was not built", bin.display());
    bin
}

/// The component built from `agents/<crate>`; agents are built from source
/// once per test process.
pub fn agent(crate_name: &str) -> PathBuf {
    BUILD.call_once(|| {
        let status = Command::new("bash")
            .arg(repo().join("scripts/build-agents.sh"))
            .stdout(std::process::Stdio::null())
            .status()
            .expect("run scripts/build-agents.sh");
        assert!(status.success(), "building the agents failed");
    });
    let path = repo()
        .join("agents/target/wasm32-wasip2/release")
        .join(format!("{}.wasm", crate_name.replace('-', "_")));
    assert!(path.exists(), "{} was not built", path.display());
    path
}

/// The language an example agent is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lang {
    Rust,
    Python,
    TypeScript,
}

impl Lang {
    /// The name the agent `crate_name` of this language deploys under.
    pub fn agent_name(self, crate_name: &str) -> String {
        match self {
            Lang::Rust => crate_name.to_owned(),
            Lang::Python => format!("{crate_name}-py"),
            Lang::TypeScript => format!("{crate_name}-ts"),
        }
    }
}

static BUILD_PYTHON: Once = Once::new();
static BUILD_TS: Once = Once::new();

/// Where every host of the tests finds agents compiled by the first that
/// needed them: a Python component takes the debug host most of a minute
/// to compile, once.
pub fn shared_cache() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("e2e-compiled")
}

/// The component built from the example agent `crate_name` in `lang`
/// (`agents/python/<name>` by `scripts/build-python-agents.sh`,
/// `agents/ts/<name>` by `scripts/build-ts-agents.sh`), built once per test
/// process, then compiled once into [`shared_cache`].
pub fn agent_in(lang: Lang, crate_name: &str) -> PathBuf {
    let (once, script, dir) = match lang {
        Lang::Rust => return agent(crate_name),
        Lang::Python => (&BUILD_PYTHON, "build-python-agents.sh", "python"),
        Lang::TypeScript => (&BUILD_TS, "build-ts-agents.sh", "ts"),
    };
    once.call_once(|| build_and_precompile(script));
    let path = repo()
        .join("agents/target")
        .join(dir)
        .join(format!("{}.wasm", crate_name.replace('-', "_")));
    assert!(path.exists(), "{} was not built", path.display());
    path
}

/// Runs a build script that prints the components it built, and compiles
/// each into the shared cache.
fn build_and_precompile(script: &str) {
    let out = Command::new("bash")
        .arg(repo().join("scripts").join(script))
        .output()
        .unwrap_or_else(|e| panic!("run scripts/{script}: {e}"));
    assert!(
        out.status.success(),
        "scripts/{script} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for wasm in String::from_utf8_lossy(&out.stdout).lines() {
        let scratch = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("e2e-precompile");
        let out = Command::new(wakeful_bin())
            .args(["--data", scratch.to_str().unwrap()])
            .args(["--cache", shared_cache().to_str().unwrap()])
            .args(["check", wasm])
            .output()
            .expect("run wakeful check");
        assert!(
            out.status.success(),
            "wakeful check {wasm}:\n{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// The incident demo's config: `llm` answers `scale_out` offline.
pub const INCIDENT_TOOLS: &str = r#"
[tools.llm]
kind = "static"
result = { action = "scale_out", reason = "memory at 97% after an OutOfMemoryError; scale out" }
"#;

/// Short claims so that a crashed worker's run is taken over quickly.
pub const FAST_LIMITS: &str =
    "[limits]\nclaim_ms = 3000\nstep_deadline_ms = 2500\nretry_backoff_ms = 0\n";

static NEXT: AtomicUsize = AtomicUsize::new(0);

/// Where a host keeps its runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StoreKind {
    /// `wakeful.db` in the data directory.
    Sqlite,
    /// A schema of its own in the test database.
    Postgres,
}

/// The store the tests run on: `WAKEFUL_TEST_STORE`, SQLite by default.
fn test_store_kind() -> StoreKind {
    match std::env::var("WAKEFUL_TEST_STORE").as_deref() {
        Err(_) | Ok("" | "sqlite") => StoreKind::Sqlite,
        Ok("postgres") => StoreKind::Postgres,
        Ok(other) => panic!("WAKEFUL_TEST_STORE={other}: say `sqlite` (the default) or `postgres`"),
    }
}

#[derive(Clone)]
enum Store {
    Sqlite,
    /// Shared by an Env and its `clone_with_env` copies: the schema is
    /// dropped once, when the last of them goes.
    Postgres(Arc<PgSchema>),
}

/// A schema made for one host in the database `WAKEFUL_TEST_POSTGRES`
/// names; dropped with everything in it when the last Env using it goes.
struct PgSchema {
    /// The admin URL, as given.
    admin: String,
    name: String,
    /// The admin URL whose `options` put the schema first on the search
    /// path: what the host is given as its store.
    url: String,
}

fn pg_admin_url() -> String {
    match std::env::var("WAKEFUL_TEST_POSTGRES") {
        Ok(url) if !url.is_empty() => url,
        _ => panic!(
            "WAKEFUL_TEST_STORE=postgres runs the tests on PostgreSQL and needs a database for \
             them: set WAKEFUL_TEST_POSTGRES to its admin URL, e.g. \
             WAKEFUL_TEST_POSTGRES=postgres://postgres@127.0.0.1:5432/test \
             (`scripts/postgres.sh` prints one, starting a throwaway server if need be)"
        ),
    }
}

/// The link key every host on the test PostgreSQL shares (hosts sharing a
/// store share one): a 0600 file, written whole once.
pub fn shared_link_key() -> PathBuf {
    static KEY: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    KEY.get_or_init(|| {
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
        let path = dir.join("pg-link-key");
        let aside = dir.join(format!("pg-link-key.{}", std::process::id()));
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create(true).truncate(true);
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        let mut file = options.open(&aside).unwrap();
        std::io::Write::write_all(&mut file, "5e".repeat(32).as_bytes()).unwrap();
        std::fs::rename(&aside, &path).unwrap();
        path
    })
    .clone()
}

fn pg_connect(url: &str) -> postgres::Client {
    postgres::Client::connect(url, postgres::NoTls).unwrap_or_else(|e| {
        let e = pg_error(&e);
        panic!(
            "cannot connect to WAKEFUL_TEST_POSTGRES={url}: {e}. Set WAKEFUL_TEST_POSTGRES to \
             the admin URL of a server that answers, with a database in which the user may \
             create schemas (`scripts/postgres.sh` prints one, starting a throwaway server if \
             need be)"
        )
    })
}

/// What went wrong, whole: a `postgres::Error` alone shows only "db error"
/// or "error connecting to server", its cause is in its source.
fn pg_error(e: &postgres::Error) -> String {
    match std::error::Error::source(e) {
        Some(cause) => format!("{e}: {cause}"),
        None => e.to_string(),
    }
}

impl PgSchema {
    fn create(test: &str, n: usize) -> PgSchema {
        let admin = pg_admin_url();
        // Unique across test processes sharing the database (the pid and
        // the clock) and readable when one is left behind (the test's
        // name); lowercase, so the unquoted name in `search_path` is the
        // same identifier. PostgreSQL keeps 63 bytes of a name.
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .subsec_nanos();
        let mut name = format!("w_{}_{n}_{nanos:08x}_", std::process::id());
        name.extend(
            test.chars()
                .map(|c| match c.to_ascii_lowercase() {
                    c @ ('a'..='z' | '0'..='9') => c,
                    _ => '_',
                })
                .take(63 - name.len()),
        );
        pg_connect(&admin)
            .batch_execute(&format!("CREATE SCHEMA \"{name}\""))
            .unwrap_or_else(|e| panic!("creating schema {name} in {admin}: {}", pg_error(&e)));
        let sep = if admin.contains('?') { '&' } else { '?' };
        let url = format!("{admin}{sep}options=-c%20search_path%3D{name}");
        PgSchema { admin, name, url }
    }

    /// A session on the test database with this schema first on its path.
    fn session(&self) -> postgres::Client {
        let mut client = pg_connect(&self.admin);
        client
            .batch_execute(&format!("SET search_path TO \"{}\"", self.name))
            .unwrap();
        client
    }
}

impl Drop for PgSchema {
    fn drop(&mut self) {
        // Never a panic here (it may run while a test unwinds); a schema
        // that could not be dropped is named, to be dropped by hand.
        let dropped = postgres::Client::connect(&self.admin, postgres::NoTls).and_then(|mut c| {
            c.batch_execute(&format!(
                "SET lock_timeout = '30s'; DROP SCHEMA IF EXISTS \"{}\" CASCADE",
                self.name
            ))
        });
        if let Err(e) = dropped {
            eprintln!(
                "schema {} in {} was not dropped: {e}",
                self.name, self.admin
            );
        }
    }
}

/// One isolated host: its own data directory, config and store.
#[derive(Clone)]
pub struct Env {
    pub dir: PathBuf,
    extra_env: Vec<(String, String)>,
    store: Store,
}

impl Env {
    /// A fresh host named after the test, with the given `wakeful.toml`
    /// text, on the store the tests run on (`WAKEFUL_TEST_STORE`).
    pub fn new(name: &str, config: &str) -> Env {
        Env::with_store(name, config, test_store_kind())
    }

    /// A fresh host on the SQLite file whatever store the tests run on:
    /// for tests about that file itself (its damage, its backups, its
    /// schema version, the disk under it).
    pub fn sqlite(name: &str, config: &str) -> Env {
        Env::with_store(name, config, StoreKind::Sqlite)
    }

    fn with_store(name: &str, config: &str, kind: StoreKind) -> Env {
        let n = NEXT.fetch_add(1, Ordering::SeqCst);
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("e2e-{name}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("wakeful.toml"), config).unwrap();
        let store = match kind {
            StoreKind::Sqlite => Store::Sqlite,
            StoreKind::Postgres => Store::Postgres(Arc::new(PgSchema::create(name, n))),
        };
        Env {
            dir,
            extra_env: vec![],
            store,
        }
    }

    /// The same host, with an environment variable set for its commands.
    pub fn clone_with_env(&self, key: &str, value: &str) -> Env {
        let mut extra_env = self.extra_env.clone();
        extra_env.push((key.into(), value.into()));
        Env {
            dir: self.dir.clone(),
            extra_env,
            store: self.store.clone(),
        }
    }

    pub fn store_kind(&self) -> StoreKind {
        match self.store {
            Store::Sqlite => StoreKind::Sqlite,
            Store::Postgres(_) => StoreKind::Postgres,
        }
    }

    /// The SQLite data file; only for a host made with [`Env::sqlite`] (or
    /// on SQLite by default).
    pub fn sqlite_file(&self) -> PathBuf {
        assert_eq!(
            self.store_kind(),
            StoreKind::Sqlite,
            "this test reads the SQLite file: make its host with Env::sqlite"
        );
        self.dir.join("data/wakeful.db")
    }

    pub fn command(&self, args: &[&str]) -> Command {
        let mut cmd = Command::new(wakeful_bin());
        cmd.args(args)
            .current_dir(&self.dir)
            .env("WAKEFUL_DATA", self.dir.join("data"))
            .env("WAKEFUL_CONFIG", self.dir.join("wakeful.toml"))
            .env_remove("WAKEFUL_FAILPOINT")
            .env_remove("WAKEFUL_CACHE");
        // Set or removed, so that a `WAKEFUL_STORE` of the caller's never
        // reaches a host.
        match &self.store {
            Store::Sqlite => cmd
                .env_remove("WAKEFUL_STORE")
                .env_remove("WAKEFUL_LINK_KEY_FILE"),
            Store::Postgres(schema) => cmd
                .env("WAKEFUL_STORE", &schema.url)
                .env("WAKEFUL_LINK_KEY_FILE", shared_link_key()),
        };
        for (k, v) in &self.extra_env {
            cmd.env(k, v);
        }
        cmd
    }

    /// Rows of a query on this host's store, each a row of JSON values
    /// (integers, reals, text, NULL; bytes as arrays of numbers). Keep the
    /// SQL portable: the tables and columns are the same in both stores.
    pub fn sql_query(&self, sql: &str) -> Vec<Vec<Value>> {
        match &self.store {
            Store::Sqlite => {
                let conn = rusqlite::Connection::open(self.sqlite_file()).unwrap();
                let mut stmt = conn.prepare(sql).unwrap_or_else(|e| panic!("{sql}: {e}"));
                let width = stmt.column_count();
                stmt.query_map([], |row| {
                    (0..width)
                        .map(|i| Ok(sqlite_value(row.get_ref(i)?)))
                        .collect()
                })
                .unwrap_or_else(|e| panic!("{sql}: {e}"))
                .collect::<Result<_, _>>()
                .unwrap_or_else(|e| panic!("{sql}: {e}"))
            }
            Store::Postgres(schema) => schema
                .session()
                .query(sql, &[])
                .unwrap_or_else(|e| panic!("{sql}: {}", pg_error(&e)))
                .iter()
                .map(|row| (0..row.len()).map(|i| pg_value(row, i)).collect())
                .collect(),
        }
    }

    /// Runs statements (one or several, separated by `;`) in one session
    /// on this host's store.
    pub fn sql_execute(&self, sql: &str) {
        let done = match &self.store {
            Store::Sqlite => rusqlite::Connection::open(self.sqlite_file())
                .unwrap()
                .execute_batch(sql)
                .map_err(|e| e.to_string()),
            Store::Postgres(schema) => schema
                .session()
                .batch_execute(sql)
                .map_err(|e| pg_error(&e)),
        };
        if let Err(e) = done {
            let start: String = sql.chars().take(300).collect();
            panic!("{start}…: {e}");
        }
    }

    pub fn output(&self, args: &[&str]) -> Output {
        self.command(args).output().expect("run wakeful")
    }

    /// Runs a command that must succeed; returns its stdout.
    pub fn ok(&self, args: &[&str]) -> String {
        let out = self.output(args);
        let stdout = String::from_utf8_lossy(&out.stdout).to_string();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.success(),
            "wakeful {args:?} failed ({}):\n{stdout}\n{stderr}",
            out.status
        );
        stdout
    }

    /// Runs a command that must fail; returns its stderr.
    pub fn fails(&self, args: &[&str]) -> String {
        let out = self.output(args);
        assert!(
            !out.status.success(),
            "wakeful {args:?} should have failed:\n{}",
            String::from_utf8_lossy(&out.stdout)
        );
        String::from_utf8_lossy(&out.stderr).to_string()
    }

    /// Runs a read command with `--json` and parses its output.
    pub fn json(&self, args: &[&str]) -> Value {
        let mut all = args.to_vec();
        all.push("--json");
        let out = self.ok(&all);
        serde_json::from_str(&out).unwrap_or_else(|e| panic!("{args:?}: {e}: {out}"))
    }

    /// Starts a run of `agent` named `run` with a JSON start input.
    pub fn start(&self, agent: &str, run: &str, input: Value) {
        self.ok(&["start", agent, "--id", run, "--input", &input.to_string()]);
    }

    /// The sequence numbers of the run's checkpoints, oldest first.
    pub fn checkpoint_seqs(&self, run: &str) -> Vec<u64> {
        self.json(&["history", run])
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["seq"].as_u64().unwrap())
            .collect()
    }

    pub fn show(&self, run: &str) -> Value {
        self.json(&["show", run])
    }

    /// The arguments of `wakeful approve RUN REQUEST EXTRA…` with the
    /// digest `show` prints for the request now, as an operator copies it
    /// (`none` when the run has no such pending request).
    pub fn approve_args(&self, run: &str, request: &str, extra: &[&str]) -> Vec<String> {
        let show = self.command(&["show", run, "--json"]).output().unwrap();
        let show: Value = serde_json::from_slice(&show.stdout).unwrap_or(Value::Null);
        let digest = show["pending_approvals"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|a| a["id"] == request)
            .and_then(|a| a["details_digest"].as_str())
            .unwrap_or("none")
            .to_string();
        let mut args: Vec<String> = ["approve", run, request].map(String::from).to_vec();
        args.extend(extra.iter().map(|a| a.to_string()));
        args.extend(["--digest".to_string(), digest]);
        args
    }

    /// `wakeful approve RUN REQUEST EXTRA…` with the digest `show` prints.
    pub fn approve(&self, run: &str, request: &str, extra: &[&str]) -> String {
        let args = self.approve_args(run, request, extra);
        self.ok(&args.iter().map(String::as_str).collect::<Vec<_>>())
    }

    pub fn deploy(&self, crate_name: &str, grants: &[&str]) -> String {
        let path = agent(crate_name);
        let mut args = vec!["deploy", path.to_str().unwrap()];
        for g in grants {
            args.push("--grant");
            args.push(g);
        }
        self.ok(&args)
    }

    /// Deploys the example agent `crate_name` written in `lang`; hosts of
    /// other languages than Rust share the compiled-agent cache.
    pub fn deploy_in(&self, lang: Lang, crate_name: &str, grants: &[&str]) -> Env {
        let env = match lang {
            Lang::Rust => self.clone(),
            _ => self.clone_with_env("WAKEFUL_CACHE", shared_cache().to_str().unwrap()),
        };
        let path = agent_in(lang, crate_name);
        let mut args = vec!["deploy", path.to_str().unwrap()];
        for g in grants {
            args.push("--grant");
            args.push(g);
        }
        env.ok(&args);
        env
    }

    pub fn work(&self) -> String {
        self.ok(&["work", "--until-idle"])
    }

    /// The kv value of `key` (`null` when absent).
    pub fn kv(&self, key: &str) -> Value {
        let out = self.ok(&["kv", "get", key]);
        let v: Value = serde_json::from_str(&out).unwrap();
        v["value"].clone()
    }

    /// The audit rows of the run's tool calls that ran and were recorded
    /// (not replays, refusals or failures), oldest first.
    pub fn recorded_calls(&self, run: &str) -> Vec<Value> {
        self.audit_rows(run, "tool")
            .into_iter()
            .filter(|r| r["data"]["recorded"] == true)
            .collect()
    }

    /// What the last `serve` of this host wrote to its standard error.
    pub fn serve_log(&self) -> String {
        std::fs::read_to_string(self.dir.join("serve.log")).unwrap_or_default()
    }

    /// The rows of `wakeful audit ARGS --json`: its page's `items`.
    pub fn audit_json(&self, args: &[&str]) -> Value {
        let mut page = self.json(args);
        assert!(page.get("next").is_some(), "{args:?}: not a page: {page}");
        page["items"].take()
    }

    /// The kinds of the audit rows, oldest first: of one run, or all.
    pub fn audit_kinds(&self, run: Option<&str>) -> Vec<String> {
        let mut args = vec!["audit"];
        args.extend(run);
        self.audit_json(&args)
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["kind"].as_str().unwrap().to_string())
            .collect()
    }

    /// Audit rows of one run with the given kind.
    pub fn audit_rows(&self, run: &str, kind: &str) -> Vec<Value> {
        let rows = self.audit_json(&["audit", run]);
        rows.as_array()
            .unwrap()
            .iter()
            .filter(|r| r["kind"] == kind)
            .cloned()
            .collect()
    }
}

fn sqlite_value(value: rusqlite::types::ValueRef<'_>) -> Value {
    use rusqlite::types::ValueRef;
    match value {
        ValueRef::Null => Value::Null,
        ValueRef::Integer(i) => i.into(),
        ValueRef::Real(f) => f.into(),
        ValueRef::Text(t) => String::from_utf8_lossy(t).into(),
        ValueRef::Blob(b) => b.to_vec().into(),
    }
}

fn pg_value(row: &postgres::Row, i: usize) -> Value {
    use postgres::types::Type;
    let column = &row.columns()[i];
    let ty = column.type_();
    let value: Option<Value> = if *ty == Type::INT8 {
        row.get::<_, Option<i64>>(i).map(Value::from)
    } else if *ty == Type::INT4 {
        row.get::<_, Option<i32>>(i).map(Value::from)
    } else if *ty == Type::INT2 {
        row.get::<_, Option<i16>>(i).map(Value::from)
    } else if *ty == Type::FLOAT8 {
        row.get::<_, Option<f64>>(i).map(Value::from)
    } else if *ty == Type::FLOAT4 {
        row.get::<_, Option<f32>>(i).map(Value::from)
    } else if *ty == Type::BOOL {
        row.get::<_, Option<bool>>(i).map(Value::from)
    } else if [Type::TEXT, Type::VARCHAR, Type::BPCHAR, Type::NAME].contains(ty) {
        row.get::<_, Option<String>>(i).map(Value::from)
    } else if *ty == Type::BYTEA {
        row.get::<_, Option<Vec<u8>>>(i).map(Value::from)
    } else {
        panic!(
            "column {} is of type {ty}, which these tests do not read: cast it (to text or \
             bigint) in the SQL",
            column.name()
        )
    };
    value.unwrap_or(Value::Null)
}

pub use crate::serve_process::{
    API_TOKEN, API_TOKEN_NAME, Server, api_token_config, token_config, token_file,
};
