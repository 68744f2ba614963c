//! `[secrets]` and redaction: a secret a tool's config names (in its URL's
//! path, a header, a model key) and a key written literally in a configured
//! URL's query reach the server they are for and nothing else. Every error
//! path of `http` and `llm` is run against servers that echo
//! what they were sent, and then every byte the host kept or showed is
//! scanned: the store file and its WAL, a backup, the logs of `work` and
//! `serve`, the API's answers, the console's pages and the guests' states.

use serde_json::{Value, json};

use crate::console::Browser;
use crate::fake_servers::{FakeServer, Reply, Request, completion};
use crate::harness::Env;

/// In the `pager` URL's path, from the environment.
const SLACK: &str = "T0SLACK/B0HOOK/xoxSlackSecret77";
/// The `pager`'s `Authorization` header, from a file.
const ERP: &str = "erpBearerSecret-5d6e7f";
/// The model's key, from a file.
const MODEL_KEY: &str = "modelKeySecret-8a9b0c";
/// Written into both configured URLs' query, no `[secrets]` involved.
const LITERAL: &str = "literalQueryKey-4c3b2a";

/// What no text may hold: each secret's most telling part, so that a
/// secret cut short (or split at a `/`) is found too.
const SECRET_NEEDLES: &[&str] = &[
    "xoxSlackSecret77",
    "T0SLACK",
    "erpBearerSecret",
    "modelKeySecret",
    "literalQueryKey",
];

/// What a server was sent: method, target (path and query) and the
/// `Authorization` header — an echo, as many a real error page is.
fn echo(r: &Request) -> String {
    format!(
        "{} {} authorization: {}",
        r.method,
        r.path,
        r.header("authorization").unwrap_or("-")
    )
}

/// The `pager`'s server: the guest's path picks the answer.
fn pager_server() -> FakeServer {
    FakeServer::start(|r| {
        let said = echo(r);
        let target = r.path.split('?').next().unwrap_or_default();
        match target.rsplit('/').next().unwrap_or_default() {
            "missing" => Reply::Text(404, format!("not found: {said}")),
            "broken" => Reply::Text(503, format!("down: {said}")),
            "moved" => Reply::Text(302, format!("moved: {said}")),
            "text" => Reply::Text(200, format!("not json: {said}")),
            "big" => Reply::Text(200, said.repeat(400)),
            "slow" => Reply::Never,
            _ => Reply::Json(200, json!({"you_sent": said})),
        }
    })
}

/// The model's server: the prompt picks the answer.
fn model_server() -> FakeServer {
    FakeServer::start(|r| {
        let said = echo(r);
        let prompt = r.json()["messages"][0]["content"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        // 165 characters before the echo put the query's key across the
        // 200th character, where an error quoting the answer cuts it.
        let padded = format!("{}{said}", "p".repeat(165));
        match prompt.as_str() {
            "e4xx" => Reply::Text(401, padded),
            "e5xx" => Reply::Text(500, padded),
            "garbage" => Reply::Text(200, padded),
            "no-content" => Reply::Json(200, json!({"choices": [], "error": said})),
            "big" => Reply::Text(200, said.repeat(400)),
            "slow" => Reply::Never,
            _ => Reply::Json(200, completion(&said, 10)),
        }
    })
}

/// A loopback port nothing listens on: connections to it are refused.
fn closed_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap().port()
}

