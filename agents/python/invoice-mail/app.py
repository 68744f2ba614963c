"""Waits for the invoice email and files it in ``kv`` under
``invoices/<id>``. A port of ``agents/invoice-mail`` (Rust)."""

from wakeful_sdk import Agent, Event, Step, StepError, ToolError, export, kv, log

TOPIC = "mail:invoice"


class InvoiceMail(Agent):
    name = "invoice-mail-py"
    version = "0.1.0"
    tools = ["kv"]
    description = "Files the invoice email once it arrives."

    def step(self, state, wake):
        # The id of the filed mail, once filed.
        state = state if state is not None else {"filed": None}
        if isinstance(wake, Event) and wake.topic == TOPIC:
            key = f"invoices/{wake.id}"
            # Keyed by the mail, so a retried step files it once.
            try:
                kv.put(key, wake.payload, None, f"file:{wake.id}")
            except ToolError as e:
                raise StepError(f"kv put {key}: {e}") from None
            log.info(f"filed {key}")
            state["filed"] = wake.id
            return Step.done(f"filed invoice mail {wake.id}").status("invoice filed").with_state(state)
        # The start, and anything else while waiting: keep waiting.
        return Step.wait_event(TOPIC).status("waiting on the invoice email").with_state(state)


WitWorld = export(InvoiceMail)
