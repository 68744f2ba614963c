/**
 * A fake host for unit tests under Node. Importing this module installs it:
 * tool calls, `now`, `runId` and `log` answer from here. Like the real host,
 * it runs each idempotency key once and returns the recorded result (or
 * error) to repeats.
 *
 * ```ts
 * import * as testing from "wakeful-sdk/testing";
 * import { kv, Unknown } from "wakeful-sdk";
 *
 * testing.reset();
 * testing.onTool((name, args) => {
 *   if (name === "kv") return { value: "hello", version: 1 };
 *   throw new Unknown(name);
 * });
 * const read = kv.get<string>("greeting", "read-greeting");
 * // read.value === "hello"; testing.calls()[0].args is {op: "get", key: "greeting"}
 * ```
 *
 * `replay(cassette, "NAME@VERSION")` answers the tool calls from a cassette,
 * the recorded calls of a real run that `wakeful cassette RUN` writes; a call
 * it has no answer for throws `CassetteMiss`.
 */

import type { Agent } from "./agent.js";
import { Cassette } from "./cassette.js";
import { describeError, encodeState, runMigrate, runStep } from "./export.js";
import { installHost, type CallOutcome, type Level } from "./host.js";
import { canonicalJson, errorText, type JsonValue } from "./json.js";
import type { Step } from "./step.js";
import { ToolError } from "./tools.js";
import type { Wake } from "./wake.js";

/** A tool call the agent made. */
export interface ToolCall {
  name: string;
  /** The arguments, parsed. */
  args: JsonValue;
  idempotencyKey: string;
  /** `true` when the key was seen before: the recorded result was returned and the handler did not run. */
  replayed: boolean;
}

/**
 * Answers a tool call: returns the result (any JSON value) or throws a
 * `ToolError` (`new Failed("disk on fire")`). Anything else it throws
 * propagates to the test, unrecorded.
 */
export type ToolHandler = (name: string, args: any) => unknown;

interface FakeHost {
  now: number;
  runId: string;
  logs: string[];
  calls: ToolCall[];
  ledger: Map<string, CallOutcome>;
  handler: ToolHandler | undefined;
  cassette: Cassette | undefined;
}

function fresh(): FakeHost {
  return { now: 0, runId: "test-run", logs: [], calls: [], ledger: new Map(), handler: undefined, cassette: undefined };
}

let host = fresh();

installHost({
  call(name, argsText, idempotencyKey): CallOutcome {
    let args: JsonValue;
    try {
      args = JSON.parse(argsText) as JsonValue;
    } catch (e) {
      return { ok: false, kind: "invalid", message: `arguments are not JSON: ${errorText(e)}` };
    }
    const recorded = host.ledger.get(idempotencyKey);
    host.calls.push({ name, args, idempotencyKey, replayed: recorded !== undefined });
    if (recorded !== undefined) return recorded;
    let outcome: CallOutcome;
    if (host.cassette !== undefined) {
      outcome = host.cassette.answer(name, args, idempotencyKey);
    } else if (host.handler === undefined) {
      outcome = { ok: false, kind: "unknown", message: `no tool handler set for '${name}'` };
    } else {
      try {
        const value = host.handler(name, args);
        outcome = { ok: true, result: canonicalJson(value === undefined ? null : value) };
      } catch (e) {
        if (!(e instanceof ToolError)) throw e;
        outcome = { ok: false, kind: e.kind, message: e.message };
      }
    }
    host.ledger.set(idempotencyKey, outcome);
    return outcome;
  },
  now: () => host.now,
  runId: () => host.runId,
  log(level: Level, message: string) {
    host.logs.push(`${level}: ${message}`);
  },
});

/** Forgets everything: time 0, run id `test-run`, no tool handler (every call is `Unknown`), no calls, no logs. */
export function reset(): void {
  host = fresh();
}

/** Sets what `now()` returns. */
export function setNow(ms: number): void {
  host.now = ms;
}

/** Sets what `runId()` returns. */
export function setRunId(id: string): void {
  host.runId = id;
}

/** Sets the function that answers tool calls; it replaces a cassette `replay` set. */
export function onTool(handler: ToolHandler): void {
  host.handler = handler;
  host.cassette = undefined;
}

export { CassetteMiss, fingerprint } from "./cassette.js";

/**
 * Answers every tool call from `cassette`, the JSON `wakeful cassette RUN`
 * writes of a real run (its text, or the parsed value), replaying as
 * `agent`: `"NAME@VERSION"`, or an agent with its `name` and `version`. A
 * call gets the result (or the error) recorded for the same agent version,
 * tool, idempotency key and arguments; one with no such entry throws a
 * `CassetteMiss` naming it and the recorded call of that tool and key, if
 * any, with where their arguments differ. A cassette that is not one throws
 * a TypeError.
 *
 * ```ts
 * testing.replay(readFileSync("inc.cassette.json", "utf8"), "incident@0.1.0");
 * const { step } = testing.step(agent, null, Wake.start(input));
 * ```
 */
export function replay(cassette: string | object, agent: string | { name: string; version: string }): void {
  const name = typeof agent === "string" ? agent : `${agent.name}@${agent.version}`;
  host.cassette = new Cassette(cassette, name);
}

/** Every tool call so far, repeats included, oldest first. */
export function calls(): ToolCall[] {
  return host.calls.map((c) => ({ ...c }));
}

/** Every log line so far as `level: message`, oldest first. */
export function logs(): string[] {
  return [...host.logs];
}

/**
 * One step as the host takes it: the state goes through JSON on the way in
 * and out (`null` or `undefined` is a new run), so the test sees exactly
 * what the host would store, the SDK's remembered waits (`waits`) under
 * `"wakeful:waits"` included, and the step's waits include their re-waits.
 * Throws what the step throws; the state passed in is never changed.
 */
export function step<S>(agent: Agent<S>, state: S | null | undefined, wake: Wake): { step: Step; state: S } {
  const taken = runStep(agent, state === undefined || state === null ? "null" : encodeState(state), wake);
  return { step: taken.step, state: JSON.parse(taken.state) as S };
}

/** The error text the host would record for a step that throws; throws if the step succeeds. */
export function stepError<S>(agent: Agent<S>, state: S | null | undefined, wake: Wake): string {
  try {
    step(agent, state, wake);
  } catch (e) {
    return describeError(e);
  }
  throw new Error("the step succeeded; expected it to fail");
}

/**
 * Runs the agent's `migrate` as the host does when an operator upgrades a
 * run saved by version `fromVersion`: `old` goes through JSON (`null` or
 * `undefined` is a run that never finished a step, which gets `init()`
 * unless `migrate` says otherwise), and so does the state returned.
 * Throws what `migrate` throws; `old` is never changed.
 *
 * ```ts
 * assert.deepEqual(testing.migrate(agent, "0.1.0", { amount: 5 }), { amountCents: 500 });
 * ```
 */
export function migrate<S>(agent: Agent<S>, fromVersion: string, old: JsonValue | undefined): S {
  const text = runMigrate(agent, fromVersion, old === undefined || old === null ? "null" : encodeState(old));
  return JSON.parse(text) as S;
}

/** The error text the host would record for a `migrate` that throws; throws if it succeeds. */
export function migrateError<S>(agent: Agent<S>, fromVersion: string, old: JsonValue | undefined): string {
  try {
    migrate(agent, fromVersion, old);
  } catch (e) {
    return describeError(e);
  }
  throw new Error("the migration succeeded; expected it to fail");
}
