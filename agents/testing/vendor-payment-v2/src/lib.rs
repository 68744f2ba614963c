//! Version 2 of `agents/vendor-payment`, whose `amount` is now
//! `amount`: its `migrate` renames the field, and nothing else (the SDK
//! carries the approval request and the link across). Pays a vendor invoice: fetches the vendor's bank details (`vendors`, an
//! `http` GET), asks a human to approve payments above 1000 USD, pays
//! (`payments`, an `http` POST carrying a callback link), then waits up to
//! two days for the bank to confirm on that link. The SDK remembers the
//! approval request and the link and re-waits on them (`waits`), so the
//! state holds only the invoice.

use wakeful_sdk::prelude::*;

const APPROVE_ABOVE_USD: f64 = 1000.0;
const DAY_MS: u64 = 24 * 60 * 60 * 1000;

/// The start input, and all the run keeps.
#[derive(Clone, Default, Serialize, Deserialize)]
struct State {
    invoice: String,
    vendor: String,
    amount: f64,
    #[serde(default)]
    iban: String,
}

struct VendorPayment;

impl Agent for VendorPayment {
    type State = State;
    const TOOLS: &'static [&'static str] = &["vendors", "payments", "callback"];
    const DESCRIPTION: &'static str =
        "Pays a vendor invoice after approval and waits for the bank.";

    fn step(s: &mut State, wake: Wake) -> Result<Step, String> {
        if let Wake::Start(_) = wake {
            *s = wake.input()?;
            let bank = http(
                "vendors",
                json!({"path": format!("/{}", s.vendor)}),
                &key(s, "bank"),
            )?;
            s.iban = bank["iban"]
                .as_str()
                .ok_or("the vendor has no iban")?
                .into();
            if s.amount <= APPROVE_ABOVE_USD {
                return pay(s);
            }
            let question = format!("Pay {:.2} USD to {}?", s.amount, s.vendor);
            waits::ask("approve", question, json!(s.clone()), 2 * DAY_MS);
            return Ok(Step::keep_waiting().status("waiting for approval"));
        }
        match (wake.answer_to("approve"), wake.answer_to("bank")) {
            (Some(Answer::Approved(a)), _) => {
                pay(s).map(|step| step.status(format!("approved by {}", a.by)))
            }
            (Some(Answer::Refused(a)), _) => Ok(Step::done(format!("refused by {}", a.by))),
            (Some(_), _) => Ok(Step::done("nobody approved the payment in time")),
            (_, Some(Answer::Called(bank))) => Ok(Step::done(format!(
                "paid {} ({:.2} USD): {bank}",
                s.invoice, s.amount
            ))),
            (_, Some(_)) => Ok(Step::done(format!(
                "paid {}; the bank never confirmed",
                s.invoice
            ))),
            (None, None) => Ok(Step::keep_waiting()),
        }
    }

    fn migrate(from_version: &str, mut old: Value) -> Result<State, String> {
        if let Some(amount) = old.as_object_mut().and_then(|o| o.remove("amount_usd")) {
            old["amount"] = amount;
        }
        wakeful_sdk::serde_json::from_value(old)
            .map_err(|e| format!("state of {from_version}: {e}"))
    }
}

wakeful_sdk::export_agent!(VendorPayment, name = "vendor-payment");

/// Pays once (keyed by the invoice) and waits for the bank on a link.
fn pay(s: &State) -> Result<Step, String> {
    let link =
        waits::link("bank", 2 * DAY_MS, &key(s, "link")).map_err(|e| format!("callback: {e}"))?;
    let body = json!({"invoice": s.invoice, "iban": s.iban, "amount": s.amount,
        "callback_url": link.url});
    http("payments", json!({"body": body}), &key(s, "pay"))?;
    Ok(Step::keep_waiting().status("paid; waiting for the bank"))
}

/// Calls an `http` tool and returns the body of a 2xx answer.
fn http(tool: &str, args: Value, key: &str) -> Result<Value, String> {
    let got: Value = tools::call(tool, &args, key).map_err(|e| format!("{tool}: {e}"))?;
    match got["status"].as_u64() {
        Some(200..=299) => Ok(got["body"].clone()),
        _ => Err(format!("{tool} answered {got}")),
    }
}

fn key(s: &State, what: &str) -> String {
    format!("{}:{what}", s.invoice)
}
