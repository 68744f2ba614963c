/**
 * What the host tells the guest about the step it runs, and the one place
 * the SDK reaches the host. Inside a component, `component.ts` installs the
 * WIT imports here; in unit tests, `testing.ts` installs a fake host. The
 * rest of the SDK never imports `wakeful:agent/*`, so it runs under Node.
 */

/** The levels of `host.log`. */
export type Level = "debug" | "info" | "warn" | "error";

/** What a tool call came back with, before the SDK makes it a value or a ToolError. */
export type CallOutcome =
  | { ok: true; result: string }
  | { ok: false; kind: ToolErrorKind; message: string };

/** The WIT `tool-error` cases. */
export type ToolErrorKind = "denied" | "unknown" | "budget" | "invalid" | "failed";

/** The host's functions, as the SDK calls them. */
export interface HostBinding {
  call(name: string, args: string, idempotencyKey: string): CallOutcome;
  /** Milliseconds since the Unix epoch, UTC. */
  now(): number;
  runId(): string;
  log(level: Level, message: string): void;
}

let binding: HostBinding | undefined;

/** Makes `host` the one the SDK talks to. */
export function installHost(host: HostBinding): void {
  binding = host;
}

/** The installed host; a clear error when there is none. */
export function currentHost(): HostBinding {
  if (binding === undefined) {
    throw new Error(
      "no wakeful host: inside a component the build installs it (wakeful-sdk/component); " +
        "in unit tests, import 'wakeful-sdk/testing' first",
    );
  }
  return binding;
}

/** The step's logical time (ms since the Unix epoch, UTC), the same for the whole step. */
export function now(): number {
  return currentHost().now();
}

/** The id of the run being stepped. */
export function runId(): string {
  return currentHost().runId();
}

/**
 * Lines in the run's log, which operators read with its history. The log is
 * bounded: excess lines are dropped.
 */
export const log = {
  /** A detail useful when debugging the agent. */
  debug(message: string): void {
    currentHost().log("debug", message);
  },
  /** What the agent decided or did. */
  info(message: string): void {
    currentHost().log("info", message);
  },
  /** Something unexpected that the agent handled. */
  warn(message: string): void {
    currentHost().log("warn", message);
  },
  /** A failure. */
  error(message: string): void {
    currentHost().log("error", message);
  },
};
