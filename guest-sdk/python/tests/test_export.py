import json
import sys
import unittest

from wakeful_sdk import (
    Agent,
    Approval,
    Denied,
    Event,
    Expired,
    Failed,
    Resume,
    Start,
    Step,
    StepError,
    Timer,
    Wait,
    export,
    host,
    kv,
    log,
    now,
    run_id,
    testing,
)
from wakeful_sdk import warm
from wakeful_sdk.export import MAX_ERROR_BYTES, agent_info

from . import fake_wit


class Counter(Agent):
    name = "counter"
    version = "1.2.3"
    tools = ["kv"]
    description = "Counts its steps."

    def step(self, state, wake):
        state = state or {"n": 0}
        state["n"] += 1
        if isinstance(wake, Expired):
            raise StepError("refused")
        if isinstance(wake, Timer):
            return explode(state)
        if isinstance(wake, Event) and wake.topic == "kv":
            kv.put("k", state["n"], None, "put-k")
        if isinstance(wake, Event) and wake.topic == "none":
            return None
        if isinstance(wake, Event) and wake.topic == "set":
            return Step.continue_().with_state({"n": 1, "tags": {1, 2}})
        return Step.continue_().status(f"step {state['n']}").with_state(state)


def explode(state):
    return state["missing"]  # the author's own bug


class InPlace(Agent):
    name, version = "in-place", "0.1.0"

    def step(self, state, wake):
        state.append(len(state))
        return Step.wait_until(5).or_(Wait.event("e"))


class Filer(Agent):
    """Forgets ``.with_state`` on its first step unless it has an ``init``."""

    name, version = "filer", "0.1.0"

    def step(self, state, wake):
        if isinstance(wake, Start):
            state = {"filed": []}  # rebinds the name only: the run's state is not this
            return Step.wait_event("mail")
        if isinstance(wake, Event) and wake.topic == "done":
            return Step.done("nothing to file")
        state["filed"].append(wake.id)
        return Step.wait_event("mail")


class FilerWithInit(Filer):
    def init(self):
        return {"filed": []}

    def step(self, state, wake):
        if isinstance(wake, Start):
            return Step.wait_event("mail")
        return super().step(state, wake)


class ManifestTest(unittest.TestCase):
    def test_info_lists_tools_and_description(self):
        self.assertEqual(agent_info(Counter()), ("counter", "1.2.3", ("kv",), "Counts its steps."))

    def test_a_bad_manifest_fails_at_export(self):
        class Nameless(Agent):
            version = "0.1.0"

        class Stringly(Agent):
            name, version, tools = "s", "0.1.0", "kv"

        with self.assertRaisesRegex(TypeError, "Nameless.name must be a non-empty str"):
            export(Nameless)
        with self.assertRaisesRegex(TypeError, "Stringly.tools must be a list of tool names"):
            export(Stringly)
        with self.assertRaisesRegex(TypeError, "subclass of wakeful_sdk.Agent"):
            export(object)


