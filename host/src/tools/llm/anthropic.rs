//! `format = "anthropic"`: the Messages API wire format, both ways.
//!
//! Sent: `{"model", "max_tokens", "system"?, "messages", "temperature"?,
//! "tools"?, "output_config"? | "tool_choice"?}`. System messages become
//! the top-level `system`; an assistant message's tool calls become
//! `tool_use` blocks and tool results `tool_result` blocks of the user turn
//! after it (turns of one role in a row are joined: the API alternates
//! roles). A schema for the answer is asked for as structured outputs
//! (`output_config: {"format": {"type": "json_schema", "schema"}}`, the
//! answer being the text, which combines with `tools`), or, configured
//! `structured_output = "tool"` for a model without them, as one tool
//! whose input schema it is, forced with `tool_choice`: its input is the
//! answer (so that answer cannot be combined with `tools`). Read:
//! `content` (`text` and `tool_use` blocks), `stop_reason` and `usage`
//! (`input_tokens`, `output_tokens`, and the cache counts, which are input
//! too).

use serde_json::{Value, json};

use super::conversation::{Answer, Message, Reported, Request, Stop, ToolCall};

/// How a `response_format` is asked for (`structured_output`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Structured {
    /// `output_config.format`: the answer is the text.
    OutputConfig,
    /// One tool forced with `tool_choice`: its input is the answer.
    ForcedTool,
}

impl Structured {
    pub fn from_config(tool: &str, given: Option<&str>) -> Result<Structured, String> {
        match given {
            None | Some("output_config") => Ok(Structured::OutputConfig),
            Some("tool") => Ok(Structured::ForcedTool),
            Some(other) => Err(format!(
                "tools.{tool}.structured_output `{other}` is not a way to ask for a schema; use \
                 \"output_config\" (structured outputs, the default) or \"tool\" (a forced \
                 tool, for a model without structured outputs)"
            )),
        }
    }
}

/// The request body.
pub fn body(
    model: &str,
    request: &Request,
    max_tokens: u64,
    structured: Structured,
) -> Result<Value, String> {
    let system: Vec<&str> = (request.messages.iter())
        .filter_map(|m| match m {
            Message::System(text) => Some(text.as_str()),
            _ => None,
        })
        .collect();
    let mut body = json!({
        "model": model,
        "max_tokens": max_tokens,
        "messages": turns(&request.messages),
    });
    if !system.is_empty() {
        body["system"] = json!(system.join("\n\n"));
    }
    if let Some(t) = request.temperature {
        if t > 1.0 {
            return Err(format!(
                "temperature must be from 0 to 1 for this model server (format \"anthropic\"), \
                 got {t}"
            ));
        }
        body["temperature"] = super::number(t);
    }
    let mut tools: Vec<Value> = (request.tools.iter())
        .map(|t| {
            let mut tool = json!({"name": t.name, "input_schema": t.parameters});
            if let Some(d) = &t.description {
                tool["description"] = json!(d);
            }
            tool
        })
        .collect();
    match (&request.response_format, structured) {
        (None, _) => {}
        (Some(format), Structured::OutputConfig) => {
            body["output_config"] =
                json!({"format": {"type": "json_schema", "schema": format.schema}});
        }
        (Some(_), Structured::ForcedTool) if !tools.is_empty() => {
            return Err(
                "response_format cannot be combined with tools for this model server \
                 (format \"anthropic\", structured_output = \"tool\"): the answer is asked for \
                 as a forced tool call"
                    .into(),
            );
        }
        (Some(format), Structured::ForcedTool) => {
            tools.push(json!({"name": format.name, "input_schema": format.schema,
                "description": "Give your answer as the input of this tool."}));
            body["tool_choice"] = json!({"type": "tool", "name": format.name});
        }
    }
    if !tools.is_empty() {
        body["tools"] = Value::Array(tools);
    }
    Ok(body)
}

/// The conversation as alternating turns of content blocks; a turn that is
/// one text block is sent as plain text.
fn turns(messages: &[Message]) -> Vec<Value> {
    let mut turns: Vec<(&str, Vec<Value>)> = vec![];
    for m in messages {
        let (role, blocks) = match m {
            Message::System(_) => continue,
            Message::User(text) => ("user", vec![json!({"type": "text", "text": text})]),
            Message::Assistant {
                content,
                tool_calls,
            } => {
                // The API refuses an empty text block.
                let text = content.as_deref().filter(|t| !t.is_empty());
                let blocks = (text.map(|t| json!({"type": "text", "text": t})).into_iter())
                    .chain(tool_calls.iter().map(|c| {
                        json!({"type": "tool_use", "id": c.id, "name": c.name,
                            "input": c.arguments})
                    }))
                    .collect();
                ("assistant", blocks)
            }
            Message::Tool {
                tool_call_id,
                content,
            } => (
                "user",
                vec![json!({"type": "tool_result", "tool_use_id": tool_call_id,
                    "content": content})],
            ),
        };
        match turns.last_mut() {
            Some((last, joined)) if *last == role => joined.extend(blocks),
            _ => turns.push((role, blocks)),
        }
    }
    turns
        .into_iter()
        .map(|(role, blocks)| match blocks.as_slice() {
            [one] if one["type"] == "text" => json!({"role": role, "content": one["text"]}),
            _ => json!({"role": role, "content": blocks}),
        })
        .collect()
}

