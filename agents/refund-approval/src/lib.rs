//! "Process refund for Order #9482": a refund waits for an external
//! approval service, which answers minutes or hours later by POSTing to a
//! callback link.
//!
//! Step 1 makes a callback link, sends the order and the link's URL to the
//! `approvals` tool (the approval service), and sleeps until the answer
//! arrives on the link's topic or the link expires. On `{"approved": true,
//! "by": …}` it calls the `refunds` tool once and is done (`refunded`); on
//! `{"approved": false, "by": …}` it is done (`refused by …`); when the link
//! expires unanswered it is done (`escalated`), its status saying that no
//! answer came. Every call's key names the order and the phase, so a
//! retried step repeats nothing and gets the same link back.
//!
//! With `"human_approval": true` in the start input (for a host that
//! configures `[approvals.tools.refunds] requires_approval = true`), the
//! service's yes is not enough: the agent then asks the host's approvers to
//! approve exactly this refund call (request `refund-<order>`, whose details
//! name the call and its arguments' digest), and calls `refunds` only once
//! they have; the host refuses the call otherwise.

use wakeful_sdk::callback::Link;
use wakeful_sdk::gated::{self, Call};
use wakeful_sdk::prelude::*;

/// The start input.
#[derive(Clone, Serialize, Deserialize)]
struct Input {
    order: String,
    amount_usd: f64,
    #[serde(default)]
    customer: String,
    /// How long the approval service has to answer.
    #[serde(default = "default_valid_for_ms")]
    valid_for_ms: u64,
    /// Ask the host's approvers too, after the service said yes.
    #[serde(default)]
    human_approval: bool,
}

fn default_valid_for_ms() -> u64 {
    60 * 60 * 1000
}

impl Input {
    /// The idempotency key of this order's `what` call.
    fn key(&self, what: &str) -> String {
        format!("refund-{}:{what}", self.order)
    }

    /// The refund call: asked for and made with the same arguments.
    fn refund(&self) -> Result<Call, String> {
        let refund = json!({"body": {
            "order": self.order,
            "amount_usd": self.amount_usd,
            "customer": self.customer,
        }});
        Call::new("refunds", &refund).map_err(|e| format!("refunds: {e}"))
    }

    /// The host approval request for the refund call.
    fn confirmation(&self, service_by: &str) -> Result<ApprovalRequest, String> {
        Ok(gated::request(
            format!("refund-{}", self.order),
            format!(
                "Refund {:.2} USD to {} for order {}?",
                self.amount_usd, self.customer, self.order
            ),
            &[self.refund()?],
            json!({"order": self.order, "approval_service_said_yes": service_by}),
            self.valid_for_ms,
        ))
    }
}

/// The approval service's answer, as POSTed to the link.
#[derive(Deserialize)]
struct Answer {
    approved: bool,
    #[serde(default)]
    by: String,
}

/// What an `http` tool returns.
#[derive(Deserialize)]
struct HttpResult {
    status: u16,
    #[serde(default)]
    body: Value,
}

#[derive(Default, Serialize, Deserialize)]
struct State {
    input: Option<Input>,
    /// The link the approval service answers on, once asked.
    link: Option<Link>,
    /// Who at the approval service said yes, while the host's approvers
    /// are asked (`human_approval`).
    #[serde(default)]
    service_by: Option<String>,
}

struct RefundApproval;

impl Agent for RefundApproval {
    type State = State;
    const TOOLS: &'static [&'static str] = &["callback", "approvals", "refunds"];
    const DESCRIPTION: &'static str = "Asks an external approval service about a refund through a callback link, then refunds, reports the refusal, or escalates when no answer comes.";

    fn step(state: &mut State, wake: Wake) -> Result<Step, String> {
        match wake {
            Wake::Start(_) => ask(state, &wake),
            Wake::Approval(answer) if state.service_by.is_some() => confirmed(state, &answer),
            Wake::Expired(_) if state.service_by.is_some() => Ok(Step::done(
                "escalated: no operator confirmed the refund in time",
            )),
            _ if state.service_by.is_some() => {
                let (input, _) = asked(state)?;
                let by = state.service_by.clone().unwrap_or_default();
                Ok(Step::wait([Wait::Approval(input.confirmation(&by)?)]))
            }
            Wake::Event(event) if Some(&event.topic) == state.link.as_ref().map(|l| &l.topic) => {
                decide(state, &event)
            }
            Wake::Timer(_) => {
                let (input, link) = asked(state)?;
                Ok(Step::done(format!(
                    "escalated: no answer about the refund of order {} came before the link \
                     expired at {} ms",
                    input.order, link.expires_at
                ))
                .status("no answer came from the approval service in time; a human must decide"))
            }
            // Anything else while waiting: keep waiting on the same link.
            _ => {
                let (input, link) = asked(state)?;
                Ok(waiting(input, link))
            }
        }
    }
}

