//! A conversation with a model, the same whatever server answers it: the
//! guest's arguments read and checked (errors name the field), and the
//! model's answer as the guest gets it. The wire formats are
//! [`super::openai`] and [`super::anthropic`].

use serde_json::{Map, Value, json};

/// The arguments of a conversation call.
pub const ARGS: &str = "messages, tools, response_format, max_tokens, temperature, model";

/// One model call: what the guest asked for.
#[derive(Clone, Debug, PartialEq)]
pub struct Request {
    pub messages: Vec<Message>,
    pub tools: Vec<ToolSpec>,
    pub response_format: Option<ResponseFormat>,
    pub max_tokens: Option<u64>,
    pub temperature: Option<f64>,
    /// The model the agent was written against; the tool's own, or the
    /// call is refused ([`super::LlmTool`]).
    pub model: Option<String>,
}

/// One message of the conversation so far.
#[derive(Clone, Debug, PartialEq)]
pub enum Message {
    System(String),
    User(String),
    /// What the model said before: text, tool calls, or both.
    Assistant {
        content: Option<String>,
        tool_calls: Vec<ToolCall>,
    },
    /// The result of one of the tool calls of the assistant message before.
    Tool {
        tool_call_id: String,
        content: String,
    },
}

/// A tool the model asked to call, with its arguments as a JSON object.
#[derive(Clone, Debug, PartialEq)]
pub struct ToolCall {
    pub id: String,
    pub name: String,
    pub arguments: Value,
}

/// A tool the model may call: its name, what it does, and a JSON schema of
/// its arguments.
#[derive(Clone, Debug, PartialEq)]
pub struct ToolSpec {
    pub name: String,
    pub description: Option<String>,
    pub parameters: Value,
}

/// A JSON schema the answer must follow.
#[derive(Clone, Debug, PartialEq)]
pub struct ResponseFormat {
    pub name: String,
    pub schema: Value,
    pub strict: bool,
}

/// Why the model stopped, in words both wire formats map onto.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// It finished its answer.
    EndTurn,
    /// It asks for the tool calls of its message to be made.
    ToolCalls,
    /// It reached `max_tokens`: the answer is cut short.
    MaxTokens,
    /// It declined to answer.
    Refusal,
    /// Anything else the server said (see `provider_stop_reason`).
    Other,
}

impl Stop {
    pub fn as_str(self) -> &'static str {
        match self {
            Stop::EndTurn => "end_turn",
            Stop::ToolCalls => "tool_calls",
            Stop::MaxTokens => "max_tokens",
            Stop::Refusal => "refusal",
            Stop::Other => "other",
        }
    }
}

/// What the model answered.
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    pub content: Option<String>,
    pub tool_calls: Vec<ToolCall>,
    pub stop: Stop,
    /// The server's own word for why it stopped.
    pub provider_stop: String,
    /// The model's explanation of a refusal, when it gave one.
    pub refusal: Option<String>,
}

/// The tokens a server reports a call used, where it says.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Reported {
    pub input: Option<u64>,
    pub output: Option<u64>,
    pub total: Option<u64>,
}

impl Request {
    /// Reads the arguments of a conversation call; the error names the
    /// field that is wrong.
    pub fn parse(args: &Map<String, Value>) -> Result<Request, String> {
        if let Some(key) = args.keys().find(|k| !ARGS.split(", ").any(|a| a == *k)) {
            return Err(format!(
                "unknown argument `{key}`; a conversation takes {ARGS}"
            ));
        }
        let messages = match args.get("messages") {
            Some(Value::Array(list)) if !list.is_empty() => messages(list)?,
            Some(Value::Array(_)) => return Err("messages is empty".into()),
            _ => return Err("messages must be a list of messages".into()),
        };
        let tools = match args.get("tools") {
            None | Some(Value::Null) => vec![],
            Some(Value::Array(list)) => tools(list)?,
            Some(_) => return Err("tools must be a list".into()),
        };
        let response_format = match args.get("response_format") {
            None | Some(Value::Null) => None,
            Some(v) => Some(response_format(v)?),
        };
        let max_tokens = match args.get("max_tokens") {
            None | Some(Value::Null) => None,
            Some(v) => match v.as_u64() {
                Some(n) if n > 0 => Some(n),
                _ => return Err("max_tokens must be a whole number of at least 1".into()),
            },
        };
        let temperature = match args.get("temperature") {
            None | Some(Value::Null) => None,
            Some(v) => match v.as_f64() {
                Some(t) if (0.0..=2.0).contains(&t) => Some(t),
                _ => return Err("temperature must be a number from 0 to 2".into()),
            },
        };
        let model = match args.get("model") {
            None | Some(Value::Null) => None,
            Some(Value::String(m)) if !m.is_empty() => Some(m.clone()),
            Some(_) => return Err("model must be the name of a model (text)".into()),
        };
        Ok(Request {
            messages,
            tools,
            response_format,
            max_tokens,
            temperature,
            model,
        })
    }