/// A host whose `pager` and `llm` reach `pager` and `model` with every
/// kind of secret (with `secrets`; else only the key written literally in
/// each URL's query), on the SQLite file (whose bytes the test reads).
fn host(name: &str, pager: &str, model: &str, secrets: bool) -> Env {
    let limits = "[limits]\nclaim_ms = 3000\nstep_deadline_ms = 2500\nretry_backoff_ms = 0\n\
                  max_attempts = 1\nmax_payload_bytes = 4096\n";
    let config = if secrets {
        format!(
            "{limits}[secrets.slack]\nenv = \"WAKEFUL_TEST_SLACK\"\n\
             [secrets.erp]\nfile = \"erp.secret\"\n\
             [secrets.model]\nfile = \"model.secret\"\n\
             [tools.pager]\nkind = \"http\"\n\
             url = \"{pager}/hook/${{secret:slack}}?api_key={LITERAL}\"\n\
             headers = {{ Authorization = \"Bearer ${{secret:erp}}\" }}\ntimeout_ms = 500\n\
             [tools.llm]\nkind = \"llm\"\n\
             url = \"{model}/v1/chat/completions?api_key={LITERAL}\"\nmodel = \"local\"\n\
             api_key = \"${{secret:model}}\"\nmax_tokens = 64\ntimeout_ms = 500\n"
        )
    } else {
        format!(
            "{limits}[tools.pager]\nkind = \"http\"\n\
             url = \"{pager}/hook/plain?api_key={LITERAL}\"\ntimeout_ms = 500\n\
             [tools.llm]\nkind = \"llm\"\n\
             url = \"{model}/v1/chat/completions?api_key={LITERAL}\"\nmodel = \"local\"\n\
             max_tokens = 64\ntimeout_ms = 500\n"
        )
    };
    let env = Env::sqlite(name, &config);
    for (file, value) in [("erp.secret", ERP), ("model.secret", MODEL_KEY)] {
        write_private(&env.dir.join(file), &format!("{value}\n"));
    }
    let env = env.clone_with_env("WAKEFUL_TEST_SLACK", SLACK);
    env.deploy("caller", &["pager", "llm", "kv"]);
    env
}

fn write_private(path: &std::path::Path, text: &str) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::write(path, text).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600)).unwrap();
}

/// One run per error path (each makes one call), by name.
fn calls() -> Vec<(&'static str, Value)> {
    let pager = |path: &str| json!({"tool": "pager", "args": {"path": path, "body": {"n": 1}}});
    let llm = |prompt: &str| json!({"tool": "llm", "args": {"prompt": prompt}});
    vec![
        ("pager-ok", pager("/ok")),
        ("pager-404", pager("/missing")),
        ("pager-503", pager("/broken")),
        ("pager-302", pager("/moved")),
        ("pager-text", pager("/text")),
        ("pager-big", pager("/big")),
        ("pager-timeout", pager("/slow")),
        ("pager-bad-path", pager("/../admin")),
        (
            "pager-bad-query",
            json!({"tool": "pager", "args": {"query": {"api_key": "mine"}}}),
        ),
        ("llm-ok", llm("ok")),
        ("llm-4xx", llm("e4xx")),
        ("llm-5xx", llm("e5xx")),
        ("llm-garbage", llm("garbage")),
        ("llm-no-content", llm("no-content")),
        ("llm-big", llm("big")),
        ("llm-timeout", llm("slow")),
    ]
}

fn start_all(env: &Env, prefix: &str, calls: &[(&str, Value)]) -> Vec<String> {
    calls
        .iter()
        .map(|(name, call)| {
            let run = format!("{prefix}-{name}");
            let input = json!({ "calls": [call] }).to_string();
            env.ok(&["start", "caller", "--input", &input, "--id", &run]);
            run
        })
        .collect()
}

/// What no text may hold on a host with only the literal key.
const LITERAL_NEEDLES: &[&str] = &["literalQueryKey"];

/// Every occurrence of a needle in `bytes`, named by where it was found.
fn leaks_of(needles: &[&str], place: &str, bytes: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(bytes);
    let mut found = vec![];
    for needle in needles {
        let encoded = needle.replace('-', "%2D");
        for form in [needle.to_string(), encoded] {
            if let Some(at) = text.find(&form) {
                let from = text.floor_char_boundary(at.saturating_sub(80));
                let to = text.ceil_char_boundary((at + 80).min(text.len()));
                found.push(format!("{place}: `{form}` in …{}…", &text[from..to]));
            }
        }
    }
    found
}

