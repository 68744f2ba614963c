// The built components, run under Node: each one is transpiled with jco and
// driven through its WIT exports against scripted host imports. This checks
// what unit tests cannot: the SDK's glue inside StarlingMonkey (u64 values,
// options, variants, errors crossing the boundary as strings, tool errors
// arriving as thrown payloads).
//
//   node --test component.test.mjs      (after node build.mjs)
//
// WAKEFUL_TS_COMPONENTS names the folder of the .wasm files (default
// ../target/ts).

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { test } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const components = resolve(process.env.WAKEFUL_TS_COMPONENTS ?? join(here, "..", "target", "ts"));
const jco = join(here, "node_modules", ".bin", "jco");

/** The imports every transpiled component gets: they call whatever `globalThis.fakeHost` is. */
const SHIMS = {
  "host.js": `
export const now = () => globalThis.fakeHost.now();
export const runId = () => globalThis.fakeHost.runId;
export const log = (level, message) => globalThis.fakeHost.logs.push(level + ": " + message);
`,
  "tools.js": `
export function call(name, args, key) {
  const host = globalThis.fakeHost;
  host.calls.push({ name, args, key });
  const outcome = host.tool(name, JSON.parse(args), key);
  if (outcome.err) {
    const e = new Error(outcome.err.val);
    e.payload = outcome.err;
    throw e;
  }
  return JSON.stringify(outcome.ok);
}
`,
};

/** Transpiles `name.wasm` and imports it. */
async function load(name) {
  const wasm = join(components, `${name}.wasm`);
  assert.ok(existsSync(wasm), `${wasm} is missing: build it first (scripts/build-ts-agents.sh)`);
  const out = join(here, "build", "transpiled", name);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  for (const [file, text] of Object.entries(SHIMS)) writeFileSync(join(out, file), text);
  writeFileSync(join(out, "package.json"), '{"type":"module"}');
  const result = spawnSync(
    jco,
    [
      "transpile", wasm, "-o", out, "-q",
      "--map", "wakeful:agent/tools@0.2.0=./tools.js",
      "--map", "wakeful:agent/host@0.2.0=./host.js",
    ],
    { encoding: "utf8" },
  );
  assert.equal(result.status, 0, `jco transpile ${wasm}: ${result.stderr}`);
  return import(pathToFileURL(join(out, `${name}.js`)).href);
}

function fakeHost(tool) {
  globalThis.fakeHost = { now: () => 1_800_000_000_000n, runId: "run-1", logs: [], calls: [], tool };
  return globalThis.fakeHost;
}

/** What an export returned as `err`: jco throws it with the string as payload. */
function err(action) {
  try {
    action();
  } catch (e) {
    assert.equal(typeof e.payload, "string", `not an err result: ${e?.stack ?? e}`);
    return e.payload;
  }
  assert.fail("expected an err result");
}

test("invoice-mail: waits, files the mail once, and words a denied put as the Rust agent", async () => {
  const app = await load("invoice_mail");
  assert.deepEqual(app.info(), {
    name: "invoice-mail-ts",
    version: "0.1.0",
    tools: ["kv"],
    description: "Files the invoice email once it arrives.",
  });
  const host = fakeHost(() => ({ ok: { ok: true, version: 1 } }));
  const waiting = app.step("null", { tag: "start", val: "" });
  assert.deepEqual(waiting, {
    state: '{"filed":null}',
    next: { tag: "wait", val: [{ tag: "event", val: "mail:invoice" }] },
    status: "waiting on the invoice email",
  });
  const mail = { id: "m-1", topic: "mail:invoice", payload: '{"from":"billing@example.com","amount":120}', receivedAt: 5n };
  const filed = app.step(waiting.state, { tag: "event", val: mail });
  assert.deepEqual(filed, {
    state: '{"filed":"m-1"}',
    next: { tag: "done", val: "filed invoice mail m-1" },
    status: "invoice filed",
  });
  assert.deepEqual(host.calls, [
    { name: "kv", args: '{"op":"put","key":"invoices/m-1","value":{"amount":120,"from":"billing@example.com"}}', key: "file:m-1" },
  ]);
  assert.deepEqual(host.logs, ["info: filed invoices/m-1"]);

  fakeHost(() => ({ err: { tag: "denied", val: "kv is not granted" } }));
  assert.equal(err(() => app.step("null", { tag: "event", val: mail })), "kv put invoices/m-1: denied: kv is not granted");
  assert.equal(app.migrate("0.0.9", ""), '{"filed":null}');
  assert.match(err(() => app.migrate("0.0.9", "{")), /^the state saved by version 0\.0\.9 is not JSON: /);
});