    /// The bytes of the request the model reads (its prompt), for the
    /// gate's estimate.
    pub fn prompt_bytes(&self) -> usize {
        let messages: usize = self
            .messages
            .iter()
            .map(|m| match m {
                Message::System(text) | Message::User(text) => text.len() + 4,
                Message::Assistant {
                    content,
                    tool_calls,
                } => {
                    content.as_ref().map_or(0, String::len)
                        + tool_calls
                            .iter()
                            .map(|c| c.id.len() + c.name.len() + c.arguments.to_string().len())
                            .sum::<usize>()
                        + 4
                }
                Message::Tool {
                    tool_call_id,
                    content,
                } => tool_call_id.len() + content.len() + 4,
            })
            .sum();
        let tools: usize = self
            .tools
            .iter()
            .map(|t| {
                t.name.len()
                    + t.description.as_ref().map_or(0, String::len)
                    + t.parameters.to_string().len()
            })
            .sum();
        let format = self
            .response_format
            .as_ref()
            .map_or(0, |f| f.name.len() + f.schema.to_string().len());
        messages + tools + format
    }
}

/// A field of a message, for errors.
fn field(i: usize, name: &str) -> String {
    format!("messages[{i}].{name}")
}

fn messages(list: &[Value]) -> Result<Vec<Message>, String> {
    let mut out = vec![];
    for (i, value) in list.iter().enumerate() {
        let Value::Object(m) = value else {
            return Err(format!("messages[{i}] must be an object with a role"));
        };
        let role = m.get("role").and_then(Value::as_str).unwrap_or_default();
        let allowed: &[&str] = match role {
            "system" | "user" => &["role", "content"],
            "assistant" => &["role", "content", "tool_calls"],
            "tool" => &["role", "tool_call_id", "content"],
            _ => {
                return Err(format!(
                    "{} must be \"system\", \"user\", \"assistant\" or \"tool\"",
                    field(i, "role")
                ));
            }
        };
        if let Some(key) = m.keys().find(|k| !allowed.contains(&k.as_str())) {
            return Err(format!(
                "messages[{i}]: a {role} message has no field `{key}` (it has {})",
                allowed.join(", ")
            ));
        }
        let text = |name: &str| match m.get(name) {
            Some(Value::String(s)) => Ok(s.clone()),
            _ => Err(format!("{} must be a string", field(i, name))),
        };
        let message = match role {
            "system" if out.iter().any(|m| !matches!(m, Message::System(_))) => {
                return Err(format!(
                    "messages[{i}]: a system message must come before every other message"
                ));
            }
            "system" => Message::System(text("content")?),
            "user" => Message::User(text("content")?),
            "assistant" => assistant(i, m)?,
            _ => {
                let id = text("tool_call_id")?;
                if !answers_a_call(&out, &id) {
                    return Err(format!(
                        "{} `{id}` names no tool call of the assistant message before it",
                        field(i, "tool_call_id")
                    ));
                }
                Message::Tool {
                    tool_call_id: id,
                    content: text("content")?,
                }
            }
        };
        out.push(message);
    }
    if out.iter().all(|m| matches!(m, Message::System(_))) {
        return Err("messages has only system messages; add a user message".into());
    }
    Ok(out)
}

/// Whether a tool result with `id` follows the assistant message that made
/// that call, with only other tool results between them.
fn answers_a_call(before: &[Message], id: &str) -> bool {
    for message in before.iter().rev() {
        match message {
            Message::Tool { .. } => continue,
            Message::Assistant { tool_calls, .. } => {
                return tool_calls.iter().any(|c| c.id == id);
            }
            _ => return false,
        }
    }
    false
}

