/**
 * Calls of tools the host lets through only with an approval: ask a human
 * to approve exactly these calls, then make them with the same arguments.
 *
 * A host configured with `[approvals.tools.<name>] requires_approval = true`
 * refuses every call of that tool (`denied: needs approval`) unless the run
 * holds an approved request whose details name the call: its tool, its
 * arguments and the SHA-256 of their exact text. Each named call may be
 * made once.
 *
 * ```ts
 * const refund = new gated.Call("refunds", { order: "9482", amount_usd: 120 });
 * return Step.waitApproval(gated.request("refund-9482", "Refund 120 USD?", [refund], { reason: "late" }, 3_600_000));
 * // ... once approved:
 * refund.call("refund-9482:pay");
 * ```
 */

import { canonicalJson, errorText, type JsonObject, type JsonValue } from "./json.js";
import { hex, sha256, utf8 } from "./sha256.js";
import { ApprovalRequest } from "./step.js";
import { callRaw, Invalid, readResult } from "./tools.js";

/** One call to approve and then make: its tool and the exact argument text. */
export class Call {
  /** The JSON text the call sends; the approval is bound to its digest. */
  readonly args: string;

  constructor(
    readonly tool: string,
    args: unknown,
  ) {
    try {
      this.args = canonicalJson(args);
    } catch (e) {
      throw new Invalid(`the arguments for tool '${tool}' are not JSON: ${errorText(e)}`, tool);
    }
  }

  /** Lowercase hex SHA-256 of the argument text, as the host computes it. */
  argsSha256(): string {
    return hex(sha256(utf8(this.args)));
  }

  /** How the approval's details name this call. */
  named(): JsonObject {
    return { tool: this.tool, args: JSON.parse(this.args) as JsonValue, args_sha256: this.argsSha256() };
  }

  /** Makes the call with the approved arguments; returns its parsed result. */
  call<R = JsonValue>(idempotencyKey: string, read?: (result: JsonValue) => R): R {
    return readResult(this.tool, callRaw(this.tool, this.args, idempotencyKey), read);
  }
}

/**
 * `{"calls": [...]}` and the fields of `extra` (an object; anything else is
 * kept under `"about"`), shown to the approver.
 */
export function details(calls: readonly Call[], extra: JsonValue = null): JsonObject {
  let out: JsonObject;
  if (extra === null) out = {};
  else if (typeof extra === "object" && !Array.isArray(extra)) out = { ...extra };
  else out = { about: extra };
  out["calls"] = calls.map((c) => c.named());
  return out;
}

/** An approval request for exactly `calls`. */
export function request(
  id: string,
  question: string,
  calls: readonly Call[],
  extra: JsonValue = null,
  validForMs = 3_600_000,
): ApprovalRequest {
  return new ApprovalRequest(id, question, details(calls, extra), validForMs);
}
