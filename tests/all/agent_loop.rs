//! The SDK's agent loop, driven by a model: `agents/incident-loop` against
//! a loopback fake of OpenAI's chat completions (or of Anthropic's
//! Messages API) that asks, over four model calls, for a kv note, a page,
//! and a scale action, which the host lets through only with an approval.
//! Each effect happens once and each model call is charged once, through
//! SIGKILLs after every call of the loop (of `work`, and of `serve`), in
//! Rust against both formats and in Python against Anthropic's; a
//! rejected scale action is never made and the model is told. The Python
//! and TypeScript agents (`agents/python/incident-loop`,
//! `agents/ts/incident-loop`) make the same calls and ask the same
//! approval.

use serde_json::{Value, json};

use crate::fake_servers::{FakeServer, Reply, Request};
use crate::harness::{Env, FAST_LIMITS, Lang};
use crate::llm_wire::Format as Wire;

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

/// The same answer as an Anthropic message: `tool_use` blocks, or a text
/// block.
fn message(text: Option<&str>, calls: &[(&str, Value)], turn: usize) -> Value {
    let blocks: Vec<Value> = (calls.iter().enumerate())
        .map(|(i, (name, args))| {
            json!({"type": "tool_use", "id": format!("call_{}", turn + i), "name": name,
                "input": args})
        })
        .collect();
    let (content, stop) = if blocks.is_empty() {
        (json!([{"type": "text", "text": text}]), "end_turn")
    } else {
        (Value::Array(blocks), "tool_use")
    };
    json!({"id": "msg_loop", "type": "message", "role": "assistant", "model": "m-1",
        "content": content, "stop_reason": stop, "stop_sequence": null,
        "usage": {"input_tokens": 2000, "output_tokens": TOKENS_PER_CALL - 2000}})
}

/// The tool results a request's conversation holds, as text, in order.
fn tool_results(wire: Wire, body: &Value) -> Vec<String> {
    let messages = body["messages"].as_array().unwrap();
    match wire {
        Wire::OpenAi => (messages.iter())
            .filter(|m| m["role"] == "tool")
            .map(|m| m["content"].as_str().unwrap().to_owned())
            .collect(),
        Wire::Anthropic => (messages.iter())
            .filter_map(|m| m["content"].as_array())
            .flatten()
            .filter(|b| b["type"] == "tool_result")
            .map(|b| b["content"].as_str().unwrap().to_owned())
            .collect(),
    }
}

/// The model: a note, a page, a scale action, then a summary that says
/// whether the scale action was refused.
pub(crate) fn model_server() -> FakeServer {
    model_server_in(Wire::OpenAi)
}

