/**
 * Replaying a cassette: the tool calls of a real run, as `wakeful cassette
 * RUN` writes them, answering the same calls of a test (`testing.replay`).
 *
 * A call is answered by the entry with the same fingerprint (the SHA-256 of
 * the canonical JSON of agent `NAME@VERSION`, tool, key and arguments),
 * computed here from each entry's own fields, never by position: a changed
 * prompt or another agent version finds no old answer, and the miss throws
 * a `CassetteMiss` naming the call.
 */

import type { CallOutcome, ToolErrorKind } from "./host.js";
import { canonicalJson, type JsonValue } from "./json.js";
import { hex, sha256, utf8 } from "./sha256.js";

/** The cassette format this SDK reads. */
const FORMAT = 1;
/** Characters of arguments a miss shows. */
const SHOWN = 300;
/** Characters of the start two differing texts share that a miss shows. */
const KEPT = 20;
const KINDS: readonly string[] = ["denied", "unknown", "budget", "invalid", "failed"];

/** A tool call that a replayed cassette has no answer for: the test fails, naming the call. */
export class CassetteMiss extends Error {
  override name = "CassetteMiss";
}

/**
 * The fingerprint of a call: the lowercase hex SHA-256 of the canonical JSON
 * (keys sorted, no whitespace) of `{agent, tool, key, args}`, as `wakeful
 * cassette` writes it.
 */
export function fingerprint(agent: string, tool: string, key: string, args: JsonValue): string {
  return hex(sha256(utf8(canonicalJson({ agent, tool, key, args }))));
}

interface Entry {
  tool: string;
  key: string;
  args: JsonValue;
  result?: JsonValue;
  error?: { kind: ToolErrorKind; message: string };
}

/** A parsed cassette, its entries by the fingerprint this SDK computes of each. */
export class Cassette {
  private readonly recordedFor: string;
  private readonly entries: Entry[];
  private readonly byFingerprint = new Map<string, Entry>();

  /** Parses `cassette` (its text, or the parsed value); throws a TypeError naming what is wrong. */
  constructor(
    cassette: string | object,
    private readonly agent: string,
  ) {
    const doc = (typeof cassette === "string" ? JSON.parse(cassette) : cassette) as { [k: string]: JsonValue } | null;
    if (doc === null || typeof doc !== "object" || doc["cassette"] !== FORMAT) {
      throw new TypeError(`not a cassette of format ${FORMAT}; write it with \`wakeful cassette RUN\``);
    }
    const recordedFor = doc["agent"];
    if (typeof recordedFor !== "string") {
      throw new TypeError('the cassette names no agent ("agent": "NAME@VERSION")');
    }
    this.recordedFor = recordedFor;
    const list = doc["entries"];
    if (!Array.isArray(list)) throw new TypeError("the cassette has no `entries` list");
    this.entries = list.map(entry);
    for (const e of this.entries) this.byFingerprint.set(fingerprint(recordedFor, e.tool, e.key, e.args), e);
  }

  /** The recorded outcome of this call; throws `CassetteMiss` when there is none. */
  answer(tool: string, args: JsonValue, key: string): CallOutcome {
    const print = fingerprint(this.agent, tool, key, args);
    const e = this.byFingerprint.get(print);
    if (e === undefined) throw new CassetteMiss(this.miss(tool, args, key, print));
    if (e.error !== undefined) return { ok: false, kind: e.error.kind, message: e.error.message };
    return { ok: true, result: canonicalJson(e.result) };
  }

