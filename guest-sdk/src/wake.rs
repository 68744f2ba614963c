//! Why a step is called: [`Wake`] and the records it carries.

use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::bindings::wit;

/// Why a step is called.
#[derive(Debug, Clone, PartialEq)]
pub enum Wake {
    /// The first step of a run, with the start input (`Value::Null` when the
    /// run was started without one). Read it typed with [`Wake::input`].
    Start(Value),
    /// An event the run waited for.
    Event(Event),
    /// A human answered an approval request of this run.
    Approval(Approval),
    /// An `until` or `cron` wait fired; the time it was due (ms since the
    /// Unix epoch, UTC).
    Timer(u64),
    /// The approval request with this id expired unanswered.
    Expired(String),
    /// After [`Step::continue_`](crate::Step::continue_), or an operator
    /// resumed the run.
    Resume,
}

/// An event delivered to the run.
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    /// Unique per run: a redelivered event is not delivered twice.
    pub id: String,
    /// The topic the run waited on, e.g. `mail:invoice`.
    pub topic: String,
    /// The event's JSON body.
    pub payload: Value,
    /// When the host stored the event (ms since the Unix epoch, UTC).
    pub received_at: u64,
}

/// A human's answer to an approval request.
#[derive(Debug, Clone, PartialEq)]
pub struct Approval {
    /// The id of the [`Wait::approval`](crate::Wait::approval) request answered.
    pub request_id: String,
    /// `true` to go ahead, `false` to refuse.
    pub approved: bool,
    /// Who answered.
    pub by: String,
    /// When the host received the answer (ms since the Unix epoch, UTC).
    pub at: u64,
    /// What the approver wrote, if anything.
    pub comment: Option<String>,
    /// The digest of the question and details that were answered; see
    /// [`Approval::is_for`].
    pub digest: String,
}

impl Approval {
    /// Whether this answers exactly `request`: the same id, question and
    /// details. Act on an approval only if it is for the plan you hold.
    pub fn is_for(&self, request: &crate::ApprovalRequest) -> bool {
        self.request_id == request.id && self.digest == request.digest()
    }
}

impl Wake {
    /// What this wake says about the approval request or callback link `id`
    /// the run asked for through [`waits`](crate::waits): `None` when it is
    /// about something else. An approval counts only when it answers the
    /// question and details asked, as the SDK remembers them; after an
    /// answer or an expiry, the SDK no longer waits on `id`.
    pub fn answer_to(&self, id: &str) -> Option<crate::Answer> {
        crate::waits::answer(self, id)
    }

    /// The start input as a `T`, e.g. a struct with the run's parameters.
    ///
    /// Fails on any wake but [`Wake::Start`], and when the input does not fit
    /// `T`; the message names the problem (`missing field `service``), so
    /// returning it as the step's error tells the operator what to fix.
    pub fn input<T: DeserializeOwned>(&self) -> Result<T, String> {
        match self {
            Wake::Start(input) => T::deserialize(input)
                .map_err(|e| format!("the start input does not fit this agent: {e}")),
            other => Err(format!(
                "expected the start wake to read the input, got {}",
                other.kind()
            )),
        }
    }

    /// The kind of wake in one word (`start`, `event`, `approval`, `timer`,
    /// `expired`, `resume`), for messages.
    pub fn kind(&self) -> &'static str {
        match self {
            Wake::Start(_) => "start",
            Wake::Event(_) => "event",
            Wake::Approval(_) => "approval",
            Wake::Timer(_) => "timer",
            Wake::Expired(_) => "expired",
            Wake::Resume => "resume",
        }
    }

    /// Reads the host's wake. Start inputs and event payloads are JSON by
    /// contract; text that is not JSON is an error of the step, not a value
    /// the agent has to guess about.
    pub(crate) fn from_wit(wake: wit::Wake) -> Result<Wake, String> {
        Ok(match wake {
            wit::Wake::Start(input) => Wake::Start(
                parse_json(&input).map_err(|e| format!("the start input is not JSON: {e}"))?,
            ),
            wit::Wake::Event(event) => Wake::Event(Event {
                payload: parse_json(&event.payload)
                    .map_err(|e| format!("the payload of event {} is not JSON: {e}", event.id))?,
                id: event.id,
                topic: event.topic,
                received_at: event.received_at,
            }),
            wit::Wake::Approval(a) => Wake::Approval(Approval {
                request_id: a.request_id,
                approved: a.approved,
                by: a.by,
                at: a.at,
                comment: a.comment,
                digest: a.digest,
            }),
            wit::Wake::Timer(at) => Wake::Timer(at),
            wit::Wake::Expired(id) => Wake::Expired(id),
            wit::Wake::Resume => Wake::Resume,
        })
    }
}

impl Event {
    /// The payload as a `T`; the message names what did not fit.
    pub fn payload_as<T: DeserializeOwned>(&self) -> Result<T, String> {
        T::deserialize(&self.payload)
            .map_err(|e| format!("the payload of event {} does not fit: {e}", self.id))
    }
}

/// Empty text means "no value" (a run started without input).
fn parse_json(text: &str) -> Result<Value, serde_json::Error> {
    if text.trim().is_empty() {
        Ok(Value::Null)
    } else {
        serde_json::from_str(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;
    use serde_json::json;

    #[derive(Debug, Deserialize)]
    struct Input {
        #[allow(dead_code)]
        incident: String,
    }

    #[test]
    fn start_input_is_parsed_and_typed() {
        let wake = Wake::from_wit(wit::Wake::Start(r#"{"incident":"INC-1"}"#.into())).unwrap();
        assert_eq!(wake, Wake::Start(json!({"incident": "INC-1"})));
        assert!(wake.input::<Input>().is_ok());
        let empty = Wake::from_wit(wit::Wake::Start(String::new())).unwrap();
        assert_eq!(empty, Wake::Start(Value::Null));
    }

    #[test]
    fn input_errors_name_the_problem() {
        let wake = Wake::Start(json!({"service": "x"}));
        let err = wake.input::<Input>().unwrap_err();
        assert!(err.contains("missing field `incident`"), "{err}");
        let err = Wake::Resume.input::<Input>().unwrap_err();
        assert!(err.contains("got resume"), "{err}");
    }

    #[test]
    fn text_that_is_not_json_is_an_error() {
        let err = Wake::from_wit(wit::Wake::Event(wit::Event {
            id: "e1".into(),
            topic: "t".into(),
            payload: "not json".into(),
            received_at: 5,
        }))
        .unwrap_err();
        assert!(err.contains("event e1 is not JSON"), "{err}");
    }

    #[test]
    fn approval_is_copied_field_by_field() {
        let wake = Wake::from_wit(wit::Wake::Approval(wit::Approval {
            request_id: "r".into(),
            approved: false,
            by: "ann".into(),
            at: 7,
            comment: Some("no".into()),
            digest: "d".into(),
        }))
        .unwrap();
        let Wake::Approval(a) = wake else {
            panic!("not an approval")
        };
        assert_eq!(
            (a.request_id.as_str(), a.approved, a.by.as_str(), a.at),
            ("r", false, "ann", 7)
        );
        assert_eq!(a.comment.as_deref(), Some("no"));
    }
}
