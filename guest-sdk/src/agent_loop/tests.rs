use serde_json::{Value, json};

use super::*;
use crate::testing;

const TOOLS: &[&str] = &["llm", "kv", "scale"];

fn config() -> Config {
    let object = json!({"type": "object"});
    Config::new(
        "llm",
        vec![
            LoopTool::new("kv", "Read a key", object.clone()),
            LoopTool::new("scale", "Scale a service out", object)
                .named("scale_out")
                .under("body"),
        ],
        TOOLS,
    )
    .unwrap()
}

/// An OpenAI-neutral reply of the `llm` tool.
fn reply(content: Option<&str>, calls: Value, tokens: u64) -> Value {
    let stop = if calls.as_array().is_some_and(|c| !c.is_empty()) {
        "tool_calls"
    } else {
        "end_turn"
    };
    json!({"message": {"role": "assistant", "content": content, "tool_calls": calls},
        "stop_reason": stop, "provider_stop_reason": stop,
        "usage": {"input_tokens": 1, "output_tokens": 1, "total_tokens": tokens, "cost_usd": 0.0}})
}

/// A model that reads key `a`, then scales out, then answers. The `scale`
/// tool is refused as the gate refuses a call without an approval, unless
/// the call's key is the loop's key of an approved call.
fn script_host() {
    testing::reset();
    testing::on_tool(|name, args| {
        let key = testing::calls().last().unwrap().idempotency_key.clone();
        match name {
            "llm" => Ok(model(args)),
            "kv" => Ok(json!({"value": "7", "version": 1})),
            "scale" if key.ends_with(":approved") => Ok(json!({"scaled": args["body"]["service"]})),
            "scale" => Err(ToolError::Denied(
                "needs approval: tool `scale` runs only with an approved request".into(),
            )),
            other => Err(ToolError::Unknown(other.into())),
        }
    });
}

