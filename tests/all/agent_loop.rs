//! The SDK's agent loop, driven by a model: `agents/incident-loop` against
//! a loopback fake of OpenAI's chat completions that asks, over four
//! model calls, for a kv note, a page, and a scale action, which the host
//! lets through only with an approval. Each effect happens once and each
//! model call is charged once, through SIGKILLs after every call of the
//! loop; a rejected scale action is never made and the model is told. The
//! Python and TypeScript agents (`agents/python/incident-loop`,
//! `agents/ts/incident-loop`) make the same calls and ask the same approval.

use serde_json::{Value, json};

use crate::fake_servers::{FakeServer, Reply, Request};
use crate::harness::{Env, FAST_LIMITS, Lang};

/// The tokens the fake model server reports for every call.
const TOKENS_PER_CALL: u64 = 2050;

/// The approval id the loop asks under for the model's `scale_out` call
/// (`<prefix>-<turn>-<tool call id>`).
pub(crate) const SCALE_REQUEST: &str = "loop-3-call_3";

/// An OpenAI chat completion whose message asks for `calls` (name and
/// arguments), or says `text` when there are none.
fn completion(text: Option<&str>, calls: &[(&str, Value)], turn: usize) -> Value {
    let tool_calls: Vec<Value> = (calls.iter().enumerate())
        .map(|(i, (name, args))| {
            json!({"id": format!("call_{}", turn + i), "type": "function",
                "function": {"name": name, "arguments": args.to_string()}})
        })
        .collect();
    let (message, finish) = if tool_calls.is_empty() {
        (json!({"role": "assistant", "content": text}), "stop")
    } else {
        (
            json!({"role": "assistant", "content": null, "tool_calls": tool_calls}),
            "tool_calls",
        )
    };
    json!({"id": "chatcmpl-loop", "object": "chat.completion", "model": "m-1",
        "choices": [{"index": 0, "message": message, "finish_reason": finish}],
        "usage": {"prompt_tokens": 2000, "completion_tokens": TOKENS_PER_CALL - 2000,
            "total_tokens": TOKENS_PER_CALL}})
}

/// The model: a note, a page, a scale action, then a summary that says
/// whether the scale action was refused.
pub(crate) fn model_server() -> FakeServer {
    FakeServer::start(|request: &Request| {
        let body = request.json();
        let messages = body["messages"].as_array().unwrap();
        let results: Vec<&Value> = messages.iter().filter(|m| m["role"] == "tool").collect();
        let reply = match results.len() {
            0 => completion(
                None,
                &[(
                    "kv",
                    json!({"op": "put", "key": "incidents/INC-7/cause", "value": "oom"}),
                )],
                1,
            ),
            1 => completion(
                None,
                &[("page_oncall", json!({"message": "INC-7: payments-api OOM"}))],
                2,
            ),
            2 => completion(
                None,
                &[(
                    "scale_out",
                    json!({"service": "payments-api", "replicas": 6}),
                )],
                3,
            ),
            _ => {
                let last = results.last().unwrap()["content"].as_str().unwrap();
                let text = if last.contains("refused") {
                    "Paged on-call; scaling was refused."
                } else {
                    "Paged on-call and scaled payments-api to 6."
                };
                completion(Some(text), &[], 4)
            }
        };
        Reply::Json(200, reply)
    })
}

/// A host whose model is `model`, whose pager and scale action post to
/// `sink`, and whose scale action needs an approval, running the Rust
/// agent as run `inc`.
fn host(name: &str, model: &FakeServer, sink: &FakeServer) -> Env {
    host_in(Lang::Rust, "incident-loop", name, model, sink)
}

/// [`host`] running the agent written in `lang`, named `agent`.
fn host_in(lang: Lang, agent: &str, name: &str, model: &FakeServer, sink: &FakeServer) -> Env {
    let config = format!(
        "{FAST_LIMITS}[tools.llm]\nkind = \"llm\"\nformat = \"openai\"\nurl = \"{}/v1/chat/completions\"\n\
         model = \"m-1\"\nmax_tokens = 100\ntimeout_ms = 1000\n\
         [tools.pager]\nkind = \"http\"\nurl = \"{sink}/page\"\ntimeout_ms = 1000\nidempotent = true\n\
         [tools.scale]\nkind = \"http\"\nurl = \"{sink}/scale\"\ntimeout_ms = 1000\nidempotent = true\n\
         [approvals.tools.scale]\nrequires_approval = true\n",
        model.url,
        sink = sink.url,
    );
    let env =
        Env::new(name, &config).deploy_in(lang, "incident-loop", &["llm", "kv", "pager", "scale"]);
    env.ok(&[
        "start",
        agent,
        "--id",
        "inc",
        "--input",
        &json!({"incident": "INC-7", "service": "payments-api",
            "summary": "p99 4s, memory 97%"})
        .to_string(),
    ]);
    env
}

pub(crate) fn sink() -> FakeServer {
    FakeServer::start(|_| Reply::Json(200, json!({"ok": true})))
}

/// How many requests `sink` got on `path`.
fn hits(sink: &FakeServer, path: &str) -> usize {
    sink.requests().iter().filter(|r| r.path == path).count()
}

/// The pending approval of the scale action, checked to name the call.
fn the_scale_request(env: &Env) -> Value {
    let show = env.show("inc");
    assert_eq!(show["status"], "waiting", "{show}");
    let pending = show["pending_approvals"][0].clone();
    assert_eq!(pending["id"], SCALE_REQUEST, "{show}");
    let call = &pending["details"]["calls"][0];
    assert_eq!(call["tool"], "scale", "{pending}");
    assert_eq!(
        call["args"],
        json!({"body": {"service": "payments-api", "replicas": 6}})
    );
    pending
}

