import json
import unittest

from wakeful_sdk.jsontext import from_json, to_json


class FromJsonTest(unittest.TestCase):
    def test_reads_what_json_loads_reads(self):
        for text in [
            "null",
            " \t\n\r{\"a\": [1, 2.5, -0.0, 1e400, \"é\\u00e9\", null, true, false]}\r\n ",
            "[]",
            '"x"',
            "123456789012345678901234567890",
            "-1.5e-7",
        ]:
            self.assertEqual(repr(from_json(text)), repr(json.loads(text)), text)

    def test_refuses_what_json_loads_refuses_with_the_same_error(self):
        for text in ["", " ", "{", "nul", "[1,]", "1 2", "{} x", "\u00a0null", "null\u00a0", "\ufeffnull", "NaN x"]:
            with self.assertRaises(json.JSONDecodeError) as expected:
                json.loads(text)
            with self.assertRaises(json.JSONDecodeError) as got:
                from_json(text)
            self.assertEqual(
                (got.exception.msg, got.exception.pos),
                (expected.exception.msg, expected.exception.pos),
                repr(text),
            )


class ToJsonTest(unittest.TestCase):
    def test_writes_what_the_encoder_writes(self):
        for sort_keys in (False, True):
            encoder = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, allow_nan=False, sort_keys=sort_keys)
            for value in [None, "é\"\\\n\x01", {"b": [1, 2.5, True], "a": {"ü": None}}, [{}, []], 10**30, -0.0]:
                self.assertEqual(to_json(value, sort_keys), encoder.encode(value), value)

    def test_refuses_nan_and_objects_json_does_not_know(self):
        with self.assertRaises(ValueError):
            to_json({"x": float("nan")})
        with self.assertRaises(TypeError):
            to_json({"x": object()})

    def test_a_failure_half_way_leaves_nothing_behind(self):
        inner = [1]
        outer = {"list": inner, "bad": object()}
        with self.assertRaises(TypeError):
            to_json(outer)
        del outer["bad"]
        self.assertEqual(to_json(outer), '{"list":[1]}', "not taken for a circular reference")
        circular = []
        circular.append(circular)
        with self.assertRaisesRegex(ValueError, "[Cc]ircular"):
            to_json(circular)
        self.assertEqual(to_json([[]]), "[[]]")


if __name__ == "__main__":
    unittest.main()
