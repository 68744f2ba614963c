//! The `llm` tool's conversations against loopback fakes of both wire
//! formats, `format = "openai"` (chat completions) and `format =
//! "anthropic"` (the Messages API), each answering as its provider
//! documents: the exact request the host sent (headers and body), tool
//! calls round-tripped over two steps, refusals, a provider's 4xx error,
//! a 429 with `retry-after` that is neither recorded nor charged,
//! structured output, a crash after a call, and config and argument
//! errors. The same guest arguments reach both; only the wire differs.

use serde_json::{Value, json};

use crate::fake_servers::{FakeServer, Reply, Request};
use crate::harness::{Env, FAST_LIMITS};
use crate::tools::{call, idempotency_key, ok_result};

/// The key the model servers are called with, as a secret.
const KEY: &str = "sk-test-0123456789abcdef";

/// The wire format a model server speaks (the tool's `format`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Format {
    OpenAi,
    Anthropic,
}

impl Format {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Format::OpenAi => "openai",
            Format::Anthropic => "anthropic",
        }
    }

    pub(crate) fn path(self) -> &'static str {
        match self {
            Format::OpenAi => "/v1/chat/completions",
            Format::Anthropic => "/v1/messages",
        }
    }
}

/// A host whose `llm` tool speaks `format` to `server` with the key
/// [`KEY`], at 1 USD per 1000 tokens; `extra` adds to the tool's config.
fn host(name: &str, format: Format, server: &FakeServer, extra: &str) -> Env {
    let config = format!(
        "{FAST_LIMITS}max_attempts = 1\n[secrets.model]\nenv = \"WAKEFUL_TEST_MODEL_KEY\"\n\
         [tools.llm]\nkind = \"llm\"\nformat = \"{}\"\nurl = \"{}{}\"\nmodel = \"m-1\"\n\
         api_key = \"${{secret:model}}\"\nmax_tokens = 100\nprice_per_1k_tokens_usd = 1.0\n\
         timeout_ms = 1000\n{extra}",
        format.name(),
        server.url,
        format.path()
    );
    let env = Env::new(name, &config).clone_with_env("WAKEFUL_TEST_MODEL_KEY", KEY);
    env.deploy("caller", &["pager", "llm", "kv"]);
    env
}

/// Checks the headers every request of `format` carries.
fn check_headers(format: Format, request: &Request) {
    assert_eq!(request.method, "POST");
    assert_eq!(request.path, format.path());
    assert_eq!(request.header("content-type"), Some("application/json"));
    idempotency_key(request);
    match format {
        Format::OpenAi => {
            assert_eq!(
                request.header("authorization"),
                Some(format!("Bearer {KEY}").as_str())
            );
            assert_eq!(request.header("x-api-key"), None);
        }
        Format::Anthropic => {
            assert_eq!(request.header("x-api-key"), Some(KEY));
            assert_eq!(request.header("anthropic-version"), Some("2023-06-01"));
            assert_eq!(request.header("authorization"), None);
        }
    }
}

/// The tool the guest offers the model.
fn weather_tool() -> Value {
    json!({"name": "weather", "description": "Today's weather in a city",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}},
            "required": ["city"]}})
}

fn first_turn() -> Vec<Value> {
    vec![
        json!({"role": "system", "content": "Answer in one sentence."}),
        json!({"role": "user", "content": "What should I wear in Paris today?"}),
    ]
}

/// The assistant message the guest gets back from the first call, and
/// appends to its conversation as it is.
fn asked_for_weather(id: &str) -> Value {
    json!({"role": "assistant", "content": null, "tool_calls": [
        {"id": id, "name": "weather", "arguments": {"city": "Paris"}}]})
}

/// An OpenAI chat completion, as the API reference shows one.
fn completion(message: Value, finish_reason: &str, prompt: u64, completion: u64) -> Value {
    json!({"id": "chatcmpl-abc123", "object": "chat.completion", "created": 1_741_569_952,
        "model": "m-1",
        "choices": [{"index": 0, "message": message, "logprobs": null,
            "finish_reason": finish_reason}],
        "usage": {"prompt_tokens": prompt, "completion_tokens": completion,
            "total_tokens": prompt + completion}})
}

