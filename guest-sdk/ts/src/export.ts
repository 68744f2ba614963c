/**
 * The glue between the WIT exports and an agent: JSON state in and out,
 * typed wakes and steps, and every uncaught error turned into the step's
 * error text. `component.ts` exports what `exportAgent` returns; it imports
 * nothing from the host, so it is unit-tested under Node.
 *
 * The shapes below are how componentize-js passes WIT values: variants as
 * `{tag, val}`, records with camelCase fields, `u64` as BigInt, `option` as
 * the value or `undefined`. An export whose result is `result<_, string>`
 * returns the `ok` value and throws a string for `err` (any other thrown
 * value would trap the component, so nothing else ever leaves `step`).
 */

import type { Agent } from "./agent.js";
import { StepError } from "./agent.js";
import { canonicalJson, errorText, parseJson, type JsonValue } from "./json.js";
import { utf8 } from "./sha256.js";
import { Step, type Wait } from "./step.js";
import { ToolError } from "./tools.js";
import { Approval, type Wake } from "./wake.js";
import * as waits from "./waits.js";

export type WitWake =
  | { tag: "start"; val: string }
  | { tag: "event"; val: { id: string; topic: string; payload: string; receivedAt: bigint } }
  | {
      tag: "approval";
      val: {
        requestId: string;
        approved: boolean;
        by: string;
        at: bigint;
        comment?: string | null;
        digest: string;
      };
    }
  | { tag: "timer"; val: bigint }
  | { tag: "expired"; val: string }
  | { tag: "resume"; val?: undefined };

export type WitWaitFor =
  | { tag: "event"; val: string }
  | { tag: "approval"; val: { id: string; question: string; details: string; validForMs: bigint } }
  | { tag: "until"; val: bigint }
  | { tag: "cron"; val: string };

export type WitNext = { tag: "continue" } | { tag: "wait"; val: WitWaitFor[] } | { tag: "done"; val: string };

export interface WitStepResult {
  state: string;
  next: WitNext;
  status: string | undefined;
}

export interface WitAgentInfo {
  name: string;
  version: string;
  tools: string[];
  description: string;
}

/** The world's exports. `step` and `migrate` throw a string as their `err`. */
export interface WitExports {
  info(): WitAgentInfo;
  step(state: string, wake: WitWake): WitStepResult;
  migrate(fromVersion: string, state: string): string;
}

/**
 * The host keeps 4 KiB of a step's error; the SDK keeps it under that, so
 * the end of the message is an ellipsis it chose rather than a cut.
 */
export const MAX_ERROR_BYTES = 3072;
/** Stack frames reported with an uncaught error. */
const MAX_FRAMES = 12;

/** The exports for `agent`. */
export function exportAgent<S>(agent: Agent<S>): WitExports {
  return {
    info() {
      return {
        name: agent.name,
        version: agent.version,
        tools: [...agent.tools],
        description: agent.description,
      };
    },
    step(stateText, witWake) {
      try {
        const taken = runStep(agent, stateText, wakeFromWit(witWake));
        return stepToWit(taken.step, taken.state);
      } catch (e) {
        throw describeError(e);
      }
    },
    migrate(fromVersion, stateText) {
      try {
        return runMigrate(agent, fromVersion, stateText);
      } catch (e) {
        throw describeError(e);
      }
    },
  };
}

/**
 * The `step` export without the WIT types and the error handling: the
 * saved state's text and the wake in, the step (with the re-waits of the
 * SDK's remembered waits) and the new state's text out. Throws what the
 * step throws; the SDK's memory of waits leaves with the state either way,
 * as an instance may step another run next (`testing.step` runs it too).
 */
export function runStep<S>(agent: Agent<S>, stateText: string, wake: Wake): { step: Step; state: string } {
  try {
    const state = waits.begin(decodeState(agent, stateText), wake);
    const step: unknown = agent.step(state, wake);
    if (!(step instanceof Step)) {
      throw new TypeError(`the step function must return a Step, got ${kindOf(step)}`);
    }
    const next = waits.finish(step);
    const saved = next.savedState === undefined ? state : next.savedState;
    return { step: next, state: encodeState(waits.store(saved)) };
  } finally {
    waits.take();
  }
}

