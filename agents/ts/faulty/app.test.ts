import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";

import { Wake } from "wakeful-sdk";
import * as testing from "wakeful-sdk/testing";

import faulty, { planAction } from "./app.js";

beforeEach(() => testing.reset());

test("its own error names the plan", () => {
  assert.throws(() => planAction({ reason: "memory" }), /the plan has no action/);
});

test("without a failure it is done", () => {
  const step = faulty.step({}, Wake.start({}));
  assert.deepEqual(step.next, { kind: "done", outcome: "nothing failed" });
});
