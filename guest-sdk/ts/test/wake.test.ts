import assert from "node:assert/strict";
import { test } from "node:test";

import { Approval, ApprovalRequest, inputOf, StepError, Wake } from "../src/index.js";
import { wakeFromWit } from "../src/export.js";

test("start input is parsed; empty input is null", () => {
  assert.deepEqual(wakeFromWit({ tag: "start", val: '{"incident":"INC-1"}' }), {
    kind: "start",
    input: { incident: "INC-1" },
  });
  assert.deepEqual(wakeFromWit({ tag: "start", val: "" }), { kind: "start", input: null });
  assert.deepEqual(inputOf(Wake.start({ a: 1 })), { a: 1 });
});

test("reading the input of another wake names it", () => {
  assert.throws(() => inputOf(Wake.resume()), {
    name: "StepError",
    message: "expected the start wake to read the input, got resume",
  });
  assert.throws(() => inputOf(Wake.expired("x")), StepError);
});

test("text that is not JSON is an error of the step", () => {
  assert.throws(() => wakeFromWit({ tag: "event", val: { id: "e1", topic: "t", payload: "not json", receivedAt: 5n } }), {
    name: "StepError",
    message: /^the payload of event e1 is not JSON: /,
  });
  assert.throws(() => wakeFromWit({ tag: "start", val: "{" }), { message: /^the start input is not JSON: / });
});

test("events, timers, expiries and resumes are read field by field; u64 times become numbers", () => {
  assert.deepEqual(
    wakeFromWit({ tag: "event", val: { id: "e1", topic: "t", payload: '{"a":[1]}', receivedAt: 1_800_000_000_123n } }),
    { kind: "event", id: "e1", topic: "t", payload: { a: [1] }, receivedAt: 1_800_000_000_123 },
  );
  assert.deepEqual(wakeFromWit({ tag: "timer", val: 42n }), { kind: "timer", at: 42 });
  assert.deepEqual(wakeFromWit({ tag: "expired", val: "approve-x" }), { kind: "expired", requestId: "approve-x" });
  assert.deepEqual(wakeFromWit({ tag: "resume" }), { kind: "resume" });
});

test("an approval is copied field by field and checks the request it answers", () => {
  const request = new ApprovalRequest("r", "ok?", { plan: 1 }, 60_000);
  const wake = wakeFromWit({
    tag: "approval",
    val: { requestId: "r", approved: false, by: "ann", at: 7n, comment: "no", digest: request.digest() },
  });
  assert.ok(wake instanceof Approval);
  assert.equal(wake.kind, "approval");
  assert.deepEqual([wake.requestId, wake.approved, wake.by, wake.at, wake.comment], ["r", false, "ann", 7, "no"]);
  assert.ok(wake.isFor(request));
  assert.ok(!wake.isFor(new ApprovalRequest("r", "ok?", { plan: 2 }, 60_000)), "other details");
  assert.ok(!wake.isFor(new ApprovalRequest("r2", "ok?", { plan: 1 }, 60_000)), "another id");
  const bare = wakeFromWit({
    tag: "approval",
    val: { requestId: "r", approved: true, by: "bob", at: 8n, comment: undefined, digest: "d" },
  });
  assert.equal((bare as Approval).comment, null);
});

test("the digest does not depend on the order the details were written in", () => {
  const a = new ApprovalRequest("r", "q", { x: 1, y: { b: 2, a: 1 } }, 1);
  const b = new ApprovalRequest("r", "q", { y: { a: 1, b: 2 }, x: 1 }, 1);
  assert.equal(a.digest(), b.digest());
});