/// An Anthropic message, as the API reference shows one.
fn message(content: Value, stop_reason: &str, input: u64, output: u64) -> Value {
    json!({"id": "msg_013Zva2CMHLNnXjNJJKqJ2EF", "type": "message", "role": "assistant",
        "model": "m-1", "content": content, "stop_reason": stop_reason, "stop_sequence": null,
        "usage": {"input_tokens": input, "output_tokens": output}})
}

/// A model server of `format` that asks for the weather tool, and answers
/// in text once the conversation holds its result.
fn weather_server(format: Format) -> FakeServer {
    FakeServer::start(move |request| {
        let body = request.json();
        let last = body["messages"].as_array().unwrap().last().unwrap().clone();
        let answered = match format {
            Format::OpenAi => last["role"] == "tool",
            Format::Anthropic => last["content"][0]["type"] == "tool_result",
        };
        Reply::Json(
            200,
            match (format, answered) {
                (Format::OpenAi, false) => completion(
                    json!({"role": "assistant", "content": null, "refusal": null,
                        "tool_calls": [{"id": "call_abc", "type": "function", "function":
                            {"name": "weather", "arguments": "{\"city\":\"Paris\"}"}}]}),
                    "tool_calls",
                    300,
                    20,
                ),
                (Format::OpenAi, true) => completion(
                    json!({"role": "assistant", "content": "Take a light jacket.",
                        "refusal": null}),
                    "stop",
                    340,
                    10,
                ),
                (Format::Anthropic, false) => message(
                    json!([{"type": "tool_use", "id": "toolu_01A", "name": "weather",
                        "input": {"city": "Paris"}}]),
                    "tool_use",
                    300,
                    20,
                ),
                (Format::Anthropic, true) => message(
                    json!([{"type": "text", "text": "Take a light jacket."}]),
                    "end_turn",
                    340,
                    10,
                ),
            },
        )
    })
}

/// Two calls: the first offers the tool, the second carries the model's
/// tool call and its result.
fn round_trip(format: Format) {
    let server = weather_server(format);
    let env = host(
        &format!("wire-tools-{}", format.name()),
        format,
        &server,
        "",
    );
    let id = match format {
        Format::OpenAi => "call_abc",
        Format::Anthropic => "toolu_01A",
    };
    let mut second = first_turn();
    second.push(asked_for_weather(id));
    second.push(json!({"role": "tool", "tool_call_id": id, "content": "18C, light rain"}));
    let calls = json!([
        {"tool": "llm", "args": {"messages": first_turn(), "tools": [weather_tool()]}},
        {"tool": "llm", "args": {"messages": second, "tools": [weather_tool()],
            "max_tokens": 50, "temperature": 0.2}},
    ]);
    let show = call(&env, &format!("talk-{}", format.name()), calls);
    assert_eq!(show["status"], "done", "{show}");

    let first = ok_result(&show["state"]["results"][0]);
    assert_eq!(first["message"], asked_for_weather(id), "{first}");
    assert_eq!(first["stop_reason"], "tool_calls");
    assert_eq!(
        first["usage"],
        json!({"input_tokens": 300, "output_tokens": 20, "total_tokens": 320, "cost_usd": 0.32})
    );
    let last = ok_result(&show["state"]["results"][1]);
    assert_eq!(
        last["message"],
        json!({"role": "assistant", "content": "Take a light jacket."})
    );
    assert_eq!(last["stop_reason"], "end_turn");
    assert_eq!(show["tokens_used"], 320 + 350, "each answer charged once");

    let sent = server.requests();
    assert_eq!(sent.len(), 2);
    for request in &sent {
        check_headers(format, request);
    }
    check_bodies(format, id, &sent[0].json(), &sent[1].json());
}