/// Waits until every run has settled (done or parked): `serve` steps them.
fn settled(env: &Env, runs: &[String]) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(90);
    for run in runs {
        loop {
            let status = env.show(run)["status"]
                .as_str()
                .unwrap_or_default()
                .to_string();
            if status == "done" || status == "parked" {
                break;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "run {run} is still {status}"
            );
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
    }
}

/// The files of a host's SQLite store: the file, its WAL and shared memory.
fn store_files(env: &Env) -> Vec<std::path::PathBuf> {
    let db = env.sqlite_file();
    ["", "-wal", "-shm"]
        .iter()
        .map(|suffix| std::path::PathBuf::from(format!("{}{suffix}", db.display())))
        .filter(|p| p.exists())
        .collect()
}

#[test]
fn no_secret_reaches_a_guest_the_store_a_backup_a_log_the_api_or_the_console() {
    scan("secrets-scan", true);
}

/// A key written into a configured URL's query, with no `[secrets]`, is
/// kept from everything all the same (the first leak the issue found: five
/// copies in the store after one failed call).
#[test]
fn a_key_in_a_configured_urls_query_reaches_nothing_but_its_server() {
    scan("secrets-literal", false);
}

/// Runs every error path on a host made by [`host`] and scans every byte
/// it kept or showed.
fn scan(name: &str, secrets: bool) {
    let (pager, model) = (pager_server(), model_server());
    let env = host(name, &pager.url, &model.url, secrets);
    let needles = if secrets {
        SECRET_NEEDLES
    } else {
        LITERAL_NEEDLES
    };
    let leaks = |place: &str, bytes: &[u8]| leaks_of(needles, place, bytes);
    let mut found = vec![];

    // The first half is stepped by `work`, whose output is a log too.
    let calls = calls();
    let mut runs = start_all(&env, "w", &calls);
    let out = env.output(&["work", "--until-idle"]);
    found.extend(leaks("`work` stdout", &out.stdout));
    found.extend(leaks("`work` stderr", &out.stderr));

    // The second half by `serve`, whose API and console are read after.
    let server = env.serve();
    runs.extend(start_all(&env, "s", &calls));
    settled(&env, &runs);
    let browser = Browser::sign_in(&server, &server.token);
    for page in ["/ui/", "/ui/audit"] {
        found.extend(leaks(page, browser.get(page).body.as_bytes()));
    }
    for path in ["/v1/runs", "/v1/audit"] {
        found.extend(leaks(path, server.get(path).1.to_string().as_bytes()));
    }
    for run in &runs {
        for path in [
            format!("/v1/runs/{run}"),
            format!("/v1/runs/{run}/history"),
            format!("/v1/runs/{run}/audit"),
        ] {
            found.extend(leaks(&path, server.get(&path).1.to_string().as_bytes()));
        }
        let page = format!("/ui/runs/{run}");
        found.extend(leaks(&page, browser.get(&page).body.as_bytes()));
        let shown = env.ok(&["show", run, "--json"]);
        found.extend(leaks(&format!("`show {run}`"), shown.as_bytes()));
    }
    server.terminate();
    found.extend(leaks("serve's log", env.serve_log().as_bytes()));

    // Every run took its error path, and the servers got every secret.
    let show = |run: &str| env.show(run);
    assert_eq!(show("w-pager-ok")["status"], "done");
    assert_eq!(show("w-pager-503")["status"], "parked", "unknown outcome");
    assert_eq!(
        show("w-pager-timeout")["status"],
        "parked",
        "unknown outcome"
    );
    let error = show("w-llm-5xx")["state"]["results"][0].to_string();
    assert!(error.contains("the model server answered 500"), "{error}");
    let sent = pager.requests();
    assert!(
        sent.iter().all(|r| r.path.contains(LITERAL)),
        "the pager got its key"
    );
    assert!(model.requests().iter().all(|r| r.path.contains(LITERAL)));
    if secrets {
        let erp = format!("Bearer {ERP}");
        assert!(
            sent.iter()
                .all(|r| r.path.contains(SLACK) && r.header("authorization") == Some(&erp)),
            "the pager got its secrets"
        );
        let key = format!("Bearer {MODEL_KEY}");
        assert!(
            model
                .requests()
                .iter()
                .all(|r| r.header("authorization") == Some(&key))
        );
    }

    let backup = env.dir.join("backup.db");
    env.ok(&["backup", backup.to_str().unwrap()]);
    let mut files = store_files(&env);
    files.push(backup);
    for file in files {
        let bytes = std::fs::read(&file).unwrap();
        found.extend(leaks(&file.display().to_string(), &bytes));
    }
    assert!(found.is_empty(), "secrets leaked:\n{}", found.join("\n"));
}