/// The tokens the answer says it used; cached prompt tokens are input.
pub fn reported(answer: &Value) -> Reported {
    let usage = &answer["usage"];
    let cached = ["cache_creation_input_tokens", "cache_read_input_tokens"]
        .iter()
        .filter_map(|k| usage[*k].as_u64())
        .sum::<u64>();
    let input = usage["input_tokens"].as_u64().map(|n| n + cached);
    let output = usage["output_tokens"].as_u64();
    Reported {
        input,
        output,
        total: input.zip(output).map(|(i, o)| i + o),
    }
}

/// The model's answer in a Messages API response; `structured` names the
/// forced tool whose input is the answer.
pub fn answer(message: &Value, structured: Option<&str>) -> Result<Answer, String> {
    let Some(blocks) = message["content"].as_array() else {
        return Err("the answer has no content list".into());
    };
    let mut text: Option<String> = None;
    let mut tool_calls = vec![];
    for (j, block) in blocks.iter().enumerate() {
        let at = format!("content[{j}]");
        match block["type"].as_str() {
            Some("text") => {
                let t = block["text"]
                    .as_str()
                    .ok_or_else(|| format!("{at}.text is not text"))?;
                text.get_or_insert_default().push_str(t);
            }
            Some("tool_use") => {
                let field = |name: &str| {
                    block[name]
                        .as_str()
                        .map(str::to_string)
                        .ok_or_else(|| format!("{at}.{name} is not text"))
                };
                let name = field("name")?;
                let input = match &block["input"] {
                    v @ Value::Object(_) => v.clone(),
                    _ => return Err(format!("{at}.input is not a JSON object")),
                };
                if structured == Some(name.as_str()) {
                    text = Some(input.to_string());
                    continue;
                }
                tool_calls.push(ToolCall {
                    id: field("id")?,
                    name,
                    arguments: input,
                });
            }
            // Blocks of features this host does not ask for (thinking, say).
            _ => {}
        }
    }
    let reason = message["stop_reason"].as_str().unwrap_or_default();
    let stop = match reason {
        "tool_use" if structured.is_some() && tool_calls.is_empty() => Stop::EndTurn,
        "end_turn" | "stop_sequence" => Stop::EndTurn,
        "tool_use" => Stop::ToolCalls,
        "max_tokens" | "model_context_window_exceeded" => Stop::MaxTokens,
        "refusal" => Stop::Refusal,
        _ => Stop::Other,
    };
    let refusal = (stop == Stop::Refusal)
        .then(|| text.clone())
        .flatten()
        .filter(|t| !t.is_empty());
    Ok(Answer {
        content: text,
        tool_calls,
        stop,
        provider_stop: reason.to_string(),
        refusal,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::llm::conversation::Request;

    #[test]
    fn tool_results_join_the_user_turn_and_system_goes_on_top() {
        let request = Request::parse(
            json!({"messages": [
                {"role": "system", "content": "be brief"},
                {"role": "user", "content": "weather?"},
                {"role": "assistant", "content": "Looking.", "tool_calls": [
                    {"id": "t1", "name": "weather", "arguments": {"city": "Paris"}},
                    {"id": "t2", "name": "weather", "arguments": {"city": "Rome"}}]},
                {"role": "tool", "tool_call_id": "t1", "content": "18C"},
                {"role": "tool", "tool_call_id": "t2", "content": "25C"},
            ]})
            .as_object()
            .unwrap(),
        )
        .unwrap();
        let body = body("m", &request, 10, Structured::OutputConfig).unwrap();
        assert_eq!(body["system"], "be brief");
        let messages = body["messages"].as_array().unwrap();
        assert_eq!(messages.len(), 3);
        assert_eq!(messages[0], json!({"role": "user", "content": "weather?"}));
        assert_eq!(messages[1]["content"][1]["type"], "tool_use");
        assert_eq!(messages[2]["content"][1]["tool_use_id"], "t2");
    }

    #[test]
    fn a_forced_tool_answer_does_not_combine_with_tools_and_output_config_does() {
        let request = Request::parse(
            json!({"messages": [{"role": "user", "content": "weather?"}],
                "tools": [{"name": "weather"}],
                "response_format": {"name": "forecast", "schema": {"type": "object"}}})
            .as_object()
            .unwrap(),
        )
        .unwrap();
        let err = body("m", &request, 10, Structured::ForcedTool).unwrap_err();
        assert!(err.contains("cannot be combined with tools"), "{err}");
        let sent = body("m", &request, 10, Structured::OutputConfig).unwrap();
        assert_eq!(sent["output_config"]["format"]["type"], "json_schema");
        assert_eq!(sent["tools"].as_array().map(Vec::len), Some(1));
    }

    #[test]
    fn stop_reasons_and_usage_are_read() {
        let message = json!({"type": "message", "role": "assistant", "content": [
            {"type": "text", "text": "I can't help with that."}],
            "stop_reason": "refusal",
            "usage": {"input_tokens": 5, "output_tokens": 3, "cache_read_input_tokens": 2}});
        let a = answer(&message, None).unwrap();
        assert_eq!(a.stop, Stop::Refusal);
        assert_eq!(a.refusal.as_deref(), Some("I can't help with that."));
        assert_eq!(reported(&message).total, Some(10));
    }
}
