//! Generated bindings of `wit/agent.wit` (world `agent`) and the conversions
//! between them and the host's own types in `crate::model`, so that nothing
//! outside the runtime depends on generated code.

use crate::model;

wasmtime::component::bindgen!({
    path: "../wit",
    world: "agent",
    imports: {
        // A host fault (the gate could not record a tool call) traps the
        // step; policy failures are returned to the guest as `tool-error`.
        "wakeful:agent/tools.call": trappable,
    },
});

pub(super) use self::wakeful::agent::host::Level;
pub(super) use self::wakeful::agent::tools::ToolError;
use self::wakeful::agent::types;

impl From<&model::Wake> for Wake {
    fn from(wake: &model::Wake) -> Self {
        match wake {
            model::Wake::Start { input } => Wake::Start(input.clone()),
            model::Wake::Event(event) => Wake::Event(types::Event {
                id: event.id.clone(),
                topic: event.topic.clone(),
                payload: event.payload.clone(),
                received_at: event.received_at,
            }),
            model::Wake::Approval(answer) => Wake::Approval(types::Approval {
                request_id: answer.request_id.clone(),
                approved: answer.approved,
                by: answer.by.clone(),
                at: answer.at,
                comment: answer.comment.clone(),
                digest: answer.digest.clone(),
            }),
            model::Wake::Timer { due } => Wake::Timer(*due),
            model::Wake::Expired { request_id } => Wake::Expired(request_id.clone()),
            model::Wake::Resume => Wake::Resume,
        }
    }
}

impl From<StepResult> for model::StepResult {
    fn from(result: StepResult) -> Self {
        let next = match result.next {
            types::Next::Continue => model::Next::Continue,
            types::Next::Done(outcome) => model::Next::Done { outcome },
            types::Next::Wait(waits) => model::Next::Wait {
                waits: waits.into_iter().map(model::WaitFor::from).collect(),
            },
        };
        model::StepResult {
            state: result.state,
            next,
            status: result.status,
        }
    }
}

impl From<types::WaitFor> for model::WaitFor {
    fn from(wait: types::WaitFor) -> Self {
        match wait {
            types::WaitFor::Event(topic) => model::WaitFor::Event { topic },
            types::WaitFor::Approval(request) => model::WaitFor::Approval(model::ApprovalRequest {
                id: request.id,
                question: request.question,
                details: request.details,
                valid_for_ms: request.valid_for_ms,
            }),
            types::WaitFor::Until(at) => model::WaitFor::Until { at },
            types::WaitFor::Cron(expr) => model::WaitFor::Cron { expr },
        }
    }
}

impl From<AgentInfo> for model::AgentInfo {
    fn from(info: AgentInfo) -> Self {
        model::AgentInfo {
            name: info.name,
            version: info.version,
            tools: info.tools,
            description: info.description,
        }
    }
}

impl From<model::ToolError> for ToolError {
    fn from(error: model::ToolError) -> Self {
        match error {
            model::ToolError::Denied(m) => ToolError::Denied(m),
            model::ToolError::Unknown(m) => ToolError::Unknown(m),
            model::ToolError::Budget(m) => ToolError::Budget(m),
            model::ToolError::Invalid(m) => ToolError::Invalid(m),
            model::ToolError::Failed(m) => ToolError::Failed(m),
        }
    }
}

impl From<Level> for model::LogLevel {
    fn from(level: Level) -> Self {
        match level {
            Level::Debug => model::LogLevel::Debug,
            Level::Info => model::LogLevel::Info,
            Level::Warn => model::LogLevel::Warn,
            Level::Error => model::LogLevel::Error,
        }
    }
}
