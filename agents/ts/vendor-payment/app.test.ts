// The vendor-payment agent against the SDK's fake host, stepped as the host
// would (`testing.step`), with the SDK remembering its waits in the state.
// A port of agents/vendor-payment/src/tests.rs.

import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";

import { ApprovalRequest, Step, Unknown, Wait, Wake, waits, type Next } from "wakeful-sdk";
import * as testing from "wakeful-sdk/testing";

import payment, { DAY_MS, type State } from "./app.js";

const URL = "http://127.0.0.1:7070/v1/callback/ab";
const TO_THE_BANK: Next = { kind: "wait", waits: [Wait.event("callback:bank"), Wait.until(2 * DAY_MS)] };

beforeEach(() => {
  testing.reset();
  testing.onTool((name) => {
    switch (name) {
      case "vendors":
        return { status: 200, body: { iban: "DE89" } };
      case "callback":
        return { url: URL, topic: "callback:bank", expires_at: 2 * DAY_MS };
      case "payments":
        return { status: 202, body: {} };
      default:
        throw new Unknown(name);
    }
  });
});

function step(state: State | null, wake: Wake): { step: Step; state: State } {
  return testing.step(payment, state, wake);
}

function start(amount: number): { step: Step; state: State } {
  return step(null, Wake.start({ invoice: "I-7", vendor: "acme", amount_usd: amount }));
}

function payments(): testing.ToolCall[] {
  return testing.calls().filter((c) => c.name === "payments");
}

function answer(s: State, approved: boolean, by: string): Wake {
  const question = `Pay ${s.amount_usd.toFixed(2)} USD to ${s.vendor}?`;
  const details = { invoice: s.invoice, vendor: s.vendor, amount_usd: s.amount_usd, iban: s.iban };
  const digest = new ApprovalRequest("approve", question, details, 1).digest();
  return Wake.approval({ requestId: "approve", approved, by, at: 5, digest });
}

const bankAnswer = Wake.event({ id: "callback:bank", topic: "callback:bank", payload: { settled: true }, receivedAt: 9 });

test("a small payment is paid at once and waits for the bank with a two-day timer", () => {
  const first = start(200);
  assert.deepEqual(first.step.next, TO_THE_BANK);
  const body = payments()[0]!.args as { body: { callback_url: string; iban: string; amount_usd: number } };
  assert.deepEqual([body.body.callback_url, body.body.iban, body.body.amount_usd], [URL, "DE89", 200]);
  // An unrelated wake re-waits on the link by itself.
  const again = step(first.state, Wake.resume());
  assert.deepEqual(again.step.next, TO_THE_BANK);
  const done = step(again.state, bankAnswer);
  assert.deepEqual(done.step.next, { kind: "done", outcome: 'paid I-7 (200.00 USD): {"settled":true}' });
  assert.deepEqual(done.state, { invoice: "I-7", vendor: "acme", amount_usd: 200, iban: "DE89" });
});

test("a large payment waits for approval across an upgrade, then pays once", () => {
  const first = start(5000);
  assert.equal(first.step.next.kind === "wait" && first.step.next.waits[0]!.kind, "approval");
  assert.equal(payments().length, 0, "nothing paid before approval");
  // The SDK keeps the request in the state, under its own key.
  const kept = (first.state as unknown as { "wakeful:waits": { approvals: { id: string }[] } })["wakeful:waits"];
  assert.equal(kept.approvals[0]!.id, "approve");
  // Any other wake re-waits on the request by itself.
  const again = step(first.state, Wake.resume());
  assert.deepEqual(again.step.next, first.step.next);
  const upgraded = testing.migrate(payment, "0.9.0", again.state as never) as State;
  assert.deepEqual(upgraded, again.state);
  const paid = step(upgraded, answer(first.state, true, "ann"));
  assert.equal(paid.step.statusText, "approved by ann");
  assert.deepEqual(paid.step.next, TO_THE_BANK);
  assert.equal(payments().length, 1);
  const late = step(paid.state, Wake.timer(2 * DAY_MS));
  assert.deepEqual(late.step.next, { kind: "done", outcome: "paid I-7; the bank never confirmed" });
  assert.deepEqual(waits.outstanding(), []);
});

test("a refusal or an expiry pays nothing", () => {
  const first = start(5000);
  const forged = Wake.approval({ requestId: "approve", approved: true, by: "eve", at: 5, digest: "00" });
  // An answer to other details is not an approval, and answers the request: nothing is left to wait on.
  assert.match(testing.stepError(payment, first.state, forged), /waits on nothing/);
  const refused = step(first.state, answer(first.state, false, "bob"));
  assert.deepEqual(refused.step.next, { kind: "done", outcome: "refused by bob" });
  const expired = step(first.state, Wake.expired("approve"));
  assert.deepEqual(expired.step.next, { kind: "done", outcome: "nobody approved the payment in time" });
  assert.equal(payments().length, 0);
});

test("a bad input or a vendor without an iban is named", () => {
  const bad = testing.stepError(payment, null, Wake.start({ invoice: "I-7", vendor: "acme" }));
  assert.equal(bad, "the start input does not fit this agent: missing field `amount_usd`");
  testing.onTool(() => ({ status: 404, body: { error: "no such vendor" } }));
  const missing = testing.stepError(payment, null, Wake.start({ invoice: "I-7", vendor: "x", amount_usd: 1 }));
  assert.equal(missing, 'vendors answered {"body":{"error":"no such vendor"},"status":404}');
});
