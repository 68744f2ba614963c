/**
 * A conversation with a model through a configured `llm` tool, typed: the
 * same request whether the host speaks OpenAI's or Anthropic's wire
 * format. The model only asks for tool calls; making them (each through
 * the gate, with its own key) and answering with a `tool` message is the
 * agent's, or the agent loop's (`agent_loop.ts`).
 *
 * ```ts
 * const reply = llm.chat("llm", { messages: [{ role: "user", content: "Weather in Paris?" }] }, "paris:1");
 * if (reply.stop_reason === "tool_calls") {
 *   // make reply.message.tool_calls, then push reply.message and the results
 * }
 * ```
 */

import { expect, field, type JsonValue } from "./json.js";
import { call } from "./tools.js";

/** A tool call the model asks for; `arguments` is a JSON object the model wrote: check it. */
export interface ToolCall {
  id: string;
  name: string;
  arguments: JsonValue;
}

/** One message of a conversation, as the `llm` tool takes it. */
export type Message =
  | { role: "system"; content: string }
  | { role: "user"; content: string }
  /** What the model said: a reply's `message`, appended as it is. */
  | { role: "assistant"; content: string | null; tool_calls?: ToolCall[] }
  /** The result of the model's tool call `tool_call_id`, as text. */
  | { role: "tool"; tool_call_id: string; content: string };

/** A tool the model may ask to call: 1 to 64 letters, digits, `_` or `-`, and a JSON schema. */
export interface ToolSpec {
  name: string;
  description?: string;
  parameters: JsonValue;
}

/** The arguments of one model call. */
export interface ChatRequest {
  messages: Message[];
  tools?: ToolSpec[];
  /** A JSON schema the answer must follow. */
  response_format?: { name: string; schema: JsonValue; strict: boolean };
  /** At most the tool's configured `max_tokens` (its default). */
  max_tokens?: number;
  /** 0 to 2 (0 to 1 for an Anthropic server); the server's default if unset. */
  temperature?: number;
  /** The model the agent was written against: the call is refused unless the tool is configured for it. */
  model?: string;
}

/** Why the model stopped. */
export type StopReason = "end_turn" | "tool_calls" | "max_tokens" | "refusal" | "other";

/** The model's answer. */
export interface Reply {
  /** Always an assistant message. */
  message: Message & { role: "assistant" };
  stop_reason: StopReason;
  /** The server's own word for it. */
  provider_stop_reason: string;
  /** The model's explanation of a refusal. */
  refusal?: string | null;
  /** With a `response_format`: the answer, parsed. */
  json?: JsonValue;
  /** What the call spent: the tokens the server reported, and what the run was charged. */
  usage: { input_tokens?: number | null; output_tokens?: number | null; total_tokens: number; cost_usd: number };
}

/** The text of the answer, if it has any. */
export function text(reply: Reply): string | null {
  return reply.message.content ?? null;
}

/** The tool calls the model asks for. */
export function toolCalls(reply: Reply): ToolCall[] {
  return reply.message.tool_calls ?? [];
}

/**
 * Calls the `llm` tool named `tool` (as configured on the host) with
 * `request`. A retried step with the same `idempotencyKey` gets the
 * recorded reply, charged once.
 */
export function chat(tool: string, request: ChatRequest, idempotencyKey: string): Reply {
  return call(tool, request, idempotencyKey, readReply);
}

/** Checks the shape of a reply as far as the SDK relies on it. */
export function readReply(value: JsonValue): Reply {
  const reply = expect.object(value, "struct Reply");
  const message = field(reply, "message", (m) => expect.object(m, "enum Message"));
  if (message["role"] !== "assistant") {
    throw new TypeError(`the reply's message has role ${JSON.stringify(message["role"] ?? null)}, expected assistant`);
  }
  const calls = field(message, "tool_calls", (c) => c, () => []);
  if (!Array.isArray(calls)) throw new TypeError("invalid type: the message's tool_calls, expected a sequence");
  for (const call of calls) {
    const c = expect.object(call, "struct ToolCall");
    field(c, "id", expect.string);
    field(c, "name", expect.string);
  }
  field(reply, "stop_reason", expect.string);
  return value as unknown as Reply;
}
