// The model-driven incident agent against the SDK's fake host: a scripted
// model that asks for a note, then a scale action (which the fake gate
// refuses without an approval), then answers. A port of
// agents/python/incident-loop/test_app.py.

import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";

import { Denied, Step, Wake, type JsonValue } from "wakeful-sdk";
import * as testing from "wakeful-sdk/testing";

import incidentLoop, { config, type State } from "./app.js";

const INPUT = { incident: "INC-7", service: "api", summary: "slow" };

/** The model: a note, then a scale action, then a summary of what the last tool said. */
function model(args: { messages: { role: string; content: string }[] }): JsonValue {
  const results = args.messages.filter((m) => m.role === "tool");
  const ask = (name: string, args: JsonValue) => ({
    message: { role: "assistant", content: null, tool_calls: [{ id: `c${results.length + 1}`, name, arguments: args }] },
    stop_reason: "tool_calls",
    provider_stop_reason: "tool_calls",
    usage: { total_tokens: 5, cost_usd: 0 },
  });
  if (results.length === 0) return ask("kv", { op: "put", key: "incidents/INC-7/cause", value: "x" });
  if (results.length === 1) return ask("scale_out", { service: "api", replicas: 6 });
  return {
    message: { role: "assistant", content: `noted; scale said ${results.at(-1)!.content}` },
    stop_reason: "end_turn",
    provider_stop_reason: "stop",
    usage: { total_tokens: 5, cost_usd: 0 },
  };
}

beforeEach(() => {
  testing.reset();
  testing.onTool((name, args) => {
    if (name === "llm") return model(args);
    if (name === "scale" && !testing.calls().at(-1)!.idempotencyKey.endsWith(":approved")) {
      throw new Denied("needs approval: tool `scale` runs only with an approved request");
    }
    return { ok: true, version: 1 };
  });
});

function step(state: State | null, wake: Wake): { step: Step; state: State } {
  return testing.step(incidentLoop, state, wake);
}

test("the config offers the declared tools under the model's names", () => {
  assert.deepEqual(
    config().tools.map((t) => t.name),
    ["kv", "page_oncall", "scale_out"],
  );
});

test("the model drives the run; its scale action waits for an approval of that exact call", () => {
  let { step: next, state } = step(null, Wake.start(INPUT));
  assert.equal(next.next.kind, "continue");
  const first = testing.calls()[0]!.args as { messages: { content: string }[] };
  assert.equal(first.messages[1]!.content, "Incident INC-7 on api: slow");
  for (let i = 0; i < 3; i++) ({ step: next, state } = step(state, Wake.resume()));
  assert.equal(next.next.kind, "wait");
  const wait = next.next.kind === "wait" ? next.next.waits[0]! : undefined;
  assert.ok(wait?.kind === "approval");
  assert.equal(wait.request.id, "loop-2-c2");
  const named = (wait.request.details as { calls: { tool: string; args: JsonValue }[] }).calls[0]!;
  assert.deepEqual(named, { ...named, tool: "scale", args: { body: { service: "api", replicas: 6 } } });
  const approval = Wake.approval({ requestId: "loop-2-c2", approved: true, by: "bob", at: 1, digest: wait.request.digest() });
  ({ step: next, state } = step(state, approval));
  ({ step: next, state } = step(state, Wake.resume()));
  assert.deepEqual(next.next, { kind: "done", outcome: 'noted; scale said {"ok":true,"version":1}' });
  assert.equal(next.statusText, "incident handled");
  assert.deepEqual(
    testing.calls().map((c) => c.idempotencyKey),
    ["loop:1:model", "loop:1:tool:c1", "loop:2:model", "loop:2:tool:c2", "loop:2:tool:c2:approved", "loop:3:model"],
  );
});

test("a bad input names what is missing", () => {
  const err = testing.stepError(incidentLoop, null, Wake.start({ incident: "x", service: "y" }));
  assert.equal(err, "the start input does not fit this agent: missing field `summary`");
});
