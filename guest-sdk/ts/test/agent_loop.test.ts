import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";

import * as testing from "../src/testing.js";
import { advance, Config, Finished, LoopTool, newLoop, type Loop } from "../src/agent_loop.js";
import { Approval, ApprovalRequest, Denied, gated, Step, StepError, Unknown, Wake } from "../src/index.js";

const TOOLS = ["llm", "kv", "scale"];

function config(options: { maxTurns?: number; model?: string } = {}): Config {
  const object = { type: "object" };
  return new Config(
    "llm",
    [
      new LoopTool("kv", "Read a key", object),
      new LoopTool("scale", "Scale a service out", object, { name: "scale_out", under: "body" }),
    ],
    TOOLS,
    options,
  );
}

/** A reply of the `llm` tool asking for `calls`, or answering `content`. */
function reply(content: string | null, calls: unknown[]) {
  const stop = calls.length > 0 ? "tool_calls" : "end_turn";
  return {
    message: { role: "assistant", content, tool_calls: calls },
    stop_reason: stop,
    provider_stop_reason: stop,
    usage: { input_tokens: 1, output_tokens: 1, total_tokens: 10, cost_usd: 0 },
  };
}

/** A model that reads key `a`, then scales out, then answers. */
function model(args: { messages: { role: string }[] }) {
  switch (args.messages.filter((m) => m.role === "tool").length) {
    case 0:
      return reply(null, [{ id: "c1", name: "kv", arguments: { op: "get", key: "a" } }]);
    case 1:
      return reply(null, [{ id: "c2", name: "scale_out", arguments: { service: "api", by: 2 } }]);
    default:
      return reply("done", []);
  }
}

/**
 * The fake host: `scale` is refused as the gate refuses a call without an
 * approval, unless the call's key is the loop's key of an approved call.
 */
function scriptHost(): void {
  testing.reset();
  testing.onTool((name, args) => {
    const key = testing.calls().at(-1)!.idempotencyKey;
    if (name === "llm") return model(args);
    if (name === "kv") return { value: "7", version: 1 };
    if (name === "scale" && key.endsWith(":approved")) return { scaled: args.body.service };
    if (name === "scale") throw new Denied("needs approval: tool `scale` runs only with an approved request");
    throw new Unknown(name);
  });
}

function step(chat: Loop, wake: Wake): Step | Finished {
  return advance(chat, config(), wake);
}

function isContinue(turn: Step | Finished): boolean {
  return turn instanceof Step && turn.next.kind === "continue";
}

/** The loop up to its wait for the approval of `scale_out`. */
function untilTheApproval(): { chat: Loop; wait: Step; request: ApprovalRequest } {
  scriptHost();
  const chat = newLoop([{ role: "user", content: "go" }]);
  for (const wake of [Wake.start(), Wake.resume(), Wake.resume()]) step(chat, wake);
  const wait = step(chat, Wake.resume());
  assert.ok(wait instanceof Step && wait.next.kind === "wait", "not waiting");
  const first = wait.next.waits[0]!;
  assert.equal(first.kind, "approval");
  return { chat, wait, request: first.request };
}

function answer(request: ApprovalRequest, approved: boolean): Approval {
  return Wake.approval({
    requestId: request.id,
    approved,
    by: "bob",
    at: 1,
    comment: "not now",
    digest: request.digest(),
  });
}

beforeEach(() => testing.reset());

