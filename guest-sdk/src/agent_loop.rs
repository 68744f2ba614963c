//! An agent loop: a model chooses tool calls, the loop makes them through
//! the gate, feeds back the results and asks the model again, until it
//! answers.
//!
//! The conversation lives in the run's state (a [`Loop`] field of the
//! agent's `State`), and each step does one thing: one model call, or the
//! model's pending tool calls. Every call has an idempotency key derived
//! from the loop's turn and the model's tool-call id, so a step retried
//! after a crash gets the recorded results: nothing is sent or charged
//! twice. The model is offered only the tools the [`Config`] maps, each of
//! which the agent must declare in [`Agent::TOOLS`](crate::Agent::TOOLS).
//! A call the host refuses with `needs approval` becomes an approval
//! request naming that exact call ([`gated`](crate::gated)); the loop
//! waits for the answer, then makes the call, or tells the model it was
//! refused.
//!
//! ```no_run
//! use wakeful_sdk::agent_loop::{Config, Loop, LoopTool, Turn};
//! use wakeful_sdk::prelude::*;
//!
//! #[derive(Default, Serialize, Deserialize)]
//! struct State { chat: Loop }
//!
//! struct Helper;
//! impl Agent for Helper {
//!     type State = State;
//!     const TOOLS: &'static [&'static str] = &["llm", "kv"];
//!     const DESCRIPTION: &'static str = "Answers with the help of kv.";
//!     fn step(state: &mut State, wake: Wake) -> Result<Step, String> {
//!         let kv = LoopTool::new("kv", "Read or write a key", json!({"type": "object"}));
//!         let config = Config::new("llm", vec![kv], Self::TOOLS)?;
//!         if let Wake::Start(_) = wake {
//!             state.chat = Loop::new(vec![llm::Message::user("What is in key `a`?")]);
//!         }
//!         Ok(match state.chat.advance(&config, &wake)? {
//!             Turn::Step(step) => step,
//!             Turn::Finished(reply) => Step::done(reply.text().unwrap_or("no answer")),
//!         })
//!     }
//! }
//! ```

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::gated::{self, Call};
use crate::llm::{self, Message, Reply, Request, StopReason, ToolSpec};
use crate::tools::{self, ToolError};
use crate::{ApprovalRequest, Step, Wake};

/// The start of the host's refusal of a call that needs an approval.
const NEEDS_APPROVAL: &str = "needs approval";

/// How long an approval request of the loop is open: a day.
const APPROVAL_VALID_MS: u64 = 24 * 3_600_000;

/// A tool the model may call: its name and schema as the model sees
/// them, and the host tool a call goes to with the model's arguments.
#[derive(Debug, Clone, PartialEq)]
pub struct LoopTool {
    /// What the model is told.
    pub spec: ToolSpec,
    /// The host tool its calls go to.
    pub tool: String,
    /// The field of the tool's arguments the model's arguments go under
    /// (`body` for an `http` tool); `None`: they are the tool's arguments.
    pub under: Option<String>,
}

impl LoopTool {
    /// The host tool `tool`, offered to the model under its own name.
    pub fn new(tool: &str, description: &str, parameters: Value) -> LoopTool {
        LoopTool {
            spec: ToolSpec::new(tool, description, parameters),
            tool: tool.to_owned(),
            under: None,
        }
    }

    /// Sends the model's arguments as the field `field` of the tool's
    /// arguments: `under("body")` for an `http` tool.
    #[must_use]
    pub fn under(mut self, field: &str) -> LoopTool {
        self.under = Some(field.to_owned());
        self
    }

    /// Offers it to the model as `name` instead.
    #[must_use]
    pub fn named(mut self, name: &str) -> LoopTool {
        self.spec.name = name.to_owned();
        self
    }
}

/// What a loop may do: the `llm` tool it asks, the tools it offers the
/// model, and at most how many model calls it makes.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    /// The host's `llm` tool.
    pub llm: String,
    /// The tools offered to the model.
    pub tools: Vec<LoopTool>,
    /// The most model calls of one loop; one more is an error of the step.
    pub max_turns: u32,
    /// The start of every idempotency key and approval id of the loop.
    pub prefix: String,
    /// The model the agent was written against, sent with every model
    /// call: the host refuses the call unless its `llm` tool is configured
    /// for it, and a cassette's fingerprints then hold it.
    pub model: Option<String>,
}

