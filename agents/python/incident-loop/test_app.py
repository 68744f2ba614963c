"""The model-driven incident agent against the SDK's fake host: a scripted
model that asks for a note, then answers.

Run: PYTHONPATH=guest-sdk/python python3 -m unittest discover -s agents/python/incident-loop
"""

import unittest

from wakeful_sdk import Next, Resume, Start, testing

from app import IncidentLoop, config

INPUT = {"incident": "INC-7", "service": "api", "summary": "slow"}


def model(args):
    answered = any(m["role"] == "tool" for m in args["messages"])
    message = ({"role": "assistant", "content": "noted"} if answered else
               {"role": "assistant", "content": None, "tool_calls": [
                   {"id": "c1", "name": "kv", "arguments": {"op": "put", "key": "incidents/INC-7/cause", "value": "x"}}]})
    return {"message": message, "stop_reason": "end_turn" if answered else "tool_calls",
            "provider_stop_reason": "stop", "usage": {"total_tokens": 5, "cost_usd": 0.0}}


class IncidentLoopTest(unittest.TestCase):
    def setUp(self):
        testing.reset()
        testing.on_tool(lambda name, args: model(args) if name == "llm" else {"ok": True, "version": 1})

    def test_the_config_offers_the_declared_tools(self):
        self.assertEqual([t.name for t in config().tools], ["kv", "page_oncall", "scale_out"])

    def test_the_model_drives_the_run_to_its_answer(self):
        state, step = testing.step(IncidentLoop, None, Start(INPUT))
        self.assertIsInstance(step.next, Next.Continue)
        self.assertEqual(testing.calls()[0].args["messages"][1]["content"], "Incident INC-7 on api: slow")
        state, step = testing.step(IncidentLoop, state, Resume())
        state, step = testing.step(IncidentLoop, state, Resume())
        self.assertEqual(step.outcome, "noted")
        keys = [c.idempotency_key for c in testing.calls()]
        self.assertEqual(keys, ["loop:1:model", "loop:1:tool:c1", "loop:2:model"])

    def test_a_bad_input_names_what_is_missing(self):
        with self.assertRaisesRegex(testing.StepFailed, "missing 'summary'"):
            testing.step(IncidentLoop, None, Start({"incident": "x", "service": "y"}))


if __name__ == "__main__":
    unittest.main()
