//! The values the host and the Rust guest SDK both use, defined once.
//!
//! A crate of its own, with serde, serde_json and sha2 as its only
//! dependencies, rather than a module of the SDK that the host would depend
//! on: the host then builds none of the guest's bindings, and the SDK none
//! of the host. The Python and TypeScript SDKs mirror [`ToolError`] and
//! [`fingerprint`] in their own languages, with the same kinds and the same
//! `kind: message` text, and the same fingerprints.

use std::fmt;

pub mod fingerprint;

use serde::{Deserialize, Serialize};

/// Why a tool call did not return a result: a policy failure, a value the
/// guest sees and may handle. A fault of the host itself (disk I/O, a lost
/// lease) is not a tool error: it stops the step, so that nothing of the
/// run changes.
///
/// The host keeps it as JSON (`{"kind": "failed", "message": "…"}`) in the
/// ledger and shows it so in its API: that shape does not change.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "message", rename_all = "snake_case")]
pub enum ToolError {
    /// Not granted to this agent version, paused by a kill switch, or
    /// (`needs approval`) a call no approved request names.
    Denied(String),
    /// No tool of that name on this host.
    Unknown(String),
    /// A budget is spent; the run will be parked.
    Budget(String),
    /// The arguments were rejected before the tool ran.
    Invalid(String),
    /// The tool ran and failed, or returned a result the agent cannot read.
    Failed(String),
}

impl ToolError {
    /// The message, without the kind of error.
    pub fn message(&self) -> &str {
        match self {
            ToolError::Denied(m)
            | ToolError::Unknown(m)
            | ToolError::Budget(m)
            | ToolError::Invalid(m)
            | ToolError::Failed(m) => m,
        }
    }
}

/// `kind: message`, the kind in words (`denied`, `unknown tool`, `budget
/// spent`, `invalid arguments`, `failed`), as every SDK prints it.
impl fmt::Display for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match self {
            ToolError::Denied(_) => "denied",
            ToolError::Unknown(_) => "unknown tool",
            ToolError::Budget(_) => "budget spent",
            ToolError::Invalid(_) => "invalid arguments",
            ToolError::Failed(_) => "failed",
        };
        write!(f, "{kind}: {}", self.message())
    }
}

impl std::error::Error for ToolError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_json_shape_is_kind_and_message() {
        let error = ToolError::Budget("token budget of 10 is spent".into());
        let json = serde_json::to_string(&error).unwrap();
        assert_eq!(
            json,
            r#"{"kind":"budget","message":"token budget of 10 is spent"}"#
        );
        assert_eq!(serde_json::from_str::<ToolError>(&json).unwrap(), error);
    }

    #[test]
    fn display_is_the_kind_in_words_then_the_message() {
        let shown: Vec<String> = [
            ToolError::Denied("m".into()),
            ToolError::Unknown("m".into()),
            ToolError::Budget("m".into()),
            ToolError::Invalid("m".into()),
            ToolError::Failed("m".into()),
        ]
        .iter()
        .map(ToString::to_string)
        .collect();
        assert_eq!(
            shown,
            [
                "denied: m",
                "unknown tool: m",
                "budget spent: m",
                "invalid arguments: m",
                "failed: m"
            ]
        );
    }
}