fn assistant(i: usize, m: &Map<String, Value>) -> Result<Message, String> {
    let content = match m.get("content") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(_) => return Err(format!("{} must be a string or null", field(i, "content"))),
    };
    let none = vec![];
    let calls = match m.get("tool_calls") {
        None | Some(Value::Null) => &none,
        Some(Value::Array(list)) => list,
        Some(_) => return Err(format!("{} must be a list", field(i, "tool_calls"))),
    };
    let mut tool_calls = vec![];
    for (j, call) in calls.iter().enumerate() {
        let at = field(i, &format!("tool_calls[{j}]"));
        let Some(call) = call.as_object() else {
            return Err(format!("{at} must be an object with id, name, arguments"));
        };
        let string = |name: &str| match call.get(name) {
            Some(Value::String(s)) if !s.is_empty() => Ok(s.clone()),
            _ => Err(format!("{at}.{name} must be a string that is not empty")),
        };
        if let Some(key) = call
            .keys()
            .find(|k| !["id", "name", "arguments"].contains(&k.as_str()))
        {
            return Err(format!(
                "{at} has no field `{key}` (it has id, name, arguments)"
            ));
        }
        let arguments = match call.get("arguments") {
            Some(v @ Value::Object(_)) => v.clone(),
            _ => return Err(format!("{at}.arguments must be a JSON object")),
        };
        tool_calls.push(ToolCall {
            id: string("id")?,
            name: string("name")?,
            arguments,
        });
    }
    if content.is_none() && tool_calls.is_empty() {
        return Err(format!(
            "messages[{i}]: an assistant message needs content or tool_calls"
        ));
    }
    Ok(Message::Assistant {
        content,
        tool_calls,
    })
}

