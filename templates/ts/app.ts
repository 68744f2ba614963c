/**
 * {{name}}: a wakeful agent. The host calls `step` once per wakeup with the
 * run's state and why it woke; the step changes the state and says what to
 * wait for next. The host saves the state after every step.
 *
 * Rules of a step:
 * - never block: return what to wait for (an event, an approval, a time);
 * - act on the world only through tool calls, each with an idempotency key
 *   that names what it means: a step is retried after a crash, and the host
 *   runs each key once per run;
 * - use `now()`, the step's logical time, not `Date.now()`.
 *
 * Only the state survives a step: each step may run in a fresh instance, so
 * module-level variables are not state.
 */

import { context, defineAgent, kv, log, now, runId, Step, type JsonValue } from "wakeful-sdk";

const NAME = "{{name}}";
/** The topic this agent waits on. */
export const TOPIC = `${NAME}:go`;

export interface State {
  /** The start input, kept for the steps after the first. */
  input: JsonValue;
  /** When the run started: the first step's logical time (ms). */
  startedAt: number;
  /** The id of the event that was handled, once handled. */
  handled: string | null;
}

function waiting(): Step {
  return Step.waitEvent(TOPIC).status(`waiting for ${TOPIC}`);
}

export default defineAgent<State>({
  name: NAME, // the agent's name in the host
  version: "0.1.0", // bump it for every build you deploy
  tools: ["kv"], // what it asks the operator to grant
  description: `Waits for ${TOPIC} and records its payload in kv.`,
  init: () => ({ input: null, startedAt: 0, handled: null }), // a new run's state
  step(state, wake) {
    if (wake.kind === "start") {
      state.input = wake.input;
      state.startedAt = now();
      return waiting();
    }
    if (wake.kind === "event" && wake.topic === TOPIC) {
      const key = `${NAME}/${runId()}`;
      // Keyed by the event: a retried step writes it once. `context` turns a
      // tool's error into a StepError that says what the step was doing.
      context(`kv put ${key}`, () => kv.put(key, wake.payload, `record:${wake.id}`));
      log.info(`recorded ${key}`);
      state.handled = wake.id;
      return Step.done(`recorded ${key}`).status("done");
    }
    // Anything else while waiting: keep waiting.
    return waiting();
  },
});