/// The exact bodies of the two requests of [`round_trip`].
fn check_bodies(format: Format, id: &str, first: &Value, second: &Value) {
    let question = "What should I wear in Paris today?";
    let schema = &weather_tool()["parameters"];
    match format {
        Format::OpenAi => {
            let tools = json!([{"type": "function", "function": {"name": "weather",
                "description": "Today's weather in a city", "parameters": schema}}]);
            let opening = json!([{"role": "system", "content": "Answer in one sentence."},
                {"role": "user", "content": question}]);
            assert_eq!(
                *first,
                json!({"model": "m-1", "max_completion_tokens": 100, "messages": opening,
                    "tools": tools})
            );
            let mut messages = opening.as_array().unwrap().clone();
            messages.push(
                json!({"role": "assistant", "content": null, "tool_calls": [{"id": id,
                "type": "function", "function": {"name": "weather",
                    "arguments": "{\"city\":\"Paris\"}"}}]}),
            );
            messages
                .push(json!({"role": "tool", "tool_call_id": id, "content": "18C, light rain"}));
            assert_eq!(
                *second,
                json!({"model": "m-1", "max_completion_tokens": 50, "temperature": 0.2,
                    "messages": messages, "tools": tools})
            );
        }
        Format::Anthropic => {
            let tools = json!([{"name": "weather", "description": "Today's weather in a city",
                "input_schema": schema}]);
            let system = "Answer in one sentence.";
            assert_eq!(
                *first,
                json!({"model": "m-1", "max_tokens": 100, "system": system,
                    "messages": [{"role": "user", "content": question}], "tools": tools})
            );
            let messages = json!([
                {"role": "user", "content": question},
                {"role": "assistant", "content": [{"type": "tool_use", "id": id,
                    "name": "weather", "input": {"city": "Paris"}}]},
                {"role": "user", "content": [{"type": "tool_result", "tool_use_id": id,
                    "content": "18C, light rain"}]},
            ]);
            assert_eq!(
                *second,
                json!({"model": "m-1", "max_tokens": 50, "temperature": 0.2, "system": system,
                    "messages": messages, "tools": tools})
            );
        }
    }
}

#[test]
fn openai_tool_calls_round_trip_over_two_steps() {
    round_trip(Format::OpenAi);
}

#[test]
fn anthropic_tool_calls_round_trip_over_two_steps() {
    round_trip(Format::Anthropic);
}

fn ask(question: &str) -> Value {
    json!({"messages": [{"role": "user", "content": question}]})
}

#[test]
fn a_refusal_is_an_answer_with_stop_reason_refusal_and_is_charged() {
    for format in [Format::OpenAi, Format::Anthropic] {
        let answer = match format {
            Format::OpenAi => completion(
                json!({"role": "assistant", "content": null,
                    "refusal": "I'm sorry, I can't help with that."}),
                "stop",
                200,
                10,
            ),
            Format::Anthropic => message(
                json!([{"type": "text", "text": "I'm sorry, I can't help with that."}]),
                "refusal",
                200,
                10,
            ),
        };
        let server = FakeServer::start(move |_| Reply::Json(200, answer.clone()));
        let env = host(
            &format!("wire-refusal-{}", format.name()),
            format,
            &server,
            "",
        );
        let calls = json!([{"tool": "llm", "args": ask("something forbidden")}]);
        let show = call(&env, "refused", calls);
        assert_eq!(show["status"], "done", "{format:?}: {show}");
        let result = ok_result(&show["state"]["results"][0]);
        assert_eq!(result["stop_reason"], "refusal", "{format:?}: {result}");
        assert_eq!(result["refusal"], "I'm sorry, I can't help with that.");
        assert_eq!(
            show["tokens_used"], 210,
            "{format:?}: a refusal is paid for"
        );
        assert_eq!(env.recorded_calls("refused").len(), 1, "{format:?}");
    }
}

#[test]
fn a_providers_4xx_error_reaches_the_guest_with_its_message() {
    let cases = [
        (
            Format::OpenAi,
            401,
            json!({"error": {"message": "Incorrect API key provided: sk-test-****.",
                "type": "invalid_request_error", "param": null, "code": "invalid_api_key"}}),
            "the model server answered 401: invalid_request_error: Incorrect API key provided",
        ),
        (
            Format::Anthropic,
            400,
            json!({"type": "error", "error": {"type": "invalid_request_error",
                "message": "messages: roles must alternate"}}),
            "the model server answered 400: invalid_request_error: messages: roles must alternate",
        ),
    ];
    for (format, status, body, expected) in cases {
        let server = FakeServer::start(move |_| Reply::Json(status, body.clone()));
        let env = host(&format!("wire-4xx-{}", format.name()), format, &server, "");
        let show = call(&env, "errs", json!([{"tool": "llm", "args": ask("hi")}]));
        let error = show["state"]["results"][0].as_str().unwrap();
        assert!(error.starts_with("err: failed: llm: POST"), "{error}");
        assert!(error.contains(expected), "{format:?}: {error}");
        assert_eq!(server.requests().len(), 1);
    }
}

