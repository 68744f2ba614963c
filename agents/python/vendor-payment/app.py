"""Pays a vendor invoice: fetches the vendor's bank details (``vendors``, an
``http`` GET), asks a human to approve payments above 1000 USD, pays
(``payments``, an ``http`` POST carrying a callback link), then waits up to
two days for the bank to confirm on that link. The SDK remembers the
approval request and the link and re-waits on them (``waits``)."""

from wakeful_sdk import Agent, Start, Step, canonical_json, export, tools, waits

APPROVE_ABOVE_USD = 1000.0
DAY_MS = 24 * 60 * 60 * 1000


def http(tool, args, key):
    got = tools.call(tool, args, key)
    if not 200 <= got["status"] < 300:
        raise RuntimeError(f"{tool} answered {got}")
    return got["body"]


def pay(s):
    link = waits.link("bank", 2 * DAY_MS, f"{s['invoice']}:link")
    body = {"invoice": s["invoice"], "iban": s["iban"], "amount_usd": s["amount_usd"], "callback_url": link.url}
    http("payments", {"body": body}, f"{s['invoice']}:pay")
    return waits.keep_waiting().status("paid; waiting for the bank")


class VendorPayment(Agent):
    name = "vendor-payment-py"
    version = "1.0.0"
    tools = ["vendors", "payments", "callback"]
    description = "Pays a vendor invoice after approval and waits for the bank."

    def step(self, s, wake):
        if isinstance(wake, Start):
            s = dict(wake.input)
            s["iban"] = http("vendors", {"path": f"/{s['vendor']}"}, f"{s['invoice']}:bank")["iban"]
            if s["amount_usd"] <= APPROVE_ABOVE_USD:
                return pay(s).with_state(s)
            waits.ask("approve", f"Pay {s['amount_usd']:.2f} USD to {s['vendor']}?", s, 2 * DAY_MS)
            return waits.keep_waiting().status("waiting for approval").with_state(s)
        approval, bank = waits.answer_to(wake, "approve"), waits.answer_to(wake, "bank")
        if approval and approval.kind == "approved":
            return pay(s).status(f"approved by {approval.value.by}")
        if approval and approval.kind == "refused":
            return Step.done(f"refused by {approval.value.by}")
        if approval:
            return Step.done("nobody approved the payment in time")
        if bank and bank.kind == "called":
            return Step.done(f"paid {s['invoice']} ({s['amount_usd']:.2f} USD): {canonical_json(bank.value)}")
        if bank:
            return Step.done(f"paid {s['invoice']}; the bank never confirmed")
        return waits.keep_waiting()


WitWorld = export(VendorPayment)