impl Config {
    /// A loop asking `llm` and offering `tools`, each of which (and `llm`)
    /// must be one of `declared`, the agent's `TOOLS`: a model can only
    /// reach what the version asked the operator to grant.
    pub fn new(llm: &str, tools: Vec<LoopTool>, declared: &[&str]) -> Result<Config, String> {
        let undeclared = |name: &str| !declared.contains(&name);
        if undeclared(llm) {
            return Err(format!(
                "the loop's model tool `{llm}` is not in the agent's TOOLS {declared:?}"
            ));
        }
        for t in &tools {
            if undeclared(&t.tool) {
                return Err(format!(
                    "the loop offers `{}` (tool `{}`), which is not in the agent's TOOLS {declared:?}",
                    t.spec.name, t.tool
                ));
            }
            if tools.iter().filter(|o| o.spec.name == t.spec.name).count() > 1 {
                return Err(format!("the loop offers two tools named `{}`", t.spec.name));
            }
        }
        Ok(Config {
            llm: llm.to_owned(),
            tools,
            max_turns: 20,
            prefix: "loop".into(),
            model: None,
        })
    }
}

/// A tool call of the model the loop has yet to answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Pending {
    /// The model's id for the call.
    pub id: String,
    /// The tool's name as the model called it.
    pub name: String,
    /// The exact argument text sent (and approved).
    pub args: String,
}

/// An approval request the loop waits on, for the first pending call.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Asked {
    /// The request's id.
    pub id: String,
    /// Its question.
    pub question: String,
    /// Its details, naming the call.
    pub details: Value,
}

impl Asked {
    fn request(&self) -> ApprovalRequest {
        ApprovalRequest::new(
            &self.id,
            &self.question,
            self.details.clone(),
            APPROVAL_VALID_MS,
        )
    }
}

/// The loop's state: keep it in the agent's `State`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Loop {
    /// The conversation so far.
    pub messages: Vec<Message>,
    /// The model's tool calls not answered yet, in its order.
    #[serde(default)]
    pub pending: Vec<Pending>,
    /// The approval request the first pending call waits on.
    #[serde(default)]
    pub asked: Option<Asked>,
    /// How many model calls the loop has made.
    #[serde(default)]
    pub turn: u32,
}

/// What a step of the loop ends with.
#[derive(Debug, Clone, PartialEq)]
pub enum Turn {
    /// The loop goes on: return this step.
    Step(Step),
    /// The model answered without asking for tools (or stopped otherwise:
    /// see its `stop_reason`).
    Finished(Reply),
}

impl Loop {
    /// A loop that starts from `messages`.
    pub fn new(messages: Vec<Message>) -> Loop {
        Loop {
            messages,
            ..Loop::default()
        }
    }

    /// Takes one step: answers the approval awaited, or makes the pending
    /// tool calls, or makes one model call. An error is the step's (the
    /// host retries it; every call made is replayed, not repeated).
    pub fn advance(&mut self, config: &Config, wake: &Wake) -> Result<Turn, String> {
        if let Some(asked) = self.asked.clone() {
            match answer_to(&asked, wake) {
                None => return Ok(Turn::Step(wait_for(&asked))),
                Some(answer) => {
                    self.asked = None;
                    let call = self.pending.remove(0);
                    let content = match answer {
                        Ok(()) => match self.make_or_ask(config, &call, true)? {
                            Made::Result(content) => content,
                            // The gate lets an approved call through once.
                            Made::Asked(_) => {
                                error_text("the host still refuses this call after its approval")
                            }
                        },
                        Err(refusal) => error_text(&refusal),
                    };
                    self.messages.push(tool_message(&call, content));
                    // The calls after it, or (none left) the model next step.
                    return self.run_pending(config).map(Turn::Step);
                }
            }
        }
        if !self.pending.is_empty() {
            return self.run_pending(config).map(Turn::Step);
        }
        self.ask_model(config)
    }

    /// Makes the pending calls in order; stops at one that needs approval.
    fn run_pending(&mut self, config: &Config) -> Result<Step, String> {
        while let Some(call) = self.pending.first().cloned() {
            match self.make_or_ask(config, &call, false)? {
                Made::Result(content) => {
                    self.pending.remove(0);
                    self.messages.push(tool_message(&call, content));
                }
                Made::Asked(asked) => {
                    let step = wait_for(&asked);
                    self.asked = Some(asked);
                    return Ok(step);
                }
            }
        }
        Ok(Step::continue_().status(format!("the model's turn {} answered", self.turn)))
    }

