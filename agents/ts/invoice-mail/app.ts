/**
 * Waits for the invoice email and files it in `kv` under `invoices/<id>`.
 * A port of the Rust `agents/invoice-mail`.
 */

import { context, defineAgent, kv, log, Step } from "wakeful-sdk";

const TOPIC = "mail:invoice";

export interface State {
  /** The id of the filed mail, once filed. */
  filed: string | null;
}

export default defineAgent<State>({
  name: "invoice-mail-ts",
  version: "0.1.0",
  tools: ["kv"],
  description: "Files the invoice email once it arrives.",
  init: () => ({ filed: null }),
  step(state, wake) {
    if (wake.kind === "event" && wake.topic === TOPIC) {
      const key = `invoices/${wake.id}`;
      // Keyed by the mail, so a retried step files it once.
      context(`kv put ${key}`, () => kv.put(key, wake.payload, `file:${wake.id}`));
      log.info(`filed ${key}`);
      state.filed = wake.id;
      return Step.done(`filed invoice mail ${wake.id}`).status("invoice filed");
    }
    // The start, and anything else while waiting: keep waiting.
    return Step.waitEvent(TOPIC).status("waiting on the invoice email");
  },
});
