//! A conversation with a model through a configured `llm` tool, typed: the
//! same request whether the host speaks OpenAI's or Anthropic's wire
//! format. The model only asks for tool calls; making them (each through
//! the gate, with its own key) and answering with [`Message::tool`] is the
//! agent's.
//!
//! ```no_run
//! use wakeful_sdk::prelude::*;
//!
//! # fn step() -> Result<Step, String> {
//! let mut request = llm::Request::new(vec![llm::Message::user("Weather in Paris?")]);
//! request.tools.push(llm::ToolSpec::new("weather", "Today's weather in a city",
//!     json!({"type": "object", "properties": {"city": {"type": "string"}}})));
//! let reply = llm::chat("llm", &request, "paris:1").map_err(|e| e.to_string())?;
//! if reply.stop_reason == llm::StopReason::ToolCalls {
//!     // make reply.message.tool_calls, then push reply.message and the results
//! }
//! # Ok(Step::done("ok"))
//! # }
//! ```

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::tools::{self, ToolError};

/// One message of a conversation, as the `llm` tool takes it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "role", rename_all = "snake_case")]
pub enum Message {
    /// Instructions; system messages come before all others.
    System {
        /// The text.
        content: String,
    },
    /// What the user (or the agent, for them) says.
    User {
        /// The text.
        content: String,
    },
    /// What the model said: a reply's `message`, appended as it is.
    Assistant {
        /// Its text, if any.
        content: Option<String>,
        /// The tool calls it asked for.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        tool_calls: Vec<ToolCall>,
    },
    /// The result of the model's tool call `tool_call_id`.
    Tool {
        /// The `id` of the call it answers.
        tool_call_id: String,
        /// The result, as text (JSON text, say).
        content: String,
    },
}

impl Message {
    /// A system message.
    pub fn system(content: impl Into<String>) -> Message {
        Message::System {
            content: content.into(),
        }
    }

    /// A user message.
    pub fn user(content: impl Into<String>) -> Message {
        Message::User {
            content: content.into(),
        }
    }

    /// The answer to `call`.
    pub fn tool(call: &ToolCall, content: impl Into<String>) -> Message {
        Message::Tool {
            tool_call_id: call.id.clone(),
            content: content.into(),
        }
    }
}

/// A tool call the model asks for; `arguments` is a JSON object.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolCall {
    /// What its result names it by.
    pub id: String,
    /// The tool's name, one of the request's `tools`.
    pub name: String,
    /// Its arguments, a JSON object the model wrote: check them.
    pub arguments: Value,
}

/// A tool the model may ask to call.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolSpec {
    /// 1 to 64 letters, digits, `_` or `-`.
    pub name: String,
    /// What it does, for the model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// A JSON schema of its arguments.
    pub parameters: Value,
}

impl ToolSpec {
    /// A tool with a description and a JSON schema of its arguments.
    pub fn new(name: &str, description: &str, parameters: Value) -> ToolSpec {
        ToolSpec {
            name: name.into(),
            description: Some(description.into()),
            parameters,
        }
    }
}

/// A JSON schema the answer must follow.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ResponseFormat {
    /// Its name (as OpenAI's `json_schema.name`, Anthropic's tool name).
    pub name: String,
    /// The JSON schema.
    pub schema: Value,
    /// Whether the server must follow it exactly (OpenAI's `strict`).
    pub strict: bool,
}

/// The arguments of one model call.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Request {
    /// The conversation so far.
    pub messages: Vec<Message>,
    /// The tools the model may ask to call.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tools: Vec<ToolSpec>,
    /// A schema the answer must follow.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub response_format: Option<ResponseFormat>,
    /// At most the tool's configured `max_tokens` (its default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_tokens: Option<u64>,
    /// 0 to 2 (0 to 1 for an Anthropic server); the server's default if unset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub temperature: Option<f64>,
    /// The model the agent was written against: the call is refused unless
    /// the tool is configured for it; the tool's model if unset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
}

impl Request {
    /// A request of these messages and nothing else.
    pub fn new(messages: Vec<Message>) -> Request {
        Request {
            messages,
            ..Request::default()
        }
    }
}

/// Why the model stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    /// The answer is complete.
    EndTurn,
    /// The model asks for the tool calls of its message.
    ToolCalls,
    /// The answer was cut short at `max_tokens`.
    MaxTokens,
    /// The model declined to answer.
    Refusal,
    /// Anything else; see `provider_stop_reason`.
    Other,
}

/// What a call spent: the tokens the server reported, and what the run
/// was charged.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Usage {
    /// The prompt tokens the server reported.
    pub input_tokens: Option<u64>,
    /// The generated tokens the server reported.
    pub output_tokens: Option<u64>,
    /// The tokens the run was charged (never below the host's estimate).
    pub total_tokens: u64,
    /// What the run was charged in USD.
    pub cost_usd: f64,
}

/// The model's answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Reply {
    /// Always an [`Message::Assistant`].
    pub message: Message,
    /// Why the model stopped.
    pub stop_reason: StopReason,
    /// The server's own word for it.
    pub provider_stop_reason: String,
    /// The model's explanation of a refusal.
    #[serde(default)]
    pub refusal: Option<String>,
    /// With a `response_format`: the answer, parsed.
    #[serde(default)]
    pub json: Option<Value>,
    /// What the call spent.
    pub usage: Usage,
}

impl Reply {
    /// The text of the answer, if it has any.
    pub fn text(&self) -> Option<&str> {
        match &self.message {
            Message::Assistant { content, .. } => content.as_deref(),
            _ => None,
        }
    }

    /// The tool calls the model asks for.
    pub fn tool_calls(&self) -> &[ToolCall] {
        match &self.message {
            Message::Assistant { tool_calls, .. } => tool_calls,
            _ => &[],
        }
    }
}

/// Calls the `llm` tool named `tool` (as configured on the host) with
/// `request`. A retried step with the same `idempotency_key` gets the
/// recorded reply, charged once.
pub fn chat(tool: &str, request: &Request, idempotency_key: &str) -> Result<Reply, ToolError> {
    tools::call(tool, request, idempotency_key)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::read_result;
    use serde_json::{json, to_value};

    #[test]
    fn requests_and_replies_have_the_host_shapes() {
        let mut request =
            Request::new(vec![Message::system("be brief"), Message::user("weather?")]);
        request.max_tokens = Some(50);
        assert_eq!(
            to_value(&request).unwrap(),
            json!({"messages": [{"role": "system", "content": "be brief"},
                {"role": "user", "content": "weather?"}], "max_tokens": 50})
        );
        let reply: Reply = read_result(
            "llm",
            r#"{"message": {"role": "assistant", "content": null, "tool_calls": [
                {"id": "c1", "name": "weather", "arguments": {"city": "Paris"}}]},
               "stop_reason": "tool_calls", "provider_stop_reason": "tool_use",
               "usage": {"input_tokens": 3, "output_tokens": 2, "total_tokens": 20,
                 "cost_usd": 0.0}}"#,
        )
        .unwrap();
        assert_eq!(reply.stop_reason, StopReason::ToolCalls);
        let call = &reply.tool_calls()[0];
        assert_eq!(
            to_value(Message::tool(call, "18C")).unwrap(),
            json!({"role": "tool", "tool_call_id": "c1", "content": "18C"})
        );
        // The reply's message goes back into the conversation as it is.
        assert_eq!(
            to_value(&reply.message).unwrap(),
            json!({"role": "assistant", "content": null, "tool_calls": [
                {"id": "c1", "name": "weather", "arguments": {"city": "Paris"}}]})
        );
    }
}