    /// Makes `call`, or says which approval it needs. An approved call has
    /// a key of its own: the refusal before it is not the call's result.
    fn make_or_ask(&self, config: &Config, call: &Pending, approved: bool) -> Result<Made, String> {
        let Some(tool) = config.tools.iter().find(|t| t.spec.name == call.name) else {
            return Ok(Made::Result(error_text(&format!(
                "there is no tool named `{}`",
                call.name
            ))));
        };
        let mut key = format!("{}:{}:tool:{}", config.prefix, self.turn, call.id);
        if approved {
            key.push_str(":approved");
        }
        match tools::call_raw(&tool.tool, &call.args, &key) {
            Ok(result) => Ok(Made::Result(result)),
            Err(ToolError::Denied(m)) if m.starts_with(NEEDS_APPROVAL) => {
                let named = Call {
                    tool: tool.tool.clone(),
                    args: call.args.clone(),
                };
                let request = gated::request(
                    format!("{}-{}-{}", config.prefix, self.turn, call.id),
                    format!(
                        "Let the model call `{}` with {}?",
                        tool.tool,
                        cut(&call.args, 300)
                    ),
                    &[named],
                    json!({"model_tool": call.name, "turn": self.turn}),
                    APPROVAL_VALID_MS,
                );
                Ok(Made::Asked(Asked {
                    id: request.id,
                    question: request.question,
                    details: request.details,
                }))
            }
            Err(e) => Ok(Made::Result(error_text(&e.to_string()))),
        }
    }

    fn ask_model(&mut self, config: &Config) -> Result<Turn, String> {
        if self.turn >= config.max_turns {
            return Err(format!(
                "the loop made its {} model calls (max_turns) without an answer",
                config.max_turns
            ));
        }
        let mut request = Request::new(self.messages.clone());
        request.tools = config.tools.iter().map(|t| t.spec.clone()).collect();
        request.model.clone_from(&config.model);
        let key = format!("{}:{}:model", config.prefix, self.turn + 1);
        let reply = llm::chat(&config.llm, &request, &key)
            .map_err(|e| format!("model call {} failed: {e}", self.turn + 1))?;
        self.turn += 1;
        self.messages.push(reply.message.clone());
        if reply.stop_reason != StopReason::ToolCalls || reply.tool_calls().is_empty() {
            return Ok(Turn::Finished(reply));
        }
        self.pending = reply
            .tool_calls()
            .iter()
            .map(|c| Pending {
                id: c.id.clone(),
                name: c.name.clone(),
                args: tool_args(config, c),
            })
            .collect();
        let names: Vec<&str> = self.pending.iter().map(|p| p.name.as_str()).collect();
        Ok(Turn::Step(Step::continue_().status(format!(
            "the model asks for {}",
            names.join(", ")
        ))))
    }
}

/// The exact text of the tool's arguments for the model's `call`.
fn tool_args(config: &Config, call: &llm::ToolCall) -> String {
    let under = (config.tools.iter())
        .find(|t| t.spec.name == call.name)
        .and_then(|t| t.under.as_deref());
    match under {
        Some(field) => json!({ field: call.arguments }).to_string(),
        None => call.arguments.to_string(),
    }
}

enum Made {
    Result(String),
    Asked(Asked),
}

/// `None` while the wake is not the answer; `Err` with what to tell the
/// model when the call may not be made.
fn answer_to(asked: &Asked, wake: &Wake) -> Option<Result<(), String>> {
    match wake {
        Wake::Approval(a) if a.request_id == asked.id => Some(if !a.is_for(&asked.request()) {
            Err("the approval answered another question".into())
        } else if a.approved {
            Ok(())
        } else {
            let why = a.comment.as_deref().unwrap_or("no reason given");
            Err(format!("refused: {} rejected this call ({why})", a.by))
        }),
        Wake::Expired(id) if *id == asked.id => {
            Some(Err("refused: nobody approved this call in time".into()))
        }
        _ => None,
    }
}

fn wait_for(asked: &Asked) -> Step {
    Step::wait([crate::Wait::Approval(asked.request())])
        .status(format!("waiting for approval {}", asked.id))
}

fn tool_message(call: &Pending, content: String) -> Message {
    Message::Tool {
        tool_call_id: call.id.clone(),
        content,
    }
}

/// At most `max` chars of `text`, for a question.
fn cut(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_owned(),
    }
}

fn error_text(message: &str) -> String {
    json!({"error": message}).to_string()
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;