class StepTest(unittest.TestCase):
    def setUp(self):
        testing.reset()

    def test_the_first_step_gets_none_and_states_go_through_json(self):
        state, step = testing.step(Counter, None, Start({"a": 1}))
        self.assertEqual(state, {"n": 1})
        self.assertEqual(step.status_text, "step 1")
        state, _ = testing.step(Counter, {"n": 4}, Resume())
        self.assertEqual(state, {"n": 5})

    def test_a_state_changed_in_place_is_kept(self):
        given = [0]
        state, step = testing.step(InPlace, given, Resume())
        self.assertEqual(state, [0, 1])
        self.assertEqual(given, [0], "the caller's state is never changed")
        self.assertEqual(step.waits, (Wait.until(5), Wait.event("e")))

    def test_step_error_is_the_message_alone(self):
        with self.assertRaises(testing.StepFailed) as failed:
            testing.step(Counter, {"n": 1}, Expired("x"))
        self.assertEqual(failed.exception.message, "refused")

    def test_an_uncaught_exception_names_its_type_message_and_line(self):
        with self.assertRaises(testing.StepFailed) as failed:
            testing.step(Counter, {"n": 1}, Timer(5))
        message = failed.exception.message
        lines = message.splitlines()
        self.assertEqual(lines[0], "KeyError: 'missing'")
        self.assertIn("Traceback", lines[1])
        self.assertIn("in explode", message)
        self.assertIn('return state["missing"]', message)
        self.assertIn("test_export.py", message)
        self.assertNotIn("wakeful_sdk", message, "the SDK's own frames are left out")

    def test_an_uncaught_tool_error_names_the_tool(self):
        testing.on_tool(lambda name, args: testing.refuse(Failed("disk on fire")))
        with self.assertRaises(testing.StepFailed) as failed:
            testing.step(Counter, None, Event("e1", "kv", None, 1))
        lines = failed.exception.message.splitlines()
        self.assertEqual(lines[0], "tool kv failed: disk on fire")
        self.assertIn('kv.put("k", state["n"], None, "put-k")', failed.exception.message)

    def test_a_step_that_returns_no_step_says_so(self):
        with self.assertRaises(testing.StepFailed) as failed:
            testing.step(Counter, None, Event("e1", "none", None, 1))
        self.assertTrue(failed.exception.message.startswith("Counter.step returned None (NoneType), not a Step"))

    def test_a_state_that_is_not_json_fails_the_step(self):
        with self.assertRaises(testing.StepFailed) as failed:
            testing.step(Counter, None, Event("e1", "set", None, 1))
        self.assertIn("the new state cannot be written as JSON", failed.exception.message)

    def test_error_messages_are_bounded(self):
        class Loud(Agent):
            name, version = "loud", "0.1.0"

            def step(self, state, wake):
                raise ValueError("é" * 10_000)

        with self.assertRaises(testing.StepFailed) as failed:
            testing.step(Loud, None, Resume())
        message = failed.exception.message
        self.assertLessEqual(len(message.encode()), MAX_ERROR_BYTES)
        self.assertTrue(message.startswith("ValueError: ééé"))
        self.assertIn("more bytes)", message)
        self.assertIn('raise ValueError("é" * 10_000)', message, "the author's line survives")

    def test_a_chained_exception_names_its_cause(self):
        class Chained(Agent):
            name, version = "chained", "0.1.0"

            def step(self, state, wake):
                try:
                    int("x")
                except ValueError as e:
                    raise RuntimeError("could not read the count") from e

        with self.assertRaises(testing.StepFailed) as failed:
            testing.step(Chained, None, Resume())
        lines = failed.exception.message.splitlines()
        self.assertEqual(lines[0], "RuntimeError: could not read the count")
        self.assertEqual(lines[1], "caused by ValueError: invalid literal for int() with base 10: 'x'")

    def test_a_step_given_no_state_that_sets_none_is_refused_at_once(self):
        with self.assertRaises(testing.StepFailed) as failed:
            testing.step(Filer, None, Start({}))
        message = failed.exception.message
        self.assertTrue(message.startswith("the step was given no state (None: Filer has no init"), message)
        self.assertIn("def init(self)", message)
        self.assertIn(".with_state(state)", message)
        # A step that ends the run needs no state; with_state(None) is a choice.
        state, step = testing.step(Filer, None, Event("e1", "done", None, 1))
        self.assertIsNone(state)
        self.assertEqual(step.outcome, "nothing to file")
        state, _ = testing.step(Counter, None, Event("e1", "none-state", None, 1))
        self.assertEqual(state, {"n": 1})

    def test_init_is_the_state_of_a_new_run(self):
        state, step = testing.step(FilerWithInit, None, Start({}))
        self.assertEqual(state, {"filed": []})
        self.assertEqual(step.waits, (Wait.event("mail"),))
        state, _ = testing.step(FilerWithInit, state, Event("m1", "mail", None, 1))
        self.assertEqual(state, {"filed": ["m1"]})
        # A saved null state is a new one too, and migrating it gives init's.
        state, _ = testing.step(FilerWithInit, None, Event("m2", "mail", None, 1))
        self.assertEqual(state, {"filed": ["m2"]})
        self.assertEqual(testing.migrate(FilerWithInit, "0.0.1", None), {"filed": []})
        self.assertEqual(testing.migrate(FilerWithInit, "0.0.1", {"filed": ["x"]}), {"filed": ["x"]})

    def test_default_migrate_keeps_the_state(self):
        self.assertEqual(testing.migrate(Counter, "0.1.0", {"n": 3}), {"n": 3})
        self.assertIsNone(testing.migrate(Counter, "0.1.0", None))


