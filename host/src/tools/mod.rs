//! Tools: the host-side capabilities a guest reaches through `tools.call`.
//!
//! [`gate`] is the one path every call takes (ledger, grants, kill switches,
//! budgets); [`kv`] and [`lease`] are the built-in tools, which write their
//! effect and its ledger row in one transaction so that the effect happens at
//! most once; [`Tools`] also holds the configured tools (`static` for now).

pub mod gate;
pub mod kv;
pub mod lease;

use std::collections::BTreeMap;

use crate::config::{Config, ToolConfig};
use crate::model::{Millis, ToolError};
use crate::store::{LedgerWrite, Store, StoreError};

/// The tools of this host.
#[derive(Clone, Debug)]
pub struct Tools {
    /// Configured `static` tools: name → the JSON text every call returns.
    statics: BTreeMap<String, String>,
    /// Largest accepted argument or result, in bytes.
    max_payload: usize,
}

/// What executing a call did.
pub struct Executed {
    pub result: Result<String, ToolError>,
    /// True when the tool wrote the ledger row itself, in the transaction of
    /// its effect.
    pub recorded: bool,
}

impl Tools {
    pub fn from_config(config: &Config) -> Tools {
        let statics = config
            .tools
            .iter()
            .map(|(name, tool)| match tool {
                ToolConfig::Static { result, .. } => {
                    let json = serde_json::to_value(result).unwrap_or(serde_json::Value::Null);
                    (name.clone(), json.to_string())
                }
            })
            .collect();
        Tools {
            statics,
            max_payload: config.limits.max_payload_bytes,
        }
    }

    /// Whether a tool of that name exists on this host.
    pub fn knows(&self, name: &str) -> bool {
        matches!(name, "kv" | "lease") || self.statics.contains_key(name)
    }

    pub fn max_payload(&self) -> usize {
        self.max_payload
    }

    /// Runs a call that passed the gate. Store failures are host faults: the
    /// caller aborts the step.
    pub fn execute(
        &self,
        store: &mut dyn Store,
        call: &LedgerWrite,
        now: Millis,
    ) -> Result<Executed, StoreError> {
        match call.tool.as_str() {
            "kv" => kv::call(store, call, now),
            "lease" => lease::call(store, call, now),
            name => match self.statics.get(name) {
                Some(result) => Ok(Executed {
                    result: Ok(result.clone()),
                    recorded: false,
                }),
                None => Ok(Executed {
                    result: Err(ToolError::Unknown(name.to_string())),
                    recorded: false,
                }),
            },
        }
    }
}

/// Parses a tool's JSON arguments into its typed form.
pub(crate) fn parse_args<T: serde::de::DeserializeOwned>(
    tool: &str,
    args: &str,
) -> Result<T, ToolError> {
    serde_json::from_str(args).map_err(|e| ToolError::Invalid(format!("{tool}: {e}")))
}
