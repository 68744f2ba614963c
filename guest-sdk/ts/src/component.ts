/**
 * The component's side of the SDK: installs the WIT imports as the host and
 * makes an agent's exports. The build bundles an entry that reads
 *
 * ```ts
 * import agent from "./app.ts";
 * import { exportAgent } from "wakeful-sdk/component";
 * export const { info, step, migrate } = exportAgent(agent);
 * ```
 *
 * Only this file imports `wakeful:agent/*`; unit tests never load it.
 */
/// <reference path="./wit.d.ts" />

import { call } from "wakeful:agent/tools@0.2.0";
import { log, now, runId } from "wakeful:agent/host@0.2.0";

import { installHost, type ToolErrorKind } from "./host.js";

export { exportAgent } from "./export.js";

const KINDS: readonly string[] = ["denied", "unknown", "budget", "invalid", "failed"];

installHost({
  call(name, args, idempotencyKey) {
    try {
      return { ok: true, result: call(name, args, idempotencyKey) };
    } catch (e) {
      const payload = (e as { payload?: { tag?: unknown; val?: unknown } } | null)?.payload;
      if (payload && typeof payload.tag === "string" && KINDS.includes(payload.tag)) {
        return { ok: false, kind: payload.tag as ToolErrorKind, message: String(payload.val) };
      }
      throw e;
    }
  },
  now: () => Number(now()),
  runId: () => runId(),
  log: (level, message) => log(level, message),
});