test("a config offers only declared tools", () => {
  const spec = (t: string) => new LoopTool(t, "", {});
  assert.throws(() => new Config("llm", [spec("pager")], TOOLS), (e: Error) => {
    assert.ok(e instanceof StepError);
    assert.match(e.message, /`pager`.*not in the agent's tools/);
    return true;
  });
  assert.throws(() => new Config("model", [], TOOLS), /model tool `model`/);
  assert.throws(() => new Config("llm", [spec("kv"), spec("kv")], TOOLS), /two tools named `kv`/);
});

test("a loop alternates model calls and tool calls with derived keys", () => {
  scriptHost();
  const chat = newLoop([{ role: "user", content: "scale if needed" }]);
  assert.ok(isContinue(step(chat, Wake.start())));
  assert.equal(chat.pending.length, 1);
  assert.ok(isContinue(step(chat, Wake.resume())));
  assert.ok(isContinue(step(chat, Wake.resume())));
  const calls = testing.calls();
  assert.deepEqual(
    calls.map((c) => c.idempotencyKey),
    ["loop:1:model", "loop:1:tool:c1", "loop:2:model"],
  );
  // Offered under the config's names; the first call's result went back.
  const sent = calls[0]!.args as { tools: { name: string }[] };
  assert.deepEqual(
    sent.tools.map((t) => t.name),
    ["kv", "scale_out"],
  );
  const again = calls[2]!.args as { messages: { content: string }[] };
  assert.equal(again.messages[2]!.content, '{"value":"7","version":1}');
  // The state is plain JSON, in the Rust SDK's layout.
  assert.deepEqual(Object.keys(JSON.parse(JSON.stringify(chat))), ["messages", "pending", "asked", "turn"]);
});

test("a model the config names is sent with every model call", () => {
  scriptHost();
  const chat = newLoop([{ role: "user", content: "scale if needed" }]);
  advance(chat, config(), Wake.start());
  advance(chat, config({ model: "gpt-5" }), Wake.resume());
  advance(chat, config({ model: "gpt-5" }), Wake.resume());
  const asked = testing
    .calls()
    .filter((c) => c.name === "llm")
    .map((c) => (c.args as { model?: string }).model);
  assert.deepEqual(asked, [undefined, "gpt-5"]);
});

test("a call needing approval waits for it and is made once approved", () => {
  const { chat, wait, request } = untilTheApproval();
  assert.equal(request.id, "loop-2-c2");
  assert.equal(request.question, 'Let the model call `scale` with {"body":{"by":2,"service":"api"}}?');
  assert.equal(request.validForMs, 24 * 3_600_000);
  const named = (request.details as { calls: { tool: string; args: unknown; args_sha256: string }[] }).calls[0]!;
  assert.equal(named.tool, "scale");
  assert.deepEqual(named.args, { body: { service: "api", by: 2 } });
  assert.equal(named.args_sha256, new gated.Call("scale", { body: { by: 2, service: "api" } }).argsSha256());
  assert.deepEqual((request.details as { model_tool: string; turn: number }).model_tool, "scale_out");
  assert.equal(wait.statusText, "waiting for approval loop-2-c2");
  // Another wake while waiting: the same request again.
  assert.deepEqual(step(chat, Wake.resume()), wait);
  assert.ok(isContinue(step(chat, answer(request, true))));
  const done = step(chat, Wake.resume());
  assert.ok(done instanceof Finished);
  assert.equal(done.text(), "done");
  const made = testing
    .calls()
    .filter((c) => c.name === "scale")
    .map((c) => c.idempotencyKey);
  assert.deepEqual(made, ["loop:2:tool:c2", "loop:2:tool:c2:approved"]);
  assert.deepEqual(chat.messages[4], { role: "tool", tool_call_id: "c2", content: '{"scaled":"api"}' });
});

test("a rejected call is not made and the model is told", () => {
  const { chat, request } = untilTheApproval();
  assert.ok(isContinue(step(chat, answer(request, false))));
  assert.equal(testing.calls().filter((c) => c.name === "scale").length, 1, "only the refused attempt");
  assert.deepEqual(chat.messages[4], {
    role: "tool",
    tool_call_id: "c2",
    content: '{"error":"refused: bob rejected this call (not now)"}',
  });
  assert.ok(step(chat, Wake.resume()) instanceof Finished);
});

test("an answer to other details or an expiry refuses the call", () => {
  let { chat, request } = untilTheApproval();
  const forged = Wake.approval({ requestId: request.id, approved: true, by: "eve", at: 1, digest: "00" });
  step(chat, forged);
  assert.equal(chat.messages[4]!.content, '{"error":"the approval answered another question"}');
  ({ chat, request } = untilTheApproval());
  step(chat, Wake.expired(request.id));
  assert.equal(chat.messages[4]!.content, '{"error":"refused: nobody approved this call in time"}');
  assert.equal(testing.calls().filter((c) => c.idempotencyKey.endsWith(":approved")).length, 0);
});

test("a retried step replays its calls", () => {
  scriptHost();
  const chat = newLoop([{ role: "user", content: "go" }]);
  let before = structuredClone(chat);
  step(chat, Wake.start());
  // The host crashed before saving the state: the step runs again.
  step(before, Wake.start());
  assert.deepEqual(before, chat);
  before = structuredClone(chat);
  step(chat, Wake.resume());
  step(before, Wake.resume());
  assert.deepEqual(before, chat);
  assert.deepEqual(
    testing.calls().map((c) => [c.idempotencyKey, c.replayed]),
    [
      ["loop:1:model", false],
      ["loop:1:model", true],
      ["loop:1:tool:c1", false],
      ["loop:1:tool:c1", true],
    ],
  );
});

test("an unknown tool is answered with an error, and max turns stops the loop", () => {
  testing.onTool(() => reply(null, [{ id: "x", name: "rm_rf", arguments: {} }]));
  const small = config({ maxTurns: 2 });
  const chat = newLoop([{ role: "user", content: "go" }]);
  advance(chat, small, Wake.resume());
  advance(chat, small, Wake.resume());
  assert.deepEqual(chat.messages[2], {
    role: "tool",
    tool_call_id: "x",
    content: '{"error":"there is no tool named `rm_rf`"}',
  });
  assert.equal(testing.calls().length, 1, "no host tool was called for it");
  advance(chat, small, Wake.resume());
  advance(chat, small, Wake.resume());
  assert.throws(() => advance(chat, small, Wake.resume()), /2 model calls \(max_turns\)/);
});

test("a failed model call is an error of the step naming the call", () => {
  testing.onTool(() => {
    throw new Denied("llm is not granted");
  });
  const chat = newLoop([{ role: "user", content: "go" }]);
  assert.throws(
    () => advance(chat, config(), Wake.start()),
    (e: Error) => e instanceof StepError && e.message === "model call 1 failed: denied: llm is not granted",
  );
  assert.equal(chat.turn, 0);
});
