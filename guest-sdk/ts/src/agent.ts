/** What an agent is: `defineAgent`, and the errors a step throws. */

import type { JsonValue } from "./json.js";
import type { Step } from "./step.js";
import { ToolError } from "./tools.js";
import type { Wake } from "./wake.js";

/** An agent: a step function over a JSON state. */
export interface AgentDefinition<S> {
  /** The agent's name in the host. */
  readonly name: string;
  /** Semver of this build. */
  readonly version: string;
  /** The tools this version asks the operator to grant (`"kv"`, `"lease"`, `"llm"`, …). */
  readonly tools?: readonly string[];
  /** One sentence for operators: what this agent does. */
  readonly description: string;
  /**
   * The state of a new run. Without it, the first step gets `null`. With
   * it, every step gets a state object it can change in place.
   */
  init?(): S;
  /**
   * Takes one step of a run: reacts to `wake`, updates `state` (in place,
   * or by returning `step.save(newState)`) and says what to wait for next.
   *
   * A step must not block on the outside world; it waits by returning a
   * `Step`. A thrown error changes nothing of the run, state included: the
   * host keeps the previous checkpoint, retries the step, and parks the run
   * after a bounded number of attempts.
   */
  step(state: S, wake: Wake): Step;
  /**
   * Turns the state saved by version `fromVersion` of this agent into this
   * version's shape when an operator upgrades a run. `old` is `null` for a
   * run that never finished a step. Without it, the old state is kept as it
   * is (`init()` for `null`).
   */
  migrate?(fromVersion: string, old: JsonValue): S;
}

/** An agent, as `defineAgent` checked it. */
export type Agent<S> = AgentDefinition<S> & { readonly tools: readonly string[] };

/**
 * Defines an agent; `export default defineAgent({...})` from `app.ts`.
 *
 * ```ts
 * interface State { filed: string | null }
 *
 * export default defineAgent<State>({
 *   name: "invoice-mail", version: "0.1.0", tools: ["kv"],
 *   description: "Files the invoice email once it arrives.",
 *   init: () => ({ filed: null }),
 *   step(state, wake) {
 *     if (wake.kind === "event" && wake.topic === "mail:invoice") { ... }
 *     return Step.waitEvent("mail:invoice").status("waiting on the invoice email");
 *   },
 * });
 * ```
 */
export function defineAgent<S>(definition: AgentDefinition<S> & { init(): S }): Agent<S>;
/** Without `init`, the first step's state is `null`. */
export function defineAgent<S = JsonValue>(
  definition: AgentDefinition<S | null> & { init?: undefined },
): Agent<S | null>;
export function defineAgent<S>(definition: AgentDefinition<S>): Agent<S> {
  for (const field of ["name", "version", "description"] as const) {
    if (typeof definition[field] !== "string" || definition[field] === "") {
      throw new TypeError(`defineAgent: '${field}' must be a non-empty string`);
    }
  }
  if (typeof definition.step !== "function") {
    throw new TypeError("defineAgent: 'step' must be a function (state, wake) => Step");
  }
  const tools = definition.tools ?? [];
  if (!Array.isArray(tools) || tools.some((t) => typeof t !== "string")) {
    throw new TypeError("defineAgent: 'tools' must be a list of tool names");
  }
  return { ...definition, tools: [...tools] };
}

/**
 * An error whose message is the step's error exactly, for failures the
 * agent expects and words itself (`kv get service/api: failed: disk on
 * fire`). Any other uncaught error is reported with its name and stack.
 */
export class StepError extends Error {
  override readonly name = "StepError";
}

/**
 * Runs `action`; a `ToolError` it throws becomes a `StepError` reading
 * `${what}: ${error}`, e.g. `kv put invoices/m-1: denied: kv is not granted`.
 * Other errors pass through.
 */
export function context<T>(what: string, action: () => T): T {
  try {
    return action();
  } catch (e) {
    if (e instanceof ToolError) throw new StepError(`${what}: ${e}`);
    throw e;
  }
}
