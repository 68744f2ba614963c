/**
 * The built-in `callback` tool: a single-use link another system answers
 * on. Send the link's URL with a request, then wait on its topic, with the
 * link's expiry as a timeout; the answer's JSON body arrives as an event.
 *
 * ```ts
 * const link = context("callback", () => callback.create("approval", 3_600_000, "order-9482:link"));
 * // ... send link.url to the other system (an `http` tool) ...
 * return Step.waitEvent(link.topic).or(Wait.until(link.expiresAt));
 * ```
 */

import { expect, field, type JsonValue } from "./json.js";
import { callRaw, readResult, u64Arg } from "./tools.js";

/** A link `create` made. */
export interface Link {
  /** Where the other system POSTs its JSON answer, once. */
  url: string;
  /** `callback:<id>`: the topic the answer arrives on. */
  topic: string;
  /** When the link stops taking answers (ms since the Unix epoch, UTC). */
  expiresAt: number;
}

/**
 * Makes a link named `id` (unique within the run; letters, digits, `-_.:`)
 * valid for `validForMs`. A retried step with the same `idempotencyKey`
 * gets the same link back.
 */
export function create(id: string, validForMs: number, idempotencyKey: string): Link {
  const text = callRaw("callback", request(id, validForMs), idempotencyKey);
  return readResult("callback", text, (result: JsonValue) => {
    const object = expect.object(result, "struct Link");
    return {
      url: field(object, "url", expect.string),
      topic: field(object, "topic", expect.string),
      expiresAt: field(object, "expires_at", expect.u64),
    };
  });
}

/** The host's argument text, fields in the Rust SDK's order. */
export function request(id: string, validForMs: number): string {
  return `{"op":"create","id":${JSON.stringify(id)},"valid_for_ms":${u64Arg("callback", "valid_for_ms", validForMs)}}`;
}
