//! Cassettes: a real run of the Python `incident-loop` agent against the
//! fake model server of `agent_loop`, written out by `wakeful cassette`,
//! then replayed by the Python SDK's fake host natively (CPython, no
//! component): the same agent passes from its first wake to its end, and
//! the same agent with another system prompt fails, naming the call. A run
//! whose scale action needed an approval replays the host's refusal too,
//! so the replayed agent asks for the same approval. The TypeScript agent's
//! run replays the same way in Node, through its SDK's fake host.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::{Value, json};

use crate::agent_loop::{SCALE_REQUEST, model_server, sink};
use crate::fake_servers::FakeServer;
use crate::harness::{Env, FAST_LIMITS, Lang, repo};

/// The token the pager tool sends in a header: a secret the cassette must
/// not hold.
const TOKEN: &str = "pager-token-5f1c9e27d04b";

/// The keys of the run's calls: four model turns and the three tools the
/// model asks for.
const KEYS: [&str; 7] = [
    "loop:1:model",
    "loop:1:tool:call_1",
    "loop:2:model",
    "loop:2:tool:call_2",
    "loop:3:model",
    "loop:3:tool:call_3",
    "loop:4:model",
];

/// The keys of the run whose scale action waited for an approval: the
/// refused call, then the approved one under a key of its own.
const APPROVED_KEYS: [&str; 8] = [
    "loop:1:model",
    "loop:1:tool:call_1",
    "loop:2:model",
    "loop:2:tool:call_2",
    "loop:3:model",
    "loop:3:tool:call_3:approved",
    "loop:4:model",
    "loop:3:tool:call_3",
];

/// Steps the agent from its first wake to its end against the SDK's fake
/// host answering from the cassette; `changed-prompt` adds a sentence to
/// its system prompt first. A wait for an approval is answered yes by
/// `bob`. Prints the outcome, the calls made and the approvals asked, and
/// checks that each entry's fingerprint is the one the SDK computes.
const REPLAY: &str = r#"
import json, sys
from wakeful_sdk import Approval, Next, Resume, Start, testing
import app

cassette_file, mode, start_input = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
cassette = json.load(open(cassette_file))
for e in cassette["entries"]:
    mine = testing.fingerprint(cassette["agent"], e["tool"], e["key"], e["args"])
    assert mine == e["fingerprint"], (e["key"], mine, e["fingerprint"])
if mode == "changed-prompt":
    app.SYSTEM += " Be brief."
testing.reset()
testing.replay(open(cassette_file).read(), app.IncidentLoop)
state, step = testing.step(app.IncidentLoop, None, Start(start_input))
asked = []
while not isinstance(step.next, Next.Done):
    wake = Resume()
    if isinstance(step.next, Next.Wait):
        request = step.next.waits[0].value
        asked.append(request.id)
        wake = Approval(request.id, True, "bob", 0, None, request.digest())
    state, step = testing.step(app.IncidentLoop, state, wake)
print(json.dumps({"outcome": step.outcome, "asked": asked,
                  "calls": [[c.name, c.idempotency_key] for c in testing.calls()]}))
"#;

/// [`REPLAY`] for the TypeScript agent, bundled with esbuild (the agent,
/// the SDK and its fake host in one module) and run by Node. A start
/// input other than the recorded one is the changed request.
const REPLAY_TS: &str = r#"
import { readFileSync } from "node:fs";
import { Step, Wake } from "wakeful-sdk";
import * as testing from "wakeful-sdk/testing";
import incidentLoop from "AGENT";

const [file, input] = process.argv.slice(2);
const cassette = JSON.parse(readFileSync(file, "utf8"));
for (const e of cassette.entries) {
  const mine = testing.fingerprint(cassette.agent, e.tool, e.key, e.args);
  if (mine !== e.fingerprint) throw new Error(`fingerprint of ${e.key}: ${mine} != ${e.fingerprint}`);
}
testing.reset();
testing.replay(cassette, incidentLoop);
let { step, state } = testing.step(incidentLoop, null, Wake.start(JSON.parse(input)));
const asked = [];
while (step.next.kind !== "done") {
  let wake = Wake.resume();
  if (step.next.kind === "wait") {
    const request = step.next.waits[0].request;
    asked.push(request.id);
    wake = Wake.approval({ requestId: request.id, approved: true, by: "bob", at: 0,
      comment: null, digest: request.digest() });
  }
  ({ step, state } = testing.step(incidentLoop, state, wake));
}
console.log(JSON.stringify({ outcome: step.next.outcome, asked,
  calls: testing.calls().map((c) => [c.name, c.idempotencyKey]) }));
