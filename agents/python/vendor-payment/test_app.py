import unittest

from wakeful_sdk import Approval, Event, Resume, Start, Timer, testing
from wakeful_sdk.step import ApprovalRequest

from app import DAY_MS, VendorPayment

URL = "http://127.0.0.1:7070/v1/callback/ab"


def world(name, args):
    return {
        "vendors": {"status": 200, "body": {"iban": "DE89"}},
        "callback": {"url": URL, "topic": "callback:bank", "expires_at": 2 * DAY_MS},
        "payments": {"status": 202, "body": {}},
    }[name]


class VendorPaymentTest(unittest.TestCase):
    def setUp(self):
        testing.reset()
        testing.on_tool(world)

    def start(self, amount):
        return testing.step(VendorPayment, None, Start({"invoice": "I-7", "vendor": "acme", "amount_usd": amount}))

    def payments(self):
        return [c for c in testing.calls() if c.name == "payments"]

    def test_a_large_payment_waits_for_approval_across_an_upgrade_then_pays_once(self):
        s, step = self.start(5000.0)
        self.assertEqual([w.kind for w in step.waits], ["approval"])
        self.assertEqual(self.payments(), [])
        s, again = testing.step(VendorPayment, s, Resume())
        self.assertEqual(again.waits, step.waits, "re-waits by itself")
        s = testing.migrate(VendorPayment, "1.0.0", s)
        request = step.waits[0].value
        digest = ApprovalRequest(request.id, request.question, request.details, 1).digest()
        s, paid = testing.step(VendorPayment, s, Approval("approve", True, "ann", 5, None, digest))
        self.assertEqual(paid.status_text, "approved by ann")
        self.assertEqual([w.kind for w in paid.waits], ["event", "until"])
        self.assertEqual(len(self.payments()), 1)
        s, done = testing.step(VendorPayment, s, Event("e", "callback:bank", {"ok": True}, 9))
        self.assertEqual(done.outcome, 'paid I-7 (5000.00 USD): {"ok":true}')

    def test_silence_from_the_bank_ends_at_the_two_day_timer(self):
        s, step = self.start(200.0)
        self.assertEqual([w.value for w in step.waits], ["callback:bank", 2 * DAY_MS])
        s, done = testing.step(VendorPayment, s, Timer(2 * DAY_MS))
        self.assertEqual(done.outcome, "paid I-7; the bank never confirmed")


if __name__ == "__main__":
    unittest.main()