test("incident: the whole approval flow, with u64 times and the approval digest", async () => {
  const app = await load("incident");
  assert.equal(app.info().name, "incident-ts");
  let version = 7;
  let service = { status: "degraded", memory_pct: 97, actions_applied: 0 };
  const host = fakeHost((name, args) => {
    if (name === "llm") return { ok: { action: "scale_out", reason: "memory" } };
    if (name === "lease") return { ok: args.op === "acquire" ? { granted: true, holder: args.holder ?? "run:test", expires_at: 1 } : { released: true } };
    if (args.op === "get") return { ok: { value: service, version } };
    service = args.value;
    return { ok: { ok: true, version: ++version } };
  });
  let state = "null";
  const step = (wake) => {
    const result = app.step(state, wake);
    state = result.state;
    return result;
  };
  assert.equal(step({ tag: "start", val: '{"incident":"INC-1","service":"api"}' }).status, "triaged; diagnosing");
  assert.equal(step({ tag: "resume" }).status, "planned scale_out; asking for approval");
  const ask = step({ tag: "resume" });
  assert.equal(ask.next.tag, "wait");
  const request = ask.next.val[0].val;
  assert.equal(ask.next.val[0].tag, "approval");
  assert.equal(request.id, "approve-scale_out");
  assert.equal(request.validForMs, 1_800_000n);
  assert.equal(
    request.details,
    '{"action":"scale_out","based_on":{"memory_pct":97,"observed_at":1800000000000,"service":"api","status":"degraded","version":7},"based_on_version":7,"reason":"memory","service":"api"}',
  );
  // The digest the host would bind the answer to, computed here with node:crypto.
  const { createHash } = await import("node:crypto");
  const q = Buffer.from(request.question);
  const length = Buffer.alloc(8);
  length.writeBigUInt64BE(BigInt(q.length));
  const digest = createHash("sha256").update(length).update(q).update(request.details).digest("hex");
  const answer = { requestId: "approve-scale_out", approved: true, by: "ann", at: 1_800_000_000_000n, comment: undefined, digest };
  assert.equal(step({ tag: "approval", val: answer }).status, "approved by ann; acting");
  assert.equal(step({ tag: "resume" }).status, "applied scale_out; verifying");
  const done = step({ tag: "resume" });
  assert.deepEqual([done.next, done.status], [{ tag: "done", val: "resolved" }, undefined]);
  assert.deepEqual(JSON.parse(state).approval, { by: "ann", at: 1_800_000_000_000, comment: null });
  assert.deepEqual(
    host.calls.map((c) => c.key),
    ["INC-1:triage", "INC-1:diagnose", "INC-1:revalidate", "INC-1:lease", "INC-1:scale_out", "INC-1:release", "INC-1:verify"],
  );
  assert.ok(host.logs.includes("info: ACTION APPLIED key=INC-1:scale_out actions_applied=1"));

  // A forged digest is not acted on.
  state = "null";
  version = 7;
  step({ tag: "start", val: '{"incident":"INC-2","service":"api"}' });
  step({ tag: "resume" });
  step({ tag: "resume" });
  const forged = step({ tag: "approval", val: { ...answer, digest: "0".repeat(64) } });
  assert.deepEqual(forged.next, { tag: "done", val: "the answer approved other details than this plan; action not taken" });
});

