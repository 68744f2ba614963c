//! `format = "openai"`: the chat-completions wire format (OpenAI's, and
//! that of any server compatible with it), both ways.
//!
//! Sent: `{"model", "messages", "max_completion_tokens" (or `max_tokens`,
//! as the tool's `max_tokens_field` says), "temperature"?, "tools"?,
//! "response_format"?}`; assistant tool calls as `tool_calls: [{"id",
//! "type": "function", "function": {"name", "arguments": "<JSON text>"}}]`,
//! tool results as `{"role": "tool", "tool_call_id", "content"}`, a schema
//! as `response_format: {"type": "json_schema", "json_schema": {"name",
//! "schema", "strict"}}`. Read: `choices[0].message` (`content`,
//! `tool_calls`, `refusal`), `choices[0].finish_reason` and `usage`
//! (`prompt_tokens`, `completion_tokens`, `total_tokens`).

use serde_json::{Value, json};

use super::conversation::{Answer, Message, Reported, Request, ResponseFormat, Stop, ToolCall};

/// The body field the token limit is sent in (`max_tokens_field`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LimitField {
    /// OpenAI's current field; its reasoning models refuse `max_tokens`.
    MaxCompletionTokens,
    /// The older field, which some compatible servers know alone.
    MaxTokens,
}

impl LimitField {
    pub fn from_config(tool: &str, given: Option<&str>) -> Result<LimitField, String> {
        match given {
            None | Some("max_completion_tokens") => Ok(LimitField::MaxCompletionTokens),
            Some("max_tokens") => Ok(LimitField::MaxTokens),
            Some(other) => Err(format!(
                "tools.{tool}.max_tokens_field `{other}` is not a field of chat completions; \
                 use \"max_completion_tokens\" (the default) or \"max_tokens\" (a server that \
                 knows only the older field)"
            )),
        }
    }

    fn name(self) -> &'static str {
        match self {
            LimitField::MaxCompletionTokens => "max_completion_tokens",
            LimitField::MaxTokens => "max_tokens",
        }
    }
}

/// The request body.
pub fn body(model: &str, request: &Request, max_tokens: u64, limit: LimitField) -> Value {
    let messages: Vec<Value> = request.messages.iter().map(message).collect();
    let mut body = json!({
        "model": model,
        "messages": messages,
    });
    body[limit.name()] = json!(max_tokens);
    if let Some(t) = request.temperature {
        body["temperature"] = super::number(t);
    }
    if !request.tools.is_empty() {
        let tools: Vec<Value> = request
            .tools
            .iter()
            .map(|t| {
                let mut function = json!({"name": t.name, "parameters": t.parameters});
                if let Some(d) = &t.description {
                    function["description"] = json!(d);
                }
                json!({"type": "function", "function": function})
            })
            .collect();
        body["tools"] = Value::Array(tools);
    }
    if let Some(ResponseFormat {
        name,
        schema,
        strict,
    }) = &request.response_format
    {
        body["response_format"] = json!({"type": "json_schema",
            "json_schema": {"name": name, "schema": schema, "strict": strict}});
    }
    body
}

fn message(m: &Message) -> Value {
    match m {
        Message::System(text) => json!({"role": "system", "content": text}),
        Message::User(text) => json!({"role": "user", "content": text}),
        Message::Assistant {
            content,
            tool_calls,
        } => {
            let mut m = json!({"role": "assistant", "content": content});
            if !tool_calls.is_empty() {
                let calls: Vec<Value> = tool_calls
                    .iter()
                    .map(|c| {
                        json!({"id": c.id, "type": "function", "function":
                            {"name": c.name, "arguments": c.arguments.to_string()}})
                    })
                    .collect();
                m["tool_calls"] = Value::Array(calls);
            }
            m
        }
        Message::Tool {
            tool_call_id,
            content,
        } => json!({"role": "tool", "tool_call_id": tool_call_id, "content": content}),
    }
}

