"""The invoice agent against the SDK's fake host. A port of
``agents/invoice-mail/src/tests.rs``.

Run: PYTHONPATH=guest-sdk/python python3 -m unittest discover -s agents/python/invoice-mail
"""

import unittest

from wakeful_sdk import Denied, Event, Resume, Start, Step, testing

from app import InvoiceMail


def mail(topic):
    return Event("m-1", topic, {"from": "billing@example.com", "amount": 120}, 5)


def waiting():
    return Step.wait_event("mail:invoice").status("waiting on the invoice email")


class InvoiceMailTest(unittest.TestCase):
    def test_waits_until_the_invoice_arrives_then_files_it(self):
        testing.reset()
        testing.on_tool(lambda name, args: {"ok": True, "version": 1})
        state = None
        for wake in [Start(None), mail("mail:other"), Resume()]:
            state, step = testing.step(InvoiceMail, state, wake)
            self.assertEqual(step, waiting())
            self.assertEqual(state, {"filed": None})
        self.assertEqual(testing.calls(), [])

        state, filed = testing.step(InvoiceMail, state, mail("mail:invoice"))
        self.assertEqual(filed, Step.done("filed invoice mail m-1").status("invoice filed"))
        self.assertEqual(state, {"filed": "m-1"})
        calls = testing.calls()
        self.assertEqual(len(calls), 1)
        self.assertEqual(calls[0].idempotency_key, "file:m-1")
        self.assertEqual(
            calls[0].args,
            {"op": "put", "key": "invoices/m-1", "value": {"from": "billing@example.com", "amount": 120}},
        )
        self.assertEqual(testing.logs(), ["info: filed invoices/m-1"])

    def test_a_failed_put_is_a_step_error(self):
        testing.reset()
        testing.on_tool(lambda name, args: testing.refuse(Denied("kv is not granted")))
        with self.assertRaises(testing.StepFailed) as failed:
            testing.step(InvoiceMail, None, mail("mail:invoice"))
        self.assertEqual(failed.exception.message, "kv put invoices/m-1: denied: kv is not granted")

    def test_the_manifest_is_the_rust_agents_under_its_own_name(self):
        agent = InvoiceMail()
        self.assertEqual(
            (agent.name, agent.version, list(agent.tools), agent.description),
            ("invoice-mail-py", "0.1.0", ["kv"], "Files the invoice email once it arrives."),
        )


if __name__ == "__main__":
    unittest.main()
