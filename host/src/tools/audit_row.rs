//! The audit row of one tool call: which tool, which key, and how it ended,
//! in words an operator reads (`ok`, `server error`, `timeout`, `too large`,
//! `denied`, `budget`, `replayed`, …).

use serde_json::{Value, json};

use crate::model::ToolError;
use crate::runtime::HostFault;
use crate::store::LedgerWrite;

/// The longest error text an audit row keeps of a call.
const MAX_DETAIL: usize = 500;

/// The kind of the row each send of an external call gets, written with
/// its intent before the request leaves the host.
pub const SENT: &str = "tool sent";

/// The data of a send's row: which call, the `Idempotency-Key` the system
/// reached gets (the same on every send of the call), and whether an
/// earlier attempt sent it already (a resend after a crash, a timeout or a
/// server error).
pub fn sent(seq: u64, call: &LedgerWrite, resend: bool) -> Value {
    json!({"seq": seq, "tool": call.tool, "key": cut(&call.key),
        "sent_key": crate::model::sent_key(&call.run_id, &call.incarnation, &call.key),
        "resend": resend})
}

/// The most argument bytes the rows of one step's refused calls keep.
pub const REFUSED_ARGS_PER_STEP: usize = 16 << 10;

/// Adds to the row of a call the host's policy refused (not granted, a
/// budget spent, an approval needed) its arguments and the exact refusal
/// the guest got: such a call has no ledger entry, and `wakeful cassette`
/// replays it from this row. Arguments over `allowance` bytes (what the
/// step may still keep) or not JSON are only counted. Returns the bytes
/// kept.
pub fn refused_call(row: &mut Value, args: &str, refusal: &ToolError, allowance: usize) -> usize {
    match serde_json::from_str::<Value>(args) {
        Ok(parsed) if args.len() <= allowance => {
            row["args"] = parsed;
            row["refusal"] = json!(refusal);
            args.len()
        }
        _ => {
            row["args_bytes"] = json!(args.len());
            0
        }
    }
}

/// The row's data. `note` is what the gate knew beyond the result (a
/// replay, a pause, a request that never left the host).
pub fn tool_call(
    seq: u64,
    tool: &str,
    key: &str,
    note: Option<&'static str>,
    answer: &Result<Result<String, ToolError>, HostFault>,
) -> Value {
    let mut row = json!({"seq": seq, "tool": tool, "key": cut(key)});
    let outcome = match answer {
        Ok(result) => {
            match result {
                Ok(out) => {
                    row["bytes"] = json!(out.len());
                    if let Some(status) = http_status(out) {
                        row["status"] = json!(status);
                    }
                }
                // The outcome names the kind; the error says the rest.
                Err(e) => row["error"] = json!(cut(e.message())),
            }
            outcome_of(result)
        }
        Err(fault) => {
            row["error"] = json!(cut(&fault.0));
            "stopped"
        }
    };
    row["outcome"] = json!(note.unwrap_or(outcome));
    row
}

/// How a call that returned `result` ended.
pub fn outcome_of(result: &Result<String, ToolError>) -> &'static str {
    match result {
        Ok(out) if http_status(out).is_some_and(|status| status >= 500) => "server error",
        Ok(_) => "ok",
        Err(e) => error_outcome(e),
    }
}

/// How a refused or failed call ended.
fn error_outcome(e: &ToolError) -> &'static str {
    match e {
        ToolError::Denied(_) => "denied",
        ToolError::Unknown(_) => "unknown tool",
        ToolError::Budget(_) => "budget",
        ToolError::Invalid(_) => "invalid",
        ToolError::Failed(why) if why.contains("timed out") => "timeout",
        ToolError::Failed(why)
            if why.contains("the limit is") || why.contains("than the limit") =>
        {
            "too large"
        }
        ToolError::Failed(_) => "failed",
    }
}

/// The status of an `http` tool's rendered response (`{"body": …,
/// "status": N}`).
fn http_status(rendered: &str) -> Option<u64> {
    if !rendered.starts_with("{\"body\"") {
        return None;
    }
    let value: Value = serde_json::from_str(rendered).ok()?;
    let object = value.as_object().filter(|o| o.len() == 2)?;
    object.get("status")?.as_u64()
}

fn cut(text: &str) -> &str {
    &text[..text.floor_char_boundary(MAX_DETAIL)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refused_call_keeps_its_args_within_the_steps_allowance() {
        let refusal = ToolError::Denied("needs approval: …".into());
        let mut row = json!({});
        let kept = refused_call(&mut row, r#"{"replicas": 6}"#, &refusal, 100);
        assert_eq!(kept, 15);
        assert_eq!(row["args"], json!({"replicas": 6}));
        assert_eq!(row["refusal"], json!(refusal));
        // Past the allowance, or not JSON: counted, not kept.
        for (args, allowance) in [(r#"{"replicas": 6}"#, 14), ("{not json", 100)] {
            let mut row = json!({});
            assert_eq!(refused_call(&mut row, args, &refusal, allowance), 0);
            assert_eq!(row, json!({"args_bytes": args.len()}));
        }
    }

    fn outcome(answer: Result<Result<String, ToolError>, HostFault>) -> String {
        tool_call(1, "t", "k", None, &answer)["outcome"]
            .as_str()
            .unwrap()
            .to_string()
    }

    #[test]
    fn each_ending_has_its_word() {
        assert_eq!(outcome(Ok(Ok("{\"body\":1,\"status\":200}".into()))), "ok");
        assert_eq!(
            outcome(Ok(Ok("{\"body\":1,\"status\":503}".into()))),
            "server error"
        );
        assert_eq!(outcome(Ok(Ok("42".into()))), "ok");
        let failed = |why: &str| outcome(Ok(Err(ToolError::Failed(why.into()))));
        assert_eq!(failed("POST http://x timed out after 100 ms"), "timeout");
        assert_eq!(
            failed(
                "POST x: the response body is 9 bytes; the limit is 4 (limits.max_payload_bytes)"
            ),
            "too large"
        );
        assert_eq!(failed("POST x: connection reset"), "failed");
        assert_eq!(outcome(Ok(Err(ToolError::Denied("no".into())))), "denied");
        assert_eq!(outcome(Ok(Err(ToolError::Budget("no".into())))), "budget");
        assert_eq!(outcome(Err(HostFault("store".into()))), "stopped");
        let replay = tool_call(1, "t", "k", Some("replayed"), &Ok(Ok("1".into())));
        assert_eq!(replay["outcome"], "replayed");
    }
}