/// [`model_server`] speaking `wire`.
pub(crate) fn model_server_in(wire: Wire) -> FakeServer {
    FakeServer::start(move |request: &Request| {
        assert_eq!(request.path, wire.path());
        let results = tool_results(wire, &request.json());
        let (text, calls): (Option<&str>, Vec<(&str, Value)>) = match results.len() {
            0 => (
                None,
                vec![(
                    "kv",
                    json!({"op": "put", "key": "incidents/INC-7/cause", "value": "oom"}),
                )],
            ),
            1 => (
                None,
                vec![("page_oncall", json!({"message": "INC-7: payments-api OOM"}))],
            ),
            2 => (
                None,
                vec![(
                    "scale_out",
                    json!({"service": "payments-api", "replicas": 6}),
                )],
            ),
            _ if results.last().unwrap().contains("refused") => {
                (Some("Paged on-call; scaling was refused."), vec![])
            }
            _ => (Some("Paged on-call and scaled payments-api to 6."), vec![]),
        };
        let turn = results.len() + 1;
        let reply = match wire {
            Wire::OpenAi => completion(text, &calls, turn),
            Wire::Anthropic => message(text, &calls, turn),
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
    host_on(Wire::OpenAi, lang, agent, name, model, sink)
}

/// [`host_in`] whose model server speaks `wire`.
fn host_on(
    wire: Wire,
    lang: Lang,
    agent: &str,
    name: &str,
    model: &FakeServer,
    sink: &FakeServer,
) -> Env {
    let config = format!(
        "{FAST_LIMITS}[tools.llm]\nkind = \"llm\"\nformat = \"{}\"\nurl = \"{}{}\"\n\
         model = \"m-1\"\nmax_tokens = 100\ntimeout_ms = 1000\n\
         [tools.pager]\nkind = \"http\"\nurl = \"{sink}/page\"\ntimeout_ms = 1000\nidempotent = true\n\
         [tools.scale]\nkind = \"http\"\nurl = \"{sink}/scale\"\ntimeout_ms = 1000\nidempotent = true\n\
         [approvals.tools.scale]\nrequires_approval = true\n",
        wire.name(),
        model.url,
        wire.path(),
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

/// The keys of the loop's calls before its scale action waits for an
/// approval, and after.
const BEFORE_APPROVAL: [&str; 5] = [
    "loop:1:model",
    "loop:1:tool:call_1",
    "loop:2:model",
    "loop:2:tool:call_2",
    "loop:3:model",
];
const AFTER_APPROVAL: [&str; 2] = ["loop:3:tool:call_3:approved", "loop:4:model"];

#[test]
fn a_loop_killed_after_each_call_repeats_nothing_and_charges_once() {
    killed_after_each_call(Wire::OpenAi, Lang::Rust);
}

#[test]
fn a_loop_on_anthropic_killed_after_each_call_repeats_nothing_and_charges_once() {
    killed_after_each_call(Wire::Anthropic, Lang::Rust);
}

#[test]
fn a_python_loop_on_anthropic_killed_after_each_call_repeats_nothing_and_charges_once() {
    killed_after_each_call(Wire::Anthropic, Lang::Python);
}

/// The loop in `lang` against a model speaking `wire`, its worker killed
/// right after each of its calls.
fn killed_after_each_call(wire: Wire, lang: Lang) {
    let (model, sink) = (model_server_in(wire), sink());
    let agent = lang.agent_name("incident-loop");
    let name = format!("loop-crash-{}-{lang:?}", wire.name()).to_lowercase();
    let env = host_on(wire, lang, &agent, &name, &model, &sink);
    for key in BEFORE_APPROVAL {
        crash_after(&env, key);
    }
    env.work();
    the_scale_request(&env);
    env.approve("inc", SCALE_REQUEST, &["--by", "bob"]);
    for key in AFTER_APPROVAL {
        crash_after(&env, key);
    }
    env.work();
    each_effect_once(&env, &agent, &model, &sink);
}

/// The run is done, each model call was sent and charged once, each tool
/// effect happened once.
fn each_effect_once(env: &Env, agent: &str, model: &FakeServer, sink: &FakeServer) {
    let show = env.show("inc");
    assert_eq!(show["status"], "done", "{show}");
    assert_eq!(
        show["outcome"],
        "Paged on-call and scaled payments-api to 6."
    );
    assert_eq!(model.requests().len(), 4, "each model call was sent once");
    assert_eq!(show["tokens_used"], 4 * TOKENS_PER_CALL, "and charged once");
    assert_eq!((hits(sink, "/page"), hits(sink, "/scale")), (1, 1));
    let kv_puts = env
        .recorded_calls("inc")
        .into_iter()
        .filter(|r| r["data"]["tool"] == "kv")
        .count();
    assert_eq!(kv_puts, 1);
    assert_eq!(
        env.kv(&format!("agent/{agent}/incidents/INC-7/cause")),
        json!("oom")
    );
}

/// `wakeful serve`, its workers stepping the loop, SIGKILLed right after
/// each call, and started again: what `work` promises, `serve` keeps.
#[test]
fn a_loop_whose_server_is_killed_after_each_call_repeats_nothing_and_charges_once() {
    use std::os::unix::process::ExitStatusExt;
    let (model, sink) = (model_server(), sink());
    let env = host("loop-serve-crash", &model, &sink);
    let serve_until_killed = |key: &str| {
        let mut server = env
            .clone_with_env("WAKEFUL_FAILPOINT", &format!("after-call:{key}"))
            .serve();
        let exit = server.wait_exit(std::time::Duration::from_secs(60));
        assert_eq!(
            exit.and_then(|e| e.signal()),
            Some(9),
            "serve was not killed after {key}"
        );
    };
    for key in BEFORE_APPROVAL {
        serve_until_killed(key);
    }
    let settle = |server: &crate::serve_process::Server| {
        for _ in 0..600 {
            let (_, run) = server.get("/v1/runs/inc");
            if run["status"] != "active" {
                return run;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        panic!("run inc did not settle");
    };
    let server = env.serve();
    assert_eq!(settle(&server)["status"], "waiting");
    server.terminate();
    the_scale_request(&env);
    env.approve("inc", SCALE_REQUEST, &["--by", "bob"]);
    for key in AFTER_APPROVAL {
        serve_until_killed(key);
    }
    let server = env.serve();
    assert_eq!(settle(&server)["status"], "done");
    server.terminate();
    each_effect_once(&env, "incident-loop", &model, &sink);
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
