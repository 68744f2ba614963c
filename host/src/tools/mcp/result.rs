//! What a guest gets back from an MCP call: the server's answer as JSON,
//! or `failed` with what the server said went wrong.

use rmcp::model::{CallToolResult, ContentBlock};
use serde_json::{Value, json};

use super::connect::Answer;
use crate::model::ToolError;

/// The most of an error's text a guest is given.
const MAX_ERROR_BYTES: usize = 4096;

/// The guest's result of an answered call: `{"content": [..],
/// "structuredContent": ..}` (the latter when the server gave one), or
/// `failed` for a result marked `isError`, an error answer, or a request
/// for input the host cannot give.
pub(super) fn render(what: &str, answer: Answer) -> Result<String, ToolError> {
    match answer {
        Answer::Result(result) if result.is_error == Some(true) => Err(ToolError::Failed(bounded(
            format!("{what} failed: {}", text_of(&result)),
        ))),
        Answer::Result(result) => {
            let mut out = json!({ "content": result.content });
            if let Some(structured) = result.structured_content {
                out["structuredContent"] = structured;
            }
            Ok(out.to_string())
        }
        Answer::Error { code, message } => Err(ToolError::Failed(bounded(format!(
            "{what}: the server answered with error {code}: {message}"
        )))),
        Answer::InputRequired => Err(ToolError::Failed(format!(
            "{what}: the server asked for more input (an MCP input_required result), which \
             wakeful does not give; the call did not run"
        ))),
    }
}

/// The text parts of a result, joined; `(no text)` when it has none.
fn text_of(result: &CallToolResult) -> String {
    let texts: Vec<&str> = result
        .content
        .iter()
        .filter_map(|c| match c {
            ContentBlock::Text(t) => Some(t.text.as_str()),
            _ => None,
        })
        .collect();
    if texts.is_empty() {
        match &result.structured_content {
            Some(Value::Null) | None => "(no text)".into(),
            Some(v) => v.to_string(),
        }
    } else {
        texts.join("\n")
    }
}

fn bounded(mut text: String) -> String {
    if text.len() > MAX_ERROR_BYTES {
        text.truncate(text.floor_char_boundary(MAX_ERROR_BYTES));
        text.push('…');
    }
    text
}
