/** The imports of world `agent` (`wit/agent.wit`), as componentize-js provides them. */

declare module "wakeful:agent/tools@0.2.0" {
  /** Returns the result JSON; a `tool-error` is thrown as an Error whose `payload` is `{tag, val}`. */
  export function call(name: string, args: string, idempotencyKey: string): string;
}

declare module "wakeful:agent/host@0.2.0" {
  export function now(): bigint;
  export function runId(): string;
  export function log(level: "debug" | "info" | "warn" | "error", message: string): void;
}
