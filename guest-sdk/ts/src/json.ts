/**
 * JSON as the host sees it.
 *
 * `canonicalJson` prints a value the way the Rust SDK prints a
 * `serde_json::Value`: object keys sorted (by code point, as Rust sorts
 * strings), no whitespace. Approval details and tool arguments go through
 * it, so the same value always gives the same text: an approval answer is
 * bound to that text, and the host refuses a repeated idempotency key whose
 * arguments changed.
 */

/** A JSON value. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** A JSON object. */
export type JsonObject = { [key: string]: JsonValue };

/**
 * Prints `value` as JSON with object keys sorted. Follows `JSON.stringify`
 * for what is not plain JSON (`toJSON`, `undefined` members, non-finite
 * numbers); a BigInt, a cycle or a value with no JSON form is a TypeError.
 */
export function canonicalJson(value: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (e) {
    throw new TypeError(`the value is not JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (text === undefined) {
    throw new TypeError(`the value is not JSON: ${typeof value}`);
  }
  const out: string[] = [];
  write(JSON.parse(text) as JsonValue, out);
  return out.join("");
}

function write(value: JsonValue, out: string[]): void {
  if (value === null || typeof value !== "object") {
    out.push(JSON.stringify(value));
  } else if (Array.isArray(value)) {
    out.push("[");
    value.forEach((item, i) => {
      if (i > 0) out.push(",");
      write(item, out);
    });
    out.push("]");
  } else {
    out.push("{");
    Object.keys(value)
      .sort(byCodePoint)
      .forEach((key, i) => {
        if (i > 0) out.push(",");
        out.push(JSON.stringify(key), ":");
        write(value[key] as JsonValue, out);
      });
    out.push("}");
  }
}

/**
 * Orders strings by code point, as Rust orders `String`s (UTF-8 byte order);
 * plain `sort()` compares UTF-16 units, which puts characters above U+FFFF
 * before U+E000..U+FFFF.
 */
export function byCodePoint(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return fixup(x) - fixup(y);
  }
  return a.length - b.length;
}

function fixup(unit: number): number {
  if (unit >= 0xe000) return unit - 0x800;
  if (unit >= 0xd800) return unit + 0x2000;
  return unit;
}

/** Parses JSON text; empty text (a run started without input) is `null`. */
export function parseJson(text: string): JsonValue {
  return text.trim() === "" ? null : (JSON.parse(text) as JsonValue);
}

/** What an error says, whatever was thrown. */
export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** At most `maxChars` characters of `text`, with `…` when cut. */
export function excerpt(text: string, maxChars: number): string {
  const chars = Array.from(text);
  return chars.length > maxChars ? chars.slice(0, maxChars).join("") + "…" : text;
}

/**
 * Readers that check a JSON value's type, with the messages serde gives in
 * the Rust SDK (`missing field `service``, `invalid type: integer `5`,
 * expected a string`). They throw a TypeError; use them on start inputs,
 * event payloads and tool results.
 */
export const expect = {
  /** A JSON object; `name` is what it should be, for the message (`struct Input`). */
  object(value: JsonValue, name = "a map"): JsonObject {
    if (value !== null && typeof value === "object" && !Array.isArray(value)) return value;
    throw invalidType(value, name);
  },
  string(value: JsonValue): string {
    if (typeof value === "string") return value;
    throw invalidType(value, "a string");
  },
  boolean(value: JsonValue): boolean {
    if (typeof value === "boolean") return value;
    throw invalidType(value, "a boolean");
  },
  /** A whole number from 0 to 2^53 - 1. */
  u64(value: JsonValue): number {
    if (typeof value === "number" && Number.isInteger(value)) {
      if (value < 0) throw new TypeError(`invalid value: integer \`${value}\`, expected u64`);
      if (Number.isSafeInteger(value)) return value;
    }
    throw invalidType(value, "u64");
  },
  /** Any number. */
  f64(value: JsonValue): number {
    if (typeof value === "number") return value;
    throw invalidType(value, "f64");
  },
};

/**
 * The member `key` of `object` read with `read`; when absent, `fallback()`
 * if given, else a TypeError `missing field `key``.
 */
export function field<T>(
  object: JsonObject,
  key: string,
  read: (value: JsonValue) => T,
  fallback?: () => T,
): T {
  if (!Object.prototype.hasOwnProperty.call(object, key) || object[key] === undefined) {
    if (fallback !== undefined) return fallback();
    throw new TypeError(`missing field \`${key}\``);
  }
  return read(object[key] as JsonValue);
}

function invalidType(value: JsonValue, expected: string): TypeError {
  return new TypeError(`invalid type: ${unexpected(value)}, expected ${expected}`);
}

/** How serde names a value it did not expect. */
function unexpected(value: JsonValue): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "sequence";
  switch (typeof value) {
    case "boolean":
      return `boolean \`${value}\``;
    case "number":
      return Number.isInteger(value) ? `integer \`${value}\`` : `floating point \`${value}\``;
    case "string":
      return `string ${JSON.stringify(value)}`;
    default:
      return "map";
  }
}