"#;

/// Runs [`REPLAY_TS`] of `cassette` for the start input `input`.
fn replay_ts(env: &Env, cassette: &Path, input: &Value) -> Output {
    let ts = repo().join("agents/ts");
    let script = env.dir.join("replay.ts");
    let agent = ts.join("incident-loop/app.ts");
    std::fs::write(&script, REPLAY_TS.replace("AGENT", agent.to_str().unwrap())).unwrap();
    let bundle = env.dir.join("replay.mjs");
    let build = format!(
        "import {{ build }} from {:?}; await build({{ entryPoints: [{:?}], bundle: true, \
         format: 'esm', platform: 'node', outfile: {:?}, nodePaths: [{:?}], \
         logLevel: 'warning' }});",
        ts.join("node_modules/esbuild/lib/main.js")
            .display()
            .to_string(),
        script.display().to_string(),
        bundle.display().to_string(),
        ts.join("node_modules").display().to_string(),
    );
    let built = Command::new("node")
        .args(["--input-type=module", "-e", &build])
        .current_dir(&env.dir)
        .output()
        .expect("node is installed");
    assert!(built.status.success(), "{}", text(&built.stderr));
    Command::new("node")
        .arg(&bundle)
        .args([cassette.to_str().unwrap(), &input.to_string()])
        .current_dir(&env.dir)
        .output()
        .expect("node is installed")
}

/// The TypeScript agent's run, approved, replays from its cassette in
/// Node through the SDK's own fake host, asking the same approval; another
/// start input misses on the first model call, naming it.
#[test]
fn a_typescript_run_replays_in_its_sdk_and_a_changed_request_misses_naming_the_call() {
    let (model, sink) = (model_server(), sink());
    let env = recorded_run_in(Lang::TypeScript, "cassette-ts", &model, &sink, true);
    let file = env.dir.join("inc.cassette.json");
    env.ok(&["cassette", "inc", "--out", file.to_str().unwrap()]);
    let replayed = ran_to_the_end(&replay_ts(&env, &file, &start_input()));
    assert_eq!(replayed["asked"], json!([SCALE_REQUEST]));
    let keys: Vec<&str> = (replayed["calls"].as_array().unwrap().iter())
        .map(|c| c[1].as_str().unwrap())
        .collect();
    let mut sorted = keys.clone();
    sorted.sort_unstable();
    let mut recorded = APPROVED_KEYS.to_vec();
    recorded.sort_unstable();
    assert_eq!(sorted, recorded, "every recorded call, and no other");

    let mut other = start_input();
    other["summary"] = json!("p99 9s");
    let out = replay_ts(&env, &file, &other);
    let stderr = text(&out.stderr);
    assert!(!out.status.success(), "another request replayed:\n{stderr}");
    for part in [
        "cassette miss",
        "tool `llm`",
        "key `loop:1:model`",
        "recorded for other arguments",
        "p99 9s",
    ] {
        assert!(stderr.contains(part), "{part:?} not in:\n{stderr}");
    }
}

fn start_input() -> Value {
    json!({"incident": "INC-7", "service": "payments-api", "summary": "p99 4s, memory 97%"})
}

/// A host whose model is `model` and whose pager (sending [`TOKEN`] as a
/// secret header) and scale tools post to `sink`, running the Python agent
/// to its end as run `inc`; with `approval`, the scale action needs one,
/// which `bob` gives.
fn recorded_run(name: &str, model: &FakeServer, sink: &FakeServer, approval: bool) -> Env {
    recorded_run_in(Lang::Python, name, model, sink, approval)
}