#[test]
fn the_model_drives_the_loop_and_an_approved_scale_action_is_made_once() {
    let (model, sink) = (model_server(), sink());
    let env = host("loop-approve", &model, &sink);
    env.work();
    the_scale_request(&env);
    assert_eq!((hits(&sink, "/page"), hits(&sink, "/scale")), (1, 0));
    env.approve("inc", SCALE_REQUEST, &["--by", "bob"]);
    env.work();
    let show = env.show("inc");
    assert_eq!(show["status"], "done", "{show}");
    assert_eq!(
        show["outcome"],
        "Paged on-call and scaled payments-api to 6."
    );
    assert_eq!((hits(&sink, "/page"), hits(&sink, "/scale")), (1, 1));
    let scaled = sink
        .requests()
        .into_iter()
        .find(|r| r.path == "/scale")
        .unwrap();
    assert_eq!(
        scaled.json(),
        json!({"service": "payments-api", "replicas": 6})
    );
    assert_eq!(
        env.kv("agent/incident-loop/incidents/INC-7/cause"),
        json!("oom")
    );
    assert_eq!(model.requests().len(), 4);
    // The model saw only the tools mapped for it.
    let offered: Vec<Value> = model.requests()[0].json()["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["function"]["name"].clone())
        .collect();
    assert_eq!(
        offered,
        [json!("kv"), json!("page_oncall"), json!("scale_out")]
    );
    assert_eq!(show["tokens_used"], 4 * TOKENS_PER_CALL);
}

#[test]
fn a_rejected_scale_action_is_never_made_and_the_model_is_told() {
    let (model, sink) = (model_server(), sink());
    let env = host("loop-reject", &model, &sink);
    env.work();
    the_scale_request(&env);
    env.approve("inc", SCALE_REQUEST, &["--reject", "--by", "bob"]);
    env.work();
    let show = env.show("inc");
    assert_eq!(
        show["outcome"], "Paged on-call; scaling was refused.",
        "{show}"
    );
    assert_eq!(hits(&sink, "/scale"), 0);
    let last = model.requests().last().unwrap().json();
    let told = last["messages"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(told["role"], "tool", "{told}");
    assert!(
        told["content"]
            .as_str()
            .unwrap()
            .contains("rejected this call"),
        "{told}"
    );
}

/// Runs the worker until it is SIGKILLed right after the call keyed `key`.
fn crash_after(env: &Env, key: &str) {
    use std::os::unix::process::ExitStatusExt;
    let out = env
        .clone_with_env("WAKEFUL_FAILPOINT", &format!("after-call:{key}"))
        .output(&["work", "--until-idle"]);
    assert_eq!(
        out.status.signal(),
        Some(9),
        "not killed after {key}: {out:?}"
    );
}

#[test]
fn a_loop_killed_after_each_call_repeats_nothing_and_charges_once() {
    let (model, sink) = (model_server(), sink());
    let env = host("loop-crash", &model, &sink);
    for key in [
        "loop:1:model",
        "loop:1:tool:call_1",
        "loop:2:model",
        "loop:2:tool:call_2",
        "loop:3:model",
    ] {
        crash_after(&env, key);
    }
    env.work();
    the_scale_request(&env);
    env.approve("inc", SCALE_REQUEST, &["--by", "bob"]);
    crash_after(&env, "loop:3:tool:call_3:approved");
    crash_after(&env, "loop:4:model");
    env.work();
    let show = env.show("inc");
    assert_eq!(show["status"], "done", "{show}");
    assert_eq!(
        show["outcome"],
        "Paged on-call and scaled payments-api to 6."
    );
    assert_eq!(model.requests().len(), 4, "each model call was sent once");
    assert_eq!(show["tokens_used"], 4 * TOKENS_PER_CALL, "and charged once");
    assert_eq!((hits(&sink, "/page"), hits(&sink, "/scale")), (1, 1));
    let kv_puts = env
        .recorded_calls("inc")
        .into_iter()
        .filter(|r| r["data"]["tool"] == "kv")
        .count();
    assert_eq!(kv_puts, 1);
}

#[test]
fn the_python_loop_makes_the_same_calls_and_asks_the_same_approval() {
    the_same_calls_and_approval_in(Lang::Python);
}

#[test]
fn the_typescript_loop_makes_the_same_calls_and_asks_the_same_approval() {
    the_same_calls_and_approval_in(Lang::TypeScript);
}

/// The approved run of the agent written in `lang`, as the Rust agent's.
fn the_same_calls_and_approval_in(lang: Lang) {
    let (model, sink) = (model_server(), sink());
    let agent = lang.agent_name("incident-loop");
    let name = format!("loop-{lang:?}").to_lowercase();
    let env = host_in(lang, &agent, &name, &model, &sink);
    env.work();
    the_scale_request(&env);
    env.approve("inc", SCALE_REQUEST, &["--by", "bob"]);
    env.work();
    let show = env.show("inc");
    assert_eq!(show["status"], "done", "{show}");
    assert_eq!(
        show["outcome"],
        "Paged on-call and scaled payments-api to 6."
    );
    assert_eq!((hits(&sink, "/page"), hits(&sink, "/scale")), (1, 1));
    assert_eq!(
        env.kv(&format!("agent/{agent}/incidents/INC-7/cause")),
        json!("oom")
    );
    assert_eq!(show["tokens_used"], 4 * TOKENS_PER_CALL);
}
