import assert from "node:assert/strict";
import { test } from "node:test";

import { ApprovalRequest, Step, Wait } from "../src/index.js";
import { stepToWit } from "../src/export.js";

test("builders set next and status", () => {
  const step = Step.waitEvent("mail:invoice").status("waiting");
  assert.deepEqual(step.next, { kind: "wait", waits: [{ kind: "event", topic: "mail:invoice" }] });
  assert.equal(step.statusText, "waiting");
  assert.deepEqual(Step.done("ok").next, { kind: "done", outcome: "ok" });
  assert.deepEqual(Step.continue().next, { kind: "continue" });
  assert.equal(Step.continue().statusText, undefined);
  assert.equal(Step.continue().savedState, undefined);
  assert.deepEqual(Step.continue().save({ n: 1 }).savedState, { n: 1 });
});

test("or combines waits, and makes a wait of continue or done", () => {
  const step = Step.waitCron("0 9 * * *").or(Wait.until(5)).or(Wait.event("t"));
  assert.deepEqual(step.next, {
    kind: "wait",
    waits: [Wait.cron("0 9 * * *"), Wait.until(5), Wait.event("t")],
  });
  assert.deepEqual(Step.done("x").or(Wait.until(1)).next, { kind: "wait", waits: [Wait.until(1)] });
});

test("steps are values: a builder never changes the step it was called on", () => {
  const base = Step.waitEvent("t");
  const more = base.or(Wait.until(9)).status("s").save(1);
  assert.equal(base.statusText, undefined);
  assert.equal(base.next.kind === "wait" && base.next.waits.length, 1);
  assert.equal(more.savedState, 1);
});

test("approval details go to the host as stable JSON", () => {
  const details = { service: "api", action: "scale_out" };
  const result = stepToWit(Step.waitApproval("a1", "ok?", details, 60_000), "{}");
  assert.deepEqual(result, {
    state: "{}",
    status: undefined,
    next: {
      tag: "wait",
      val: [
        {
          tag: "approval",
          val: { id: "a1", question: "ok?", details: '{"action":"scale_out","service":"api"}', validForMs: 60_000n },
        },
      ],
    },
  });
});

test("every wait and next has its WIT shape; times are u64", () => {
  const step = Step.waitUntil(1_800_000_000_000).or(Wait.cron("*/5 * * * *")).or(Wait.event("t")).status("s");
  assert.deepEqual(stepToWit(step, "null"), {
    state: "null",
    status: "s",
    next: {
      tag: "wait",
      val: [
        { tag: "until", val: 1_800_000_000_000n },
        { tag: "cron", val: "*/5 * * * *" },
        { tag: "event", val: "t" },
      ],
    },
  });
  assert.deepEqual(stepToWit(Step.continue(), "1").next, { tag: "continue" });
  assert.deepEqual(stepToWit(Step.done("fine"), "1").next, { tag: "done", val: "fine" });
});

test("a time that is not a whole number of ms is refused before it reaches the host", () => {
  assert.throws(() => stepToWit(Step.waitUntil(-1), "1"), /must be a whole number of ms/);
  assert.throws(() => stepToWit(Step.waitUntil(1.5), "1"), /must be a whole number of ms/);
  assert.throws(() => stepToWit(Step.waitApproval("a", "q", {}, NaN), "1"), /validForMs of approval request a/);
});

test("Wait.approval takes a made request too", () => {
  const request = new ApprovalRequest("a1", "q?", { x: 1 }, 5);
  assert.deepEqual(Step.waitApproval(request).next, Step.waitApproval("a1", "q?", { x: 1 }, 5).next);
  assert.deepEqual(Wait.approval(request), { kind: "approval", request });
  assert.throws(() => Wait.approval("a1"), /takes \(id, question, details, validForMs\)/);
});