  private miss(tool: string, args: JsonValue, key: string, print: string): string {
    let text =
      `cassette miss: no recorded call matches tool \`${tool}\`, key \`${key}\` of agent ${this.agent} ` +
      `(fingerprint ${print})\n  args: ${shown(args)}`;
    const same = this.entries.find((e) => e.tool === tool && e.key === key);
    if (same === undefined) {
      return (
        text +
        "\n  the cassette has no call of this tool with this key: the agent makes a new call, " +
        "or the host refused it with more arguments than its audit keeps"
      );
    }
    if (canonicalJson(same.args) === canonicalJson(args)) {
      return (
        text +
        `\n  the cassette has this call recorded for agent ${this.recordedFor}, not ${this.agent}: ` +
        "record the run again on this version"
      );
    }
    const where = difference(same.args, args, "");
    text +=
      `\n  the cassette has \`${tool}\` \`${key}\` recorded for other arguments` +
      `${where === undefined ? "" : ` (first difference at ${where})`}:\n  recorded: ${shown(same.args)}`;
    if (this.recordedFor !== this.agent) text += `\n  and for agent ${this.recordedFor}`;
    return text;
  }
}

function entry(value: JsonValue, i: number): Entry {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new TypeError(`cassette entry ${i} is not an object`);
  }
  for (const field of ["tool", "key"]) {
    if (typeof value[field] !== "string") throw new TypeError(`cassette entry ${i} has no \`${field}\` text`);
  }
  if (!("args" in value)) throw new TypeError(`cassette entry ${i} has no \`args\``);
  if ("result" in value === "error" in value) {
    throw new TypeError(`cassette entry ${i} needs a \`result\` or an \`error\`, not both`);
  }
  const error = value["error"];
  if (
    "error" in value &&
    !(
      error !== null &&
      typeof error === "object" &&
      !Array.isArray(error) &&
      KINDS.includes(error["kind"] as string) &&
      typeof error["message"] === "string"
    )
  ) {
    throw new TypeError(`cassette entry ${i} has an \`error\` that is no tool error: ${canonicalJson(error)}`);
  }
  return value as unknown as Entry;
}

const ABSENT = Symbol("absent");

/** The JSON path where `recorded` and `now` first differ, with both values there. */
function difference(recorded: JsonValue, now: JsonValue, path: string): string | undefined {
  const isObject = (v: JsonValue): v is { [k: string]: JsonValue } =>
    v !== null && typeof v === "object" && !Array.isArray(v);
  if (isObject(recorded) && isObject(now)) {
    const keys = [...new Set([...Object.keys(recorded), ...Object.keys(now)])].sort();
    for (const k of keys) {
      const a = k in recorded ? recorded[k]! : ABSENT;
      const b = k in now ? now[k]! : ABSENT;
      if (a === ABSENT || b === ABSENT) return both(`${path}/${k}`, a, b);
      const found = difference(a, b, `${path}/${k}`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (Array.isArray(recorded) && Array.isArray(now) && recorded.length === now.length) {
    for (let i = 0; i < recorded.length; i++) {
      const found = difference(recorded[i]!, now[i]!, `${path}/${i}`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (canonicalJson(recorded) === canonicalJson(now)) return undefined;
  return both(path, recorded, now);
}

function both(path: string, recorded: JsonValue | typeof ABSENT, now: JsonValue | typeof ABSENT): string {
  const show = (v: JsonValue | typeof ABSENT) => (v === ABSENT ? "(absent)" : shown(v));
  if (typeof recorded === "string" && typeof now === "string") {
    // Most of the start they share left out, so that a long prompt shows
    // where it changed.
    const [a, b] = [Array.from(recorded), Array.from(now)];
    let common = 0;
    while (common < a.length && common < b.length && a[common] === b[common]) common++;
    const skip = common - KEPT;
    if (skip > 0) [recorded, now] = ["…" + a.slice(skip).join(""), "…" + b.slice(skip).join("")];
  }
  return `${path === "" ? "/" : path}: recorded ${show(recorded)}, now ${show(now)}`;
}

function shown(value: JsonValue): string {
  const text = canonicalJson(value);
  const chars = Array.from(text);
  return chars.length <= SHOWN ? text : `${chars.slice(0, SHOWN).join("")}… (${utf8(text).length} bytes)`;
}