test("incident: errors reach the host as the step's err, never as a trap", async () => {
  const app = await load("incident");
  fakeHost(() => ({ err: { tag: "failed", val: "disk on fire" } }));
  assert.equal(
    err(() => app.step("null", { tag: "start", val: '{"incident":"INC-1","service":"api"}' })),
    "kv get service/api: failed: disk on fire",
  );
  assert.equal(
    err(() => app.step("null", { tag: "start", val: '{"incident":"INC-1"}' })),
    "the start input does not fit this agent: missing field `service`",
  );
  assert.match(err(() => app.step("null", { tag: "start", val: "{" })), /^the start input is not JSON: /);
  // A state the agent cannot read: a TypeError in the agent's own code,
  // reported with its name, message and where it happened.
  fakeHost((name, args) => ({ ok: name === "lease" ? { granted: true, holder: args.holder ?? "run:test", expires_at: 1 } : null }));
  const broken = JSON.stringify({
    phase: "act",
    input: { incident: "I", service: "s", holder: "h", approval_valid_ms: 1 },
    facts: {},
    plan: { action: "scale_out" },
    approval: null,
  });
  const message = err(() => app.step(broken, { tag: "resume" }));
  assert.match(message, /^TypeError: .*service.* is undefined\n {4}at /, message);
  assert.ok(message.split("\n").slice(1).some((line) => line.includes("act")), message);
  // The instance is still usable: nothing trapped.
  assert.equal(app.info().version, "0.1.0");
});

test("vendor-payment: the SDK's remembered waits cross steps and migrate inside the component", async () => {
  const app = await load("vendor_payment");
  assert.equal(app.info().name, "vendor-payment-ts");
  const DAY = 86_400_000;
  const host = fakeHost((name) => {
    if (name === "vendors") return { ok: { status: 200, body: { iban: "DE89" } } };
    if (name === "callback") return { ok: { url: "http://127.0.0.1/v1/callback/t", topic: "callback:bank", expires_at: 2 * DAY } };
    return { ok: { status: 202, body: {} } };
  });
  const asked = app.step("", { tag: "start", val: '{"invoice":"I-7","vendor":"acme","amount_usd":5000.5}' });
  assert.equal(asked.status, "waiting for approval");
  const [wait] = asked.next.val;
  assert.deepEqual(wait, {
    tag: "approval",
    val: {
      id: "approve",
      question: "Pay 5000.50 USD to acme?",
      details: '{"amount_usd":5000.5,"iban":"DE89","invoice":"I-7","vendor":"acme"}',
      validForMs: BigInt(2 * DAY),
    },
  });
  assert.deepEqual(JSON.parse(asked.state)["wakeful:waits"].approvals[0].valid_for_ms, 2 * DAY);
  const resumed = app.step(asked.state, { tag: "resume" });
  assert.deepEqual(resumed.next, asked.next, "re-waits by itself");
  const migrated = app.migrate("0.9.0", resumed.state);
  assert.deepEqual(JSON.parse(migrated), JSON.parse(asked.state));

  const { createHash } = await import("node:crypto");
  const q = Buffer.from(wait.val.question);
  const length = Buffer.alloc(8);
  length.writeBigUInt64BE(BigInt(q.length));
  const digest = createHash("sha256").update(length).update(q).update(wait.val.details).digest("hex");
  const answer = { requestId: "approve", approved: true, by: "ann", at: 5n, comment: undefined, digest };
  const paid = app.step(migrated, { tag: "approval", val: answer });
  assert.deepEqual([paid.status, paid.next], [
    "approved by ann",
    { tag: "wait", val: [{ tag: "event", val: "callback:bank" }, { tag: "until", val: BigInt(2 * DAY) }] },
  ]);
  const bank = { id: "e1", topic: "callback:bank", payload: '{"settled":true}', receivedAt: 9n };
  const done = app.step(paid.state, { tag: "event", val: bank });
  assert.deepEqual(done.next, { tag: "done", val: 'paid I-7 (5000.50 USD): {"settled":true}' });
  assert.equal(JSON.parse(done.state)["wakeful:waits"], undefined);
  assert.deepEqual(
    host.calls.map((c) => c.key),
    ["I-7:bank", "I-7:link", "I-7:pay"],
  );
});
