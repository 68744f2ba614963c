import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";

import * as testing from "../src/testing.js";
import {
  Budget,
  callback,
  context,
  Denied,
  Failed,
  Invalid,
  kv,
  lease,
  log,
  now,
  runId,
  StepError,
  ToolError,
  toolError,
  tools,
  Unknown,
} from "../src/index.js";

beforeEach(() => testing.reset());

/** The argument text the fake host got for call `i`, as the real host would get it. */
function argsText(i: number): string {
  return JSON.stringify(testing.calls()[i]!.args);
}

test("errors carry kind, host message and tool; they print as the Rust SDK prints them", () => {
  const e = toolError("denied", "kv is not granted", "kv");
  assert.ok(e instanceof Denied && e instanceof ToolError && e instanceof Error);
  assert.equal(e.kind, "denied");
  assert.equal(e.message, "kv is not granted");
  assert.equal(e.tool, "kv");
  assert.equal(String(e), "denied: kv is not granted");
  assert.equal(`${new Unknown("no such tool")}`, "unknown tool: no such tool");
  assert.equal(`${new Budget("tokens")}`, "budget spent: tokens");
  assert.equal(`${new Invalid("bad")}`, "invalid arguments: bad");
  assert.equal(`${new Failed("disk on fire")}`, "failed: disk on fire");
  assert.equal(e.describe(), "tool kv was denied: kv is not granted");
  assert.equal(new Failed("x", "llm").describe(), "tool llm failed: x");
  assert.ok(toolError("weird", "m") instanceof Failed);
});

test("a tool's errors are thrown as ToolErrors naming the tool", () => {
  testing.onTool(() => {
    throw new Failed("disk on fire");
  });
  assert.throws(() => kv.get("a", "k"), (e: unknown) => {
    assert.ok(e instanceof Failed);
    assert.equal(e.tool, "kv");
    assert.equal(e.message, "disk on fire");
    return true;
  });
});

test("context words a tool error as the Rust agents do, and lets other errors pass", () => {
  testing.onTool(() => {
    throw new Denied("kv is not granted");
  });
  assert.throws(() => context("kv put invoices/m-1", () => kv.put("invoices/m-1", 1, "k")), {
    name: "StepError",
    message: "kv put invoices/m-1: denied: kv is not granted",
  });
  assert.throws(
    () =>
      context("x", () => {
        throw new RangeError("boom");
      }),
    RangeError,
  );
  assert.equal(
    context("x", () => 7),
    7,
  );
  assert.ok(new StepError("m") instanceof Error);
});

test("a repeated key returns the recorded result without running the handler", () => {
  let runs = 0;
  testing.onTool((_name, args) => ({ runs: ++runs, echo: args }));
  const first = tools.call("t", { a: 1 }, "k");
  const again = tools.call("t", { a: 2 }, "k");
  assert.deepEqual(first, { echo: { a: 1 }, runs: 1 });
  assert.deepEqual(again, first);
  assert.deepEqual(
    testing.calls().map((c) => c.replayed),
    [false, true],
  );
  // An error is recorded and replayed too.
  testing.onTool(() => {
    throw new Failed("once");
  });
  assert.throws(() => tools.call("t", {}, "e"), Failed);
  testing.onTool(() => "fine");
  assert.throws(() => tools.call("t", {}, "e"), { message: "once" });
  assert.equal(tools.call("t", {}, "other"), "fine");
});

test("tool arguments are JSON with sorted keys; a value with no JSON form is Invalid", () => {
  testing.onTool(() => null);
  tools.call("llm", { prompt: "p", actions: ["a", "b"] }, "k1");
  assert.equal(argsText(0), '{"actions":["a","b"],"prompt":"p"}');
  assert.throws(() => tools.call("llm", { n: 1n }, "k2"), (e: unknown) => {
    assert.ok(e instanceof Invalid);
    assert.match(e.message, /^the arguments for tool 'llm' are not JSON: /);
    return true;
  });
});

test("an unreadable result is a Failed naming the tool and quoting the result", () => {
  testing.onTool(() => ({ action: "x" }));
  assert.throws(
    () =>
      tools.call("llm", {}, "k", (r) => {
        throw new TypeError(`missing field \`reason\` in ${JSON.stringify(r)}`);
      }),
    (e: unknown) => {
      assert.ok(e instanceof Failed);
      assert.equal(e.message, 'tool \'llm\' returned a result this agent cannot read (missing field `reason` in {"action":"x"}): {"action":"x"}');
      return true;
    },
  );
  assert.deepEqual(tools.call("llm", {}, "k"), { action: "x" }, "replayed, readable without a reader");
});

test("callRaw passes text both ways", () => {
  testing.onTool((_name, args) => args);
  assert.equal(tools.callRaw("t", '{"b":1,"a":2}', "k"), '{"a":2,"b":1}');
  assert.throws(() => tools.callRaw("t", "not json", "k2"), {
    name: "Invalid",
    message: /^arguments are not JSON/,
  });
});