/// A 429 with `retry-after` as each provider sends it.
fn rate_limit(format: Format) -> Value {
    match format {
        Format::OpenAi => json!({"error": {"message":
            "Rate limit reached for m-1 on requests per min (RPM): Limit 3, Used 3.",
            "type": "requests", "param": null, "code": "rate_limit_exceeded"}}),
        Format::Anthropic => json!({"type": "error", "error": {"type": "rate_limit_error",
            "message": "Number of request tokens has exceeded your per-minute rate limit"}}),
    }
}

#[test]
fn a_429_is_not_charged_nor_recorded_and_the_same_call_goes_out_again() {
    for format in [Format::OpenAi, Format::Anthropic] {
        let seen = std::sync::atomic::AtomicUsize::new(0);
        let server = FakeServer::start(move |_| {
            if seen.fetch_add(1, std::sync::atomic::Ordering::SeqCst) == 0 {
                Reply::JsonWith(429, rate_limit(format), vec![("retry-after", "7".into())])
            } else {
                Reply::Json(
                    200,
                    match format {
                        Format::OpenAi => completion(
                            json!({"role": "assistant", "content": "hello"}),
                            "stop",
                            150,
                            5,
                        ),
                        Format::Anthropic => message(
                            json!([{"type": "text", "text": "hello"}]),
                            "end_turn",
                            150,
                            5,
                        ),
                    },
                )
            }
        });
        // Not idempotent: a call whose outcome were unknown would park the
        // run; a 429 was not served, so it is not unknown.
        let env = host(
            &format!("wire-429-{}", format.name()),
            format,
            &server,
            "idempotent = false\n",
        );
        let same = json!({"tool": "llm", "args": ask("hi"), "key": "greet"});
        let show = call(&env, "limited", json!([same, same]));
        assert_eq!(show["status"], "done", "{format:?}: {show}");
        let error = show["state"]["results"][0].as_str().unwrap();
        assert!(
            error.contains("rate limited: the model server answered 429"),
            "{error}"
        );
        assert!(error.contains("retry after 7 s"), "{error}");
        assert!(error.contains("not recorded or charged"), "{error}");
        let second = ok_result(&show["state"]["results"][1]);
        assert_eq!(second["message"]["content"], "hello");
        assert_eq!(show["tokens_used"], 155, "{format:?}: only the served call");
        let sent = server.requests();
        assert_eq!(sent.len(), 2);
        assert_eq!(idempotency_key(&sent[0]), idempotency_key(&sent[1]));
        assert_eq!(env.recorded_calls("limited").len(), 1, "{format:?}");
    }
}

/// How a server is asked for a schema: OpenAI's `response_format`,
/// Anthropic's structured outputs, or Anthropic's forced tool.
#[derive(Clone, Copy, Debug)]
enum Schema {
    OpenAi,
    OutputConfig,
    ForcedTool,
}