fn model(args: &Value) -> Value {
    let results = args["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["role"] == "tool")
        .count();
    match results {
        0 => reply(
            None,
            json!([{"id": "c1", "name": "kv", "arguments": {"op": "get", "key": "a"}}]),
            10,
        ),
        1 => reply(
            None,
            json!([{"id": "c2", "name": "scale_out", "arguments": {"service": "api", "by": 2}}]),
            20,
        ),
        _ => reply(Some("done"), json!([]), 30),
    }
}

fn step(chat: &mut Loop, wake: &Wake) -> Turn {
    chat.advance(&config(), wake).unwrap()
}

fn is_continue(turn: &Turn) -> bool {
    matches!(turn, Turn::Step(s) if s.next == crate::Next::Continue)
}

#[test]
fn a_config_offers_only_declared_tools() {
    let spec = |t| LoopTool::new(t, "", json!({}));
    let err = Config::new("llm", vec![spec("pager")], TOOLS).unwrap_err();
    assert!(
        err.contains("`pager`") && err.contains("not in the agent's TOOLS"),
        "{err}"
    );
    let err = Config::new("model", vec![], TOOLS).unwrap_err();
    assert!(err.contains("model tool `model`"), "{err}");
    let err = Config::new("llm", vec![spec("kv"), spec("kv")], TOOLS).unwrap_err();
    assert!(err.contains("two tools named `kv`"), "{err}");
}

#[test]
fn a_loop_alternates_model_calls_and_tool_calls_with_derived_keys() {
    script_host();
    let mut chat = Loop::new(vec![Message::user("scale if needed")]);
    assert!(is_continue(&step(&mut chat, &Wake::Start(Value::Null))));
    assert_eq!(chat.pending.len(), 1);
    assert!(is_continue(&step(&mut chat, &Wake::Resume)));
    assert!(is_continue(&step(&mut chat, &Wake::Resume)));
    let calls = testing::calls();
    let keys: Vec<&str> = calls.iter().map(|c| c.idempotency_key.as_str()).collect();
    assert_eq!(keys, ["loop:1:model", "loop:1:tool:c1", "loop:2:model"]);
    // Offered under the config's names; the first call's result went back.
    assert_eq!(calls[0].args["tools"][1]["name"], "scale_out");
    assert_eq!(
        calls[2].args["messages"][2]["content"],
        r#"{"value":"7","version":1}"#
    );
}

#[test]
fn a_call_needing_approval_waits_for_it_and_is_made_once_approved() {
    script_host();
    let mut chat = Loop::new(vec![Message::user("go")]);
    for wake in [Wake::Start(Value::Null), Wake::Resume, Wake::Resume] {
        step(&mut chat, &wake);
    }
    let Turn::Step(wait) = step(&mut chat, &Wake::Resume) else {
        panic!("not waiting")
    };
    let crate::Next::Wait(waits) = &wait.next else {
        panic!("{wait:?}")
    };
    let crate::Wait::Approval(request) = &waits[0] else {
        panic!("{waits:?}")
    };
    let named = &request.details["calls"][0];
    assert_eq!(named["tool"], "scale");
    assert_eq!(named["args"], json!({"body": {"service": "api", "by": 2}}));
    let call = Call::new("scale", &json!({"body": {"by": 2, "service": "api"}})).unwrap();
    assert_eq!(named["args_sha256"], call.args_sha256());
    // Another wake while waiting: the same request again.
    assert_eq!(step(&mut chat, &Wake::Resume), Turn::Step(wait.clone()));
    let answer = crate::Approval {
        request_id: request.id.clone(),
        approved: true,
        by: "bob".into(),
        at: 1,
        comment: None,
        digest: request.digest(),
    };
    assert!(is_continue(&step(&mut chat, &Wake::Approval(answer))));
    let Turn::Finished(done) = step(&mut chat, &Wake::Resume) else {
        panic!("not finished")
    };
    assert_eq!(done.text(), Some("done"));
    let made: Vec<_> = testing::calls()
        .into_iter()
        .filter(|c| c.name == "scale")
        .map(|c| c.idempotency_key)
        .collect();
    assert_eq!(made, ["loop:2:tool:c2", "loop:2:tool:c2:approved"]);
    assert_eq!(
        chat.messages[4],
        Message::Tool {
            tool_call_id: "c2".into(),
            content: r#"{"scaled":"api"}"#.into()
        }
    );
}

/// The loop up to its wait for the approval of `scale_out`.
fn until_the_approval() -> (Loop, ApprovalRequest) {
    script_host();
    let mut chat = Loop::new(vec![Message::user("go")]);
    for wake in [Wake::Start(Value::Null), Wake::Resume, Wake::Resume] {
        step(&mut chat, &wake);
    }
    let Turn::Step(wait) = step(&mut chat, &Wake::Resume) else {
        panic!("not waiting")
    };
    let crate::Next::Wait(waits) = &wait.next else {
        panic!("{wait:?}")
    };
    let crate::Wait::Approval(request) = &waits[0] else {
        panic!("{waits:?}")
    };
    (chat, request.clone())
}

fn answer(request: &ApprovalRequest, approved: bool) -> Wake {
    Wake::Approval(crate::Approval {
        request_id: request.id.clone(),
        approved,
        by: "bob".into(),
        at: 1,
        comment: Some("not now".into()),
        digest: request.digest(),
    })
}

#[test]
fn a_rejected_call_is_not_made_and_the_model_is_told() {
    let (mut chat, request) = until_the_approval();
    assert!(is_continue(&step(&mut chat, &answer(&request, false))));
    let scales = testing::calls()
        .iter()
        .filter(|c| c.name == "scale")
        .count();
    assert_eq!(scales, 1, "only the refused attempt");
    let Message::Tool { content, .. } = &chat.messages[4] else {
        panic!("{:?}", chat.messages[4])
    };
    assert_eq!(
        content,
        r#"{"error":"refused: bob rejected this call (not now)"}"#
    );
    assert!(matches!(step(&mut chat, &Wake::Resume), Turn::Finished(_)));
}

#[test]
fn a_retried_step_replays_its_calls() {
    script_host();
    let mut chat = Loop::new(vec![Message::user("go")]);
    let before = chat.clone();
    step(&mut chat, &Wake::Start(Value::Null));
    // The host crashed before saving the state: the step runs again.
    let mut again = before;
    step(&mut again, &Wake::Start(Value::Null));
    assert_eq!(again, chat);
    let before = chat.clone();
    step(&mut chat, &Wake::Resume);
    let mut again = before;
    step(&mut again, &Wake::Resume);
    assert_eq!(again, chat);
    let replayed: Vec<(String, bool)> = testing::calls()
        .into_iter()
        .map(|c| (c.idempotency_key, c.replayed))
        .collect();
    assert_eq!(
        replayed,
        [
            ("loop:1:model".to_string(), false),
            ("loop:1:model".to_string(), true),
            ("loop:1:tool:c1".to_string(), false),
            ("loop:1:tool:c1".to_string(), true),
        ]
    );
}

#[test]
fn an_unknown_tool_is_answered_with_an_error_and_max_turns_stops() {
    testing::reset();
    testing::on_tool(|_, _| {
        Ok(reply(
            None,
            json!([{"id": "x", "name": "rm_rf", "arguments": {}}]),
            1,
        ))
    });
    let mut config = config();
    config.max_turns = 2;
    let mut chat = Loop::new(vec![Message::user("go")]);
    chat.advance(&config, &Wake::Resume).unwrap();
    chat.advance(&config, &Wake::Resume).unwrap();
    assert_eq!(
        chat.messages[2],
        Message::Tool {
            tool_call_id: "x".into(),
            content: r#"{"error":"there is no tool named `rm_rf`"}"#.into()
        }
    );
    assert_eq!(testing::calls().len(), 1, "no host tool was called for it");
    chat.advance(&config, &Wake::Resume).unwrap();
    chat.advance(&config, &Wake::Resume).unwrap();
    let err = chat.advance(&config, &Wake::Resume).unwrap_err();
    assert!(err.contains("2 model calls (max_turns)"), "{err}");
}

#[test]
fn a_model_the_config_names_is_sent_with_every_model_call() {
    script_host();
    let mut config = config();
    let mut chat = Loop::new(vec![Message::user("go")]);
    chat.advance(&config, &Wake::Resume).unwrap();
    assert_eq!(testing::calls()[0].args.get("model"), None);
    config.model = Some("gpt-5".into());
    chat.advance(&config, &Wake::Resume).unwrap();
    chat.advance(&config, &Wake::Resume).unwrap();
    let asked: Vec<Value> = (testing::calls().iter())
        .filter(|c| c.name == "llm")
        .map(|c| c.args["model"].clone())
        .collect();
    assert_eq!(asked, [Value::Null, json!("gpt-5")]);
}