wakeful_sdk::export_agent!(RefundApproval);

fn asked(state: &State) -> Result<(&Input, &Link), String> {
    match (&state.input, &state.link) {
        (Some(input), Some(link)) => Ok((input, link)),
        _ => Err("woken before the approval service was asked".into()),
    }
}

fn waiting(input: &Input, link: &Link) -> Step {
    Step::wait_event(&link.topic)
        .or(Wait::until(link.expires_at))
        .status(format!(
            "waiting for the approval service to answer about refunding {:.2} USD for order {}",
            input.amount_usd, input.order
        ))
}

/// Makes the link and sends the request with it.
fn ask(state: &mut State, wake: &Wake) -> Result<Step, String> {
    let input: Input = wake.input()?;
    let link = callback::create("approval", input.valid_for_ms, &input.key("link"))
        .map_err(|e| format!("callback: {e}"))?;
    let request = json!({"body": {
        "order": input.order,
        "amount_usd": input.amount_usd,
        "customer": input.customer,
        "callback_url": link.url,
    }});
    let sent: HttpResult = tools::call("approvals", &request, &input.key("ask"))
        .map_err(|e| format!("approvals: {e}"))?;
    if !(200..300).contains(&sent.status) {
        return Ok(Step::done(format!(
            "escalated: the approval service refused the request for order {} (status {}): {}",
            input.order, sent.status, sent.body
        )));
    }
    log::info(format!("asked for approval of order {}", input.order));
    let step = waiting(&input, &link);
    state.input = Some(input);
    state.link = Some(link);
    Ok(step)
}

/// Acts on the approval service's answer.
fn decide(state: &mut State, event: &Event) -> Result<Step, String> {
    let input = &asked(state)?.0.clone();
    let answer: Answer = match wakeful_sdk::serde_json::from_value(event.payload.clone()) {
        Ok(answer) => answer,
        // The link is used up: no other answer will come on it.
        Err(e) => {
            return Ok(Step::done(format!(
                "escalated: the approval service's answer could not be read ({e}): {}",
                event.payload
            )));
        }
    };
    let by = if answer.by.is_empty() {
        "the approval service"
    } else {
        answer.by.as_str()
    };
    if !answer.approved {
        return Ok(Step::done(format!("refused by {by}")));
    }
    if input.human_approval {
        let ask = input.confirmation(by)?;
        let status = format!(
            "{by} approved; waiting for an operator to confirm refunding {:.2} USD for order {}",
            input.amount_usd, input.order
        );
        state.service_by = Some(by.to_string());
        return Ok(Step::wait([Wait::Approval(ask)]).status(status));
    }
    pay(input, by)
}

/// Acts on the operator's answer about the refund call.
fn confirmed(state: &mut State, answer: &Approval) -> Result<Step, String> {
    let (input, _) = asked(state)?;
    let service_by = state.service_by.clone().unwrap_or_default();
    if !answer.approved {
        return Ok(Step::done(format!("refused by {}", answer.by)));
    }
    pay(input, &format!("{service_by} and {}", answer.by))
}

/// Makes the refund call.
fn pay(input: &Input, by: &str) -> Result<Step, String> {
    let paid: HttpResult = input
        .refund()?
        .call(&input.key("pay"))
        .map_err(|e| format!("refunds: {e}"))?;
    if !(200..300).contains(&paid.status) {
        // Retried, and replayed from the ledger: the run is parked for an
        // operator with this reason.
        return Err(format!(
            "the refund service answered status {}: {}",
            paid.status, paid.body
        ));
    }
    Ok(Step::done(format!(
        "refunded {:.2} USD for order {}, approved by {by}",
        input.amount_usd, input.order
    ))
    .status("refunded"))
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;