#[test]
fn structured_output_is_asked_for_in_each_format_and_parsed() {
    let schema = json!({"type": "object", "properties": {"city": {"type": "string"},
        "temp_c": {"type": "number"}}, "required": ["city", "temp_c"],
        "additionalProperties": false});
    let weather = json!({"city": "Paris", "temp_c": 18});
    for way in [Schema::OpenAi, Schema::OutputConfig, Schema::ForcedTool] {
        let (format, answer, config) = match way {
            Schema::OpenAi => (
                Format::OpenAi,
                completion(
                    json!({"role": "assistant", "content": weather.to_string(), "refusal": null}),
                    "stop",
                    100,
                    12,
                ),
                "",
            ),
            Schema::OutputConfig => (
                Format::Anthropic,
                message(
                    json!([{"type": "text", "text": weather.to_string()}]),
                    "end_turn",
                    100,
                    12,
                ),
                "",
            ),
            Schema::ForcedTool => (
                Format::Anthropic,
                message(
                    json!([{"type": "tool_use", "id": "toolu_01B", "name": "forecast",
                        "input": weather}]),
                    "tool_use",
                    100,
                    12,
                ),
                "structured_output = \"tool\"\n",
            ),
        };
        let server = FakeServer::start(move |_| Reply::Json(200, answer.clone()));
        let env = host(&format!("wire-json-{way:?}"), format, &server, config);
        let mut args = ask("Weather in Paris?");
        args["response_format"] = json!({"name": "forecast", "schema": schema});
        if !matches!(way, Schema::ForcedTool) {
            // Structured outputs combine with tools the model may call.
            args["tools"] = json!([weather_tool()]);
        }
        let show = call(&env, "structured", json!([{"tool": "llm", "args": args}]));
        let result = ok_result(&show["state"]["results"][0]);
        assert_eq!(result["json"], weather, "{way:?}: {result}");
        assert_eq!(result["stop_reason"], "end_turn", "{way:?}");
        let body = server.requests()[0].json();
        match way {
            Schema::OpenAi => assert_eq!(
                body["response_format"],
                json!({"type": "json_schema",
                    "json_schema": {"name": "forecast", "schema": schema, "strict": true}})
            ),
            Schema::OutputConfig => {
                assert_eq!(
                    body["output_config"],
                    json!({"format": {"type": "json_schema", "schema": schema}})
                );
                assert_eq!(body["tools"][0]["name"], "weather");
                assert_eq!(body.get("tool_choice"), None);
            }
            Schema::ForcedTool => {
                assert_eq!(body["tools"][0]["name"], "forecast");
                assert_eq!(body["tools"][0]["input_schema"], schema);
                assert_eq!(
                    body["tool_choice"],
                    json!({"type": "tool", "name": "forecast"})
                );
                assert_eq!(body.get("output_config"), None);
            }
        }
    }
}

#[test]
fn a_server_that_knows_only_max_tokens_is_sent_that_field() {
    let answer = completion(json!({"role": "assistant", "content": "hi"}), "stop", 10, 2);
    let server = FakeServer::start(move |_| Reply::Json(200, answer.clone()));
    let env = host(
        "wire-old-field",
        Format::OpenAi,
        &server,
        "max_tokens_field = \"max_tokens\"\n",
    );
    let mut args = ask("hello");
    args["max_tokens"] = json!(40);
    let show = call(&env, "old-field", json!([{"tool": "llm", "args": args}]));
    assert_eq!(show["status"], "done", "{show}");
    let body = server.requests()[0].json();
    assert_eq!(body["max_tokens"], 40, "{body}");
    assert_eq!(body.get("max_completion_tokens"), None, "{body}");
}

/// An agent that names the model it was written against is answered by
/// that model or refused, never by another.
#[test]
fn a_call_naming_another_model_than_the_tools_is_refused_unsent() {
    let answer = completion(json!({"role": "assistant", "content": "hi"}), "stop", 10, 2);
    let server = FakeServer::start(move |_| Reply::Json(200, answer.clone()));
    let env = host("wire-model", Format::OpenAi, &server, "");
    let (mut mine, mut other) = (ask("hello"), ask("hello"));
    mine["model"] = json!("m-1");
    other["model"] = json!("m-2");
    let show = call(
        &env,
        "models",
        json!([{"tool": "llm", "args": other}, {"tool": "llm", "args": mine}]),
    );
    let refused = show["state"]["results"][0].as_str().unwrap();
    assert!(
        refused.starts_with("err: invalid")
            && refused.contains("asks for model `m-2`, but this tool is configured for `m-1`"),
        "{refused}"
    );
    assert_eq!(
        ok_result(&show["state"]["results"][1])["message"]["content"],
        "hi"
    );
    let sent = server.requests();
    assert_eq!(sent.len(), 1, "the refused call was not sent");
    assert_eq!(sent[0].json()["model"], "m-1");
}

#[test]
fn a_variant_key_of_the_other_format_is_refused_at_load() {
    for (format, key, other) in [
        ("openai", "structured_output = \"tool\"", "anthropic"),
        ("anthropic", "max_tokens_field = \"max_tokens\"", "openai"),
    ] {
        let config = format!(
            "{FAST_LIMITS}[tools.brain]\nkind = \"llm\"\nformat = \"{format}\"\n\
             url = \"http://127.0.0.1:9/v1\"\nmodel = \"m\"\n{key}\n"
        );
        let env = Env::new(&format!("wire-variant-{format}"), &config);
        let error = env.fails(&["agents"]);
        let name = key.split(' ').next().unwrap();
        assert!(
            error.contains(&format!(
                "tools.brain.{name} is for format = \"{other}\" only"
            )),
            "{error}"
        );
    }
}

