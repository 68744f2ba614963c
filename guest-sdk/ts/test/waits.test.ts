import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";

import * as testing from "../src/testing.js";
import { exportAgent, type WitStepResult } from "../src/export.js";
import { ApprovalRequest, defineAgent, Step, Wait, waits, Wake, type JsonValue } from "../src/index.js";

interface Paid {
  amount: number;
}

/** Asks on start, pays on approval, keeps waiting otherwise. */
const payer = defineAgent<Paid>({
  name: "payer",
  version: "2.0.0",
  description: "Asks, then pays.",
  init: () => ({ amount: 0 }),
  step(state, wake) {
    if (wake.kind === "start") {
      state.amount = 5;
      waits.ask("pay", "Pay 5?", { amount: 5 }, 1000);
      return Step.keepWaiting().status("asked");
    }
    const answer = waits.answerTo(wake, "pay");
    if (answer?.kind === "approved") return Step.done(`paid, ${answer.approval.by}`);
    if (answer !== null) return Step.done(answer.kind);
    return Step.keepWaiting();
  },
  migrate(_from, old) {
    // Fails on anything it does not know: the SDK's key must not reach it.
    const keys = Object.keys(old as object);
    if (keys.join() !== "amount") throw new Error(`unknown fields: ${keys.join()}`);
    return old as unknown as Paid;
  },
});

const exports = exportAgent(payer);

function approval(digest: string) {
  return {
    tag: "approval" as const,
    val: { requestId: "pay", approved: true, by: "ann", at: 1n, comment: undefined, digest },
  };
}

function witWaits(result: WitStepResult): string[] {
  assert.equal(result.next.tag, "wait");
  return (result.next as { val: unknown[] }).val.map((w) => JSON.stringify(w, (_, v) => (typeof v === "bigint" ? Number(v) : v)));
}

beforeEach(() => testing.reset());

test("the request lives in the state and survives other wakes and migrate", () => {
  const first = exports.step("", { tag: "start", val: "{}" });
  const saved = JSON.parse(first.state);
  assert.equal(saved.amount, 5);
  assert.deepEqual(saved[waits.STATE_KEY], {
    approvals: [{ id: "pay", question: "Pay 5?", details: { amount: 5 }, valid_for_ms: 1000 }],
  });
  assert.equal(witWaits(first).length, 1);
  assert.equal(first.status, "asked");
  assert.deepEqual(waits.outstanding(), [], "the memory left with the state");

  const resumed = exports.step(first.state, { tag: "resume" });
  assert.deepEqual(witWaits(resumed), witWaits(first), "re-waits by itself");
  const migrated = exports.migrate("1.0.0", resumed.state);
  assert.equal(migrated, first.state, "migrate never saw the SDK's key");

  const digest = new ApprovalRequest("pay", "Pay 5?", { amount: 5 }, 1).digest();
  const done = exports.step(migrated, approval(digest));
  assert.deepEqual(done.next, { tag: "done", val: "paid, ann" });
  assert.equal(done.state, '{"amount":5}');
});

test("an answer to other details is not an approval; an expiry is answered", () => {
  const first = exports.step("", { tag: "start", val: "{}" });
  assert.throws(() => exports.step(first.state, approval("other")), /waits on nothing/);
  const done = exports.step(first.state, { tag: "expired", val: "pay" });
  assert.deepEqual(done.next, { tag: "done", val: "expired" });
});

test("a state that is not an object cannot keep waits", () => {
  const asker = defineAgent({
    name: "asker",
    version: "0.1.0",
    description: "Asks with a list for a state.",
    step() {
      waits.ask("a", "q", null, 1);
      return Step.keepWaiting().save([1]);
    },
  });
  assert.match(testing.stepError(asker, null, Wake.start()), /"wakeful:waits" in the state, but this agent's state is not a JSON object: \[1\]/);
  assert.deepEqual(waits.outstanding(), [], "a failed step leaves nothing behind");
});

test("an unreadable memory in the saved state is named", () => {
  const err = testing.stepError(payer, { amount: 1, "wakeful:waits": { approvals: [{ id: 7 }] } } as Paid, Wake.resume());
  assert.match(err, /^the SDK's "wakeful:waits" in the saved state is unreadable: invalid type: integer `7`, expected a string/);
});

test("a link is re-waited on with its expiry, answered by a POST or the timer", () => {
  testing.onTool(() => ({ url: "http://127.0.0.1/v1/callback/x", topic: "callback:bank", expires_at: 500 }));
  const linker = defineAgent<{ n: number }>({
    name: "linker",
    version: "0.1.0",
    tools: ["callback"],
    description: "Waits on a link.",
    init: () => ({ n: 0 }),
    step(state, wake) {
      state.n += 1;
      if (wake.kind === "start") {
        waits.link("bank", 400, "bank:link");
        return Step.waitEvent("other");
      }
      const answer = waits.answerTo(wake, "bank");
      if (answer?.kind === "called") return Step.done(`called: ${JSON.stringify(answer.body)}`);
      if (answer !== null) return Step.done(answer.kind);
      return Step.keepWaiting().status(`still ${waits.outstanding().join()}`);
    },
  });
  const first = testing.step(linker, null, Wake.start());
  assert.deepEqual(first.step.next, {
    kind: "wait",
    waits: [Wait.event("other"), Wait.event("callback:bank"), Wait.until(500)],
  });
  assert.deepEqual((first.state as unknown as Record<string, JsonValue>)[waits.STATE_KEY], {
    links: [{ id: "bank", link: { url: "http://127.0.0.1/v1/callback/x", topic: "callback:bank", expires_at: 500 } }],
  });
  const other = testing.step(linker, first.state, Wake.event({ id: "e1", topic: "other" }));
  assert.equal(other.step.statusText, "still bank");
  const early = testing.step(linker, other.state, Wake.timer(499));
  assert.equal(early.step.next.kind, "wait", "a timer before the expiry is not the link's");
  const called = testing.step(linker, early.state, Wake.event({ id: "e2", topic: "callback:bank", payload: { ok: true } }));
  assert.deepEqual(called.step.next, { kind: "done", outcome: 'called: {"ok":true}' });
  assert.deepEqual(called.state, { n: 4 }, "a done run forgets its waits");
  const expired = testing.step(linker, early.state, Wake.timer(500));
  assert.deepEqual(expired.step.next, { kind: "done", outcome: "expired" });
});

test("asking again replaces the request, and forget stops waiting", () => {
  const first = testing.step(payer, null, Wake.start());
  const asker = defineAgent<Paid>({
    name: "asker",
    version: "0.1.0",
    description: "Asks again.",
    init: () => ({ amount: 0 }),
    step() {
      waits.ask("pay", "Pay 6?", { amount: 6 }, 1000);
      waits.ask("other", "Other?", null, 1000);
      waits.forget("other");
      assert.deepEqual(waits.outstanding(), ["pay"]);
      return Step.waitApproval("pay", "Pay 6?", { amount: 6 }, 1000);
    },
  });
  const again = testing.step(asker, first.state, Wake.resume());
  assert.equal(again.step.next.kind, "wait");
  const asked = again.step.next.kind === "wait" ? again.step.next.waits : [];
  assert.equal(asked.length, 1, "the same id is waited on once");
  assert.equal(asked[0]!.kind === "approval" && asked[0]!.request.question, "Pay 6?");
});
