import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";

import * as testing from "../src/testing.js";
import { bound, describeError, exportAgent, MAX_ERROR_BYTES } from "../src/export.js";
import { defineAgent, Failed, kv, Step, StepError, Wake, type JsonValue } from "../src/index.js";
import { utf8 } from "../src/sha256.js";

beforeEach(() => testing.reset());

interface Count {
  n: number;
}

const counter = defineAgent<Count>({
  name: "counter",
  version: "1.2.3",
  tools: ["kv"],
  description: "Counts its steps.",
  init: () => ({ n: 0 }),
  step(state, wake) {
    state.n += 1;
    switch (wake.kind) {
      case "expired":
        throw new StepError("refused");
      case "timer":
        kv.get("x", "read-x");
        return Step.done("read");
      case "event":
        return Step.continue().save({ n: 100 });
      default:
        return Step.continue().status(`step ${state.n}`);
    }
  },
});

const exports = exportAgent(counter);

/** What the host gets as `err`: the string the export throws. */
function err(action: () => unknown): string {
  try {
    action();
  } catch (e) {
    assert.equal(typeof e, "string", `the export threw ${String(e)}, not a string`);
    return e as string;
  }
  assert.fail("expected the export to fail");
}

test("info lists name, version, tools and description", () => {
  assert.deepEqual(exports.info(), {
    name: "counter",
    version: "1.2.3",
    tools: ["kv"],
    description: "Counts its steps.",
  });
});

test("the first step starts from init(), and later steps from the saved state", () => {
  for (const first of ["", "null", " null\n"]) {
    const result = exports.step(first, { tag: "start", val: "{}" });
    assert.equal(result.state, '{"n":1}');
    assert.equal(result.status, "step 1");
    assert.deepEqual(result.next, { tag: "continue" });
  }
  assert.equal(exports.step('{"n":4}', { tag: "resume" }).state, '{"n":5}');
});

test("save replaces the state", () => {
  const result = exports.step('{"n":4}', {
    tag: "event",
    val: { id: "e", topic: "t", payload: "{}", receivedAt: 1n },
  });
  assert.equal(result.state, '{"n":100}');
  assert.equal(result.status, undefined);
});

test("without init the first state is null", () => {
  const seen: unknown[] = [];
  const bare = exportAgent(
    defineAgent({
      name: "bare",
      version: "0.1.0",
      description: "d",
      step(state: JsonValue | null) {
        seen.push(state);
        return Step.done("x").save({ seen: true });
      },
    }),
  );
  assert.equal(bare.step("", { tag: "resume" }).state, '{"seen":true}');
  assert.deepEqual(seen, [null]);
  assert.deepEqual(bare.info().tools, []);
});

test("a StepError or a thrown string is the error as it is", () => {
  assert.equal(
    err(() => exports.step('{"n":1}', { tag: "expired", val: "x" })),
    "refused",
  );
  const strings = exportAgent(
    defineAgent({
      name: "s",
      version: "0.1.0",
      description: "d",
      step() {
        throw "plain words";
      },
    }),
  );
  assert.equal(
    err(() => strings.step("", { tag: "resume" })),
    "plain words",
  );
});

test("an uncaught ToolError reads 'tool kv failed: …' with where it was called", () => {
  testing.onTool(() => {
    throw new Failed("disk on fire");
  });
  const message = err(() => exports.step('{"n":1}', { tag: "timer", val: 5n }));
  assert.match(message, /^tool kv failed: disk on fire\n {4}at /);
  assert.ok(!message.includes("TypeError"), message);
  // The first frame is the SDK call the agent made, not where the error was built.
  assert.match(message.split("\n")[1]!, /^ {4}at (Module\.|Object\.)?get\b/, message);
});

test("any other uncaught error keeps its name, message and the top of its stack", () => {
  const buggy = exportAgent(
    defineAgent<{ plan: { action: string } | null }>({
      name: "buggy",
      version: "0.1.0",
      description: "d",
      init: () => ({ plan: null }),
      step(state) {
        return Step.done(state.plan!.action);
      },
    }),
  );
  const message = err(() => buggy.step("", { tag: "resume" }));
  assert.match(message, /^TypeError: Cannot read properties of null \(reading 'action'\)\n {4}at /);
  const lines = message.split("\n");
  assert.ok(lines.length >= 2 && lines.length <= 13, message);
  assert.ok(lines.slice(1).every((l) => l.startsWith("    at ")), message);
});