#[test]
fn a_refused_connection_names_no_secret() {
    let port = closed_port();
    let down = format!("http://127.0.0.1:{port}");
    let env = host("secrets-refused", &down, &down, true);
    let leaks = |place: &str, bytes: &[u8]| leaks_of(SECRET_NEEDLES, place, bytes);
    let calls = [
        ("pager", json!({"tool": "pager", "args": {"path": "/x"}})),
        ("llm", json!({"tool": "llm", "args": {"prompt": "hello"}})),
    ];
    let runs = start_all(&env, "r", &calls);
    let out = env.output(&["work", "--until-idle"]);
    let mut found = leaks("`work` stdout", &out.stdout);
    found.extend(leaks("`work` stderr", &out.stderr));
    for run in &runs {
        let shown = env.ok(&["show", run, "--json"]);
        found.extend(leaks(run, shown.as_bytes()));
        let audit = env.ok(&["audit", run, "--json"]);
        found.extend(leaks(run, audit.as_bytes()));
    }
    let pager = env.show("r-pager");
    let result = pager["state"]["results"][0].as_str().unwrap_or_default();
    assert!(
        result.contains("connection failed") || result.contains("refused"),
        "{pager}"
    );
    assert!(result.contains("/hook/[redacted]/x?[redacted]"), "{result}");
    for file in store_files(&env) {
        found.extend(leaks(
            &file.display().to_string(),
            &std::fs::read(&file).unwrap(),
        ));
    }
    assert!(found.is_empty(), "secrets leaked:\n{}", found.join("\n"));
}

#[test]
fn a_missing_or_unknown_secret_is_refused_at_load_by_name() {
    let base = "[tools.pager]\nkind = \"http\"\nurl = \"http://127.0.0.1:9/h/${secret:slack}\"\n";
    let env = Env::sqlite(
        "secrets-missing",
        &format!("{base}[secrets.slack]\nenv = \"WAKEFUL_TEST_NO_SLACK\"\n"),
    );
    let err = env.fails(&["agents"]);
    assert!(
        err.contains("secrets.slack") && err.contains("WAKEFUL_TEST_NO_SLACK"),
        "{err}"
    );

    let env = Env::sqlite("secrets-unknown", base);
    let err = env.fails(&["agents"]);
    assert!(
        err.contains("tools.pager.url") && err.contains("no secret named `slack`"),
        "{err}"
    );

    let config = format!("{base}[secrets.slack]\nfile = \"slack.secret\"\n");
    let env = Env::sqlite("secrets-world-readable", &config);
    std::fs::write(env.dir.join("slack.secret"), SLACK).unwrap();
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::Permissions::from_mode(0o644);
    std::fs::set_permissions(env.dir.join("slack.secret"), mode).unwrap();
    let err = env.fails(&["agents"]);
    assert!(
        err.contains("secrets.slack") && err.contains("chmod o-r"),
        "{err}"
    );
    assert!(!err.contains("xoxSlackSecret77"), "{err}");
    write_private(&env.dir.join("slack.secret"), SLACK);
    env.ok(&["agents"]);
}
