import assert from "node:assert/strict";
import { test } from "node:test";

import { byCodePoint, canonicalJson, expect, field, parseJson } from "../src/json.js";

test("keys are sorted at every depth, as serde_json prints a Value", () => {
  assert.equal(canonicalJson({ service: "api", action: "scale_out" }), '{"action":"scale_out","service":"api"}');
  assert.equal(
    canonicalJson({ b: [{ z: 1, a: null }], a: { y: true, x: "é\n\"" } }),
    '{"a":{"x":"é\\n\\"","y":true},"b":[{"a":null,"z":1}]}',
  );
  assert.equal(canonicalJson([3, "x", false]), '[3,"x",false]');
  assert.equal(canonicalJson("a/b\u0001"), '"a/b\\u0001"');
});

test("what is not plain JSON follows JSON.stringify, and BigInt or nothing is refused", () => {
  assert.equal(canonicalJson({ a: undefined, b: () => 1, c: NaN }), '{"c":null}');
  assert.equal(canonicalJson({ at: new Date(0) }), '{"at":"1970-01-01T00:00:00.000Z"}');
  assert.throws(() => canonicalJson({ n: 1n }), /the value is not JSON: .*BigInt/);
  assert.throws(() => canonicalJson(undefined), /the value is not JSON: undefined/);
  const cycle: Record<string, unknown> = {};
  cycle.self = cycle;
  assert.throws(() => canonicalJson(cycle), TypeError);
});

test("keys are ordered by code point, as Rust orders strings", () => {
  // UTF-16 order would put the emoji (a surrogate pair) before U+FF5E.
  const keys = ["\u{1F600}", "\uff5e", "b", "a", "ab", ""];
  assert.deepEqual([...keys].sort(byCodePoint), ["", "a", "ab", "b", "\uff5e", "\u{1F600}"]);
  assert.equal(canonicalJson({ "\u{1F600}": 1, "\uff5e": 2 }), '{"\uff5e":2,"\u{1F600}":1}');
});

test("empty text parses as null", () => {
  assert.equal(parseJson(""), null);
  assert.equal(parseJson(" \n"), null);
  assert.deepEqual(parseJson('{"a":1}'), { a: 1 });
  assert.throws(() => parseJson("not json"), SyntaxError);
});

test("readers word their errors as serde does", () => {
  const input = expect.object({ incident: "INC-1", n: 5 }, "struct Input");
  assert.equal(field(input, "incident", expect.string), "INC-1");
  assert.equal(field(input, "holder", expect.string, () => "agent-1"), "agent-1");
  assert.throws(() => field(input, "service", expect.string), { message: "missing field `service`" });
  assert.throws(() => field(input, "n", expect.string), { message: "invalid type: integer `5`, expected a string" });
  assert.throws(() => expect.object(null, "struct Input"), { message: "invalid type: null, expected struct Input" });
  assert.throws(() => expect.u64(-1), { message: "invalid value: integer `-1`, expected u64" });
  assert.throws(() => expect.u64(1.5), { message: "invalid type: floating point `1.5`, expected u64" });
  assert.throws(() => expect.u64("x"), { message: 'invalid type: string "x", expected u64' });
  assert.throws(() => expect.boolean([]), { message: "invalid type: sequence, expected a boolean" });
  assert.throws(() => expect.f64({}), { message: "invalid type: map, expected f64" });
  assert.equal(expect.f64(97), 97);
});