test("errors from the state, the wake and the step's return are reported too", () => {
  assert.match(err(() => exports.step("{", { tag: "resume" })), /^the saved state is not JSON: /);
  assert.match(err(() => exports.step("", { tag: "start", val: "nope" })), /^the start input is not JSON: /);
  const odd = (step: () => unknown) =>
    exportAgent(defineAgent({ name: "o", version: "0.1.0", description: "d", step: step as never }));
  assert.match(
    err(() => odd(() => "done").step("", { tag: "resume" })),
    /^TypeError: the step function must return a Step, got a string/,
  );
  assert.equal(
    err(() => odd(() => Step.continue().save({ big: 1n })).step("", { tag: "resume" })),
    "the new state cannot be written as JSON: Do not know how to serialize a BigInt",
  );
  assert.match(err(() => odd(() => Step.waitUntil(-5)).step("", { tag: "resume" })), /^RangeError: the time of an until wait/);
});

test("a thrown non-Error is shown as JSON", () => {
  assert.equal(describeError({ code: 7 }), 'the step threw an object, not an Error: {"code":7}');
  assert.equal(describeError(42), "the step threw a number, not an Error: 42");
  assert.equal(describeError(undefined), "the step threw undefined, not an Error: undefined");
});

test("a cause is named", () => {
  const e = new Error("outer", { cause: new RangeError("inner") });
  assert.match(describeError(e), /^Error: outer\n[\s\S]*\ncaused by RangeError: inner$/);
});

test("the error is bounded under the host's 4 KiB, on a character boundary", () => {
  const huge = describeError(new StepError("é".repeat(10_000)));
  assert.ok(utf8(huge).length <= MAX_ERROR_BYTES, `${utf8(huge).length}`);
  assert.ok(huge.endsWith("é…"));
  assert.equal(bound("short", 10), "short");
  assert.equal(bound("😀😀😀", 10), "😀…");
});

test("migrate keeps the old state by default, init() for a run with none, and reports bad JSON", () => {
  assert.equal(exports.migrate("0.1.0", '{"n":3}'), '{"n":3}');
  assert.equal(exports.migrate("0.1.0", ""), '{"n":0}');
  assert.match(err(() => exports.migrate("0.1.0", "{")), /^the state saved by version 0\.1\.0 is not JSON: /);
  const reshaping = exportAgent(
    defineAgent<{ count: number }>({
      name: "v2",
      version: "0.2.0",
      description: "d",
      init: () => ({ count: 0 }),
      step: () => Step.continue(),
      migrate(from, old) {
        if (from !== "0.1.0") throw new StepError(`cannot migrate from ${from}`);
        return { count: (old as { n: number }).n };
      },
    }),
  );
  assert.equal(reshaping.migrate("0.1.0", '{"n":3}'), '{"count":3}');
  assert.equal(err(() => reshaping.migrate("0.0.1", "{}")), "cannot migrate from 0.0.1");
});

test("defineAgent checks its definition", () => {
  assert.throws(() => defineAgent({ name: "", version: "1", description: "d", step: () => Step.continue() }), {
    message: "defineAgent: 'name' must be a non-empty string",
  });
  assert.throws(() => defineAgent({ name: "a", version: "1", description: "d" } as never), {
    message: /'step' must be a function/,
  });
});

test("testing.step runs a step as the host would", () => {
  const first = testing.step(counter, null, Wake.start());
  assert.deepEqual(first.state, { n: 1 });
  const second = testing.step(counter, first.state, Wake.resume());
  assert.deepEqual(second.state, { n: 2 });
  assert.deepEqual(first.state, { n: 1 }, "the state passed in is not changed");
  assert.equal(testing.stepError(counter, first.state, Wake.expired("x")), "refused");
  assert.throws(() => testing.stepError(counter, null, Wake.resume()), /the step succeeded/);
});

test("testing.migrate runs migrate as the host would, through JSON", () => {
  interface Renamed {
    count: number;
  }
  const reshaping = defineAgent<Renamed>({
    name: "counter",
    version: "2.0.0",
    description: "Counts, renamed.",
    init: () => ({ count: 0 }),
    step: () => Step.continue(),
    migrate(from, old) {
      if (from !== "1.2.3") throw new StepError(`cannot migrate from ${from}`);
      if (old === null) return { count: 0 };
      const saved = old as { n: number };
      saved.n += 1; // the caller's value must not change
      return { count: saved.n - 1 };
    },
  });
  const old = { n: 3 };
  assert.deepEqual(testing.migrate(reshaping, "1.2.3", old), { count: 3 });
  assert.deepEqual(old, { n: 3 });
  assert.deepEqual(testing.migrate(reshaping, "1.2.3", null), { count: 0 });
  assert.equal(testing.migrateError(reshaping, "0.0.1", old), "cannot migrate from 0.0.1");
  assert.throws(() => testing.migrateError(reshaping, "1.2.3", old), /the migration succeeded/);
  // Without a migrate of its own: the old state kept, init() for a run with none.
  assert.deepEqual(testing.migrate(counter, "1.0.0", { n: 7 }), { n: 7 });
  assert.deepEqual(testing.migrate(counter, "1.0.0", undefined), { n: 0 });
});
