/**
 * Waits the SDK remembers: approval requests and callback links a run asked
 * for, kept by the SDK until they are answered or expire. The same design
 * and state layout as the Rust SDK's `waits` module.
 *
 * `ask` an approval or make a `link`, then return `Step.keepWaiting()` (or
 * any wait): every step's waits include a re-wait on each request and link
 * still outstanding, a link with its expiry as a timer, until the run is
 * done. `answerTo(wake, id)` tells whether a wake answers one of them; for
 * an approval it also checks the answer is bound to the question and
 * details that were asked, which the SDK remembers.
 *
 * The SDK keeps them in the run's state under the key `"wakeful:waits"`,
 * apart from what the agent's `step` and `migrate` see: an upgrade carries
 * them to the new version. So a state that asks must be a JSON object.
 *
 * ```ts
 * const answer = waits.answerTo(wake, "pay");
 * if (answer?.kind === "approved") return Step.done(`paid, ${answer.approval.by}`);
 * if (answer !== null) return Step.done("not approved");
 * if (wake.kind === "start") waits.ask("pay", "Pay 9 000 USD to ACME?", { invoice: "I-1" }, 86_400_000);
 * return Step.keepWaiting();
 * ```
 */

import { StepError } from "./agent.js";
import * as callback from "./callback.js";
import { errorText, excerpt, expect, field, type JsonObject, type JsonValue } from "./json.js";
import { ApprovalRequest, Step, Wait } from "./step.js";
import type { Approval, Wake } from "./wake.js";

/** The key of the run's state object under which the SDK keeps its waits. */
export const STATE_KEY = "wakeful:waits";

/** What a wake says about a remembered request or link. */
export type Answer =
  /** A human approved exactly the request that was asked. */
  | { kind: "approved"; approval: Approval }
  /** A human refused it. */
  | { kind: "refused"; approval: Approval }
  /** The other system POSTed this JSON body to the link. */
  | { kind: "called"; body: JsonValue }
  /** Nobody answered in time: the request or the link expired. */
  | { kind: "expired" };

/** An approval request as kept in the state (the Rust SDK's field names). */
interface Asked {
  id: string;
  question: string;
  details: JsonValue;
  valid_for_ms: number;
}

/** A callback link as kept in the state. */
interface Linked {
  id: string;
  link: { url: string; topic: string; expires_at: number };
}

interface Memory {
  approvals: Asked[];
  links: Linked[];
}

const empty = (): Memory => ({ approvals: [], links: [] });

/** Outstanding now: a step runs alone, and takes its memory from its state. */
let outstanding_: Memory = empty();
/** What the current wake answered, for `answerTo`. */
let answered: Memory = empty();

function request(asked: Asked): ApprovalRequest {
  return new ApprovalRequest(asked.id, asked.question, asked.details, asked.valid_for_ms);
}

/**
 * Asks a human to approve `question` about `details` (JSON shown to the
 * approver), and remembers the request until it is answered or expires
 * after `validForMs`. Asking again with the same id replaces the request;
 * an id answered before cannot be asked again (the host refuses the step).
 */
export function ask(id: string, question: string, details: JsonValue, validForMs: number): ApprovalRequest {
  const asked: Asked = { id, question, details, valid_for_ms: validForMs };
  outstanding_.approvals = [...outstanding_.approvals.filter((a) => a.id !== id), asked];
  return request(asked);
}

/**
 * Makes a callback link named `id` valid for `validForMs` (see
 * `callback.create`) and remembers it until the other system POSTs to it
 * or it expires. Send `link.url` to the other system.
 */
export function link(id: string, validForMs: number, idempotencyKey: string): callback.Link {
  const made = callback.create(id, validForMs, idempotencyKey);
  const kept: Linked = { id, link: { url: made.url, topic: made.topic, expires_at: made.expiresAt } };
  outstanding_.links = [...outstanding_.links.filter((l) => l.id !== id), kept];
  return made;
}