test("kv requests have the host's shapes, in the Rust SDK's field order", () => {
  const results = [
    { key: "a", value: { x: 1 }, version: 3 },
    { ok: true, version: 4 },
    { ok: true, version: 5 },
    { ok: false, version: 9 },
  ];
  testing.onTool(() => results.shift());
  assert.deepEqual(kv.get("a", "k1"), { value: { x: 1 }, version: 3 });
  assert.deepEqual(kv.put("a", { y: 2, x: 1 }, "k2", { expectedVersion: 3 }), { ok: true, version: 4 });
  assert.deepEqual(kv.put("a", null, "k3"), { ok: true, version: 5 });
  assert.deepEqual(kv.delete("a", "k4", { expectedVersion: 0 }), { ok: false, version: 9 });
  assert.deepEqual(
    [0, 1, 2, 3].map(argsText),
    [
      '{"op":"get","key":"a"}',
      '{"op":"put","key":"a","value":{"x":1,"y":2},"expected_version":3}',
      '{"op":"put","key":"a","value":null}',
      '{"op":"delete","key":"a","expected_version":0}',
    ],
  );
  assert.equal(kv.request("delete", "a"), '{"op":"delete","key":"a"}');
  assert.deepEqual(
    testing.calls().map((c) => [c.name, c.idempotencyKey]),
    [
      ["kv", "k1"],
      ["kv", "k2"],
      ["kv", "k3"],
      ["kv", "k4"],
    ],
  );
});

test("kv results are read and checked", () => {
  const results: unknown[] = [
    { value: null, version: 0 },
    { value: 7, version: 2 },
    { value: "x", version: 2 },
    { ok: "yes", version: 1 },
  ];
  testing.onTool(() => results.shift());
  assert.deepEqual(kv.get("a", "k1"), { value: null, version: 0 });
  const number = (v: unknown) => {
    if (typeof v !== "number") throw new TypeError("not a number");
    return v;
  };
  assert.deepEqual(kv.get("a", "k2", number), { value: 7, version: 2 });
  assert.throws(() => kv.get("a", "k3", number), {
    name: "Failed",
    message: `tool 'kv' returned a result this agent cannot read (not a number): {"value":"x","version":2}`,
  });
  assert.throws(() => kv.put("a", 1, "k4"), {
    name: "Failed",
    message: /cannot read \(invalid type: string "yes", expected a boolean\)/,
  });
});

test("kv refuses a value or a version that is not JSON before calling", () => {
  testing.onTool(() => ({ ok: true, version: 1 }));
  assert.throws(() => kv.put("a", { n: 1n }, "k"), { name: "Invalid", message: /^the value for kv key 'a' is not JSON/ });
  assert.throws(() => kv.put("a", 1, "k", { expectedVersion: -1 }), {
    name: "Invalid",
    message: "expected_version must be a whole number from 0 to 2^53 - 1, got -1",
  });
  assert.equal(testing.calls().length, 0);
});

test("lease requests and results have the host's shapes", () => {
  const results = [{ granted: false, holder: "run:r2", expires_at: 99 }, { released: true }];
  testing.onTool(() => results.shift());
  assert.deepEqual(lease.acquire("service/api", 300_000, "k1"), {
    granted: false,
    holder: "run:r2",
    expiresAt: 99,
  });
  assert.equal(lease.release("service/api", "k2"), true);
  assert.deepEqual(
    [0, 1].map(argsText),
    [
      '{"op":"acquire","resource":"service/api","ttl_ms":300000}',
      '{"op":"release","resource":"service/api"}',
    ],
  );
  assert.equal(lease.request("acquire", "service/api", "fleet", 5), '{"op":"acquire","resource":"service/api","holder":"fleet","ttl_ms":5}');
});

test("callback links have the host's shapes", () => {
  testing.onTool(() => ({ url: "http://h/v1/callback/ab", topic: "callback:approval", expires_at: 7 }));
  assert.deepEqual(callback.create("approval", 60_000, "k"), {
    url: "http://h/v1/callback/ab",
    topic: "callback:approval",
    expiresAt: 7,
  });
  assert.equal(argsText(0), '{"op":"create","id":"approval","valid_for_ms":60000}');
});

test("host functions answer from the fake host", () => {
  testing.setNow(42);
  testing.setRunId("run-7");
  log.warn("careful");
  log.info("i");
  log.debug("d");
  log.error("e");
  assert.deepEqual([now(), runId()], [42, "run-7"]);
  assert.deepEqual(testing.logs(), ["warn: careful", "info: i", "debug: d", "error: e"]);
  assert.throws(() => tools.callRaw("kv", "{}", "k"), {
    name: "Unknown",
    message: "no tool handler set for 'kv'",
  });
  testing.reset();
  assert.deepEqual([now(), runId(), testing.logs().length, testing.calls().length], [0, "test-run", 0, 0]);
});

test("a handler's own bug reaches the test unrecorded", () => {
  testing.onTool(() => {
    throw new RangeError("bug in the test world");
  });
  assert.throws(() => tools.call("t", {}, "k"), RangeError);
  testing.onTool(() => "ok");
  assert.equal(tools.call("t", {}, "k"), "ok", "the key was not recorded");
});
