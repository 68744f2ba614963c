//! Callback links as the store keeps them: plain data, no SQL.

use serde::Serialize;

use crate::model::Millis;

/// A single-use link a run handed to another system: a POST to it becomes
/// an event on `topic` for the run. The token is the link's only
/// authorisation, so it is never serialised.
#[derive(Clone, Debug, Serialize)]
pub struct Callback {
    /// The link's token as made (the only time it is known); read back,
    /// the SHA-256 that the store keeps of it.
    #[serde(skip)]
    pub token: String,
    pub run_id: String,
    /// The guest's name for the link, unique within the run.
    pub id: String,
    /// `callback:<id>`: the topic its event arrives on.
    pub topic: String,
    pub created_at: Millis,
    /// Posts at or after this are refused.
    pub expires_at: Millis,
    /// When the one accepted POST arrived.
    pub used_at: Option<Millis>,
    /// The address that POST came from.
    pub used_from: Option<String>,
}

/// A link a step asks for.
#[derive(Clone, Debug)]
pub struct NewCallback {
    pub id: String,
    pub valid_for_ms: u64,
    pub now: Millis,
}

/// The topic of the link named `id`.
pub fn callback_topic(id: &str) -> String {
    format!("callback:{id}")
}

/// Why a POST to a link delivered nothing.
#[derive(Debug, thiserror::Error)]
pub enum CallbackRefused {
    #[error("no callback link has this token")]
    Unknown,
    #[error("this callback link was already used at {used_at_text}; a link delivers once")]
    Used {
        used_at: Millis,
        used_at_text: String,
    },
    #[error(
        "this callback link expired at {expires_at_text}; nothing was delivered (the run wakes through its own timeout)"
    )]
    Expired {
        expires_at: Millis,
        expires_at_text: String,
    },
    #[error("run {run} has ended ({status}); nothing was delivered")]
    RunEnded { run: String, status: String },
}
