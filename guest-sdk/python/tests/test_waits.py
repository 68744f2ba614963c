import unittest

from wakeful_sdk import Agent, Approval, Expired, Resume, Start, Step, testing, waits
from wakeful_sdk.step import ApprovalRequest


class Payer(Agent):
    name = "payer"
    version = "1.0.0"
    description = "Asks, then pays."

    def step(self, state, wake):
        if isinstance(wake, Start):
            waits.ask("pay", "Pay 5?", {"amount": 5}, 1000)
            return waits.keep_waiting().with_state({"amount": 5})
        answer = waits.answer_to(wake, "pay")
        if answer is None:
            return waits.keep_waiting()
        return Step.done(answer.kind)

    def migrate(self, from_version, old):
        if set(old) != {"amount"}:
            raise ValueError(f"unexpected state {old}")
        return {"amount": old["amount"]}


class WaitsTest(unittest.TestCase):
    def setUp(self):
        testing.reset()

    def test_the_request_lives_in_the_state_and_survives_other_wakes_and_migrate(self):
        state, first = testing.step(Payer, None, Start({}))
        self.assertEqual(state[waits.STATE_KEY]["approvals"][0]["id"], "pay")
        self.assertEqual(waits.outstanding(), [], "the memory left with the state")
        state, again = testing.step(Payer, state, Resume())
        self.assertEqual(again.waits, first.waits)
        migrated = testing.migrate(Payer, "1.0.0", state)
        self.assertEqual(migrated, state, "migrate never saw the SDK's key")
        digest = ApprovalRequest("pay", "Pay 5?", {"amount": 5}, 1).digest()
        state, done = testing.step(Payer, migrated, Approval("pay", True, "ann", 1, None, digest))
        self.assertEqual((done.outcome, state), ("approved", {"amount": 5}))

    def test_an_answer_to_other_details_is_not_an_approval_and_an_expiry_ends(self):
        state, _ = testing.step(Payer, None, Start({}))
        with self.assertRaises(testing.StepFailed) as failed:
            testing.step(Payer, state, Approval("pay", True, "ann", 1, None, "other"))
        self.assertIn("waits on nothing", failed.exception.message)
        _, done = testing.step(Payer, state, Expired("pay"))
        self.assertEqual(done.outcome, "expired")


if __name__ == "__main__":
    unittest.main()
