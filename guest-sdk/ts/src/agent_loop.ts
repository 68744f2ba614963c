/**
 * An agent loop: a model chooses tool calls, the loop makes them through
 * the gate, feeds back the results and asks the model again, until it
 * answers. The same loop as the Rust SDK's `agent_loop`, with the same
 * keys, approval requests and state.
 *
 * The conversation lives in the run's state: `newLoop(messages)` is a JSON
 * object to keep in the state, and `advance(chat, config, wake)` takes one
 * step of it: one model call, or the model's pending tool calls, or the
 * answer to an approval. Every call's idempotency key is derived from the
 * loop's turn and the model's tool-call id (`loop:<turn>:model`,
 * `loop:<turn>:tool:<id>`), so a retried step gets the recorded results:
 * nothing is sent or charged twice. The model is offered only the tools the
 * `Config` maps, each of which the agent must declare in its `tools`. A
 * call the host refuses with `needs approval` becomes an approval request
 * naming that exact call (`gated`); the loop waits for the answer, then
 * makes the call, or tells the model it was refused.
 *
 * ```ts
 * const TOOLS = ["llm", "kv"];
 * export default defineAgent<{ chat: Loop | null }>({
 *   name: "helper", version: "0.1.0", tools: TOOLS, description: "Answers with the help of kv.",
 *   init: () => ({ chat: null }),
 *   step(state, wake) {
 *     const config = new Config("llm", [new LoopTool("kv", "Read or write a key", { type: "object" })], TOOLS);
 *     if (wake.kind === "start") state.chat = newLoop([{ role: "user", content: "What is in key `a`?" }]);
 *     const turn = advance(state.chat!, config, wake);
 *     return turn instanceof Finished ? Step.done(turn.text() ?? "no answer") : turn;
 *   },
 * });
 * ```
 */

import { StepError } from "./agent.js";
import * as gated from "./gated.js";
import { canonicalJson, excerpt, type JsonValue } from "./json.js";
import * as llm from "./llm.js";
import { ApprovalRequest, Step, Wait } from "./step.js";
import { callRaw, Denied, ToolError } from "./tools.js";
import type { Wake } from "./wake.js";

/** The start of the host's refusal of a call that needs an approval. */
const NEEDS_APPROVAL = "needs approval";

/** How long an approval request of the loop is open: a day. */
export const APPROVAL_VALID_MS = 24 * 3_600_000;

/**
 * A tool the model may call: the host tool `tool`, offered to the model as
 * `name` (default: the tool's name). With `under`, the model's arguments
 * are sent as that field of the tool's arguments (`"body"` for an `http`
 * tool).
 */
export class LoopTool {
  /** The model's name for it. */
  readonly name: string;
  /** The field of the tool's arguments the model's arguments go under; `null`: they are the arguments. */
  readonly under: string | null;

  constructor(
    /** The host tool its calls go to. */
    readonly tool: string,
    /** What the model is told it does. */
    readonly description: string,
    /** A JSON schema of the model's arguments. */
    readonly parameters: JsonValue,
    options: { name?: string; under?: string } = {},
  ) {
    this.name = options.name ?? tool;
    this.under = options.under ?? null;
  }

  /** What the model is told. */
  spec(): llm.ToolSpec {
    return { name: this.name, description: this.description, parameters: this.parameters };
  }
}

/**
 * What a loop may do: the `llm` tool it asks, the tools it offers the
 * model, each of which (and `llm`) must be one of `declared` (the agent's
 * `tools`: a model can only reach what the version asked the operator to
 * grant), at most how many model calls it makes, and the start of its keys
 * and approval ids.
 */
export class Config {
  readonly maxTurns: number;
  readonly prefix: string;
  /**
   * The model the agent was written against, sent with every model call:
   * the host refuses the call unless its `llm` tool is configured for it.
   */
  readonly model: string | undefined;

  constructor(
    readonly llm: string,
    readonly tools: readonly LoopTool[],
    declared: readonly string[],
    options: { maxTurns?: number; prefix?: string; model?: string } = {},
  ) {
    const shown = JSON.stringify(declared);
    if (!declared.includes(llm)) {
      throw new StepError(`the loop's model tool \`${llm}\` is not in the agent's tools ${shown}`);
    }
    for (const t of tools) {
      if (!declared.includes(t.tool)) {
        throw new StepError(
          `the loop offers \`${t.name}\` (tool \`${t.tool}\`), which is not in the agent's tools ${shown}`,
        );
      }
      if (tools.filter((o) => o.name === t.name).length > 1) {
        throw new StepError(`the loop offers two tools named \`${t.name}\``);
      }
    }
    this.maxTurns = options.maxTurns ?? 20;
    this.prefix = options.prefix ?? "loop";
    this.model = options.model;
  }

  /** The tool the model calls `name`. */
  find(name: string): LoopTool | undefined {
    return this.tools.find((t) => t.name === name);
  }
}

/** A tool call of the model the loop has yet to answer. */
export interface Pending {
  /** The model's id for the call. */
  id: string;
  /** The tool's name as the model called it. */
  name: string;
  /** The exact argument text sent (and approved). */
  args: string;
}

/** An approval request the loop waits on, for the first pending call. */
export interface Asked {
  id: string;
  question: string;
  /** Its details, naming the call. */
  details: JsonValue;
}

/** The loop's state: keep it in the agent's state. */
export interface Loop {
  /** The conversation so far. */
  messages: llm.Message[];
  /** The model's tool calls not answered yet, in its order. */
  pending: Pending[];
  /** The approval request the first pending call waits on. */
  asked: Asked | null;
  /** How many model calls the loop has made. */
  turn: number;
}

