/**
 * Write wakeful agents in TypeScript.
 *
 * An agent is a step function over a JSON state: the host loads the run's
 * state, calls `step(state, wake)` with the reason it woke, saves the new
 * state and puts the run to sleep until what the returned `Step` waits for
 * happens. Side effects go through tools, each call with an idempotency key.
 *
 * | concept | file |
 * |---|---|
 * | the agent, step errors | `agent.ts`: `defineAgent`, `StepError`, `context` |
 * | why a step is called | `wake.ts`: `Wake`, `Approval`, `inputOf` |
 * | what a step returns | `step.ts`: `Step`, `Wait`, `ApprovalRequest`, `approvalDigest` |
 * | tool calls | `tools.ts`: `tools.call`, `ToolError`; `kv.ts`, `lease.ts`, `callback.ts`; `gated.ts` (ask approval of calls, then make them); `llm.ts` (`llm.chat`, typed) |
 * | approvals and links the SDK re-waits on | `waits.ts`: `waits.ask`, `waits.link`, `waits.answerTo`, `Step.keepWaiting` |
 * | a model-driven loop | `agent_loop.ts`: `agentLoop.newLoop`, `agentLoop.advance`, `Config`, `LoopTool` |
 * | time, run id, log | `host.ts`: `now`, `runId`, `log` |
 * | JSON | `json.ts`: `canonicalJson`, `expect`, `field` |
 * | the exports | `export.ts` (glue), `component.ts` (the component's entry) |
 * | a fake host for tests | `testing.ts` (`wakeful-sdk/testing`) |
 *
 * Rules of a step: it never blocks, it returns what to wait for; it is
 * retried after a crash or an error, so everything it does outside its
 * state goes through a tool call whose idempotency key names what the call
 * means; it uses `now()` rather than the system clock; it keeps the state
 * small and puts bulk data in `kv`.
 */

export { context, defineAgent, StepError, type Agent, type AgentDefinition } from "./agent.js";
export { Approval, inputOf, Wake } from "./wake.js";
export type { EventWake, ExpiredWake, ResumeWake, StartWake, TimerWake, WakeKind } from "./wake.js";
export { ApprovalRequest, approvalDigest, Step, Wait, type Next } from "./step.js";
export { Budget, Denied, Failed, Invalid, ToolError, Unknown, toolError } from "./tools.js";
export type { HttpArgs, HttpResult, LlmArgs, LlmResult, ToolErrorKind } from "./tools.js";
export { log, now, runId, type Level } from "./host.js";
export { canonicalJson, expect, field, parseJson, type JsonObject, type JsonValue } from "./json.js";
export * as tools from "./tools.js";
export * as kv from "./kv.js";
export * as lease from "./lease.js";
export * as callback from "./callback.js";
export * as gated from "./gated.js";
export * as llm from "./llm.js";
export * as waits from "./waits.js";
export type { Answer } from "./waits.js";
export * as agentLoop from "./agent_loop.js";
