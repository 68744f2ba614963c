"""Version 2 of ``agents/python/vendor-payment``, whose ``amount_usd`` is
now ``amount``: its ``migrate`` renames the field, and nothing else (the
SDK carries the approval request and the link across). For upgrade tests,
as ``agents/testing/vendor-payment-v2`` is for the Rust agent."""

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
    body = {"invoice": s["invoice"], "iban": s["iban"], "amount": s["amount"], "callback_url": link.url}
    http("payments", {"body": body}, f"{s['invoice']}:pay")
    return waits.keep_waiting().status("paid; waiting for the bank")


class VendorPayment(Agent):
    name = "vendor-payment-py"
    version = "2.0.0"
    tools = ["vendors", "payments", "callback"]
    description = "Pays a vendor invoice after approval and waits for the bank."

    def migrate(self, from_version, old):
        if not isinstance(old, dict):
            raise ValueError(f"state of {from_version}: not an object: {canonical_json(old)}")
        new = {k: v for k, v in old.items() if k != "amount_usd"}
        new["amount"] = old.get("amount_usd", old.get("amount"))
        return new

    def step(self, s, wake):
        if isinstance(wake, Start):
            s = dict(wake.input)
            s["iban"] = http("vendors", {"path": f"/{s['vendor']}"}, f"{s['invoice']}:bank")["iban"]
            if s["amount"] <= APPROVE_ABOVE_USD:
                return pay(s).with_state(s)
            waits.ask("approve", f"Pay {s['amount']:.2f} USD to {s['vendor']}?", s, 2 * DAY_MS)
            return waits.keep_waiting().status("waiting for approval").with_state(s)
        approval, bank = waits.answer_to(wake, "approve"), waits.answer_to(wake, "bank")
        if approval and approval.kind == "approved":
            return pay(s).status(f"approved by {approval.value.by}")
        if approval and approval.kind == "refused":
            return Step.done(f"refused by {approval.value.by}")
        if approval:
            return Step.done("nobody approved the payment in time")
        if bank and bank.kind == "called":
            return Step.done(f"paid {s['invoice']} ({s['amount']:.2f} USD): {canonical_json(bank.value)}")
        if bank:
            return Step.done(f"paid {s['invoice']}; the bank never confirmed")
        return waits.keep_waiting()


WitWorld = export(VendorPayment)