/** The ids of the requests and links still outstanding, approvals first. */
export function outstanding(): string[] {
  return [...outstanding_.approvals.map((a) => a.id), ...outstanding_.links.map((l) => l.id)];
}

/** Stops waiting on the request or link `id` (the agent no longer cares). */
export function forget(id: string): void {
  outstanding_.approvals = outstanding_.approvals.filter((a) => a.id !== id);
  outstanding_.links = outstanding_.links.filter((l) => l.id !== id);
}

/**
 * What `wake` says about the remembered request or link `id`: `null` when
 * it is about something else. An approval counts only when it answers the
 * question and details asked; after an answer or an expiry, the SDK no
 * longer waits on `id`.
 */
export function answerTo(wake: Wake, id: string): Answer | null {
  const asked = answered.approvals.find((a) => a.id === id);
  if (asked !== undefined) {
    if (wake.kind === "approval" && wake.isFor(request(asked))) {
      return wake.approved ? { kind: "approved", approval: wake } : { kind: "refused", approval: wake };
    }
    return wake.kind === "expired" ? { kind: "expired" } : null;
  }
  const linked = answered.links.find((l) => l.id === id);
  if (linked === undefined) return null;
  if (wake.kind === "event" && wake.topic === linked.link.topic) return { kind: "called", body: wake.payload };
  return wake.kind === "timer" ? { kind: "expired" } : null;
}

/** Whether `wake` settles the approval `asked` (an answer to its id, or its expiry). */
function settlesApproval(wake: Wake, asked: Asked): boolean {
  return (wake.kind === "approval" || wake.kind === "expired") && wake.requestId === asked.id;
}

/** Whether `wake` settles the link `linked` (a POST to it, or a timer at its expiry). */
function settlesLink(wake: Wake, linked: Linked): boolean {
  if (wake.kind === "event") return wake.topic === linked.link.topic;
  return wake.kind === "timer" && wake.at >= linked.link.expires_at;
}

/** Splits `memory` by what `wake` answers: what stays outstanding, and what it answered. */
function settle(memory: Memory, wake: Wake): void {
  outstanding_ = {
    approvals: memory.approvals.filter((a) => !settlesApproval(wake, a)),
    links: memory.links.filter((l) => !settlesLink(wake, l)),
  };
  answered = {
    approvals: memory.approvals.filter((a) => settlesApproval(wake, a)),
    links: memory.links.filter((l) => settlesLink(wake, l)),
  };
}

/**
 * Before a step: takes the SDK's memory out of the state object (so the
 * agent never sees it) and settles it against `wake`. Returns the state
 * without it.
 */
export function begin<S>(state: S, wake: Wake): S {
  let kept: JsonValue | undefined;
  if (isObject(state) && Object.prototype.hasOwnProperty.call(state, STATE_KEY)) {
    const { [STATE_KEY]: memory, ...rest } = state as JsonObject;
    kept = memory;
    state = rest as S;
  }
  settle(kept === undefined ? empty() : readMemory(kept), wake);
  return state;
}

/**
 * After a step: adds the re-waits to a wait, or forgets everything when the
 * run is done. A wait on nothing at all is an error of the step.
 */
export function finish(step: Step): Step {
  answered = empty();
  if (step.next.kind === "done") {
    outstanding_ = empty();
    return step;
  }
  if (step.next.kind !== "wait") return step;
  const waits = [...step.next.waits];
  for (const wait of rewaits()) {
    const already = waits.some((w) =>
      w.kind === "approval" && wait.kind === "approval" ? w.request.id === wait.request.id : sameWait(w, wait),
    );
    if (!already) waits.push(wait);
  }
  if (waits.length === 0) {
    throw new StepError(
      "the step waits on nothing: it kept waiting, but no approval request or callback link is outstanding",
    );
  }
  let again = Step.wait(waits);
  if (step.statusText !== undefined) again = again.status(step.statusText);
  return step.savedState === undefined ? again : again.save(step.savedState);
}