#[test]
fn a_conversation_call_before_a_crash_is_made_and_charged_once() {
    use std::os::unix::process::ExitStatusExt;
    let server = weather_server(Format::Anthropic);
    let env = host("wire-crash", Format::Anthropic, &server, "");
    let input = json!({"calls": [{"tool": "llm",
        "args": {"messages": first_turn(), "tools": [weather_tool()]}}]});
    env.ok(&[
        "start",
        "caller",
        "--input",
        &input.to_string(),
        "--id",
        "crashy",
    ]);
    let out = env
        .clone_with_env("WAKEFUL_FAILPOINT", "after-call:k1")
        .output(&["work", "--until-idle"]);
    assert_eq!(out.status.signal(), Some(9), "the worker should be killed");
    env.work();
    let show = env.show("crashy");
    assert_eq!(show["status"], "done", "{show}");
    assert_eq!(server.requests().len(), 1, "the model was asked once");
    assert_eq!(show["tokens_used"], 320, "and charged once");
    let result = ok_result(&show["state"]["results"][0]);
    assert_eq!(result["message"], asked_for_weather("toolu_01A"));
}

#[test]
fn an_unknown_format_is_refused_at_load_naming_the_tool_and_key() {
    let config = format!(
        "{FAST_LIMITS}[tools.brain]\nkind = \"llm\"\nformat = \"gemini\"\n\
         url = \"http://127.0.0.1:9/v1\"\nmodel = \"m\"\n"
    );
    let env = Env::new("wire-format", &config);
    let error = env.fails(&["agents"]);
    assert!(
        error.contains("tools.brain.format `gemini` is not a format this host speaks"),
        "{error}"
    );
}

#[test]
fn bad_conversation_arguments_are_refused_naming_the_field_and_not_sent() {
    let server = weather_server(Format::OpenAi);
    let env = host("wire-invalid", Format::OpenAi, &server, "");
    let calls = json!([
        {"tool": "llm", "args": {"messages": [{"role": "robot", "content": "hi"}]}},
        {"tool": "llm", "args": {"messages": [{"role": "user", "content": "hi"},
            {"role": "tool", "tool_call_id": "nope", "content": "x"}]}},
        {"tool": "llm", "args": {"text": "hi"}},
    ]);
    let show = call(&env, "bad", calls);
    let results: Vec<&str> = (show["state"]["results"].as_array().unwrap().iter())
        .map(|r| r.as_str().unwrap())
        .collect();
    let expected = [
        "err: invalid arguments: llm: messages[0].role must be",
        "err: invalid arguments: llm: messages[1].tool_call_id `nope` names no tool call",
        "err: invalid arguments: llm: give `messages` (a conversation",
    ];
    for (result, expected) in results.iter().zip(expected) {
        assert!(result.starts_with(expected), "{result}");
    }
    assert!(server.requests().is_empty(), "nothing was sent");
    assert_eq!(show["tokens_used"], 0);
}

#[test]
fn the_older_prompt_form_is_sent_as_a_conversation_in_either_format() {
    let answer = message(
        json!([{"type": "text", "text": "{\"action\": \"restart\", \"reason\": \"stuck\"}"}]),
        "end_turn",
        150,
        10,
    );
    let server = FakeServer::start(move |_| Reply::Json(200, answer.clone()));
    let env = host("wire-legacy", Format::Anthropic, &server, "");
    let args = json!({"prompt": "the service is stuck", "system": "You are on call.",
        "actions": ["restart", "escalate"]});
    let show = call(&env, "older", json!([{"tool": "llm", "args": args}]));
    let result = ok_result(&show["state"]["results"][0]);
    assert_eq!(
        result,
        json!({"action": "restart", "reason": "stuck",
            "usage": {"total_tokens": 160, "cost_usd": 0.16}})
    );
    let body = server.requests()[0].json();
    assert_eq!(
        body["messages"],
        json!([{"role": "user", "content": "the service is stuck"}])
    );
    assert_eq!(body["temperature"], json!(0));
    let system = body["system"].as_str().unwrap();
    assert!(
        system.starts_with("You are on call.\n\nAnswer with ONLY a JSON object"),
        "{system}"
    );
}
