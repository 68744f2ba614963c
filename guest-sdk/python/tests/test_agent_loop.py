import copy
import hashlib
import unittest

from wakeful_sdk import Approval, Denied, Next, Resume, Start, StepError, Unknown, agent_loop, testing
from wakeful_sdk.agent_loop import Config, Finished, LoopTool

TOOLS = ["llm", "kv", "scale"]


def config(**kw):
    return Config("llm", [LoopTool("kv", "Read a key", {"type": "object"}),
                          LoopTool("scale", "Scale out", {"type": "object"}, name="scale_out", under="body")],
                  TOOLS, **kw)


def reply(content, calls):
    stop = "tool_calls" if calls else "end_turn"
    return {"message": {"role": "assistant", "content": content, "tool_calls": calls},
            "stop_reason": stop, "provider_stop_reason": stop,
            "usage": {"input_tokens": 1, "output_tokens": 1, "total_tokens": 10, "cost_usd": 0.0}}


def model(args):
    results = sum(1 for m in args["messages"] if m["role"] == "tool")
    if results == 0:
        return reply(None, [{"id": "c1", "name": "kv", "arguments": {"op": "get", "key": "a"}}])
    if results == 1:
        return reply(None, [{"id": "c2", "name": "scale_out", "arguments": {"service": "api", "by": 2}}])
    return reply("done", [])


def handler(name, args):
    """The `scale` tool is refused as the gate refuses a call without an
    approval, unless its key is the loop's key of an approved call."""
    key = testing.calls()[-1].idempotency_key
    if name == "llm":
        return model(args)
    if name == "kv":
        return {"value": "7", "version": 1}
    if name == "scale" and key.endswith(":approved"):
        return {"scaled": args["body"]["service"]}
    if name == "scale":
        return testing.refuse(Denied("needs approval: tool `scale` runs only with an approved request"))
    return testing.refuse(Unknown(name))


def answer(request, approved):
    return Approval(request_id=request.id, approved=approved, by="bob", at=1, comment="not now",
                    digest=request.digest())


class AgentLoopTest(unittest.TestCase):
    def setUp(self):
        testing.reset()
        testing.on_tool(handler)

    def until_the_approval(self):
        chat = agent_loop.new_loop([{"role": "user", "content": "go"}])
        for wake in (Start(None), Resume(), Resume()):
            agent_loop.advance(chat, config(), wake)
        step = agent_loop.advance(chat, config(), Resume())
        (wait,) = step.waits
        self.assertEqual(wait.kind, "approval")
        return chat, wait.value

    def test_a_config_offers_only_declared_tools(self):
        with self.assertRaisesRegex(ValueError, "`pager`.*not in the agent's tools"):
            Config("llm", [LoopTool("pager", "", {})], TOOLS)
        with self.assertRaisesRegex(ValueError, "model tool `model`"):
            Config("model", [], TOOLS)
        with self.assertRaisesRegex(ValueError, "two tools named `kv`"):
            Config("llm", [LoopTool("kv", "", {}), LoopTool("kv", "", {})], TOOLS)

    def test_a_loop_alternates_model_calls_and_tool_calls_with_derived_keys(self):
        chat = agent_loop.new_loop([{"role": "user", "content": "scale if needed"}])
        for wake in (Start(None), Resume(), Resume()):
            step = agent_loop.advance(chat, config(), wake)
            self.assertIsInstance(step.next, Next.Continue)
        calls = testing.calls()
        self.assertEqual([c.idempotency_key for c in calls], ["loop:1:model", "loop:1:tool:c1", "loop:2:model"])
        self.assertEqual(calls[0].args["tools"][1]["name"], "scale_out")
        self.assertEqual(calls[2].args["messages"][2]["content"], '{"value":"7","version":1}')

    def test_a_model_the_config_names_is_sent_with_every_model_call(self):
        chat = agent_loop.new_loop([{"role": "user", "content": "scale if needed"}])
        agent_loop.advance(chat, config(), Start(None))
        for wake in (Resume(), Resume()):
            agent_loop.advance(chat, config(model="gpt-5"), wake)
        asked = [c.args.get("model") for c in testing.calls() if c.name == "llm"]
        self.assertEqual(asked, [None, "gpt-5"])

    def test_a_call_needing_approval_waits_for_it_and_is_made_once_approved(self):
        chat, request = self.until_the_approval()
        named = request.details["calls"][0]
        self.assertEqual(named["tool"], "scale")
        self.assertEqual(named["args"], {"body": {"service": "api", "by": 2}})
        text = '{"body":{"by":2,"service":"api"}}'
        self.assertEqual(named["args_sha256"], hashlib.sha256(text.encode()).hexdigest())
        # The same text as the Rust SDK sends, so the same digest.
        self.assertEqual(request.id, "loop-2-c2")
        again = agent_loop.advance(chat, config(), Resume())
        self.assertEqual(again.waits[0].value, request)
        step = agent_loop.advance(chat, config(), answer(request, True))
        self.assertIsInstance(step.next, Next.Continue)
        done = agent_loop.advance(chat, config(), Resume())
        self.assertIsInstance(done, Finished)
        self.assertEqual(done.text(), "done")
        made = [c.idempotency_key for c in testing.calls() if c.name == "scale"]
        self.assertEqual(made, ["loop:2:tool:c2", "loop:2:tool:c2:approved"])
        self.assertEqual(chat["messages"][4], {"role": "tool", "tool_call_id": "c2", "content": '{"scaled":"api"}'})

    def test_a_rejected_call_is_not_made_and_the_model_is_told(self):
        chat, request = self.until_the_approval()
        agent_loop.advance(chat, config(), answer(request, False))
        self.assertEqual(sum(1 for c in testing.calls() if c.name == "scale"), 1)
        self.assertEqual(chat["messages"][4]["content"],
                         '{"error":"refused: bob rejected this call (not now)"}')
        self.assertIsInstance(agent_loop.advance(chat, config(), Resume()), Finished)

    def test_a_retried_step_replays_its_calls(self):
        chat = agent_loop.new_loop([{"role": "user", "content": "go"}])
        for wake in (Start(None), Resume()):
            before = copy.deepcopy(chat)
            agent_loop.advance(chat, config(), wake)
            agent_loop.advance(before, config(), wake)  # the host crashed before saving
            self.assertEqual(before, chat)
        replayed = [(c.idempotency_key, c.replayed) for c in testing.calls()]
        self.assertEqual(replayed, [("loop:1:model", False), ("loop:1:model", True),
                                    ("loop:1:tool:c1", False), ("loop:1:tool:c1", True)])

    def test_an_unknown_tool_is_answered_with_an_error_and_max_turns_stops(self):
        testing.on_tool(lambda name, args: reply(None, [{"id": "x", "name": "rm_rf", "arguments": {}}]))
        chat = agent_loop.new_loop([{"role": "user", "content": "go"}])
        small = config(max_turns=2)
        agent_loop.advance(chat, small, Resume())
        agent_loop.advance(chat, small, Resume())
        self.assertEqual(chat["messages"][2]["content"], '{"error":"there is no tool named `rm_rf`"}')
        self.assertEqual(len(testing.calls()), 1)
        agent_loop.advance(chat, small, Resume())
        agent_loop.advance(chat, small, Resume())
        with self.assertRaisesRegex(StepError, r"2 model calls \(max_turns\)"):
            agent_loop.advance(chat, small, Resume())


if __name__ == "__main__":
    unittest.main()