/**
 * The `migrate` export without its error handling: the state saved by
 * `fromVersion` in, this version's state out, as JSON text; throws what
 * the agent's `migrate` throws (`testing.migrate` runs it too).
 */
export function runMigrate<S>(agent: Agent<S>, fromVersion: string, stateText: string): string {
  let old: JsonValue;
  try {
    old = parseJson(stateText);
  } catch (e) {
    throw new StepError(`the state saved by version ${fromVersion} is not JSON: ${errorText(e)}`);
  }
  // The SDK's waits cross the upgrade without the agent's migrate seeing them.
  const [own, kept] = waits.detach(old);
  let migrated: unknown;
  if (agent.migrate !== undefined) migrated = agent.migrate(fromVersion, own);
  else migrated = own === null && agent.init !== undefined ? agent.init() : own;
  return encodeState(waits.reattach(migrated, kept, agent.version));
}

/** The host hands a new run `""` or `"null"`; anything else is a state this agent wrote. */
export function decodeState<S>(agent: Agent<S>, text: string): S {
  const trimmed = text.trim();
  if (trimmed === "" || trimmed === "null") {
    return agent.init !== undefined ? agent.init() : (null as S);
  }
  try {
    return JSON.parse(text) as S;
  } catch (e) {
    throw new StepError(`the saved state is not JSON: ${errorText(e)}`);
  }
}

/** The state as the host stores it: JSON, members in the order the agent wrote them. */
export function encodeState(state: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(state);
  } catch (e) {
    throw new StepError(`the new state cannot be written as JSON: ${errorText(e)}`);
  }
  if (text === undefined) {
    throw new StepError(`the new state cannot be written as JSON: it is ${kindOf(state)}`);
  }
  return text;
}

/**
 * Reads the host's wake. Start inputs and event payloads are JSON by
 * contract; text that is not JSON is an error of the step.
 */
export function wakeFromWit(wake: WitWake): Wake {
  switch (wake.tag) {
    case "start":
      try {
        return { kind: "start", input: parseJson(wake.val) };
      } catch (e) {
        throw new StepError(`the start input is not JSON: ${errorText(e)}`);
      }
    case "event": {
      const event = wake.val;
      let payload: JsonValue;
      try {
        payload = parseJson(event.payload);
      } catch (e) {
        throw new StepError(`the payload of event ${event.id} is not JSON: ${errorText(e)}`);
      }
      return {
        kind: "event",
        id: event.id,
        topic: event.topic,
        payload,
        receivedAt: Number(event.receivedAt),
      };
    }
    case "approval":
      return new Approval({
        requestId: wake.val.requestId,
        approved: wake.val.approved,
        by: wake.val.by,
        at: Number(wake.val.at),
        comment: wake.val.comment ?? null,
        digest: wake.val.digest,
      });
    case "timer":
      return { kind: "timer", at: Number(wake.val) };
    case "expired":
      return { kind: "expired", requestId: wake.val };
    case "resume":
      return { kind: "resume" };
  }
}

/** The host's step result, with the already encoded state. */
export function stepToWit(step: Step, state: string): WitStepResult {
  if (step.statusText !== undefined && typeof step.statusText !== "string") {
    throw new TypeError(`a step's status must be a string, got ${kindOf(step.statusText)}`);
  }
  let next: WitNext;
  switch (step.next.kind) {
    case "continue":
      next = { tag: "continue" };
      break;
    case "done":
      next = { tag: "done", val: String(step.next.outcome) };
      break;
    case "wait":
      next = { tag: "wait", val: step.next.waits.map(waitToWit) };
      break;
  }
  return { state, next, status: step.statusText };
}

