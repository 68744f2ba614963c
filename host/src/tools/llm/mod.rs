//! The `llm` tool kind: a model client speaking the OpenAI
//! chat-completions format ([`openai`], any compatible server) or
//! Anthropic's Messages API ([`anthropic`]), as the tool's `format` says,
//! metered against the run's token and money budgets.
//!
//! A call is a conversation ([`conversation`]: `messages`, `tools`,
//! `response_format`, `max_tokens`, `temperature`, `model`, which must be
//! the tool's own), or the older
//! `prompt`/`actions` form ([`legacy`]), which is sent as a conversation.
//! Requests go over https or loopback http as an `http` tool's do (see
//! [`super::endpoint`]) with the call's `Idempotency-Key`. The result
//! carries the `usage` the gate charges to the run: never less than its
//! estimate ([`LlmTool::estimate`]). A 429 means the request was not
//! served: it is not recorded or charged, and the guest is told when to try
//! again.

mod anthropic;
mod conversation;
mod legacy;
mod openai;

use serde_json::{Value, json};
use ureq::http;

use super::endpoint::{Answered, Endpoint, idempotency_key};
use crate::config::{LimitsConfig, LlmToolConfig};
use crate::model::ToolError;
use crate::secrets::Secrets;
use crate::store::{LedgerWrite, Usage};
use conversation::{Answer, Reported, Request};

/// How much of a bad answer an error message quotes.
const QUOTE_CHARS: usize = 200;

/// The `anthropic-version` header the Messages API requires; the wire
/// format of [`anthropic`] is that version's.
const ANTHROPIC_VERSION: &str = "2023-06-01";

/// The wire format a tool's model server speaks (`format` in its config),
/// with its variant (`max_tokens_field`, `structured_output`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    OpenAi { limit: openai::LimitField },
    Anthropic { structured: anthropic::Structured },
}

impl Format {
    /// The configured `format` (`openai` unless given) and its variant.
    fn from_config(tool: &str, config: &LlmToolConfig) -> Result<Format, String> {
        let only_for = |key: &str, format: &str| {
            format!("tools.{tool}.{key} is for format = \"{format}\" only; remove it")
        };
        match config.format.as_deref() {
            None | Some("openai") => {
                if config.structured_output.is_some() {
                    return Err(only_for("structured_output", "anthropic"));
                }
                let limit =
                    openai::LimitField::from_config(tool, config.max_tokens_field.as_deref())?;
                Ok(Format::OpenAi { limit })
            }
            Some("anthropic") => {
                if config.max_tokens_field.is_some() {
                    return Err(only_for("max_tokens_field", "openai"));
                }
                let structured =
                    anthropic::Structured::from_config(tool, config.structured_output.as_deref())?;
                Ok(Format::Anthropic { structured })
            }
            Some(other) => Err(format!(
                "tools.{tool}.format `{other}` is not a format this host speaks; use \
                 \"openai\" (chat completions, any compatible server) or \"anthropic\" \
                 (the Messages API)"
            )),
        }
    }

    /// What an answer in this format is called, for errors.
    fn answer_name(self) -> &'static str {
        match self {
            Format::OpenAi { .. } => "chat completion",
            Format::Anthropic { .. } => "Messages API response",
        }
    }
}

/// One configured `llm` tool.
#[derive(Clone, Debug)]
pub struct LlmTool {
    /// How errors name it ([`crate::secrets::display_url`]).
    shown: String,
    format: Format,
    /// The key from `api_key` (a `${secret:…}`), if configured.
    api_key: Option<String>,
    model: String,
    max_tokens: u64,
    api_key_env: Option<String>,
    price_per_1k_tokens_usd: f64,
    /// Whether a call of unknown outcome may be sent again.
    idempotent: bool,
    endpoint: Endpoint,
}

/// A call's arguments, in either form, as the conversation it sends.
enum Form {
    Conversation(Request),
    Legacy(legacy::Args, Request),
}

