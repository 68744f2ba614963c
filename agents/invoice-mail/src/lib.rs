//! Waits for the invoice email and files it in `kv` under `invoices/<id>`.

use wakeful_sdk::prelude::*;

const TOPIC: &str = "mail:invoice";

#[derive(Default, Serialize, Deserialize)]
struct State {
    /// The id of the filed mail, once filed.
    filed: Option<String>,
}

struct InvoiceMail;

impl Agent for InvoiceMail {
    type State = State;
    const TOOLS: &'static [&'static str] = &["kv"];
    const DESCRIPTION: &'static str = "Files the invoice email once it arrives.";

    fn step(state: &mut State, wake: Wake) -> Result<Step, String> {
        match wake {
            Wake::Event(mail) if mail.topic == TOPIC => {
                let key = format!("invoices/{}", mail.id);
                // Keyed by the mail, so a retried step files it once.
                kv::put(&key, &mail.payload, None, &format!("file:{}", mail.id))
                    .map_err(|e| format!("kv put {key}: {e}"))?;
                log::info(format!("filed {key}"));
                state.filed = Some(mail.id.clone());
                Ok(Step::done(format!("filed invoice mail {}", mail.id)).status("invoice filed"))
            }
            // The start, and anything else while waiting: keep waiting.
            _ => Ok(Step::wait_event(TOPIC).status("waiting on the invoice email")),
        }
    }
}

wakeful_sdk::export_agent!(InvoiceMail);

// The SDK's fake host, which the tests use, exists only in native builds.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;
