/**
 * What a step returns: `Step`, the `Wait`s it sleeps on, and the approval
 * requests a human answers.
 */

import { canonicalJson, type JsonValue } from "./json.js";
import { hex, sha256, utf8 } from "./sha256.js";

/** One thing a sleeping run can be woken by. */
export type Wait =
  | { kind: "event"; topic: string }
  | { kind: "approval"; request: ApprovalRequest }
  | { kind: "until"; at: number }
  | { kind: "cron"; expression: string };

/** What the run does after a step. */
export type Next =
  | { kind: "continue" }
  | { kind: "wait"; waits: Wait[] }
  | { kind: "done"; outcome: string };

/**
 * A question for a human, answered with an `approval` wake or, when nobody
 * answers in time, an `expired` wake.
 *
 * Asking again with the same id, question and details waits for the same
 * request; changed question or details replace it (earlier links and
 * answers are void). An id that was answered or expired cannot be asked
 * again: use a new one.
 */
export class ApprovalRequest {
  constructor(
    /** Unique within the run. */
    readonly id: string,
    /** The question, e.g. "Approve 'restart_service' on payments-api?". */
    readonly question: string,
    /** Shown to the approver: the plan and its reason. An answer is bound to these details. */
    readonly details: JsonValue,
    /** How long an answer is accepted (ms). */
    readonly validForMs: number,
  ) {}

  /** The details as the host gets them: JSON with sorted keys, the same text every time. */
  detailsText(): string {
    return canonicalJson(this.details);
  }

  /** The digest an answer carries when it answered exactly this question and these details. */
  digest(): string {
    return approvalDigest(this.question, this.detailsText());
  }
}

/**
 * Lowercase hex SHA-256 of the question's byte length (8 bytes, big-endian),
 * the question, then the details text: what the host binds an approval
 * answer to (`wit/agent.wit`, record `approval`).
 */
export function approvalDigest(question: string, details: string): string {
  const q = utf8(question);
  const d = utf8(details);
  const bytes = new Uint8Array(8 + q.length + d.length);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, Math.floor(q.length / 0x100000000));
  view.setUint32(4, q.length >>> 0);
  bytes.set(q, 8);
  bytes.set(d, 8 + q.length);
  return hex(sha256(bytes));
}

/** The ways to wait; combine them with `Step.wait([...])` or `step.or(...)`. */
export const Wait = {
  /** An event on `topic`. */
  event(topic: string): Wait {
    return { kind: "event", topic };
  },
  /**
   * An answer to the approval request `id`. `details` is what the approver
   * sees (the plan and its reason); answers arrive for `validForMs`, after
   * that the run wakes with `expired`. Also takes a made `ApprovalRequest`.
   */
  approval(
    id: string | ApprovalRequest,
    question?: string,
    details?: JsonValue,
    validForMs?: number,
  ): Wait {
    if (id instanceof ApprovalRequest) return { kind: "approval", request: id };
    if (question === undefined || details === undefined || validForMs === undefined) {
      throw new TypeError("Wait.approval takes (id, question, details, validForMs) or an ApprovalRequest");
    }
    return { kind: "approval", request: new ApprovalRequest(id, question, details, validForMs) };
  },
  /** The time `atMs` (ms since the Unix epoch, UTC). */
  until(atMs: number): Wait {
    return { kind: "until", at: atMs };
  },
  /** The next tick of a five-field cron expression (UTC), e.g. `"0 9 * * *"`. */
  cron(expression: string): Wait {
    return { kind: "cron", expression };
  },
};

/**
 * The result of a step: what comes next, what a user sees, and optionally
 * the state to save. Steps are values: every method returns a new Step.
 *
 * ```ts
 * // Wait for the email, but give up at a deadline.
 * return Step.waitEvent("mail:invoice")
 *   .or(Wait.until(1_800_000_000_000))
 *   .status("waiting on the invoice email");
 * ```
 */
export class Step {
  private constructor(
    /** What the run does after this step. */
    readonly next: Next,
    /** What a user sees until the next step; `undefined` keeps the previous status. */
    readonly statusText: string | undefined = undefined,
    /**
     * The state to save, set with `save`; `undefined` saves the state the
     * step was given (with whatever the step changed in it).
     */
    readonly savedState: unknown = undefined,
  ) {}

  /** Step again right away (the next wake is `resume`): a long task cut into slices. */
  static continue(): Step {
    return new Step({ kind: "continue" });
  }

  /** Finish the run with `outcome`, a line for operators. */
  static done(outcome: string): Step {
    return new Step({ kind: "done", outcome });
  }

  /** Sleep until any one of `waits` happens. */
  static wait(waits: Iterable<Wait>): Step {
    return new Step({ kind: "wait", waits: [...waits] });
  }

  /**
   * Sleep until one of the approval requests or callback links the SDK
   * remembers (`waits.ask`, `waits.link`) is answered or expires. Every
   * wait also waits on those; a run with none outstanding cannot keep
   * waiting (the step fails).
   */
  static keepWaiting(): Step {
    return new Step({ kind: "wait", waits: [] });
  }

  /** Sleep until an event on `topic` arrives. */
  static waitEvent(topic: string): Step {
    return Step.wait([Wait.event(topic)]);
  }

  /** Ask a human and sleep until the answer, or until the request expires. See `Wait.approval`. */
  static waitApproval(
    id: string | ApprovalRequest,
    question?: string,
    details?: JsonValue,
    validForMs?: number,
  ): Step {
    return Step.wait([Wait.approval(id, question, details, validForMs)]);
  }

  /** Sleep until the time `atMs` (ms since the Unix epoch, UTC). */
  static waitUntil(atMs: number): Step {
    return Step.wait([Wait.until(atMs)]);
  }

  /** Sleep until the next tick of a five-field cron expression (UTC). */
  static waitCron(expression: string): Step {
    return Step.wait([Wait.cron(expression)]);
  }

  /**
   * Also wake on `wait`: the run wakes on whichever happens first. On a step
   * that continues or is done, this makes it a wait on `wait` alone.
   */
  or(wait: Wait): Step {
    const waits = this.next.kind === "wait" ? [...this.next.waits, wait] : [wait];
    return new Step({ kind: "wait", waits }, this.statusText, this.savedState);
  }

  /** Sets what a user sees until the next step. */
  status(text: string): Step {
    return new Step(this.next, text, this.savedState);
  }

  /**
   * Saves `state` as the run's new state (JSON). Without it, the state the
   * step was given is saved, with whatever the step changed in it.
   */
  save(state: unknown): Step {
    return new Step(this.next, this.statusText, state);
  }
}