/// [`recorded_run`] of the agent written in `lang`.
fn recorded_run_in(
    lang: Lang,
    name: &str,
    model: &FakeServer,
    sink: &FakeServer,
    approval: bool,
) -> Env {
    let approval_rule = if approval {
        "[approvals.tools.scale]\nrequires_approval = true\n"
    } else {
        ""
    };
    let config = format!(
        "{FAST_LIMITS}{approval_rule}[secrets.pager]\nenv = \"WAKEFUL_TEST_PAGER_TOKEN\"\n\
         [tools.llm]\nkind = \"llm\"\nformat = \"openai\"\nurl = \"{}/v1/chat/completions\"\n\
         model = \"m-1\"\nmax_tokens = 100\ntimeout_ms = 1000\n\
         [tools.pager]\nkind = \"http\"\nurl = \"{sink}/page\"\ntimeout_ms = 1000\nidempotent = true\n\
         headers = {{ Authorization = \"Bearer ${{secret:pager}}\" }}\n\
         [tools.scale]\nkind = \"http\"\nurl = \"{sink}/scale\"\ntimeout_ms = 1000\nidempotent = true\n",
        model.url,
        sink = sink.url,
    );
    let env = Env::new(name, &config)
        .clone_with_env("WAKEFUL_TEST_PAGER_TOKEN", TOKEN)
        .deploy_in(lang, "incident-loop", &["llm", "kv", "pager", "scale"]);
    env.ok(&[
        "start",
        &lang.agent_name("incident-loop"),
        "--id",
        "inc",
        "--input",
        &start_input().to_string(),
    ]);
    env.work();
    if approval {
        env.approve("inc", SCALE_REQUEST, &["--by", "bob"]);
        env.work();
    }
    let show = env.show("inc");
    assert_eq!(show["status"], "done", "{show}");
    env
}

/// Runs [`REPLAY`] with the Python SDK and the agent importable.
fn replay(env: &Env, cassette: &Path, mode: &str) -> Output {
    let script = env.dir.join("replay.py");
    std::fs::write(&script, REPLAY).unwrap();
    let path: Vec<PathBuf> = vec![
        repo().join("guest-sdk/python"),
        repo().join("agents/python/incident-loop"),
    ];
    Command::new("python3")
        .arg(&script)
        .args([cassette.to_str().unwrap(), mode, &start_input().to_string()])
        .current_dir(&env.dir)
        .env("PYTHONPATH", std::env::join_paths(path).unwrap())
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .output()
        .expect("python3 is installed")
}

/// What [`REPLAY`] of the unchanged agent printed, checked.
fn replayed_to_the_end(env: &Env, cassette: &Path) -> Value {
    ran_to_the_end(&replay(env, cassette, "same"))
}

