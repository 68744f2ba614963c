/**
 * The incident agent as a model-driven loop, in TypeScript: a port of
 * `agents/incident-loop` (Rust) with the same tools, keys and approvals.
 * The model keeps notes in `kv`, pages the on-call engineer through the
 * `pager` tool and scales the service out with the `scale` tool, which a
 * host configures `requires_approval`: such a call waits for a human and is
 * made only once approved. The loop (`agentLoop`) keeps the conversation in
 * the run's state and keys every call by its turn, so a crash repeats
 * nothing and charges nothing twice.
 *
 * Start input: `{"incident": "INC-7", "service": "payments-api",
 * "summary": "p99 latency 4s, memory 97%"}`. The run ends with the model's
 * last answer.
 */

import { agentLoop, defineAgent, expect, field, inputOf, Step, StepError, type JsonValue } from "wakeful-sdk";

const { Config, Finished, LoopTool } = agentLoop;

export const SYSTEM =
  "You are the on-call assistant for a production incident. " +
  "Use the tools: keep notes in kv under incidents/<id>/, page the on-call engineer " +
  "when a human must know, and scale the service out when it lacks capacity (a human " +
  "approves each scale action). Finish with a one-line summary of what you did.";

export const TOOLS = ["llm", "kv", "pager", "scale"];

export interface State {
  chat: agentLoop.Loop;
}

/** What the model may call, and where each call goes. */
export function config(): agentLoop.Config {
  const kv = new LoopTool("kv", "Read (op get) or write (op put, with a JSON value) a note of the incident.", {
    type: "object",
    properties: { op: { type: "string", enum: ["get", "put"] }, key: { type: "string" }, value: {} },
    required: ["op", "key"],
  });
  const pager = new LoopTool(
    "pager",
    "Page the on-call engineer with a short message.",
    { type: "object", properties: { message: { type: "string" } }, required: ["message"] },
    { name: "page_oncall", under: "body" },
  );
  const scale = new LoopTool(
    "scale",
    "Scale a service out to more replicas; a human approves each call.",
    {
      type: "object",
      properties: { service: { type: "string" }, replicas: { type: "integer" } },
      required: ["service", "replicas"],
    },
    { name: "scale_out", under: "body" },
  );
  return new Config("llm", [kv, pager, scale], TOOLS);
}

export default defineAgent<State>({
  name: "incident-loop-ts",
  version: "0.1.0",
  tools: TOOLS,
  description: "Handles a service incident as a model-driven loop over kv, the pager and scaling.",
  init: () => ({ chat: agentLoop.newLoop([]) }),
  step(state, wake) {
    if (wake.kind === "start") {
      state.chat = agentLoop.newLoop([
        { role: "system", content: SYSTEM },
        { role: "user", content: incidentText(inputOf(wake)) },
      ]);
    }
    const turn = agentLoop.advance(state.chat, config(), wake);
    if (!(turn instanceof Finished)) return turn;
    const text = turn.text() ?? `the model stopped (${turn.reply.stop_reason})`;
    return Step.done(text).status("incident handled");
  },
});

/** The user message of the start input. */
function incidentText(input: JsonValue): string {
  try {
    const i = expect.object(input, "struct Input");
    const [incident, service] = [field(i, "incident", expect.string), field(i, "service", expect.string)];
    return `Incident ${incident} on ${service}: ${field(i, "summary", expect.string)}`;
  } catch (e) {
    throw new StepError(`the start input does not fit this agent: ${e instanceof Error ? e.message : String(e)}`);
  }
}
