//! Callback links, end to end: the refund agent sends a link to an approval
//! service running as a process of its own, sleeps, and is woken when that
//! service POSTs to the link minutes later in test time (the test moves the
//! host's clock through `WAKEFUL_TEST_CLOCK_FILE` instead of sleeping).

use std::io::BufRead;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

use serde_json::{Value, json};

use crate::fake_servers::{FakeServer, Reply};
use crate::harness::{Env, FAST_LIMITS, Server};

const RUN: &str = "refund-9482";
const TOOLS: &[&str] = &["callback", "approvals", "refunds"];

/// The approval service: a separate process that prints what it does.
struct ApprovalService {
    child: Child,
    url: String,
    lines: Receiver<String>,
}

impl ApprovalService {
    fn start(clock_file: &PathBuf, extra: &[&str]) -> ApprovalService {
        let mut child = Command::new(env!("CARGO_BIN_EXE_approval-service"))
            .arg("--clock-file")
            .arg(clock_file)
            .args(extra)
            .stdout(Stdio::piped())
            .spawn()
            .expect("start approval-service");
        let stdout = std::io::BufReader::new(child.stdout.take().unwrap());
        let (send, lines) = channel();
        std::thread::spawn(move || {
            for line in stdout.lines() {
                let Ok(line) = line else { break };
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        let mut service = ApprovalService {
            child,
            url: String::new(),
            lines,
        };
        let first = service.next_line("its address");
        service.url = first.strip_prefix("listening on ").unwrap().to_string();
        service
    }

    /// The next line it prints; at most 20 s (a wait for the other
    /// processes, not a timing assertion).
    fn next_line(&self, what: &str) -> String {
        self.lines
            .recv_timeout(Duration::from_secs(20))
            .unwrap_or_else(|e| panic!("approval-service never printed {what}: {e}"))
    }
}

impl Drop for ApprovalService {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A host whose `approvals` tool is the approval service and `refunds` a
/// loopback fake, with the refund agent deployed.
struct Setup {
    env: Env,
    clock_file: PathBuf,
    service: ApprovalService,
    refunds: FakeServer,
}

fn setup(name: &str, service_args: &[&str]) -> Setup {
    setup_with(name, service_args, "")
}

/// [`setup`] with more config.
fn setup_with(name: &str, service_args: &[&str], extra: &str) -> Setup {
    let env = Env::new(name, "");
    let clock_file = env.dir.join("clock-offset-ms");
    std::fs::write(&clock_file, "0").unwrap();
    let service = ApprovalService::start(&clock_file, service_args);
    let refunds = FakeServer::start(|_| Reply::Json(200, json!({"refund": "r-1"})));
    // Short claims: a worker killed mid-step gives its run up quickly.
    let config = format!(
        "{FAST_LIMITS}[tools.approvals]\nkind = \"http\"\nurl = \"{}/approvals\"\n\n\
         [tools.refunds]\nkind = \"http\"\nurl = \"{}/refunds\"\n{extra}",
        service.url, refunds.url
    );
    std::fs::write(env.dir.join("wakeful.toml"), config).unwrap();
    env.deploy("refund-approval", TOOLS);
    let env = env.clone_with_env("WAKEFUL_TEST_CLOCK_FILE", clock_file.to_str().unwrap());
    Setup {
        env,
        clock_file,
        service,
        refunds,
    }
}

impl Setup {
    /// Moves the host's (and the service's) clock `ms` ahead of the wall.
    fn set_clock(&self, ms: u64) {
        std::fs::write(&self.clock_file, ms.to_string()).unwrap();
    }

    /// Starts the refund run through the API; returns the callback URL the
    /// approval service was sent, once the run sleeps on it.
    fn ask(&self, server: &Server, valid_for_ms: u64) -> String {
        let input = json!({"order": "9482", "amount_usd": 120.0, "customer": "ann",
            "valid_for_ms": valid_for_ms});
        let (status, body) = server.post(
            "/v1/runs",
            &json!({"agent": "refund-approval", "id": RUN, "input": input}),
        );
        assert_eq!(status, 201, "{body}");
        let asked = self.service.next_line("the approval request");
        let url = asked.strip_prefix("asked ").unwrap().to_string();
        server.wait_run(RUN, "waiting", |r| r["status"] == "waiting");
        url
    }
}

/// The path of a link on `server`, checking it points there.
fn link_path(server: &Server, url: &str) -> String {
    let path = url
        .strip_prefix(&server.base)
        .unwrap_or_else(|| panic!("{url} is not under {}", server.base));
    assert!(path.starts_with("/v1/callback/"), "{url}");
    assert_eq!(path.len(), "/v1/callback/".len() + 64, "{url}");
    path.to_string()
}

fn outcome(show: &Value) -> String {
    show["outcome"].as_str().unwrap_or_default().to_string()
}

#[test]
fn an_approval_posted_minutes_later_refunds_once_and_a_second_post_is_refused() {
    let s = setup("cb-approved", &["--after-ms", "300000"]);
    let server = s.env.serve();
    let url = s.ask(&server, 3_600_000);
    let path = link_path(&server, &url);
    // Nothing happens until five minutes pass in test time.
    std::thread::sleep(Duration::from_millis(300));
    assert!(s.service.lines.try_recv().is_err(), "answered too early");
    s.set_clock(5 * 60 * 1000);
    let answered = s.service.next_line("its answer");
    assert!(
        answered.starts_with("answered 200 ")
            && answered.contains(r#""delivered":true"#)
            && answered.contains(RUN),
        "{answered}"
    );
    let show = server.wait_run(RUN, "done", |r| r["status"] == "done");
    assert_eq!(
        outcome(&show),
        "refunded 120.00 USD for order 9482, approved by finance",
        "{show}"
    );
    let paid = s.refunds.requests();
    assert_eq!(paid.len(), 1, "the refund is sent once");
    assert_eq!(
        paid[0].json(),
        json!({"order": "9482", "amount_usd": 120.0, "customer": "ann"})
    );
    let rows = s.env.audit_rows(RUN, "callback");
    assert_eq!(rows.len(), 1, "{rows:?}");
    // The host took the answer five minutes on, in its own (moved) time.
    let wall = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as u64;
    let at = rows[0]["at"].as_u64().unwrap();
    assert!(at >= wall + 4 * 60 * 1000, "answered at {at}, wall {wall}");
    assert_eq!(rows[0]["data"]["id"], "approval");
    assert_eq!(rows[0]["data"]["topic"], "callback:approval");
    assert!(
        rows[0]["data"]["from"]
            .as_str()
            .is_some_and(|f| f.starts_with("127.0.0.1:")),
        "{rows:?}"
    );

    // The link delivers once: a replayed POST changes nothing.
    let steps = s.env.checkpoint_seqs(RUN).len();
    let (status, body) = server.post_as(&path, None, &json!({"approved": true, "by": "mallory"}));
    assert_eq!(status, 409, "{body}");
    let error = body["error"].as_str().unwrap();
    assert!(
        error.contains("this callback link was already used at 20"),
        "{error}"
    );
    assert_eq!(s.env.checkpoint_seqs(RUN).len(), steps);
    assert_eq!(s.refunds.requests().len(), 1);
    assert_eq!(s.env.audit_rows(RUN, "callback").len(), 1);
    let links = &s.env.show(RUN)["callbacks"];
    assert_eq!(links[0]["id"], "approval", "{links}");
    assert!(
        links[0]["used_at"].is_string(),
        "show lists the used link: {links}"
    );
    assert!(
        s.env
            .ok(&["show", RUN])
            .contains("callback   approval on `callback:approval`: used at"),
        "the text form lists it too"
    );
}

#[test]
fn with_no_answer_the_run_escalates_at_the_links_expiry_and_the_link_is_then_gone() {
    let s = setup("cb-silent", &["--never"]);
    let server = s.env.serve();
    let url = s.ask(&server, 10 * 60 * 1000);
    let path = link_path(&server, &url);
    s.set_clock(9 * 60 * 1000);
    std::thread::sleep(Duration::from_millis(500));
    let show = server.wait_run(RUN, "waiting", |r| r["status"] == "waiting");
    assert_eq!(show["status"], "waiting", "woke before the expiry: {show}");

    s.set_clock(11 * 60 * 1000);
    let show = server.wait_run(RUN, "done", |r| r["status"] == "done");
    assert!(outcome(&show).starts_with("escalated: no answer"), "{show}");
    assert_eq!(
        show["status_text"],
        "no answer came from the approval service in time; a human must decide",
        "{show}"
    );

    let (status, body) = server.post_as(&path, None, &json!({"approved": true, "by": "late"}));
    assert_eq!(status, 410, "{body}");
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("this callback link expired at"),
        "{body}"
    );
    assert!(s.refunds.requests().is_empty());
    assert!(s.env.audit_rows(RUN, "callback").is_empty());
    assert_eq!(s.env.audit_rows(RUN, "callback refused").len(), 1);
}

#[test]
fn a_forged_link_or_a_body_that_is_not_json_delivers_nothing() {
    let s = setup("cb-forged", &["--never"]);
    let server = s.env.serve();
    let url = s.ask(&server, 3_600_000);
    let path = link_path(&server, &url);

    let forged = format!("/v1/callback/{}", "0".repeat(64));
    let (status, body) = server.post_as(&forged, None, &json!({"approved": true}));
    assert_eq!(status, 404, "{body}");
    assert_eq!(body["error"], "no callback link has this token");
    let (status, body) = server.post_as("/v1/callback/short", None, &json!({}));
    assert_eq!(status, 404, "{body}");

    let not_json = b"approved=true".to_vec();
    let (status, body) = server.request(
        "POST",
        &path,
        None,
        Some(("application/json", not_json.clone())),
    );
    assert_eq!(status, 400, "{body}");
    assert!(body["error"].is_string(), "{body}");
    let (status, body) = server.request("POST", &path, None, Some(("text/plain", not_json)));
    assert_eq!(status, 415, "{body}");

    let show = server.wait_run(RUN, "waiting", |r| r["status"] == "waiting");
    assert_eq!(show["status"], "waiting");
    assert!(s.env.audit_rows(RUN, "callback").is_empty());
    // The real link still works after all that.
    let (status, body) = server.post_as(&path, None, &json!({"approved": false, "by": "finance"}));
    assert_eq!(status, 200, "{body}");
    let show = server.wait_run(RUN, "done", |r| r["status"] == "done");
    assert_eq!(outcome(&show), "refused by finance");
    assert!(s.refunds.requests().is_empty());
}

#[test]
fn a_crash_right_after_the_link_is_made_replays_the_same_link() {
    let s = setup("cb-crash", &["--never"]);
    let input = json!({"order": "9482", "amount_usd": 120.0, "customer": "ann"});
    s.env.start("refund-approval", RUN, input);
    let out = s
        .env
        .clone_with_env("WAKEFUL_FAILPOINT", "after-call:refund-9482:link")
        .output(&["work", "--until-idle"]);
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(
        out.status.signal(),
        Some(9),
        "the worker should die at after-call: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    s.env.work();
    let asked = s.service.next_line("the approval request");
    let url = asked.strip_prefix("asked ").unwrap();
    // `work` makes links under `[api] listen`, by default 127.0.0.1:7070.
    assert!(
        url.starts_with("http://127.0.0.1:7070/v1/callback/"),
        "{url}"
    );
    assert_eq!(s.env.show(RUN)["status"], "waiting");

    let tokens: Vec<String> = s
        .env
        .sql_query(&format!(
            "SELECT token FROM callbacks WHERE run_id = '{RUN}'"
        ))
        .into_iter()
        .map(|row| row[0].as_str().unwrap().to_string())
        .collect();
    assert_eq!(tokens.len(), 1, "one link: {tokens:?}");
    // The store keeps only the token's SHA-256.
    let token = url.rsplit('/').next().unwrap();
    assert!(!url.ends_with(&tokens[0]), "the token is stored as it is");
    assert_eq!(sha256_hex(token), tokens[0], "{url} is not the stored link");
    let made: Vec<Value> = s
        .env
        .recorded_calls(RUN)
        .into_iter()
        .filter(|r| r["data"]["tool"] == "callback")
        .collect();
    assert_eq!(made.len(), 1, "{made:?}");
    // And no second request went out with another link.
    std::thread::sleep(Duration::from_millis(200));
    assert!(s.service.lines.try_recv().is_err());
}

/// With `[approvals.tools.refunds] requires_approval`, the service's yes is
/// not enough: the refund is sent once an operator approved that very
/// call, and a run that never asks the host is refused by it.
#[test]
fn a_refund_the_host_gates_is_sent_only_after_an_operator_approves_that_call() {
    let s = setup_with(
        "cb-gated",
        &["--after-ms", "0"],
        "[approvals.tools.refunds]\nrequires_approval = true\n",
    );
    let server = s.env.serve();
    for (run, order, human) in [(RUN, "9482", true), ("refund-1", "1", false)] {
        let input = json!({"order": order, "amount_usd": 120.0, "customer": "ann",
            "human_approval": human});
        let (status, body) = server.post(
            "/v1/runs",
            &json!({"agent": "refund-approval", "id": run, "input": input}),
        );
        assert_eq!(status, 201, "{body}");
    }
    let asking = server.wait_run(RUN, "the operator's request", |r| {
        r["pending_approvals"]
            .as_array()
            .is_some_and(|p| !p.is_empty())
    });
    assert_eq!(asking["pending_approvals"][0]["id"], "refund-9482");
    let never = server.wait_run("refund-1", "parked", |r| r["status"] == "parked");
    let error = never["last_error"].as_str().unwrap_or_default();
    assert!(error.contains("denied: needs approval"), "{never}");
    assert!(
        s.refunds.requests().is_empty(),
        "nothing sent before an operator said yes"
    );

    s.env.approve(RUN, "refund-9482", &["--by", "alice"]);
    let show = server.wait_run(RUN, "done", |r| r["status"] == "done");
    assert_eq!(
        outcome(&show),
        format!(
            "refunded 120.00 USD for order 9482, approved by finance and {}",
            crate::principal::os_principal()
        ),
        "{show}"
    );
    assert_eq!(s.refunds.requests().len(), 1, "the refund is sent once");
}

/// Lowercase hex SHA-256 of `text`, by `sha256sum`.
fn sha256_hex(text: &str) -> String {
    use std::io::Write;
    let mut child = std::process::Command::new("sha256sum")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("run sha256sum");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    String::from_utf8(out.stdout).unwrap()[..64].to_string()
}
