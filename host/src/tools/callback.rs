//! The built-in `callback` tool: a single-use link for another system to
//! answer on, so a run can send a request, save its state and sleep until
//! the answer arrives as an event.
//!
//! Arguments: `{"op":"create","id":ID,"valid_for_ms":N}` →
//! `{"url":"<public base>/v1/callback/<token>","topic":"callback:<ID>",
//! "expires_at":MS}`. The link, its ledger row and its audit row are written
//! in one transaction, so a retried step replays the same URL and no second
//! link exists. A POST to the URL (`POST /v1/callback/{token}`) delivers its
//! JSON body once, as an event on the topic; after `expires_at` it is
//! refused, and the run wakes through its own `until` wait.

use serde::Deserialize;
use serde_json::json;

use super::{Executed, parse_args};
use crate::model::{Millis, ToolError};
use crate::store::{Callback, LedgerWrite, NewCallback, SqlStore, StoreError};

/// The shortest link: shorter ones expire before the other side can act.
pub const MIN_VALID_MS: u64 = 1_000;
/// The longest link id.
pub const MAX_ID_BYTES: usize = 128;

#[derive(Deserialize)]
#[serde(tag = "op", rename_all = "snake_case", deny_unknown_fields)]
enum Args {
    Create { id: String, valid_for_ms: u64 },
}

/// The link's public URL under `base` (the server's public address).
pub fn url(base: &str, token: &str) -> String {
    format!("{}/v1/callback/{token}", base.trim_end_matches('/'))
}

/// The JSON result the guest (and every replay) sees.
pub fn render(base: &str, callback: &Callback) -> String {
    json!({
        "url": url(base, &callback.token),
        "topic": callback.topic,
        "expires_at": callback.expires_at,
    })
    .to_string()
}

/// Refuses an id that is not plain, or a validity out of bounds.
fn check(id: &str, valid_for_ms: u64, max_valid_ms: u64) -> Result<(), ToolError> {
    if id.is_empty() || id.len() > MAX_ID_BYTES {
        return Err(ToolError::Invalid(format!(
            "callback: id must be 1 to {MAX_ID_BYTES} bytes, got {}",
            id.len()
        )));
    }
    if let Some(bad) = id
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | ':')))
    {
        return Err(ToolError::Invalid(format!(
            "callback: id `{id}` has the character {bad:?}; use letters, digits, `-`, `_`, \
             `.` and `:`"
        )));
    }
    if !(MIN_VALID_MS..=max_valid_ms).contains(&valid_for_ms) {
        return Err(ToolError::Invalid(format!(
            "callback: valid_for_ms must be between {MIN_VALID_MS} and {max_valid_ms} \
             (limits.max_approval_valid_ms), got {valid_for_ms}"
        )));
    }
    Ok(())
}

fn refused(error: ToolError) -> Executed {
    Executed {
        result: Err(error),
        recorded: false,
        usage: None,
        transient: false,
        unsent: false,
        charge: None,
    }
}

pub(super) fn call(
    store: &mut SqlStore,
    call: &LedgerWrite,
    public_url: &str,
    max_valid_ms: u64,
    now: Millis,
) -> Result<Executed, StoreError> {
    let (id, valid_for_ms) = match parse_args::<Args>("callback", &call.args) {
        Ok(Args::Create { id, valid_for_ms }) => (id, valid_for_ms),
        Err(e) => return Ok(refused(e)),
    };
    if let Err(e) = check(&id, valid_for_ms, max_valid_ms) {
        return Ok(refused(e));
    }
    let link = NewCallback {
        id,
        valid_for_ms,
        now,
    };
    let render = |c: &Callback| render(public_url, c);
    match store.create_callback(call, &link, &render)? {
        Ok(callback) => Ok(Executed {
            result: Ok(render(&callback)),
            recorded: true,
            usage: None,
            transient: false,
            unsent: false,
            charge: None,
        }),
        Err(why) => Ok(refused(ToolError::Invalid(why))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_validity_are_checked_with_reasons() {
        let max = 60_000;
        assert!(check("refund-9482:ask.v1_a", 1_000, max).is_ok());
        let cases = [
            ("", 5_000, "id must be 1 to 128 bytes, got 0"),
            (&"x".repeat(129), 5_000, "got 129"),
            ("a b", 5_000, "has the character ' '"),
            ("a/b", 5_000, "has the character '/'"),
            ("ok", 999, "between 1000 and 60000"),
            ("ok", 60_001, "got 60001"),
        ];
        for (id, ms, want) in cases {
            let err = check(id, ms, max).unwrap_err().to_string();
            assert!(err.contains(want), "{id:?} {ms}: {err}");
        }
    }

    #[test]
    fn the_url_sits_under_the_public_base() {
        assert_eq!(
            url("https://wakeful.example.com/", "ab12"),
            "https://wakeful.example.com/v1/callback/ab12"
        );
        assert_eq!(
            url("http://127.0.0.1:7070", "ab12"),
            "http://127.0.0.1:7070/v1/callback/ab12"
        );
    }
}
