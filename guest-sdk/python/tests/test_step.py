import unittest

from wakeful_sdk import Approval, ApprovalRequest, Next, Step, Wait, approval_digest, canonical_json


class StepTest(unittest.TestCase):
    def test_builders_set_next_and_status(self):
        step = Step.wait_event("mail:invoice").status("waiting")
        self.assertEqual(step.next, Next.Wait((Wait.event("mail:invoice"),)))
        self.assertEqual(step.status_text, "waiting")
        self.assertEqual(Step.done("ok").next, Next.Done("ok"))
        self.assertEqual(Step.done("ok").outcome, "ok")
        self.assertEqual(Step.continue_().next, Next.Continue())
        self.assertIsNone(Step.continue_().status_text)
        self.assertIsNone(Step.continue_().outcome)

    def test_builders_return_new_steps(self):
        base = Step.continue_()
        shown = base.status("x")
        self.assertIsNone(base.status_text)
        self.assertEqual(shown.status_text, "x")

    def test_or_combines_waits(self):
        step = Step.wait_cron("0 9 * * *").or_(Wait.until(5)).or_(Wait.event("t"))
        self.assertEqual(step.waits, (Wait.cron("0 9 * * *"), Wait.until(5), Wait.event("t")))
        self.assertEqual(Step.done("x").or_(Wait.until(1)).next, Next.Wait((Wait.until(1),)))
        self.assertEqual(Step.wait(Wait.until(1), Wait.event("e")).waits, (Wait.until(1), Wait.event("e")))

    def test_a_new_state_does_not_change_equality(self):
        self.assertEqual(Step.continue_().with_state({"n": 1}), Step.continue_())
        self.assertEqual(Step.continue_().with_state(None).new_state, None)

    def test_approval_details_are_stable_json(self):
        step = Step.wait_approval("a1", "ok?", {"service": "api", "action": "scale_out"}, 60_000)
        (wait,) = step.waits
        self.assertEqual(wait.kind, "approval")
        self.assertEqual(wait.value.details_text(), '{"action":"scale_out","service":"api"}')
        self.assertEqual((wait.value.id, wait.value.valid_for_ms), ("a1", 60_000))
        request = ApprovalRequest("a1", "ok?", {"action": "scale_out", "service": "api"}, 60_000)
        self.assertEqual(Wait.approval(request), wait)

    def test_the_digest_is_the_one_the_host_computes(self):
        # The same vector is checked on the host and in the Rust SDK.
        request = ApprovalRequest("a1", "Approve 'scale_out' on payments-api?", {"replicas": 3}, 1)
        self.assertEqual(request.digest(), "1a25d7c5b9f90529fd572f728f15bd0bf01c1a3997dfe3b9532368a3b5c1a160")
        self.assertEqual(
            approval_digest("Approve 'scale_out' on payments-api?", '{"replicas":3}'),
            request.digest(),
        )

    def test_an_approval_is_for_a_request_when_id_and_digest_match(self):
        request = ApprovalRequest("a1", "Scale out?", {"replicas": 3}, 60_000)

        def answer(request_id, digest):
            return Approval(request_id, True, "ann", 5, None, digest)

        self.assertTrue(answer("a1", request.digest()).is_for(request))
        self.assertFalse(answer("a2", request.digest()).is_for(request))
        self.assertFalse(answer("a1", approval_digest("Scale out?", "{}")).is_for(request))
        # The question is length-prefixed: moving text between question and
        # details changes the digest.
        self.assertNotEqual(approval_digest("ab", "c"), approval_digest("a", "bc"))

    def test_canonical_json_is_the_rust_sdks_text(self):
        value = {"b": [1, 2.5, 93.0, None, True], "a": {"z": "é\n\"", "y": {}}}
        self.assertEqual(canonical_json(value), '{"a":{"y":{},"z":"é\\n\\""},"b":[1,2.5,93.0,null,true]}')

    def test_bad_values_fail_where_they_are_made(self):
        with self.assertRaisesRegex(TypeError, "must be an int"):
            Wait.until("soon")
        with self.assertRaisesRegex(TypeError, "must be an int"):
            Step.wait_until(1.5)
        with self.assertRaisesRegex(ValueError, "between 0"):
            Wait.until(-1)
        with self.assertRaisesRegex(TypeError, "topic must be a str"):
            Step.wait_event(None)
        with self.assertRaisesRegex(TypeError, "details of approval request 'a' are not JSON"):
            Step.wait_approval("a", "q", {"x": {1, 2}}, 5)
        with self.assertRaisesRegex(TypeError, "takes Wait values"):
            Step.wait("mail:invoice")
        with self.assertRaisesRegex(TypeError, "status must be a str"):
            Step.continue_().status(3)


if __name__ == "__main__":
    unittest.main()
