import json
import unittest

from wakeful_sdk import Agent, Failed, Start, Step, testing, tools

CASSETTE = {
    "cassette": 1,
    "agent": "a@1.0.0",
    "run": "r1",
    "entries": [
        {"fingerprint": "for people", "tool": "llm", "key": "loop:1:model",
         "args": {"messages": [{"role": "user", "content": "hi"}], "n": 1},
         "result": {"text": "hello"}},
        {"tool": "pager", "key": "page", "args": {"body": "x"},
         "error": {"kind": "failed", "message": "pager down"}},
    ],
}

ARGS = {"n": 1, "messages": [{"content": "hi", "role": "user"}]}


class Asker(Agent):
    name = "a"
    version = "1.0.0"
    tools = ["llm"]

    def step(self, state, wake):
        reply = tools.call("llm", {"messages": [{"role": "user", "content": wake.input}], "n": 1}, "loop:1:model")
        return Step.done(reply["text"]).with_state({})


class ReplayTest(unittest.TestCase):
    def setUp(self):
        testing.reset()

    def test_the_fingerprint_is_the_hosts(self):
        # The same vector is checked by the host (cassette.rs) and the Rust
        # and TypeScript SDKs.
        args = {"z": [1, "é\n"], "a": {"y": None, "b": True}, "n": -7}
        self.assertEqual(testing.fingerprint("a@1.0.0", "llm", "loop:1:model", args),
                         "abc74eeca5cdc63c7025199fc72e5037dede1dda09106d37cbcb9245d9ef2a4b")

    def test_a_recorded_call_gets_its_result_and_a_recorded_error_its_error(self):
        testing.replay(json.dumps(CASSETTE), "a@1.0.0")
        self.assertEqual(tools.call("llm", ARGS, "loop:1:model"), {"text": "hello"})
        with self.assertRaises(Failed) as raised:
            tools.call("pager", {"body": "x"}, "page")
        self.assertEqual(raised.exception.message, "pager down")

    def test_a_step_replays_as_its_agent_class(self):
        testing.replay(CASSETTE, Asker)
        _, step = testing.step(Asker, None, Start("hi"))
        self.assertEqual(step.outcome, "hello")

    def test_changed_arguments_miss_naming_the_call_and_the_difference(self):
        testing.replay(CASSETTE, "a@1.0.0")
        args = {"n": 1, "messages": [{"role": "user", "content": "bye"}]}
        with self.assertRaises(testing.CassetteMiss) as raised:
            tools.call("llm", args, "loop:1:model")
        said = str(raised.exception)
        for part in ["cassette miss", "tool `llm`", "key `loop:1:model`",
                     testing.fingerprint("a@1.0.0", "llm", "loop:1:model", args), '"content":"bye"',
                     "recorded for other arguments",
                     'first difference at /messages/0/content: recorded "hi", now "bye"']:
            self.assertIn(part, said)
        self.assertIsInstance(raised.exception, AssertionError)

    def test_a_long_text_shows_where_it_changed(self):
        said = testing._difference({"p": "x" * 50 + "a"}, {"p": "x" * 50 + "b"}, "")
        kept = "x" * 20
        self.assertEqual(said, f'/p: recorded "…{kept}a", now "…{kept}b"')

    def test_a_miss_inside_a_step_is_not_a_step_failure(self):
        testing.replay(CASSETTE, Asker)
        with self.assertRaises(testing.CassetteMiss):
            testing.step(Asker, None, Start("bye"))

    def test_another_agent_version_misses(self):
        testing.replay(CASSETTE, "a@1.1.0")
        with self.assertRaises(testing.CassetteMiss) as raised:
            tools.call("llm", ARGS, "loop:1:model")
        self.assertIn("recorded for agent a@1.0.0, not a@1.1.0", str(raised.exception))

    def test_a_call_of_no_recorded_key_misses(self):
        testing.replay(CASSETTE, "a@1.0.0")
        with self.assertRaises(testing.CassetteMiss) as raised:
            tools.call("kv", {}, "new")
        self.assertIn("no call of this tool with this key", str(raised.exception))

    def test_what_is_not_a_cassette_is_refused(self):
        for bad in [{"agent": "a@1"}, {**CASSETTE, "entries": [{"tool": "t", "key": "k", "args": 1}]}]:
            with self.assertRaises(ValueError):
                testing.replay(bad, "a@1.0.0")


if __name__ == "__main__":
    unittest.main()
