import unittest

from wakeful_sdk import Failed, Unknown, log, now, run_id, testing, tools


class FakeHostTest(unittest.TestCase):
    def setUp(self):
        testing.reset()

    def test_a_repeated_key_returns_the_recorded_result(self):
        runs = []

        def handler(name, args):
            runs.append(name)
            return {"runs": len(runs), "echo": args}

        testing.on_tool(handler)
        first = tools.call("t", {"a": 1}, "k")
        again = tools.call("t", {"a": 2}, "k")
        self.assertEqual(first, {"runs": 1, "echo": {"a": 1}})
        self.assertEqual(again, first)
        self.assertEqual([c.replayed for c in testing.calls()], [False, True])
        self.assertEqual(testing.calls()[1].args, {"a": 2})

    def test_a_recorded_error_is_raised_again(self):
        runs = []

        def handler(name, args):
            runs.append(name)
            raise Failed("down")

        testing.on_tool(handler)
        for _ in range(2):
            with self.assertRaises(Failed) as raised:
                tools.call("t", {}, "k")
            self.assertEqual(raised.exception.message, "down")
        self.assertEqual(len(runs), 1)

    def test_the_handler_cannot_change_what_was_recorded(self):
        def handler(name, args):
            args["x"] = 2
            return args

        testing.on_tool(handler)
        tools.call("t", {"x": 1}, "k")
        self.assertEqual(testing.calls()[0].args, {"x": 1})

    def test_host_functions_answer_from_the_fake(self):
        testing.set_now(42)
        testing.set_run_id("run-7")
        log.warn("careful")
        log.info(3)
        self.assertEqual((now(), run_id()), (42, "run-7"))
        self.assertEqual(testing.logs(), ["warn: careful", "info: 3"])
        with self.assertRaises(Unknown) as raised:
            tools.call_raw("kv", "{}", "k")
        self.assertEqual(raised.exception.message, "no tool handler set for 'kv'")

    def test_reset_forgets_everything(self):
        testing.set_now(5)
        testing.on_tool(lambda name, args: 1)
        tools.call("t", 1, "k")
        log.info("x")
        testing.reset()
        self.assertEqual((now(), run_id(), testing.calls(), testing.logs()), (0, "test-run", [], []))
        with self.assertRaises(Unknown):
            tools.call("t", 1, "k")


if __name__ == "__main__":
    unittest.main()
