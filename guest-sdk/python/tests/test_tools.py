import unittest

from wakeful_sdk import Budget, Denied, Failed, Invalid, ToolError, Unknown, callback, kv, lease, testing, tools


class ToolErrorTest(unittest.TestCase):
    def test_errors_show_kind_and_message(self):
        e = Denied("kv is not granted", "kv")
        self.assertEqual(str(e), "denied: kv is not granted")
        self.assertEqual(e.message, "kv is not granted")
        self.assertEqual(e.summary(), "tool kv denied: kv is not granted")
        self.assertIsInstance(e, ToolError)
        self.assertIs(ToolError.Denied, Denied)
        self.assertEqual(e, Denied("kv is not granted"))
        self.assertNotEqual(e, Failed("kv is not granted"))
        self.assertEqual(
            [str(c("m")) for c in (Unknown, Budget, Invalid, Failed)],
            ["unknown tool: m", "budget spent: m", "invalid arguments: m", "failed: m"],
        )


class CallTest(unittest.TestCase):
    def setUp(self):
        testing.reset()

    def test_values_go_out_as_compact_json_and_come_back_parsed(self):
        seen = []
        testing.on_tool(lambda name, args: seen.append(args) or {"echo": args})
        result = tools.call("t", {"a": [1, "é"]}, "k")
        self.assertEqual(result, {"echo": {"a": [1, "é"]}})
        self.assertEqual(testing.calls()[0].args, {"a": [1, "é"]})

    def test_arguments_that_are_not_json_are_invalid(self):
        testing.on_tool(lambda name, args: 1)
        with self.assertRaises(Invalid) as raised:
            tools.call("t", {"a": object()}, "k")
        self.assertIn("the arguments for tool 't' are not JSON", raised.exception.message)
        self.assertEqual(raised.exception.tool, "t")
        self.assertEqual(testing.calls(), [])

    def test_an_unreadable_result_is_a_failure_naming_the_tool(self):
        with self.assertRaises(Failed) as raised:
            tools.read_result("llm", "not json")
        self.assertTrue(raised.exception.message.startswith("tool 'llm' returned a result this agent cannot read ("))
        self.assertTrue(raised.exception.message.endswith("): not json"))
        self.assertEqual(tools.read_result("t", "[1]"), [1])
        long = tools.cannot_read("t", "why", "x" * 500).message
        self.assertTrue(long.endswith("x" * 200 + "…"))

    def test_tool_errors_carry_the_tool_name(self):
        testing.on_tool(lambda name, args: testing.refuse(Budget("tokens spent")))
        with self.assertRaises(Budget) as raised:
            tools.call("llm", {}, "k")
        self.assertEqual(raised.exception.tool, "llm")
        self.assertEqual(raised.exception.summary(), "tool llm budget spent: tokens spent")


class BuiltInToolsTest(unittest.TestCase):
    def setUp(self):
        testing.reset()

    def answer(self, result):
        testing.on_tool(lambda name, args: result)

    def test_kv_requests_have_the_host_shapes(self):
        self.assertEqual(kv.get_args("a"), {"op": "get", "key": "a"})
        self.assertEqual(
            kv.put_args("a", {"x": 1}, 3),
            {"op": "put", "key": "a", "value": {"x": 1}, "expected_version": 3},
        )
        self.assertEqual(kv.put_args("a", None, None), {"op": "put", "key": "a", "value": None})
        self.assertEqual(kv.delete_args("a", None), {"op": "delete", "key": "a"})
        self.assertEqual(kv.delete_args("a", 0), {"op": "delete", "key": "a", "expected_version": 0})
        # The same text as the Rust SDK sends: field order included.
        self.answer({"ok": True, "version": 4})
        kv.put("a", {"x": 1}, 3, "k")
        kv.put("b", 7, idempotency_key="k2")
        self.assertEqual([c.args for c in testing.calls()][1], {"op": "put", "key": "b", "value": 7})

    def test_kv_results_are_read(self):
        self.answer({"key": "a", "value": None, "version": 0})
        absent = kv.get("a", "k1")
        self.assertFalse(absent.exists())
        self.assertEqual((absent.value, absent.version), (None, 0))
        self.answer({"value": 7, "version": 2})
        self.assertEqual(kv.get("a", "k2"), kv.Versioned(7, 2))
        self.answer({"ok": False, "version": 9})
        self.assertEqual(kv.put("a", 1, 3, "k3"), kv.Written(False, 9))
        self.assertEqual(kv.delete("a", None, "k4"), kv.Written(False, 9))

    def test_kv_results_of_the_wrong_shape_fail(self):
        self.answer({"value": 1})
        with self.assertRaises(Failed) as raised:
            kv.get("a", "k")
        self.assertIn("tool 'kv' returned a result this agent cannot read (expected {value, version})", raised.exception.message)
        self.answer({"ok": "yes", "version": 1})
        with self.assertRaises(Failed):
            kv.put("a", 1, None, "k2")

    def test_kv_writes_need_a_key(self):
        with self.assertRaisesRegex(TypeError, "kv.put needs an idempotency_key"):
            kv.put("a", 1)
        with self.assertRaisesRegex(TypeError, "expected_version must be an int"):
            kv.put("a", 1, "3", "k")

    def test_lease_requests_and_results(self):
        self.assertEqual(
            lease.acquire_args("service/api", 300_000),
            {"op": "acquire", "resource": "service/api", "ttl_ms": 300_000},
        )
        self.assertEqual(
            lease.acquire_args("service/api", 300_000, "fleet"),
            {"op": "acquire", "resource": "service/api", "holder": "fleet", "ttl_ms": 300_000},
        )
        self.assertEqual(lease.release_args("service/api"), {"op": "release", "resource": "service/api"})
        self.assertEqual(lease.release_args("service/api", "fleet"), {"op": "release", "resource": "service/api", "holder": "fleet"})
        self.answer({"granted": False, "holder": "run:r2", "expires_at": 99})
        self.assertEqual(lease.acquire("service/api", 5, "k"), lease.Lease(False, "run:r2", 99))
        self.answer({"released": True})
        self.assertTrue(lease.release("service/api", "k2"))
        self.answer({"released": "maybe"})
        with self.assertRaises(Failed):
            lease.release("service/api", "k3")

    def test_callback_request_and_result(self):
        self.assertEqual(callback.create_args("approval", 60_000), {"op": "create", "id": "approval", "valid_for_ms": 60_000})
        self.answer({"url": "http://h/v1/callback/ab", "topic": "callback:approval", "expires_at": 7})
        link = callback.create("approval", 60_000, "k")
        self.assertEqual(link, callback.Link("http://h/v1/callback/ab", "callback:approval", 7))
        self.assertEqual(testing.calls()[0].name, "callback")


if __name__ == "__main__":
    unittest.main()