class WitTest(unittest.TestCase):
    """The component side, against stand-ins of the generated bindings."""

    def setUp(self):
        self.imports = fake_wit.install()
        host._backend = None
        self.world = export(Counter)()
        self.t = fake_wit.TYPES

    def tearDown(self):
        fake_wit.uninstall()
        host._backend = None

    def test_the_build_time_warm_up_calls_neither_the_agent_nor_the_host(self):
        stepped = []

        class Watched(Counter):
            def step(self, state, wake):
                stepped.append(wake)
                return super().step(state, wake)

        world = export(Watched)()
        self.assertEqual((stepped, self.imports.calls, self.imports.logs), ([], [], []))
        world.step("", self.t["Wake_Start"]("{}"))
        self.assertEqual(len(stepped), 1)

    def test_the_warm_up_runs_the_tool_helpers_against_its_stand_in(self):
        asked = []
        answer = warm._answer

        def counting(name, args, key):
            asked.append(name)
            return answer(name, args, key)

        warm._answer = counting
        try:
            export(Counter)
        finally:
            warm._answer = answer
        self.assertEqual(set(asked), {"kv", "lease", "callback", "llm"})
        self.assertEqual(self.imports.calls, [], "the real imports were not called")
        self.assertIsInstance(host.current(), host.WitHost)
        self.assertIs(host.current().tools, sys.modules["wit_world.imports.tools"], "the real host is back")

    def test_info(self):
        info = self.world.info()
        self.assertEqual(info, self.t["AgentInfo"]("counter", "1.2.3", ["kv"], "Counts its steps."))
        self.assertIsInstance(self.world, fake_wit.WitWorld)

    def test_step_results_carry_state_next_and_status(self):
        for first in ["", "null", " null\n"]:
            result = self.world.step(first, self.t["Wake_Start"]('{"a":1}'))
            self.assertEqual(result, self.t["StepResult"]('{"n":1}', self.t["Next_Continue"](), "step 1"))
        result = export(InPlace)().step("[]", self.t["Wake_Resume"]())
        self.assertEqual(
            result.next,
            self.t["Next_Wait"]([self.t["WaitFor_Until"](5), self.t["WaitFor_Event"]("e")]),
        )
        self.assertEqual((result.state, result.status), ("[0]", None))

    def test_approvals_go_out_with_stable_details(self):
        class Asker(Agent):
            name, version = "asker", "0.1.0"

            def init(self):
                return {}

            def step(self, state, wake):
                return Step.wait_approval("a1", "ok?", {"service": "api", "action": "scale_out"}, 60_000).or_(Wait.cron("0 9 * * *"))

        result = export(Asker)().step("", self.t["Wake_Resume"]())
        request = self.t["ApprovalRequest"]("a1", "ok?", '{"action":"scale_out","service":"api"}', 60_000)
        self.assertEqual(
            result.next,
            self.t["Next_Wait"]([self.t["WaitFor_Approval"](request), self.t["WaitFor_Cron"]("0 9 * * *")]),
        )
        self.assertEqual(result.state, "{}")

    def test_wakes_are_read(self):
        seen = []

        class Recorder(Agent):
            name, version = "recorder", "0.1.0"

            def step(self, state, wake):
                seen.append(wake)
                return Step.done("ok")

        world = export(Recorder)()
        t = self.t
        for wake in [
            t["Wake_Start"](""),
            t["Wake_Start"]('{"incident":"INC-1"}'),
            t["Wake_Event"](t["Event"]("e1", "mail", '{"amount":1}', 5)),
            t["Wake_Approval"](t["Approval"]("r", False, "ann", 7, "no", "d")),
            t["Wake_Timer"](9),
            t["Wake_Expired"]("r"),
            t["Wake_Resume"](),
        ]:
            self.assertEqual(world.step("", wake).next, t["Next_Done"]("ok"))
        self.assertEqual(
            seen,
            [
                Start(None),
                Start({"incident": "INC-1"}),
                Event("e1", "mail", {"amount": 1}, 5),
                Approval("r", False, "ann", 7, "no", "d"),
                Timer(9),
                Expired("r"),
                Resume(),
            ],
        )
        self.assertEqual([w.kind for w in seen[2:]], ["event", "approval", "timer", "expired", "resume"])

    def test_failures_are_err_strings_never_traps(self):
        Err = fake_wit.Err
        t = self.t
        cases = [
            ("{", t["Wake_Resume"](), "the saved state is not JSON: "),
            ("", t["Wake_Start"]("not json"), "the start input is not JSON: "),
            ("", t["Wake_Event"](t["Event"]("e1", "t", "not json", 5)), "the payload of event e1 is not JSON: "),
            ('{"n":1}', t["Wake_Expired"]("x"), "refused"),
            ('{"n":1}', t["Wake_Timer"](1), "KeyError: 'missing'"),
            ("[1]", t["Wake_Resume"](), "TypeError: "),
        ]
        for state, wake, start in cases:
            with self.assertRaises(Err) as raised:
                self.world.step(state, wake)
            self.assertIsInstance(raised.exception.value, str)
            self.assertTrue(raised.exception.value.startswith(start), raised.exception.value)

    def test_migrate(self):
        self.assertEqual(self.world.migrate("0.1.0", '{"n":3}'), '{"n":3}')
        self.assertEqual(self.world.migrate("0.1.0", ""), "null")
        with self.assertRaises(fake_wit.Err) as raised:
            self.world.migrate("0.1.0", "{")
        self.assertTrue(raised.exception.value.startswith("the state saved by version 0.1.0 is not JSON"))

    def test_tool_calls_and_host_functions_reach_the_imports(self):
        self.imports.now, self.imports.run_id = 77, "run-9"
        self.imports.answer = lambda name, args, key: '{"ok":true,"version":3}'
        self.assertEqual(kv.put("k", {"b": 1, "a": "é"}, 2, "key-1"), kv.Written(True, 3))
        self.assertEqual(
            self.imports.calls,
            [("kv", '{"op":"put","key":"k","value":{"b":1,"a":"é"},"expected_version":2}', "key-1")],
        )
        self.assertEqual((now(), run_id()), (77, "run-9"))
        log.error("boom")
        self.assertEqual(self.imports.logs, [(fake_wit.Level.ERROR, "boom")])

    def test_tool_errors_become_exceptions_of_their_kind(self):
        def refuse(name, args, key):
            raise fake_wit.Err(fake_wit.TOOL_ERRORS["ToolError_Denied"]("kv is not granted"))

        self.imports.answer = refuse
        with self.assertRaises(Denied) as raised:
            kv.get("k", "key")
        self.assertEqual((raised.exception.message, raised.exception.tool), ("kv is not granted", "kv"))
        with self.assertRaises(fake_wit.Err) as raised:
            self.world.step("", self.t["Wake_Event"](self.t["Event"]("e", "kv", "null", 1)))
        self.assertTrue(raised.exception.value.startswith("tool kv denied: kv is not granted\n"), raised.exception.value)

    def test_a_step_result_of_values_the_host_cannot_take_is_an_err(self):
        class Sloppy(Agent):
            name, version = "sloppy", "0.1.0"

            def step(self, state, wake):
                return Step(Wait.until(5))

        with self.assertRaises(fake_wit.Err) as raised:
            export(Sloppy)().step("", self.t["Wake_Resume"]())
        self.assertTrue(raised.exception.value.startswith("Step.next must be"), raised.exception.value)


if __name__ == "__main__":
    unittest.main()
