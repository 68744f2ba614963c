// The agent's unit tests, against the SDK's fake host (no component, no
// host needed). Run: npm test

import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";

import { Denied, Step, Wake } from "wakeful-sdk";
import * as testing from "wakeful-sdk/testing";

import agent, { TOPIC } from "./app.js";

beforeEach(() => {
  testing.reset();
  testing.setRunId("r1");
  testing.setNow(1_800_000_000_000);
});

function go(): Wake {
  return Wake.event({ id: "e-1", topic: TOPIC, payload: { hello: "world" }, receivedAt: 5 });
}

/** What a step asks of the host: what to wait for or the outcome, and the status. */
function shown(step: Step) {
  return { next: step.next, status: step.statusText };
}

test("waits for the event, then records it once", () => {
  testing.onTool(() => ({ ok: true, version: 1 }));
  const first = testing.step(agent, null, Wake.start({ ticket: 7 }));
  assert.deepEqual(shown(first.step), shown(Step.waitEvent(TOPIC).status("waiting for {{name}}:go")));
  assert.deepEqual(first.state, { input: { ticket: 7 }, startedAt: 1_800_000_000_000, handled: null });
  assert.equal(testing.calls().length, 0);

  const done = testing.step(agent, first.state, go());
  assert.deepEqual(shown(done.step), shown(Step.done("recorded {{name}}/r1").status("done")));
  assert.equal(done.state.handled, "e-1");
  // The same step again, as after a crash (same state, same wake): the call
  // is replayed by its key, not made twice.
  testing.step(agent, first.state, go());
  const calls = testing.calls();
  assert.equal(calls.length, 2);
  assert.equal(calls[0]!.name, "kv");
  assert.equal(calls[0]!.idempotencyKey, "record:e-1");
  assert.deepEqual(calls[0]!.args, { op: "put", key: "{{name}}/r1", value: { hello: "world" } });
  assert.deepEqual(
    calls.map((c) => c.replayed),
    [false, true],
  );
});

test("a refused put fails the step", () => {
  testing.onTool(() => {
    throw new Denied("kv is not granted");
  });
  assert.equal(testing.stepError(agent, null, go()), "kv put {{name}}/r1: denied: kv is not granted");
});