/// The tokens the answer says it used.
pub fn reported(answer: &Value) -> Reported {
    let usage = &answer["usage"];
    let input = usage["prompt_tokens"].as_u64();
    let output = usage["completion_tokens"].as_u64();
    let total = usage["total_tokens"]
        .as_u64()
        .or_else(|| Some(input? + output?));
    Reported {
        input,
        output,
        total,
    }
}

/// The model's answer in a chat completion.
pub fn answer(completion: &Value) -> Result<Answer, String> {
    let choice = &completion["choices"][0];
    let message = &choice["message"];
    if !message.is_object() {
        return Err("the answer has no choices[0].message".into());
    }
    let content = match &message["content"] {
        Value::Null => None,
        Value::String(s) => Some(s.clone()),
        _ => return Err("choices[0].message.content is neither text nor null".into()),
    };
    let mut tool_calls = vec![];
    for (j, call) in (message["tool_calls"].as_array().into_iter().flatten()).enumerate() {
        let at = format!("choices[0].message.tool_calls[{j}]");
        let text = |v: &Value, name: &str| {
            v.as_str()
                .map(str::to_string)
                .ok_or_else(|| format!("{at}.{name} is not text"))
        };
        let arguments = text(&call["function"]["arguments"], "function.arguments")?;
        let arguments = match arguments.trim() {
            "" => json!({}),
            text => match serde_json::from_str::<Value>(text) {
                Ok(v @ Value::Object(_)) => v,
                _ => {
                    return Err(format!(
                        "{at}.function.arguments is not a JSON object: {}",
                        super::quote(text)
                    ));
                }
            },
        };
        tool_calls.push(ToolCall {
            id: text(&call["id"], "id")?,
            name: text(&call["function"]["name"], "function.name")?,
            arguments,
        });
    }
    let finish = choice["finish_reason"].as_str().unwrap_or_default();
    let refusal = message["refusal"].as_str().map(str::to_string);
    let stop = match finish {
        _ if refusal.is_some() => Stop::Refusal,
        _ if !tool_calls.is_empty() => Stop::ToolCalls,
        "stop" => Stop::EndTurn,
        "length" => Stop::MaxTokens,
        "tool_calls" | "function_call" => Stop::ToolCalls,
        "content_filter" => Stop::Refusal,
        _ => Stop::Other,
    };
    Ok(Answer {
        content,
        tool_calls,
        stop,
        provider_stop: finish.to_string(),
        refusal,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tool_calls_refusals_and_finish_reasons_are_read() {
        let completion = json!({"choices": [{"index": 0, "finish_reason": "tool_calls",
            "message": {"role": "assistant", "content": null, "tool_calls": [{"id": "call_1",
            "type": "function", "function": {"name": "weather", "arguments": "{\"city\":\"Paris\"}"}}]}}],
            "usage": {"prompt_tokens": 7, "completion_tokens": 3, "total_tokens": 10}});
        let a = answer(&completion).unwrap();
        assert_eq!(a.stop, Stop::ToolCalls);
        assert_eq!(a.tool_calls[0].arguments, json!({"city": "Paris"}));
        assert_eq!(reported(&completion).total, Some(10));

        let refused = json!({"choices": [{"finish_reason": "stop", "message":
            {"role": "assistant", "content": null, "refusal": "I can't help with that."}}]});
        let a = answer(&refused).unwrap();
        assert_eq!(
            (a.stop, a.refusal.as_deref()),
            (Stop::Refusal, Some("I can't help with that."))
        );

        let bad = json!({"choices": [{"message": {"content": null, "tool_calls": [{"id": "c",
            "function": {"name": "n", "arguments": "[1]"}}]}}]});
        assert!(answer(&bad).unwrap_err().contains("is not a JSON object"));
        assert!(
            answer(&json!({}))
                .unwrap_err()
                .contains("no choices[0].message")
        );
    }
}
