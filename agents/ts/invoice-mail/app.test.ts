// A port of agents/invoice-mail/src/tests.rs.

import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";

import { Denied, Step, Wake } from "wakeful-sdk";
import * as testing from "wakeful-sdk/testing";

import invoiceMail from "./app.js";

beforeEach(() => testing.reset());

function mail(topic: string): Wake {
  return Wake.event({
    id: "m-1",
    topic,
    payload: { from: "billing@example.com", amount: 120 },
    receivedAt: 5,
  });
}

function waiting(): Step {
  return Step.waitEvent("mail:invoice").status("waiting on the invoice email");
}

/** What a step asks the host: its next, its status. */
function shown(step: Step) {
  return { next: step.next, status: step.statusText };
}

test("waits until the invoice arrives, then files it", () => {
  testing.onTool(() => ({ ok: true, version: 1 }));
  let state = testing.step(invoiceMail, null, Wake.start(null));
  assert.deepEqual(shown(state.step), shown(waiting()));
  assert.deepEqual(state.state, { filed: null });
  state = testing.step(invoiceMail, state.state, mail("mail:other"));
  assert.deepEqual(shown(state.step), shown(waiting()));
  state = testing.step(invoiceMail, state.state, Wake.resume());
  assert.deepEqual(shown(state.step), shown(waiting()));
  assert.equal(testing.calls().length, 0);

  const filed = testing.step(invoiceMail, state.state, mail("mail:invoice"));
  assert.deepEqual(shown(filed.step), shown(Step.done("filed invoice mail m-1").status("invoice filed")));
  assert.deepEqual(filed.state, { filed: "m-1" });
  const calls = testing.calls();
  assert.equal(calls.length, 1);
  assert.equal(calls[0]!.idempotencyKey, "file:m-1");
  assert.deepEqual(calls[0]!.args, {
    op: "put",
    key: "invoices/m-1",
    value: { from: "billing@example.com", amount: 120 },
  });
  assert.equal(
    JSON.stringify(calls[0]!.args),
    '{"op":"put","key":"invoices/m-1","value":{"amount":120,"from":"billing@example.com"}}',
    "the Rust agent's argument text",
  );
  assert.deepEqual(testing.logs(), ["info: filed invoices/m-1"]);
});

test("a failed put is a step error", () => {
  testing.onTool(() => {
    throw new Denied("kv is not granted");
  });
  const err = testing.stepError(invoiceMail, null, mail("mail:invoice"));
  assert.equal(err, "kv put invoices/m-1: denied: kv is not granted");
});

test("a retried step files the mail once", () => {
  let writes = 0;
  testing.onTool(() => ({ ok: true, version: ++writes }));
  testing.step(invoiceMail, null, mail("mail:invoice"));
  testing.step(invoiceMail, null, mail("mail:invoice"));
  assert.equal(writes, 1);
  assert.deepEqual(
    testing.calls().map((c) => c.replayed),
    [false, true],
  );
});

test("info is the Rust agent's, under its own name", () => {
  assert.deepEqual(
    [invoiceMail.name, invoiceMail.version, invoiceMail.tools, invoiceMail.description],
    ["invoice-mail-ts", "0.1.0", ["kv"], "Files the invoice email once it arrives."],
  );
});
