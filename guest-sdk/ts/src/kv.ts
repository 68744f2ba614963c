/**
 * The built-in `kv` tool: a versioned key-value store shared by the host's
 * runs. Every write bumps the key's version, deletes included, so a
 * compare-and-set never mistakes a re-created key for the one it read;
 * version 0 means "never written".
 *
 * ```ts
 * const seen = kv.get<number>("counter", "read-counter");
 * const next = (seen.value ?? 0) + 1;
 * // Writes only if nobody wrote since the read.
 * const put = kv.put("counter", next, "bump-counter", { expectedVersion: seen.version });
 * if (!put.ok) {
 *   // Someone else wrote first; put.version is the current version.
 * }
 * ```
 */

import { canonicalJson, errorText, expect, field, type JsonValue } from "./json.js";
import { callRaw, Invalid, readResult, u64Arg } from "./tools.js";

/** A value read with its version. */
export interface Versioned<T> {
  /** The value, `null` when the key is absent (never written, or deleted). */
  value: T | null;
  /** 0 when never written, then bumped by every write and delete. */
  version: number;
}

/** The result of `put` or `delete`. */
export interface Written {
  /** `false` when `expectedVersion` did not match: nothing was written. */
  ok: boolean;
  /** The key's version after the write, or its current version when `ok` is false. */
  version: number;
}

/** A compare-and-set: write only if the key is still at this version (0: only if absent). */
export interface WriteOptions {
  expectedVersion?: number | null;
}

/**
 * Reads `key`. `read`, if given, checks the stored value and makes it a `T`
 * (see `expect`); a value that does not fit is a `Failed`.
 */
export function get<T = JsonValue>(
  key: string,
  idempotencyKey: string,
  read?: (value: JsonValue) => T,
): Versioned<T> {
  const text = callRaw("kv", request("get", key), idempotencyKey);
  return readResult("kv", text, (result) => {
    const object = expect.object(result, "struct Versioned");
    const value = field(object, "value", (v) => v, () => null);
    return {
      value: value === null ? null : read === undefined ? (value as T) : read(value),
      version: field(object, "version", expect.u64),
    };
  });
}

/**
 * Writes `value` (JSON) at `key`. With `expectedVersion`, writes only if the
 * key is still at that version (0: only if absent); a mismatch is
 * `ok: false`, not an error.
 */
export function put(
  key: string,
  value: unknown,
  idempotencyKey: string,
  options: WriteOptions = {},
): Written {
  let valueText: string;
  try {
    valueText = canonicalJson(value);
  } catch (e) {
    throw new Invalid(`the value for kv key '${key}' is not JSON: ${errorText(e)}`, "kv");
  }
  const text = callRaw("kv", request("put", key, valueText, options.expectedVersion), idempotencyKey);
  return readResult("kv", text, written);
}

/** Deletes `key`, with the same `expectedVersion` check as `put`. */
function del(key: string, idempotencyKey: string, options: WriteOptions = {}): Written {
  const text = callRaw("kv", request("delete", key, undefined, options.expectedVersion), idempotencyKey);
  return readResult("kv", text, written);
}
export { del as delete };

/** The host's argument text, fields in the Rust SDK's order. */
export function request(
  op: "get" | "put" | "delete",
  key: string,
  valueText?: string,
  expectedVersion?: number | null,
): string {
  let text = `{"op":"${op}","key":${JSON.stringify(key)}`;
  if (valueText !== undefined) text += `,"value":${valueText}`;
  if (expectedVersion !== undefined && expectedVersion !== null) {
    text += `,"expected_version":${u64Arg("kv", "expected_version", expectedVersion)}`;
  }
  return text + "}";
}

function written(result: JsonValue): Written {
  const object = expect.object(result, "struct Written");
  return { ok: field(object, "ok", expect.boolean), version: field(object, "version", expect.u64) };
}
