/** Why a step is called: `Wake`, a union told apart by `kind`. */

import type { JsonValue } from "./json.js";
import type { ApprovalRequest } from "./step.js";
import { StepError } from "./agent.js";

/** The first step of a run, with the start input (`null` when started without one). */
export interface StartWake {
  readonly kind: "start";
  readonly input: JsonValue;
}

/** An event the run waited for. */
export interface EventWake {
  readonly kind: "event";
  /** Unique per run: a redelivered event is not delivered twice. */
  readonly id: string;
  /** The topic the run waited on, e.g. `mail:invoice`. */
  readonly topic: string;
  /** The event's JSON body. */
  readonly payload: JsonValue;
  /** When the host stored the event (ms since the Unix epoch, UTC). */
  readonly receivedAt: number;
}

/** A human's answer to an approval request. */
export class Approval {
  readonly kind = "approval";
  /** The id of the request answered. */
  readonly requestId: string;
  /** `true` to go ahead, `false` to refuse. */
  readonly approved: boolean;
  /** Who answered. */
  readonly by: string;
  /** When the host received the answer (ms since the Unix epoch, UTC). */
  readonly at: number;
  /** What the approver wrote, if anything. */
  readonly comment: string | null;
  /** The digest of the question and details that were answered; see `isFor`. */
  readonly digest: string;

  constructor(fields: {
    requestId: string;
    approved: boolean;
    by: string;
    at: number;
    comment?: string | null;
    digest: string;
  }) {
    this.requestId = fields.requestId;
    this.approved = fields.approved;
    this.by = fields.by;
    this.at = fields.at;
    this.comment = fields.comment ?? null;
    this.digest = fields.digest;
  }

  /**
   * Whether this answers exactly `request`: the same id, question and
   * details. Act on an approval only if it is for the plan you hold.
   */
  isFor(request: ApprovalRequest): boolean {
    return this.requestId === request.id && this.digest === request.digest();
  }
}

/** An `until` or `cron` wait fired. */
export interface TimerWake {
  readonly kind: "timer";
  /** The time it was due (ms since the Unix epoch, UTC). */
  readonly at: number;
}

/** An approval request expired unanswered. */
export interface ExpiredWake {
  readonly kind: "expired";
  /** The id of the request. */
  readonly requestId: string;
}

/** After `Step.continue()`, or an operator resumed the run. */
export interface ResumeWake {
  readonly kind: "resume";
}

/** Why a step is called; switch on `wake.kind`. */
export type Wake = StartWake | EventWake | Approval | TimerWake | ExpiredWake | ResumeWake;

/** The kinds of wake: `start`, `event`, `approval`, `timer`, `expired`, `resume`. */
export type WakeKind = Wake["kind"];

/** Makes wakes, as the host delivers them (for tests). */
export const Wake = {
  start(input: JsonValue = null): StartWake {
    return { kind: "start", input };
  },
  event(fields: { id: string; topic: string; payload?: JsonValue; receivedAt?: number }): EventWake {
    return {
      kind: "event",
      id: fields.id,
      topic: fields.topic,
      payload: fields.payload ?? null,
      receivedAt: fields.receivedAt ?? 0,
    };
  },
  approval(fields: ConstructorParameters<typeof Approval>[0]): Approval {
    return new Approval(fields);
  },
  timer(at: number): TimerWake {
    return { kind: "timer", at };
  },
  expired(requestId: string): ExpiredWake {
    return { kind: "expired", requestId };
  },
  resume(): ResumeWake {
    return { kind: "resume" };
  },
};

/**
 * The start input. Throws a `StepError` on any other wake, naming the wake
 * it got, so returning it as the step's error tells the operator what happened.
 */
export function inputOf(wake: Wake): JsonValue {
  if (wake.kind === "start") return wake.input;
  throw new StepError(`expected the start wake to read the input, got ${wake.kind}`);
}