function waitToWit(wait: Wait): WitWaitFor {
  switch (wait.kind) {
    case "event":
      return { tag: "event", val: String(wait.topic) };
    case "approval": {
      const request = wait.request;
      return {
        tag: "approval",
        val: {
          id: String(request.id),
          question: String(request.question),
          details: request.detailsText(),
          validForMs: toU64(request.validForMs, `the validForMs of approval request ${request.id}`),
        },
      };
    }
    case "until":
      return { tag: "until", val: toU64(wait.at, "the time of an until wait") };
    case "cron":
      return { tag: "cron", val: String(wait.expression) };
    default:
      throw new TypeError(`not a Wait: ${kindOf(wait)}`);
  }
}

function toU64(value: number, what: string): bigint {
  if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  throw new RangeError(`${what} must be a whole number of ms from 0 to 2^53 - 1, got ${String(value)}`);
}

/**
 * What the host records when a step or migration throws `e`: a string or a
 * `StepError` as it is; a `ToolError` as `tool kv failed: …`; any other
 * error as `Name: message` and the top of its stack. At most
 * `MAX_ERROR_BYTES` of UTF-8.
 */
export function describeError(e: unknown): string {
  let text: string;
  if (typeof e === "string") {
    text = e;
  } else if (e instanceof StepError) {
    text = e.message;
  } else if (e instanceof ToolError) {
    text = e.describe() + frames(e, TOOL_ERROR_FRAMES);
  } else if (e instanceof Error || isErrorLike(e)) {
    const error = e as Error;
    text = `${error.name || "Error"}: ${error.message}` + frames(error) + cause(error);
  } else {
    let shown: string;
    try {
      shown = canonicalJson(e);
    } catch {
      shown = String(e);
    }
    text = `the step threw ${kindOf(e)}, not an Error: ${shown}`;
  }
  return bound(text, MAX_ERROR_BYTES);
}

function isErrorLike(e: unknown): boolean {
  return typeof e === "object" && e !== null && typeof (e as { message?: unknown }).message === "string";
}

/** The SDK's own frames on top of a ToolError's stack: where it was made, not where the agent called. */
const TOOL_ERROR_FRAMES = /^(new )?(ToolError|Denied|Unknown|Budget|Invalid|Failed|toolError|callRaw)\d*\b/;

/**
 * The top of `error`'s stack, one `    at …` line per frame (V8 and
 * SpiderMonkey formats), leading frames matching `skip` left out.
 */
export function frames(error: Error, skip?: RegExp): string {
  const stack = typeof error.stack === "string" ? error.stack : "";
  const lines = stack.split("\n").filter((line) => line.trim() !== "");
  const v8 = lines.filter((line) => /^\s+at /.test(line));
  let picked = (v8.length > 0 ? v8 : lines.filter((line) => line.includes("@"))).map((line) =>
    line.trim().replace(/^at /, ""),
  );
  if (skip !== undefined) {
    const first = picked.findIndex((frame) => !skip.test(frame));
    picked = first === -1 ? picked : picked.slice(first);
  }
  return picked
    .slice(0, MAX_FRAMES)
    .map((frame) => "\n    at " + clip(frame, 200))
    .join("");
}

function cause(error: Error): string {
  const c = (error as { cause?: unknown }).cause;
  if (c === undefined) return "";
  return c instanceof Error ? `\ncaused by ${c.name}: ${c.message}` : `\ncaused by ${String(c)}`;
}

function clip(text: string, maxChars: number): string {
  return text.length > maxChars ? text.slice(0, maxChars) + "…" : text;
}

/** `text` cut to at most `maxBytes` of UTF-8, on a character boundary, ending in `…` when cut. */
export function bound(text: string, maxBytes: number): string {
  if (utf8(text).length <= maxBytes) return text;
  const chars = Array.from(text);
  let bytes = 3; // the ellipsis
  let end = 0;
  while (end < chars.length) {
    const size = utf8(chars[end]!).length;
    if (bytes + size > maxBytes) break;
    bytes += size;
    end++;
  }
  return chars.slice(0, end).join("") + "…";
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") {
    const name = (value as object).constructor?.name;
    return name && name !== "Object" ? `a ${name}` : "an object";
  }
  return typeof value === "undefined" ? "undefined" : `a ${typeof value}`;
}