impl Form {
    fn parse(args: &str) -> Result<Form, String> {
        let Ok(Value::Object(map)) = serde_json::from_str::<Value>(args) else {
            return Err("the arguments must be a JSON object".into());
        };
        if map.contains_key("messages") {
            return Request::parse(&map).map(Form::Conversation);
        }
        if !map.contains_key("prompt") {
            return Err(format!(
                "give `messages` (a conversation, with {}) or `prompt` (the older form, \
                 with system, actions, max_tokens)",
                conversation::ARGS
            ));
        }
        let args: legacy::Args =
            serde_json::from_value(Value::Object(map)).map_err(|e| e.to_string())?;
        let request = args.request();
        Ok(Form::Legacy(args, request))
    }

    fn request(&self) -> &Request {
        match self {
            Form::Conversation(r) | Form::Legacy(_, r) => r,
        }
    }

    fn prompt_bytes(&self) -> usize {
        match self {
            Form::Conversation(r) => r.prompt_bytes(),
            Form::Legacy(args, _) => args.prompt_bytes(),
        }
    }

    /// The guest's result from the model's answer, `usage` being what the
    /// run is charged.
    fn result(&self, answer: &Answer, reported: Reported, usage: Usage) -> Result<Value, String> {
        match self {
            Form::Conversation(r) => {
                let usage = json!({"input_tokens": reported.input,
                    "output_tokens": reported.output,
                    "total_tokens": usage.tokens, "cost_usd": usage.usd});
                answer.to_result(r.response_format.is_some(), usage)
            }
            Form::Legacy(args, _) => {
                let usage = json!({"total_tokens": usage.tokens, "cost_usd": usage.usd});
                let Some(content) = &answer.content else {
                    return Err(format!(
                        "the answer has no text (stop reason `{}`{})",
                        answer.provider_stop,
                        if args.asks_for_action() {
                            ", and an action was asked for"
                        } else {
                            ""
                        }
                    ));
                };
                args.result(content, usage)
            }
        }
    }
}

/// What a call did: its result and, when the model ran, what it spent (a
/// model that answered garbage still spent its tokens).
pub struct Called {
    pub result: Result<String, ToolError>,
    pub usage: Option<Usage>,
    /// The request never left the host (see [`super::CallError`]).
    pub unsent: bool,
    /// What a call that was sent and got no usable answer is charged,
    /// though it is not recorded: the estimate.
    pub charge: Option<Usage>,
}

impl LlmTool {
    /// A tool whose config names no secret.
    pub fn new(
        name: &str,
        config: &LlmToolConfig,
        limits: &LimitsConfig,
    ) -> Result<LlmTool, String> {
        LlmTool::with_secrets(name, config, limits, &Secrets::default())
    }

    /// A tool whose `url` and `api_key` may name `secrets`.
    pub fn with_secrets(
        name: &str,
        config: &LlmToolConfig,
        limits: &LimitsConfig,
        secrets: &Secrets,
    ) -> Result<LlmTool, String> {
        let endpoint = Endpoint::new(
            name,
            &config.url,
            config.ca_file.as_deref(),
            config.allow_plain_http,
            config.timeout_ms,
            limits,
            secrets,
        )?;
        let format = Format::from_config(name, config)?;
        let api_key = api_key(name, config.api_key.as_deref(), secrets)?;
        if config.api_key.is_some() && config.api_key_env.is_some() {
            return Err(format!(
                "tools.{name}: give api_key or api_key_env, not both"
            ));
        }
        if config.max_tokens == 0 {
            return Err(format!("tools.{name}.max_tokens must be at least 1"));
        }
        let price = config.price_per_1k_tokens_usd;
        if !(price.is_finite() && price >= 0.0) {
            return Err(format!(
                "tools.{name}.price_per_1k_tokens_usd must be 0 or more, got {price}"
            ));
        }
        if let Some(var) = &config.api_key_env
            && (var.is_empty() || var.contains('='))
        {
            return Err(format!(
                "tools.{name}.api_key_env must name an environment variable, got `{var}`"
            ));
        }
        if let Some(Ok(key)) = config.api_key_env.as_ref().map(std::env::var) {
            crate::secrets::register(&key);
        }
        Ok(LlmTool {
            shown: crate::secrets::display_url(&config.url),
            format,
            api_key,
            model: config.model.clone(),
            max_tokens: config.max_tokens,
            api_key_env: config.api_key_env.clone(),
            price_per_1k_tokens_usd: price,
            idempotent: config.idempotent,
            endpoint,
        })
    }

    pub fn idempotent(&self) -> bool {
        self.idempotent
    }

