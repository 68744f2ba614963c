import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";

import { defineAgent, Failed, Step, tools, Wake } from "../src/index.js";
import * as testing from "../src/testing.js";

beforeEach(() => testing.reset());

const CASSETTE = {
  cassette: 1,
  agent: "a@1.0.0",
  run: "r1",
  entries: [
    {
      fingerprint: "for people",
      tool: "llm",
      key: "loop:1:model",
      args: { messages: [{ role: "user", content: "hi" }], n: 1 },
      result: { text: "hello" },
    },
    { tool: "pager", key: "page", args: { body: "x" }, error: { kind: "failed", message: "pager down" } },
  ],
};

const ARGS = { n: 1, messages: [{ content: "hi", role: "user" }] };

const asker = defineAgent<Record<string, never>>({
  name: "a",
  version: "1.0.0",
  tools: ["llm"],
  description: "Asks the model once.",
  init: () => ({}),
  step(_state, wake) {
    const input = wake.kind === "start" ? wake.input : null;
    const reply = tools.call("llm", { messages: [{ role: "user", content: input }], n: 1 }, "loop:1:model") as {
      text: string;
    };
    return Step.done(reply.text);
  },
});

function missOf(call: () => unknown): string {
  try {
    call();
  } catch (e) {
    assert.ok(e instanceof testing.CassetteMiss, `not a CassetteMiss: ${String(e)}`);
    return e.message;
  }
  assert.fail("the call did not miss");
}

test("the fingerprint is the host's", () => {
  // The same vector is checked by the host (cassette.rs) and the Rust and
  // Python SDKs.
  const args = { z: [1, "é\n"], a: { y: null, b: true }, n: -7 };
  assert.equal(
    testing.fingerprint("a@1.0.0", "llm", "loop:1:model", args),
    "abc74eeca5cdc63c7025199fc72e5037dede1dda09106d37cbcb9245d9ef2a4b",
  );
});

test("a recorded call gets its result and a recorded error its error", () => {
  testing.replay(JSON.stringify(CASSETTE), "a@1.0.0");
  assert.deepEqual(tools.call("llm", ARGS, "loop:1:model"), { text: "hello" });
  assert.throws(() => tools.call("pager", { body: "x" }, "page"), (e: unknown) => {
    return e instanceof Failed && e.message === "pager down";
  });
});

test("a step replays as its agent", () => {
  testing.replay(CASSETTE, asker);
  const { step } = testing.step(asker, null, Wake.start("hi"));
  assert.deepEqual(step.next, { kind: "done", outcome: "hello" });
});

test("changed arguments miss, naming the call and the difference", () => {
  testing.replay(CASSETTE, "a@1.0.0");
  const args = { n: 1, messages: [{ role: "user", content: "bye" }] };
  const said = missOf(() => tools.call("llm", args, "loop:1:model"));
  for (const part of [
    "cassette miss",
    "tool `llm`",
    "key `loop:1:model`",
    testing.fingerprint("a@1.0.0", "llm", "loop:1:model", args),
    '"content":"bye"',
    "recorded for other arguments",
    'first difference at /messages/0/content: recorded "hi", now "bye"',
  ]) {
    assert.ok(said.includes(part), `${part} not in: ${said}`);
  }
  assert.ok(missOf(() => testing.step(asker, null, Wake.start("bye"))).includes("cassette miss"));
});

test("a long text shows where it changed", () => {
  const long = { ...CASSETTE, entries: [{ tool: "t", key: "k", args: { p: "x".repeat(50) + "a" }, result: 1 }] };
  testing.replay(long, "a@1.0.0");
  const said = missOf(() => tools.call("t", { p: "x".repeat(50) + "b" }, "k"));
  const kept = "x".repeat(20);
  assert.ok(said.includes(`/p: recorded "…${kept}a", now "…${kept}b"`), said);
});

test("another agent version misses", () => {
  testing.replay(CASSETTE, "a@1.1.0");
  const said = missOf(() => tools.call("llm", ARGS, "loop:1:model"));
  assert.ok(said.includes("recorded for agent a@1.0.0, not a@1.1.0"), said);
});

test("a call of no recorded key misses", () => {
  testing.replay(CASSETTE, "a@1.0.0");
  assert.ok(missOf(() => tools.call("kv", {}, "new")).includes("no call of this tool with this key"));
});

test("what is not a cassette is refused", () => {
  assert.throws(() => testing.replay({ agent: "a@1" }, "a@1.0.0"), TypeError);
  const noAnswer = { ...CASSETTE, entries: [{ tool: "t", key: "k", args: 1 }] };
  assert.throws(() => testing.replay(noAnswer, "a@1.0.0"), /needs a `result` or an `error`/);
});