function rewaits(): Wait[] {
  const waits = outstanding_.approvals.map((a) => Wait.approval(request(a)));
  for (const l of outstanding_.links) waits.push(Wait.event(l.link.topic), Wait.until(l.link.expires_at));
  return waits;
}

function sameWait(a: Wait, b: Wait): boolean {
  if (a.kind === "event" && b.kind === "event") return a.topic === b.topic;
  if (a.kind === "until" && b.kind === "until") return a.at === b.at;
  if (a.kind === "cron" && b.kind === "cron") return a.expression === b.expression;
  return false;
}

/**
 * Takes what is outstanding (leaving nothing) and puts it into `state`, the
 * state to save, when there is any to keep. Throws a `StepError` when there
 * is and `state` is not a JSON object.
 */
export function store(state: unknown): unknown {
  const memory = take();
  if (memory.approvals.length === 0 && memory.links.length === 0) return state;
  if (!isObject(state)) {
    throw new StepError(
      `the SDK keeps the run's approval requests and callback links under "${STATE_KEY}" in the state, ` +
        `but this agent's state is not a JSON object: ${excerpt(String(JSON.stringify(state)), 80)}`,
    );
  }
  const kept: JsonObject = {};
  if (memory.approvals.length > 0) kept["approvals"] = memory.approvals as unknown as JsonValue;
  if (memory.links.length > 0) kept["links"] = memory.links as unknown as JsonValue;
  return { ...state, [STATE_KEY]: kept };
}

/** Forgets everything (after a step, whether it succeeded or not). */
export function take(): Memory {
  const memory = outstanding_;
  outstanding_ = empty();
  answered = empty();
  return memory;
}

/**
 * Takes the SDK's memory out of a saved state before the agent's
 * `migrate`: `[the state without it, the memory or undefined]`.
 */
export function detach(state: JsonValue): [JsonValue, JsonValue | undefined] {
  if (!isObject(state) || !Object.prototype.hasOwnProperty.call(state, STATE_KEY)) return [state, undefined];
  const { [STATE_KEY]: memory, ...rest } = state as JsonObject;
  return [rest, memory];
}

/** Puts the memory `kept` back into the migrated state `state`, unchanged. */
export function reattach(state: unknown, kept: JsonValue | undefined, version: string): unknown {
  if (kept === undefined) return state;
  if (!isObject(state)) {
    throw new StepError(
      `the run waits on approval requests or callback links the SDK keeps in the state, ` +
        `but version ${version}'s migrate returned no JSON object`,
    );
  }
  return { ...state, [STATE_KEY]: kept };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** The memory as saved; a clear error naming what does not fit. */
function readMemory(value: JsonValue): Memory {
  try {
    const object = expect.object(value, "struct Memory");
    const list = (key: string) => field(object, key, expectArray, () => []);
    return {
      approvals: list("approvals").map((v) => {
        const a = expect.object(v, "struct Asked");
        return {
          id: field(a, "id", expect.string),
          question: field(a, "question", expect.string),
          details: field(a, "details", (d) => d, () => null),
          valid_for_ms: field(a, "valid_for_ms", expect.u64),
        };
      }),
      links: list("links").map((v) => {
        const l = expect.object(v, "struct Linked");
        const link = field(l, "link", (x) => expect.object(x, "struct Link"));
        return {
          id: field(l, "id", expect.string),
          link: {
            url: field(link, "url", expect.string),
            topic: field(link, "topic", expect.string),
            expires_at: field(link, "expires_at", expect.u64),
          },
        };
      }),
    };
  } catch (e) {
    throw new StepError(`the SDK's "${STATE_KEY}" in the saved state is unreadable: ${errorText(e)}`);
  }
}

function expectArray(value: JsonValue): JsonValue[] {
  if (Array.isArray(value)) return value;
  throw new TypeError(`invalid type: ${JSON.stringify(value)}, expected a sequence`);
}
