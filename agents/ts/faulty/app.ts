/**
 * Fails on purpose, the ways an author's agent fails: an error deep in its
 * own code, and a tool error it does not catch. The host's tests check that
 * an operator reads the author's own error in `wakeful show`.
 */

import { defineAgent, Step, tools } from "wakeful-sdk";

export function planAction(plan: { action?: string; reason?: string }): string {
  if (plan.action === undefined) {
    throw new RangeError(`the plan has no action: ${JSON.stringify(plan)}`);
  }
  return plan.action;
}

export default defineAgent<Record<string, never>>({
  name: "faulty-ts",
  version: "0.1.0",
  tools: [],
  description: "Fails on purpose, as its start input says.",
  init: () => ({}),
  step(_state, wake) {
    const how = wake.kind === "start" ? (wake.input as { fail?: string } | null)?.fail : undefined;
    if (how === "raise") {
      planAction({ reason: "memory" });
    } else if (how === "tool") {
      tools.call("pager", { to: "on-call" }, "page:1");
    }
    return Step.done("nothing failed");
  },
});
