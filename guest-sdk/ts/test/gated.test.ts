import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";

import * as testing from "../src/testing.js";
import { gated, Invalid } from "../src/index.js";

beforeEach(() => testing.reset());

test("a request names each call by tool, arguments and digest", () => {
  const refund = new gated.Call("refunds", { order: "9482", amount_usd: 120.5 });
  assert.equal(refund.args, '{"amount_usd":120.5,"order":"9482"}');
  const ask = gated.request("pay", "Refund?", [refund], { reason: "late" }, 60_000);
  const details = ask.details as { calls: { tool: string; args: unknown; args_sha256: string }[]; reason: string };
  assert.equal(details.reason, "late");
  assert.deepEqual(details.calls[0], {
    tool: "refunds",
    args: { order: "9482", amount_usd: 120.5 },
    args_sha256: refund.argsSha256(),
  });
  assert.equal(
    new gated.Call("t", {}).argsSha256(),
    "44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a",
  );
  assert.deepEqual(gated.details([], "why"), { about: "why", calls: [] });
});

test("the call sends the approved text", () => {
  testing.onTool((name, args) => ({ tool: name, got: args }));
  const refund = new gated.Call("refunds", { order: "1" });
  assert.deepEqual(refund.call("refund-1:pay"), { tool: "refunds", got: { order: "1" } });
  const made = testing.calls()[0]!;
  assert.equal(made.name, "refunds");
  assert.equal(made.idempotencyKey, "refund-1:pay");
  assert.deepEqual(made.args, { order: "1" });
});

test("arguments that are not JSON are refused where built", () => {
  assert.throws(() => new gated.Call("t", { n: 1n }), Invalid);
});
