/**
 * Calling the host's tools: `call` with JSON in and out, and the errors it
 * throws. Typed wrappers for the built-in tools are `kv`, `lease` and
 * `callback`; the argument and result shapes of `llm` and `http` are typed
 * below for use with `call`.
 */

import { canonicalJson, errorText, excerpt, type JsonValue } from "./json.js";
import { currentHost, type ToolErrorKind } from "./host.js";

export type { ToolErrorKind } from "./host.js";

/**
 * Why a tool call did not return a result. Policy failures are values the
 * guest sees (thrown as one of the subclasses below); a fault of the host
 * itself stops the step instead, so nothing of the run changes.
 *
 * `message` is the host's message; `String(error)` is `kind: message` as the
 * Rust SDK prints it (`failed: disk on fire`); `tool` names the tool called.
 */
export abstract class ToolError extends Error {
  abstract readonly kind: ToolErrorKind;
  /** The tool that was called ("" when the error was made by hand). */
  readonly tool: string;

  constructor(message: string, tool = "") {
    super(message);
    this.tool = tool;
  }

  /** `kind: message`, e.g. `denied: kv is not granted`. */
  override toString(): string {
    return `${KIND_TEXT[this.kind]}: ${this.message}`;
  }

  /** One line for operators: `tool kv failed: disk on fire`. */
  describe(): string {
    const tool = this.tool === "" ? "a tool" : `tool ${this.tool}`;
    return `${tool} ${KIND_VERB[this.kind]}: ${this.message}`;
  }
}

/** Not granted to this agent version. */
export class Denied extends ToolError {
  readonly kind = "denied";
  override readonly name = "Denied";
}

/** No tool of that name on this host. */
export class Unknown extends ToolError {
  readonly kind = "unknown";
  override readonly name = "Unknown";
}

/** A budget is spent; the run will be parked. */
export class Budget extends ToolError {
  readonly kind = "budget";
  override readonly name = "Budget";
}

/** The arguments were rejected before the tool ran. */
export class Invalid extends ToolError {
  readonly kind = "invalid";
  override readonly name = "Invalid";
}

/** The tool ran and failed, or returned a result this agent cannot read. */
export class Failed extends ToolError {
  readonly kind = "failed";
  override readonly name = "Failed";
}

const KIND_TEXT: Record<ToolErrorKind, string> = {
  denied: "denied",
  unknown: "unknown tool",
  budget: "budget spent",
  invalid: "invalid arguments",
  failed: "failed",
};

const KIND_VERB: Record<ToolErrorKind, string> = {
  denied: "was denied",
  unknown: "is unknown",
  budget: "hit a budget",
  invalid: "refused its arguments",
  failed: "failed",
};

const CLASSES = { denied: Denied, unknown: Unknown, budget: Budget, invalid: Invalid, failed: Failed };

/** The ToolError of `kind` (an unknown kind is a failure). */
export function toolError(kind: string, message: string, tool = ""): ToolError {
  const Class = CLASSES[kind as ToolErrorKind] ?? Failed;
  return new Class(message, tool);
}

/**
 * Calls the tool `name` with `args` as JSON (keys sorted, so the same
 * arguments always make the same text) and returns its JSON result.
 *
 * `read`, if given, checks the result and turns it into an `R`; whatever it
 * throws becomes a `Failed` naming the tool, as a result of the wrong shape
 * is the tool's failure as far as the agent can tell.
 *
 * The host runs each `idempotencyKey` at most once per run and returns the
 * recorded result to every repeat, including the repeats of a retried step.
 * So derive the key from what the call means (`"INC-7001:restart"`), never
 * from a counter or the time: the same call gets the same key.
 */
export function call<R = JsonValue>(
  name: string,
  args: unknown,
  idempotencyKey: string,
  read?: (result: JsonValue) => R,
): R {
  let text: string;
  try {
    text = canonicalJson(args);
  } catch (e) {
    throw new Invalid(`the arguments for tool '${name}' are not JSON: ${errorText(e)}`, name);
  }
  return readResult(name, callRaw(name, text, idempotencyKey), read);
}

/** Calls the tool `name` with JSON text and returns its JSON text as is. */
export function callRaw(name: string, args: string, idempotencyKey: string): string {
  const outcome = currentHost().call(name, args, idempotencyKey);
  if (outcome.ok) return outcome.result;
  throw toolError(outcome.kind, outcome.message, name);
}

/** Parses (and reads) a tool's result text; what does not fit is a `Failed`. */
export function readResult<R = JsonValue>(
  name: string,
  text: string,
  read?: (result: JsonValue) => R,
): R {
  try {
    const value = JSON.parse(text) as JsonValue;
    return read === undefined ? (value as R) : read(value);
  } catch (e) {
    if (e instanceof ToolError) throw e;
    throw new Failed(
      `tool '${name}' returned a result this agent cannot read (${errorText(e)}): ${excerpt(text, 200)}`,
      name,
    );
  }
}

/**
 * `value` as a whole number for the argument `what` of tool `tool`; an
 * `Invalid` when it is not one from 0 to 2^53 - 1.
 */
export function u64Arg(tool: string, what: string, value: number): number {
  if (Number.isSafeInteger(value) && value >= 0) return value;
  throw new Invalid(`${what} must be a whole number from 0 to 2^53 - 1, got ${String(value)}`, tool);
}

/** Arguments of an `llm` tool. */
export interface LlmArgs {
  prompt: string;
  system?: string;
  /** With actions, the model answers a JSON object naming one of them. */
  actions?: readonly string[];
  /** At most the tool's configured `max_tokens`. */
  max_tokens?: number;
}

/** The result of an `llm` tool: the model's object with `actions`, else `{text}`. */
export type LlmResult = { [key: string]: JsonValue } & {
  action?: string;
  reason?: string;
  text?: string;
  usage: { total_tokens: number; cost_usd: number };
};

/** Arguments of an `http` tool: a path below its URL, query keys, a JSON body. */
export interface HttpArgs {
  path?: string;
  query?: { [key: string]: string | number | boolean };
  body?: JsonValue;
}

/** The result of an `http` tool; a 4xx or 5xx status is a value, not an error. */
export interface HttpResult {
  status: number;
  body: JsonValue;
}
