import hashlib
import unittest

from wakeful_sdk import gated, testing


class GatedTest(unittest.TestCase):
    def setUp(self):
        testing.reset()

    def test_a_request_names_each_call_by_tool_arguments_and_digest(self):
        refund = gated.Call("refunds", {"order": "9482", "amount_usd": 120.0})
        ask = gated.request("pay", "Refund?", [refund], {"reason": "late"}, 60_000)
        named = ask.details["calls"][0]
        self.assertEqual(named["tool"], "refunds")
        self.assertEqual(named["args"], {"order": "9482", "amount_usd": 120.0})
        self.assertEqual(named["args_sha256"], hashlib.sha256(refund.args.encode()).hexdigest())
        self.assertEqual(ask.details["reason"], "late")
        self.assertEqual(gated.Call("t", {}).args_sha256(),
                         "44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a")
        self.assertEqual(gated.details([], "why"), {"about": "why", "calls": []})

    def test_the_call_sends_the_approved_text(self):
        testing.on_tool(lambda name, args: {"tool": name, "got": args})
        refund = gated.Call("refunds", {"order": "1"})
        self.assertEqual(refund.call("refund-1:pay"), {"tool": "refunds", "got": {"order": "1"}})
        made = testing.calls()[0]
        self.assertEqual((made.name, made.args, made.idempotency_key), ("refunds", {"order": "1"}, "refund-1:pay"))

    def test_arguments_that_are_not_json_are_refused_where_built(self):
        with self.assertRaises(gated.tools.Invalid):
            gated.Call("t", {"x": object()})


if __name__ == "__main__":
    unittest.main()
