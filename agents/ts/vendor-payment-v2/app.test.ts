// Version 2's migrate: `amount_usd` becomes `amount`, and the SDK's
// remembered waits cross the upgrade untouched, unseen by migrate.

import assert from "node:assert/strict";
import { test } from "node:test";

import * as testing from "wakeful-sdk/testing";

import v2 from "./app.js";

test("migrate renames amount_usd and the SDK's waits cross the upgrade", () => {
  const waits = { approvals: [{ id: "approve", question: "Pay?", details: { amount_usd: 5 }, valid_for_ms: 1 }] };
  const old = { invoice: "I-7", vendor: "acme", amount_usd: 5000, iban: "DE89", "wakeful:waits": waits };
  assert.deepEqual(testing.migrate(v2, "1.0.0", old), {
    invoice: "I-7",
    vendor: "acme",
    iban: "DE89",
    amount: 5000,
    "wakeful:waits": waits,
  });
  assert.equal(testing.migrateError(v2, "1.0.0", [1]), "state of 1.0.0: not an object: [1]");
});