/// Whether a tool name is one both wire formats take.
fn valid_name(name: &str) -> bool {
    (1..=64).contains(&name.len())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

fn tools(list: &[Value]) -> Result<Vec<ToolSpec>, String> {
    let mut out: Vec<ToolSpec> = vec![];
    for (i, tool) in list.iter().enumerate() {
        let at = format!("tools[{i}]");
        let Value::Object(t) = tool else {
            return Err(format!("{at} must be an object with a name"));
        };
        if let Some(key) = t
            .keys()
            .find(|k| !["name", "description", "parameters"].contains(&k.as_str()))
        {
            return Err(format!(
                "{at} has no field `{key}` (it has name, description, parameters)"
            ));
        }
        let name = match t.get("name") {
            Some(Value::String(n)) if valid_name(n) => n.clone(),
            _ => {
                return Err(format!(
                    "{at}.name must be 1 to 64 letters, digits, `_` or `-`"
                ));
            }
        };
        if out.iter().any(|t| t.name == name) {
            return Err(format!("{at}.name `{name}` is given twice"));
        }
        let description = match t.get("description") {
            None | Some(Value::Null) => None,
            Some(Value::String(d)) => Some(d.clone()),
            Some(_) => return Err(format!("{at}.description must be a string")),
        };
        let parameters = match t.get("parameters") {
            None | Some(Value::Null) => json!({"type": "object", "properties": {}}),
            Some(p @ Value::Object(_)) => p.clone(),
            Some(_) => return Err(format!("{at}.parameters must be a JSON schema (an object)")),
        };
        out.push(ToolSpec {
            name,
            description,
            parameters,
        });
    }
    Ok(out)
}

fn response_format(value: &Value) -> Result<ResponseFormat, String> {
    let Value::Object(f) = value else {
        return Err("response_format must be an object with a schema".into());
    };
    if let Some(key) = f
        .keys()
        .find(|k| !["name", "schema", "strict"].contains(&k.as_str()))
    {
        return Err(format!(
            "response_format has no field `{key}` (it has name, schema, strict)"
        ));
    }
    let schema = match f.get("schema") {
        Some(s @ Value::Object(_)) => s.clone(),
        _ => return Err("response_format.schema must be a JSON schema (an object)".into()),
    };
    let name = match f.get("name") {
        None | Some(Value::Null) => "response".to_string(),
        Some(Value::String(n)) if valid_name(n) => n.clone(),
        Some(_) => {
            return Err("response_format.name must be 1 to 64 letters, digits, `_` or `-`".into());
        }
    };
    let strict = match f.get("strict") {
        None | Some(Value::Null) => true,
        Some(Value::Bool(b)) => *b,
        Some(_) => return Err("response_format.strict must be true or false".into()),
    };
    Ok(ResponseFormat {
        name,
        schema,
        strict,
    })
}

impl Answer {
    /// The result the guest gets for a conversation call: the assistant
    /// message (which it may append to its `messages` as it is), why the
    /// model stopped, the refusal, the parsed JSON of a structured answer,
    /// and the usage the run was charged.
    pub fn to_result(&self, structured: bool, usage: Value) -> Result<Value, String> {
        let calls: Vec<Value> = self
            .tool_calls
            .iter()
            .map(|c| json!({"id": c.id, "name": c.name, "arguments": c.arguments}))
            .collect();
        let mut message = json!({"role": "assistant", "content": self.content});
        if !calls.is_empty() {
            message["tool_calls"] = Value::Array(calls);
        }
        let mut result = json!({
            "message": message,
            "stop_reason": self.stop.as_str(),
            "provider_stop_reason": self.provider_stop,
        });
        if let Some(refusal) = &self.refusal {
            result["refusal"] = json!(refusal);
        }
        if structured && self.stop == Stop::EndTurn {
            let text = self.content.as_deref().unwrap_or_default();
            let parsed = serde_json::from_str::<Value>(text)
                .map_err(|_| format!("the model's answer is not JSON: {}", super::quote(text)))?;
            result["json"] = parsed;
        }
        result["usage"] = usage;
        Ok(result)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: Value) -> Result<Request, String> {
        Request::parse(args.as_object().unwrap())
    }

    #[test]
    fn a_conversation_with_tool_calls_and_results_is_read() {
        let request = parse(json!({
            "messages": [
                {"role": "system", "content": "be brief"},
                {"role": "user", "content": "weather in Paris?"},
                {"role": "assistant", "content": null, "tool_calls": [
                    {"id": "c1", "name": "weather", "arguments": {"city": "Paris"}}]},
                {"role": "tool", "tool_call_id": "c1", "content": "18C"},
            ],
            "tools": [{"name": "weather", "parameters": {"type": "object"}}],
            "max_tokens": 10,
            "temperature": 0.5,
        }))
        .unwrap();
        assert_eq!(request.messages.len(), 4);
        assert_eq!(request.tools[0].description, None);
        assert_eq!(request.max_tokens, Some(10));
    }

    #[test]
    fn bad_conversations_are_refused_naming_the_field() {
        let user = json!({"role": "user", "content": "hi"});
        let cases = [
            (json!({"messages": []}), "messages is empty"),
            (json!({"messages": "hi"}), "messages must be a list"),
            (
                json!({"messages": [user], "prompt": "x"}),
                "unknown argument `prompt`",
            ),
            (
                json!({"messages": [{"role": "bot"}]}),
                "messages[0].role must be",
            ),
            (
                json!({"messages": [{"role": "user"}]}),
                "messages[0].content must be a string",
            ),
            (
                json!({"messages": [user, {"role": "system", "content": "s"}]}),
                "messages[1]: a system message must come before",
            ),
            (
                json!({"messages": [user, {"role": "tool", "tool_call_id": "x", "content": "r"}]}),
                "messages[1].tool_call_id `x` names no tool call",
            ),
            (
                json!({"messages": [user, {"role": "assistant"}]}),
                "messages[1]: an assistant message needs content or tool_calls",
            ),
            (
                json!({"messages": [user, {"role": "assistant", "tool_calls": [
                    {"id": "c", "name": "n", "arguments": "{}"}]}]}),
                "messages[1].tool_calls[0].arguments must be a JSON object",
            ),
            (
                json!({"messages": [{"role": "user", "content": "x", "name": "bob"}]}),
                "messages[0]: a user message has no field `name`",
            ),
            (
                json!({"messages": [user], "tools": [{"name": "a b"}]}),
                "tools[0].name must be",
            ),
            (
                json!({"messages": [user], "tools": [{"name": "a"}, {"name": "a"}]}),
                "tools[1].name `a` is given twice",
            ),
            (
                json!({"messages": [user], "response_format": {"schema": true}}),
                "response_format.schema must be",
            ),
            (
                json!({"messages": [user], "max_tokens": 0}),
                "max_tokens must be",
            ),
            (
                json!({"messages": [user], "temperature": 3}),
                "temperature must be",
            ),
            (
                json!({"messages": [{"role": "system", "content": "s"}]}),
                "only system messages",
            ),
        ];
        for (args, expected) in cases {
            let err = parse(args.clone()).unwrap_err();
            assert!(err.contains(expected), "{args}: {err}");
        }
    }
}