/** The model answered without asking for tools (or stopped otherwise: see `reply.stop_reason`). */
export class Finished {
  constructor(readonly reply: llm.Reply) {}

  /** The text of the answer, if it has any. */
  text(): string | null {
    return llm.text(this.reply);
  }
}

/** A loop that starts from `messages`. */
export function newLoop(messages: llm.Message[]): Loop {
  return { messages: [...messages], pending: [], asked: null, turn: 0 };
}

/**
 * Takes one step of the loop `chat` (changed in place): answers the approval
 * awaited, or makes the pending tool calls, or makes one model call.
 * Returns the `Step` to return, or `Finished`. A failed model call throws a
 * `StepError`: the host retries the step, every call made replayed, not
 * repeated.
 */
export function advance(chat: Loop, config: Config, wake: Wake): Step | Finished {
  const asked = chat.asked;
  if (asked !== null) {
    const answer = answerTo(asked, wake);
    if (answer === null) return waitFor(asked);
    chat.asked = null;
    const call = chat.pending.shift()!;
    let content: string;
    if (answer === true) {
      const made = makeOrAsk(chat, config, call, true);
      // The gate lets an approved call through once.
      content = typeof made === "string" ? made : errorText("the host still refuses this call after its approval");
    } else {
      content = errorText(answer);
    }
    chat.messages.push(toolMessage(call, content));
    // The calls after it, or (none left) the model next step.
    return runPending(chat, config);
  }
  if (chat.pending.length > 0) return runPending(chat, config);
  return askModel(chat, config);
}

/** Makes the pending calls in order; stops at one that needs approval. */
function runPending(chat: Loop, config: Config): Step {
  for (let call = chat.pending[0]; call !== undefined; call = chat.pending[0]) {
    const made = makeOrAsk(chat, config, call, false);
    if (typeof made !== "string") {
      chat.asked = made;
      return waitFor(made);
    }
    chat.pending.shift();
    chat.messages.push(toolMessage(call, made));
  }
  return Step.continue().status(`the model's turn ${chat.turn} answered`);
}

/**
 * The result text of `call`, or the approval it needs. An approved call has
 * a key of its own: the refusal before it is not the call's result.
 */
function makeOrAsk(chat: Loop, config: Config, call: Pending, approved: boolean): string | Asked {
  const tool = config.find(call.name);
  if (tool === undefined) return errorText(`there is no tool named \`${call.name}\``);
  const key = `${config.prefix}:${chat.turn}:tool:${call.id}` + (approved ? ":approved" : "");
  try {
    return callRaw(tool.tool, call.args, key);
  } catch (e) {
    if (!(e instanceof ToolError)) throw e;
    if (!(e instanceof Denied && e.message.startsWith(NEEDS_APPROVAL))) return errorText(String(e));
  }
  const named = new gated.Call(tool.tool, JSON.parse(call.args) as JsonValue);
  const request = gated.request(
    `${config.prefix}-${chat.turn}-${call.id}`,
    `Let the model call \`${tool.tool}\` with ${excerpt(call.args, 300)}?`,
    [named],
    { model_tool: call.name, turn: chat.turn },
    APPROVAL_VALID_MS,
  );
  return { id: request.id, question: request.question, details: request.details };
}

function askModel(chat: Loop, config: Config): Step | Finished {
  if (chat.turn >= config.maxTurns) {
    throw new StepError(`the loop made its ${config.maxTurns} model calls (max_turns) without an answer`);
  }
  const request: llm.ChatRequest = { messages: chat.messages, tools: config.tools.map((t) => t.spec()) };
  if (config.model !== undefined) request.model = config.model;
  let reply: llm.Reply;
  try {
    reply = llm.chat(config.llm, request, `${config.prefix}:${chat.turn + 1}:model`);
  } catch (e) {
    if (e instanceof ToolError) throw new StepError(`model call ${chat.turn + 1} failed: ${e}`);
    throw e;
  }
  chat.turn += 1;
  chat.messages.push(reply.message);
  const calls = llm.toolCalls(reply);
  if (reply.stop_reason !== "tool_calls" || calls.length === 0) return new Finished(reply);
  chat.pending = calls.map((c) => ({ id: c.id, name: c.name, args: toolArgs(config, c) }));
  return Step.continue().status(`the model asks for ${calls.map((c) => c.name).join(", ")}`);
}

/** The exact argument text for the model's `call`: keys sorted, no spaces (as the Rust SDK writes it). */
function toolArgs(config: Config, call: llm.ToolCall): string {
  const under = config.find(call.name)?.under ?? null;
  return canonicalJson(under === null ? call.arguments : { [under]: call.arguments });
}

function request(asked: Asked): ApprovalRequest {
  return new ApprovalRequest(asked.id, asked.question, asked.details, APPROVAL_VALID_MS);
}

/** `null` while `wake` is not the answer; `true` to make the call; else what to tell the model. */
function answerTo(asked: Asked, wake: Wake): true | string | null {
  if (wake.kind === "approval" && wake.requestId === asked.id) {
    if (!wake.isFor(request(asked))) return "the approval answered another question";
    if (wake.approved) return true;
    return `refused: ${wake.by} rejected this call (${wake.comment ?? "no reason given"})`;
  }
  if (wake.kind === "expired" && wake.requestId === asked.id) return "refused: nobody approved this call in time";
  return null;
}

function waitFor(asked: Asked): Step {
  return Step.wait([Wait.approval(request(asked))]).status(`waiting for approval ${asked.id}`);
}

function toolMessage(call: Pending, content: string): llm.Message {
  return { role: "tool", tool_call_id: call.id, content };
}

function errorText(message: string): string {
  return canonicalJson({ error: message });
}