    /// The most a call with these arguments can spend: the prompt as the
    /// model will count it (estimated: a token per 3 bytes, which ordinary
    /// text stays under, plus 16 for the call) and every token the model
    /// may generate; `None` when the arguments are invalid (the call reports
    /// why). The model's own count is what is charged after the call.
    pub fn estimate(&self, args: &str) -> Option<Usage> {
        self.estimate_form(&Form::parse(args).ok()?).ok()
    }

    fn estimate_form(&self, form: &Form) -> Result<Usage, String> {
        let tokens = self.max_tokens_for(form.request())?;
        let prompt_tokens = (form.prompt_bytes() as u64).div_ceil(3) + 16;
        Ok(self.usage(tokens.saturating_add(prompt_tokens)))
    }

    /// A call that names a model must name this tool's: an agent (and the
    /// cassettes of its runs, whose fingerprints hold its arguments) is
    /// then never answered by another model than the one it was written
    /// against.
    fn check_model(&self, request: &Request) -> Result<(), String> {
        match &request.model {
            Some(asked) if *asked != self.model => Err(format!(
                "the call asks for model `{asked}`, but this tool is configured for `{}`: \
                 deploy the agent against that model, or configure the tool for it",
                self.model
            )),
            _ => Ok(()),
        }
    }

    fn max_tokens_for(&self, request: &Request) -> Result<u64, String> {
        match request.max_tokens {
            Some(0) => Err("max_tokens must be at least 1".into()),
            Some(n) => Ok(n.min(self.max_tokens)),
            None => Ok(self.max_tokens),
        }
    }

    fn usage(&self, tokens: u64) -> Usage {
        Usage {
            tokens,
            usd: tokens as f64 * self.price_per_1k_tokens_usd / 1000.0,
        }
    }

    /// Runs one call. What it is charged is never below the gate's
    /// estimate ([`LlmTool::estimate`]): a model server that reports fewer
    /// tokens (or none) is charged the estimate, one that reports more is
    /// charged what it reports, and a call that was sent and got no usable
    /// answer is charged the estimate too (`charge`). A call the server
    /// refused with 429 was not served: it is charged nothing and may be
    /// sent again.
    pub fn call(&self, call: &LedgerWrite, max_payload: usize) -> Called {
        // Nothing was sent, or nothing was served: nothing to charge, and
        // sending again is safe.
        let refused = |result| Called {
            result,
            usage: None,
            unsent: true,
            charge: None,
        };
        let tool = call.tool.as_str();
        let invalid = |why: String| refused(Err(ToolError::Invalid(format!("{tool}: {why}"))));
        let form = match Form::parse(&call.args) {
            Ok(form) => form,
            Err(why) => return invalid(why),
        };
        let (estimate, body) = match self.check_model(form.request()).and_then(|()| {
            let estimate = self.estimate_form(&form)?;
            let max_tokens = self.max_tokens_for(form.request())?;
            Ok((estimate, self.body(form.request(), max_tokens)?))
        }) {
            Ok(prepared) => prepared,
            Err(why) => return invalid(why),
        };
        let request = match self.request(tool, call, &body) {
            Ok(r) => r,
            Err(e) => return refused(Err(e)),
        };
        // Sent, and no answer the model's usage can be read from.
        let unanswered = |result| Called {
            result,
            usage: None,
            unsent: false,
            charge: Some(estimate),
        };
        let what = format!("{tool}: POST {}", self.shown);
        let answered = match self.endpoint.send(request, &what, max_payload) {
            Ok(answered) => answered,
            Err(e) if e.unsent => return refused(Err(e.error)),
            Err(e) => return unanswered(Err(e.error)),
        };
        let text = String::from_utf8_lossy(&answered.body);
        if answered.status == 429 {
            return refused(Err(ToolError::Failed(rate_limited(&what, &answered))));
        }
        if !(200..300).contains(&answered.status) {
            return unanswered(Err(ToolError::Failed(format!(
                "{what}: the model server answered {}: {}",
                answered.status,
                provider_error(&answered.body)
            ))));
        }
        let Ok(json) = serde_json::from_slice::<Value>(&answered.body) else {
            return unanswered(Err(ToolError::Failed(format!(
                "{what}: the answer is not a {}: {}",
                self.format.answer_name(),
                quote(&text)
            ))));
        };
        let (result, usage) = self.read(&form, &json, estimate);
        Called {
            result: result.map_err(|why| ToolError::Failed(format!("{what}: {why}"))),
            usage: Some(usage),
            unsent: false,
            charge: None,
        }
    }

