/**
 * Version 2 of `agents/ts/vendor-payment`, whose `amount_usd` is now
 * `amount`: its `migrate` renames the field, and nothing else (the SDK
 * carries the approval request and the link across). For upgrade tests,
 * as `agents/testing/vendor-payment-v2` is for the Rust agent.
 */

import { canonicalJson, context, defineAgent, expect, field, inputOf, Step, StepError } from "wakeful-sdk";
import { tools, waits, type HttpResult, type JsonValue } from "wakeful-sdk";

export const APPROVE_ABOVE_USD = 1000;
export const DAY_MS = 24 * 60 * 60 * 1000;

/** The start input, and all the run keeps. */
export interface State {
  invoice: string;
  vendor: string;
  amount: number;
  iban: string;
}

export default defineAgent<State>({
  name: "vendor-payment-ts",
  version: "2.0.0",
  tools: ["vendors", "payments", "callback"],
  description: "Pays a vendor invoice after approval and waits for the bank.",
  init: () => ({ invoice: "", vendor: "", amount: 0, iban: "" }),
  migrate(fromVersion, old) {
    if (old === null || typeof old !== "object" || Array.isArray(old)) {
      throw new StepError(`state of ${fromVersion}: not an object: ${canonicalJson(old)}`);
    }
    const { amount_usd, ...rest } = old;
    return { ...rest, amount: amount_usd ?? rest["amount"] } as unknown as State;
  },
  step(s, wake) {
    if (wake.kind === "start") {
      Object.assign(s, readInput(inputOf(wake)));
      const bank = http("vendors", { path: `/${s.vendor}` }, key(s, "bank"));
      const iban = typeof bank === "object" && bank !== null ? (bank as { iban?: JsonValue }).iban : null;
      if (typeof iban !== "string") throw new StepError("the vendor has no iban");
      s.iban = iban;
      if (s.amount <= APPROVE_ABOVE_USD) return pay(s);
      waits.ask("approve", `Pay ${s.amount.toFixed(2)} USD to ${s.vendor}?`, { ...s }, 2 * DAY_MS);
      return Step.keepWaiting().status("waiting for approval");
    }
    const [approval, bank] = [waits.answerTo(wake, "approve"), waits.answerTo(wake, "bank")];
    if (approval?.kind === "approved") return pay(s).status(`approved by ${approval.approval.by}`);
    if (approval?.kind === "refused") return Step.done(`refused by ${approval.approval.by}`);
    if (approval !== null) return Step.done("nobody approved the payment in time");
    if (bank?.kind === "called") {
      return Step.done(`paid ${s.invoice} (${s.amount.toFixed(2)} USD): ${canonicalJson(bank.body)}`);
    }
    if (bank !== null) return Step.done(`paid ${s.invoice}; the bank never confirmed`);
    return Step.keepWaiting();
  },
});

/** Pays once (keyed by the invoice) and waits for the bank on a link. */
function pay(s: State): Step {
  const link = context("callback", () => waits.link("bank", 2 * DAY_MS, key(s, "link")));
  const body = { invoice: s.invoice, iban: s.iban, amount: s.amount, callback_url: link.url };
  http("payments", { body }, key(s, "pay"));
  return Step.keepWaiting().status("paid; waiting for the bank");
}

/** Calls an `http` tool and returns the body of a 2xx answer. */
function http(tool: string, args: JsonValue, idempotencyKey: string): JsonValue {
  const got = context(tool, () => tools.call<HttpResult>(tool, args, idempotencyKey));
  if (got.status >= 200 && got.status < 300) return got.body;
  throw new StepError(`${tool} answered ${canonicalJson(got)}`);
}

function readInput(value: JsonValue): Pick<State, "invoice" | "vendor" | "amount"> {
  try {
    const input = expect.object(value, "struct State");
    const [invoice, vendor] = [field(input, "invoice", expect.string), field(input, "vendor", expect.string)];
    return { invoice, vendor, amount: field(input, "amount", expect.f64) };
  } catch (e) {
    throw new StepError(`the start input does not fit this agent: ${e instanceof Error ? e.message : String(e)}`);
  }
}

function key(s: State, what: string): string {
  return `${s.invoice}:${what}`;
}
