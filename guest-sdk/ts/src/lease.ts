/**
 * The built-in `lease` tool: an expiring lock on a named resource, so that
 * two runs (or two agents) never act on the same thing at once.
 *
 * The holder is the run (the host takes the lease as `run:<run id>`), so two
 * runs never both hold one; a version deployed with `--grant lease:holder`
 * may name its holder instead. Resources are namespaced as kv keys are: a
 * name is this agent's own, `shared/<ns>/<name>` a shared namespace's
 * (`--grant lease:shared/<ns>`).
 */

import { expect, field, type JsonValue } from "./json.js";
import { callRaw, readResult, u64Arg } from "./tools.js";

/** The answer to `acquire`. */
export interface Lease {
  /** Whether this run (or the holder named) now holds the lease. */
  granted: boolean;
  /** Who holds the lease: the caller when granted, else the other holder. */
  holder: string;
  /** When the current holder's lease expires (ms since the Unix epoch, UTC). */
  expiresAt: number;
}

/**
 * Takes the lease on `resource` for this run (or `holder`, which needs
 * `--grant lease:holder`) for `ttlMs`, unless someone else holds an
 * unexpired one (then `granted` is false and `holder` names them).
 */
export function acquire(resource: string, ttlMs: number, idempotencyKey: string, holder?: string): Lease {
  const text = callRaw("lease", request("acquire", resource, holder, ttlMs), idempotencyKey);
  return readResult("lease", text, (result: JsonValue) => {
    const object = expect.object(result, "struct Lease");
    return {
      granted: field(object, "granted", expect.boolean),
      holder: field(object, "holder", expect.string),
      expiresAt: field(object, "expires_at", expect.u64),
    };
  });
}

/** Gives the lease back; `false` when this run (or `holder`) did not hold it. */
export function release(resource: string, idempotencyKey: string, holder?: string): boolean {
  const text = callRaw("lease", request("release", resource, holder), idempotencyKey);
  return readResult("lease", text, (result: JsonValue) =>
    field(expect.object(result, "struct Released"), "released", expect.boolean),
  );
}

/** The host's argument text, fields in the Rust SDK's order. */
export function request(op: "acquire" | "release", resource: string, holder?: string, ttlMs?: number): string {
  let text = `{"op":"${op}","resource":${JSON.stringify(resource)}`;
  if (holder !== undefined) text += `,"holder":${JSON.stringify(holder)}`;
  if (ttlMs !== undefined) text += `,"ttl_ms":${u64Arg("lease", "ttl_ms", ttlMs)}`;
  return text + "}";
}