    /// The request body in the tool's wire format.
    fn body(&self, request: &Request, max_tokens: u64) -> Result<Value, String> {
        match self.format {
            Format::OpenAi { limit } => Ok(openai::body(&self.model, request, max_tokens, limit)),
            Format::Anthropic { structured } => {
                anthropic::body(&self.model, request, max_tokens, structured)
            }
        }
    }

    /// The guest's result from a well-formed answer, and what the call is
    /// charged: what the server reports, at least the estimate. A model
    /// that answered is paid for, even when its answer is unusable.
    fn read(&self, form: &Form, json: &Value, estimate: Usage) -> (Result<String, String>, Usage) {
        let (reported, answer) = match self.format {
            Format::OpenAi { .. } => (openai::reported(json), openai::answer(json)),
            Format::Anthropic { structured } => {
                // Only a forced tool's input is the answer; structured
                // outputs answer in text.
                let forced = (form.request().response_format.as_ref())
                    .filter(|_| structured == anthropic::Structured::ForcedTool);
                let name = forced.map(|f| f.name.as_str());
                (anthropic::reported(json), anthropic::answer(json, name))
            }
        };
        let usage = self.usage(reported.total.unwrap_or(0).max(estimate.tokens));
        let result = answer
            .map_err(|why| format!("{why}: {}", quote(&json.to_string())))
            .and_then(|answer| form.result(&answer, reported, usage))
            .map(|value| value.to_string());
        (result, usage)
    }

    fn request(
        &self,
        tool: &str,
        call: &LedgerWrite,
        body: &Value,
    ) -> Result<http::Request<Vec<u8>>, ToolError> {
        let mut request = http::Request::builder()
            .method("POST")
            .uri(self.endpoint.uri.clone())
            .header("Content-Type", "application/json")
            .header("Idempotency-Key", idempotency_key(call));
        let key = match &self.api_key_env {
            Some(var) => Some(std::env::var(var).map_err(|_| {
                ToolError::Failed(format!(
                    "{tool}: the environment variable {var} (tools.{tool}.api_key_env) is not set"
                ))
            })?),
            None => self.api_key.clone(),
        };
        match self.format {
            Format::OpenAi { .. } => {
                if let Some(key) = key {
                    request = request.header("Authorization", format!("Bearer {key}"));
                }
            }
            Format::Anthropic { .. } => {
                if let Some(key) = key {
                    request = request.header("x-api-key", key);
                }
                request = request.header("anthropic-version", ANTHROPIC_VERSION);
            }
        }
        request
            .body(body.to_string().into_bytes())
            .map_err(|e| ToolError::Invalid(format!("{tool}: cannot build the request: {e}")))
    }
}

/// The bearer key `api_key` names, which must be a secret.
fn api_key(
    tool: &str,
    configured: Option<&str>,
    secrets: &Secrets,
) -> Result<Option<String>, String> {
    let Some(text) = configured else {
        return Ok(None);
    };
    let what = format!("tools.{tool}.api_key");
    let (key, used) = secrets.expand(&what, text)?;
    if !used {
        return Err(format!(
            "{what} must name a secret (`${{secret:NAME}}` with NAME from [secrets]); a key \
             written into the file would be read by anyone who reads the config"
        ));
    }
    http::HeaderValue::from_str(&format!("Bearer {key}"))
        .map_err(|_| format!("{what}: not a valid header value"))?;
    Ok(Some(key))
}

/// What the guest is told of a 429: the server's reason and when to call
/// again.
fn rate_limited(what: &str, answered: &Answered) -> String {
    let when = match answered.retry_after.as_deref().map(str::trim) {
        Some(s) if s.parse::<f64>().is_ok() => format!("retry after {s} s"),
        Some(date) => format!("retry after {date}"),
        None => "the server gave no retry-after".into(),
    };
    format!(
        "{what}: rate limited: the model server answered 429: {}; {when}. The request was \
         not served: it is not recorded or charged, and the same call may be made again",
        provider_error(&answered.body)
    )
}

