//! The built-in `callback` tool: a single-use link another system answers
//! on. Send the link's URL with a request, then wait on its topic, with the
//! link's expiry as a timeout; the answer's JSON body arrives as an event.
//!
//! ```no_run
//! use wakeful_sdk::prelude::*;
//!
//! # fn step() -> Result<Step, String> {
//! let link = callback::create("approval", 3_600_000, "order-9482:link")
//!     .map_err(|e| format!("callback: {e}"))?;
//! // ... send `link.url` to the other system (an `http` tool) ...
//! Ok(Step::wait_event(&link.topic).or(Wait::until(link.expires_at)))
//! # }
//! ```

use serde::{Deserialize, Serialize};

use crate::tools::{self, ToolError};

/// A link [`create`] made.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Link {
    /// Where the other system POSTs its JSON answer, once.
    pub url: String,
    /// `callback:<id>`: the topic the answer arrives on.
    pub topic: String,
    /// When the link stops taking answers (ms since the Unix epoch, UTC).
    pub expires_at: u64,
}

#[derive(Serialize)]
struct Request<'a> {
    op: &'static str,
    id: &'a str,
    valid_for_ms: u64,
}

/// Makes a link named `id` (unique within the run; letters, digits,
/// `-_.:`) valid for `valid_for_ms`. A retried step with the same
/// `idempotency_key` gets the same link back.
pub fn create(id: &str, valid_for_ms: u64, idempotency_key: &str) -> Result<Link, ToolError> {
    tools::call("callback", &create_args(id, valid_for_ms), idempotency_key)
}

fn create_args(id: &str, valid_for_ms: u64) -> Request<'_> {
    Request {
        op: "create",
        id,
        valid_for_ms,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::read_result;
    use serde_json::{json, to_value};

    #[test]
    fn the_request_and_result_have_the_host_shapes() {
        assert_eq!(
            to_value(create_args("approval", 60_000)).unwrap(),
            json!({"op": "create", "id": "approval", "valid_for_ms": 60000})
        );
        let link: Link = read_result(
            "callback",
            r#"{"url":"http://h/v1/callback/ab","topic":"callback:approval","expires_at":7}"#,
        )
        .unwrap();
        assert_eq!(link.topic, "callback:approval");
        assert_eq!(link.expires_at, 7);
    }
}
