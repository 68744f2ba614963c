import unittest

from wakeful_sdk import Approval, Start, testing

import app as v2

URL = "http://127.0.0.1:7070/v1/callback/ab"


def world(name, args):
    return {
        "vendors": {"status": 200, "body": {"iban": "DE89"}},
        "callback": {"url": URL, "topic": "callback:bank", "expires_at": 2 * v2.DAY_MS},
        "payments": {"status": 202, "body": {}},
    }[name]


class VendorPaymentV2Test(unittest.TestCase):
    def setUp(self):
        testing.reset()
        testing.on_tool(world)

    def test_migrate_renames_amount_usd_and_keeps_the_rest(self):
        old = {"invoice": "I-7", "vendor": "acme", "amount_usd": 5000.0, "iban": "DE89"}
        new = testing.migrate(v2.VendorPayment, "1.0.0", old)
        self.assertEqual(new, {"invoice": "I-7", "vendor": "acme", "amount": 5000.0, "iban": "DE89"})

    def test_migrate_refuses_a_state_that_is_not_an_object(self):
        with self.assertRaises(Exception) as refused:
            testing.migrate(v2.VendorPayment, "1.0.0", [1, 2])
        self.assertIn("not an object", str(refused.exception))

    def test_an_approved_payment_sends_the_renamed_amount_once(self):
        s, first = testing.step(v2.VendorPayment, None, Start({"invoice": "I-7", "vendor": "acme", "amount": 5000.0}))
        self.assertEqual([w.value.id for w in first.waits], ["approve"])
        digest = first.waits[0].value.digest()
        _, paid = testing.step(v2.VendorPayment, s, Approval("approve", True, "ann", 5, None, digest))
        self.assertEqual(paid.status_text, "approved by ann")
        payments = [c for c in testing.calls() if c.name == "payments"]
        self.assertEqual([p.args["body"]["amount"] for p in payments], [5000.0])
        self.assertNotIn("amount_usd", payments[0].args["body"])

if __name__ == "__main__":
    unittest.main()