/// What a model server's error body says: both formats answer
/// `{"error": {"type", "message"}}`; anything else is quoted.
fn provider_error(body: &[u8]) -> String {
    let text = String::from_utf8_lossy(body);
    let Ok(json) = serde_json::from_slice::<Value>(body) else {
        return quote(&text);
    };
    let error = &json["error"];
    let kind = error["type"].as_str().or(error["code"].as_str());
    match (kind, error["message"].as_str()) {
        (Some(kind), Some(message)) => quote(&format!("{kind}: {message}")),
        (None, Some(message)) => quote(message),
        _ => quote(&text),
    }
}

/// A number as JSON, a whole one without a fraction (`0`, not `0.0`), as
/// a person would write it.
fn number(n: f64) -> Value {
    if n.fract() == 0.0 && (0.0..9e15).contains(&n) {
        json!(n as u64)
    } else {
        json!(n)
    }
}

/// The first characters of a text, for error messages; redacted before it
/// is cut, so that a secret the cut splits is not left half shown.
fn quote(text: &str) -> String {
    let text = crate::secrets::redact(text);
    let mut quoted: String = text.chars().take(QUOTE_CHARS).collect();
    if quoted.len() < text.len() {
        quoted.push('…');
    }
    quoted
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(format: Option<&str>) -> LlmToolConfig {
        LlmToolConfig {
            url: "http://127.0.0.1:9/v1/chat/completions".into(),
            format: format.map(str::to_string),
            max_tokens_field: None,
            structured_output: None,
            ca_file: None,
            allow_plain_http: false,
            model: "m".into(),
            max_tokens: 100,
            api_key: None,
            api_key_env: None,
            price_per_1k_tokens_usd: 2.0,
            timeout_ms: Some(100),
            idempotent: true,
            description: None,
        }
    }

    #[test]
    fn estimates_cap_the_guest_at_the_configured_max() {
        let tool = LlmTool::new("llm", &config(None), &LimitsConfig::default()).unwrap();
        let est = tool
            .estimate(r#"{"prompt":"p","max_tokens":5000}"#)
            .unwrap();
        // 100 to generate, 1 + 16 for the one-byte prompt.
        assert_eq!(est.tokens, 117);
        assert!((est.usd - 0.234).abs() < 1e-12, "{}", est.usd);
        assert_eq!(
            tool.estimate(r#"{"prompt":"p","max_tokens":10}"#)
                .unwrap()
                .tokens,
            27
        );
        // The prompt counts: 3000 bytes are about 1000 tokens more.
        let long = json!({"prompt": "x".repeat(3000), "max_tokens": 10});
        assert_eq!(
            tool.estimate(&long.to_string()).unwrap().tokens,
            10 + 1000 + 16
        );
        assert!(tool.estimate(r#"{"prompt":"p","max_tokens":0}"#).is_none());
        assert!(tool.estimate(r#"{"nope":1}"#).is_none());
        // A conversation: 2996 bytes of text and 4 for its one message.
        let talk = json!({"messages": [{"role": "user", "content": "x".repeat(2996)}],
            "max_tokens": 10});
        assert_eq!(
            tool.estimate(&talk.to_string()).unwrap().tokens,
            10 + 1000 + 16
        );
    }

    #[test]
    fn an_unknown_format_is_refused_naming_the_tool_and_key() {
        let err =
            LlmTool::new("brain", &config(Some("gemini")), &LimitsConfig::default()).unwrap_err();
        assert!(
            err.starts_with("tools.brain.format `gemini` is not a format"),
            "{err}"
        );
        for known in ["openai", "anthropic"] {
            LlmTool::new("brain", &config(Some(known)), &LimitsConfig::default()).unwrap();
        }
    }

    #[test]
    fn provider_errors_are_read_from_either_format() {
        let anthropic = br#"{"type":"error","error":{"type":"invalid_request_error","message":"max_tokens: too big"}}"#;
        assert_eq!(
            provider_error(anthropic),
            "invalid_request_error: max_tokens: too big"
        );
        let openai = br#"{"error":{"message":"bad key","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}"#;
        assert_eq!(provider_error(openai), "invalid_request_error: bad key");
        assert_eq!(provider_error(b"overloaded"), "overloaded");
        assert_eq!(number(0.0), json!(0));
        assert_eq!(number(0.5), json!(0.5));
    }
}
