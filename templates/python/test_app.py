"""The agent's unit tests, against the SDK's fake host (no component, no
host needed). Run: python3 -m unittest"""

import unittest

from wakeful_sdk import Denied, Event, Start, Step, testing

from app import TOPIC, MyAgent


def go():
    return Event("e-1", TOPIC, {"hello": "world"}, 5)


class MyAgentTest(unittest.TestCase):
    def setUp(self):
        testing.reset()
        testing.set_run_id("r1")
        testing.set_now(1_800_000_000_000)

    def test_waits_for_the_event_then_records_it_once(self):
        testing.on_tool(lambda name, args: {"ok": True, "version": 1})
        state, first = testing.step(MyAgent, None, Start({"ticket": 7}))
        self.assertEqual(first, Step.wait_event(TOPIC).status("waiting for {{name}}:go"))
        self.assertEqual(state["input"], {"ticket": 7})
        self.assertEqual(testing.calls(), [])

        after, done = testing.step(MyAgent, state, go())
        self.assertEqual(done, Step.done("recorded {{name}}/r1").status("done"))
        self.assertEqual(after["handled"], "e-1")
        # The same step again, as after a crash (same state, same wake): the
        # call is replayed by its key, not made twice.
        testing.step(MyAgent, state, go())
        calls = testing.calls()
        self.assertEqual(len(calls), 2)
        self.assertEqual(calls[0].name, "kv")
        self.assertEqual(calls[0].idempotency_key, "record:e-1")
        self.assertEqual(calls[0].args, {"op": "put", "key": "{{name}}/r1", "value": {"hello": "world"}})
        self.assertFalse(calls[0].replayed)
        self.assertTrue(calls[1].replayed)

    def test_a_refused_put_fails_the_step(self):
        testing.on_tool(lambda name, args: testing.refuse(Denied("kv is not granted")))
        with self.assertRaises(testing.StepFailed) as failed:
            testing.step(MyAgent, {"input": None, "handled": None}, go())
        self.assertEqual(failed.exception.message, "kv put {{name}}/r1: denied: kv is not granted")


if __name__ == "__main__":
    unittest.main()