/// What a replay printed, checked to have run the agent to the recorded
/// outcome.
fn ran_to_the_end(out: &Output) -> Value {
    assert!(
        out.status.success(),
        "the replay failed:\n{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    let replayed: Value = serde_json::from_str(&text(&out.stdout)).unwrap();
    assert_eq!(
        replayed["outcome"],
        "Paged on-call and scaled payments-api to 6."
    );
    replayed
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The cassette file, checked: one entry per recorded call, each with a
/// fingerprint of its own, and no secret.
fn checked_cassette(env: &Env, file: &Path) -> Value {
    let said = env.ok(&["cassette", "inc", "--out", file.to_str().unwrap()]);
    assert!(said.is_empty(), "--out prints nothing on stdout: {said}");
    let written = std::fs::read_to_string(file).unwrap();
    assert!(!written.contains(TOKEN), "the secret is in the cassette");
    let cassette: Value = serde_json::from_str(&written).unwrap();
    assert_eq!(cassette["cassette"], 1);
    assert_eq!(cassette["agent"], "incident-loop-py@0.1.0");
    assert_eq!(cassette["run"], "inc");
    let entries = cassette["entries"].as_array().unwrap();
    let keys: Vec<&str> = entries.iter().map(|e| e["key"].as_str().unwrap()).collect();
    assert_eq!(keys, KEYS, "ledger order");
    let mut recorded: Vec<String> = (env.recorded_calls("inc").iter())
        .map(|r| r["data"]["key"].as_str().unwrap().to_owned())
        .collect();
    recorded.sort();
    let mut sorted = keys.clone();
    sorted.sort_unstable();
    assert_eq!(recorded, sorted, "an entry for each recorded call");
    let tools: Vec<&str> = entries
        .iter()
        .map(|e| e["tool"].as_str().unwrap())
        .collect();
    assert_eq!(tools, ["llm", "kv", "llm", "pager", "llm", "scale", "llm"]);
    let mut prints: Vec<&str> = entries
        .iter()
        .map(|e| e["fingerprint"].as_str().unwrap())
        .collect();
    assert!(
        prints
            .iter()
            .all(|p| p.len() == 64 && p.bytes().all(|b| b.is_ascii_hexdigit()))
    );
    prints.sort_unstable();
    prints.dedup();
    assert_eq!(prints.len(), KEYS.len(), "fingerprints are distinct");
    // The guest's own view: the model's reply, the page sent.
    assert_eq!(
        entries[3]["args"]["body"]["message"],
        "INC-7: payments-api OOM"
    );
    assert!(
        entries.iter().all(|e| e.get("result").is_some()),
        "{cassette}"
    );
    // The stdout form is the same document.
    let printed: Value = serde_json::from_str(&env.ok(&["cassette", "inc"])).unwrap();
    assert_eq!(printed, cassette);
    cassette
}

#[test]
fn a_recorded_run_replays_and_a_changed_prompt_misses_naming_the_call() {
    let (model, sink) = (model_server(), sink());
    let env = recorded_run("cassette", &model, &sink, false);
    assert!(
        sink.requests()
            .iter()
            .any(|r| r.header("authorization") == Some(&format!("Bearer {TOKEN}"))),
        "the pager sent its secret header"
    );
    let file = env.dir.join("inc.cassette.json");
    checked_cassette(&env, &file);
    let sent = model.requests().len();

    let replayed = replayed_to_the_end(&env, &file);
    let keys: Vec<&str> = (replayed["calls"].as_array().unwrap().iter())
        .map(|c| c[1].as_str().unwrap())
        .collect();
    assert_eq!(keys, KEYS);
    assert_eq!(replayed["asked"], json!([]));
    assert_eq!(model.requests().len(), sent, "a replay calls no model");

    let out = replay(&env, &file, "changed-prompt");
    let stderr = text(&out.stderr);
    assert!(
        !out.status.success(),
        "a changed prompt replayed:\n{stderr}"
    );
    for part in [
        "CassetteMiss",
        "tool `llm`",
        "key `loop:1:model`",
        "recorded for other arguments",
        "first difference at /messages/0/content",
        "Be brief.",
    ] {
        assert!(stderr.contains(part), "{part:?} not in:\n{stderr}");
    }
}

#[test]
fn a_call_the_host_refused_for_want_of_an_approval_replays_as_that_refusal() {
    let (model, sink) = (model_server(), sink());
    let env = recorded_run("cassette-approval", &model, &sink, true);
    let file = env.dir.join("inc.cassette.json");
    env.ok(&["cassette", "inc", "--out", file.to_str().unwrap()]);
    let cassette: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let entries = cassette["entries"].as_array().unwrap();
    let keys: Vec<&str> = entries.iter().map(|e| e["key"].as_str().unwrap()).collect();
    assert_eq!(keys, APPROVED_KEYS, "the ledger, then the refusals");
    let refused = &entries[7];
    assert_eq!(refused["refused"], true, "{refused}");
    assert_eq!(refused["tool"], "scale");
    assert_eq!(
        refused["args"],
        json!({"body": {"service": "payments-api", "replicas": 6}})
    );
    assert_eq!(refused["error"]["kind"], "denied", "{refused}");
    let message = refused["error"]["message"].as_str().unwrap();
    assert!(message.starts_with("needs approval"), "{message}");
    assert!(refused.get("result").is_none(), "{refused}");
    assert!(
        entries[..7].iter().all(|e| e.get("refused").is_none()),
        "{cassette}"
    );

    let replayed = replayed_to_the_end(&env, &file);
    assert_eq!(replayed["asked"], json!([SCALE_REQUEST]));
    let scale_keys: Vec<&str> = (replayed["calls"].as_array().unwrap().iter())
        .filter(|c| c[0] == "scale")
        .map(|c| c[1].as_str().unwrap())
        .collect();
    assert_eq!(
        scale_keys,
        ["loop:3:tool:call_3", "loop:3:tool:call_3:approved"]
    );
}

#[test]
fn a_cassette_of_an_unknown_run_or_of_no_call_is_refused() {
    let env = Env::new("cassette-refused", FAST_LIMITS);
    let said = env.fails(&["cassette", "no-such-run"]);
    assert!(said.contains("run no-such-run does not exist"), "{said}");
    let out = env.output(&["cassette", "no-such-run", "--out", "x.json"]);
    assert_ne!(out.status.code(), Some(0));
    assert!(!env.dir.join("x.json").exists());
    env.deploy("invoice-mail", &["kv"]);
    env.start("invoice-mail", "quiet", json!({"vendor": "ACME"}));
    let said = env.fails(&["cassette", "quiet"]);
    assert!(
        said.contains("run quiet (invoice-mail@") && said.contains("has no recorded tool calls"),
        "{said}"
    );
}
