//! Calls of tools the host lets through only with an approval: ask a human
//! to approve exactly these calls, then make them with the same arguments.
//!
//! A host configured with `[approvals.tools.<name>] requires_approval =
//! true` refuses every call of that tool (`denied: needs approval`) unless
//! the run holds an approved request whose details name the call: its
//! tool, its arguments and the SHA-256 of their exact text. Each named call
//! may be made once.
//!
//! ```
//! use wakeful_sdk::gated::{self, Call};
//! use wakeful_sdk::serde_json::json;
//!
//! let refund = Call::new("refunds", &json!({"order": "9482", "amount_usd": 120.0})).unwrap();
//! let request = gated::request(
//!     "refund-9482",
//!     "Refund 120.00 USD for order 9482?",
//!     &[refund.clone()],
//!     json!({"reason": "damaged in transit"}),
//!     3_600_000,
//! );
//! assert_eq!(request.details["calls"][0]["tool"], "refunds");
//! assert_eq!(request.details["reason"], "damaged in transit");
//! // Wait for it (`Step::wait_approval`), and once approved:
//! // let done: serde_json::Value = refund.call("refund-9482:pay")?;
//! ```

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

use crate::ApprovalRequest;
use crate::tools::{self, ToolError};

/// One call to approve and then make: its tool and the exact argument text.
#[derive(Debug, Clone, PartialEq)]
pub struct Call {
    /// The tool's name.
    pub tool: String,
    /// The JSON text the call sends; the approval is bound to its digest.
    pub args: String,
}

impl Call {
    /// The call of `tool` with `args` as JSON.
    pub fn new<A: Serialize + ?Sized>(tool: &str, args: &A) -> Result<Call, ToolError> {
        let args = serde_json::to_string(args).map_err(|e| {
            ToolError::Invalid(format!("the arguments for tool '{tool}' are not JSON: {e}"))
        })?;
        Ok(Call {
            tool: tool.to_string(),
            args,
        })
    }

    /// Lowercase hex SHA-256 of the argument text, as the host computes it.
    pub fn args_sha256(&self) -> String {
        Sha256::digest(self.args.as_bytes())
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }

    /// How the approval's details name this call.
    pub fn named(&self) -> Value {
        let args: Value = serde_json::from_str(&self.args).unwrap_or(Value::Null);
        json!({"tool": self.tool, "args": args, "args_sha256": self.args_sha256()})
    }

    /// Makes the call, with the arguments that were approved, and reads
    /// its JSON result as `R`.
    pub fn call<R: DeserializeOwned>(&self, idempotency_key: &str) -> Result<R, ToolError> {
        let result = tools::call_raw(&self.tool, &self.args, idempotency_key)?;
        tools::read_result(&self.tool, &result)
    }
}

/// The details of a request for `calls`: `{"calls": [...]}` and the fields
/// of `extra` (an object; anything else is kept under `"about"`), shown to
/// the approver.
pub fn details(calls: &[Call], extra: Value) -> Value {
    let mut details = match extra {
        Value::Object(map) => map,
        Value::Null => Map::new(),
        other => Map::from_iter([("about".to_string(), other)]),
    };
    let named: Vec<Value> = calls.iter().map(Call::named).collect();
    details.insert("calls".into(), Value::Array(named));
    Value::Object(details)
}

/// An approval request for exactly `calls`.
pub fn request(
    id: impl Into<String>,
    question: impl Into<String>,
    calls: &[Call],
    extra: Value,
    valid_for_ms: u64,
) -> ApprovalRequest {
    ApprovalRequest::new(id, question, details(calls, extra), valid_for_ms)
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::testing;

    #[test]
    fn a_request_names_each_call_by_tool_arguments_and_digest() {
        let call = Call::new("refunds", &json!({"order": "9482", "amount_usd": 120.0})).unwrap();
        assert_eq!(call.args, r#"{"amount_usd":120.0,"order":"9482"}"#);
        let shown = details(std::slice::from_ref(&call), json!({"reason": "late"}));
        assert_eq!(shown["reason"], "late");
        let named = &shown["calls"][0];
        assert_eq!(named["tool"], "refunds");
        assert_eq!(named["args"], json!({"order": "9482", "amount_usd": 120.0}));
        // SHA-256 of the exact text the call sends.
        assert_eq!(named["args_sha256"], call.args_sha256());
        assert_eq!(
            Call::new("t", &json!({})).unwrap().args_sha256(),
            "44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a"
        );
        assert_eq!(details(&[], json!("why"))["about"], "why");
    }

    #[test]
    fn the_call_sends_the_approved_text() {
        testing::reset();
        testing::on_tool(|name, args| Ok(json!({"tool": name, "got": args})));
        let call = Call::new("refunds", &json!({"order": "1"})).unwrap();
        let done: Value = call.call("refund-1:pay").unwrap();
        assert_eq!(done, json!({"tool": "refunds", "got": {"order": "1"}}));
        let made = &testing::calls()[0];
        assert_eq!(
            (made.name.as_str(), made.idempotency_key.as_str()),
            ("refunds", "refund-1:pay")
        );
        assert_eq!(made.args, json!({"order": "1"}));
    }
}
