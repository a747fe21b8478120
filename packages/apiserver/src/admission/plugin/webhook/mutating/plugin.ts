/**
 * The MutatingAdmissionWebhook admission plugin (admission/plugin/webhook/mutating/plugin.go):
 * MutatingWebhookConfigurations, dispatched in the mutating phase, before the strategy.
 */
import type { Attributes } from "../../../attributes.ts";
import type { AdmissionContext, AdmissionPlugin } from "../../../interfaces.ts";
import { Webhook, type WebhookPluginOptions } from "../generic/plugin.ts";
import { dispatchMutating } from "./dispatcher.ts";

export const mutatingAdmissionWebhookPluginName = "MutatingAdmissionWebhook";

/** The plugin; `stop()` ends its informer. */
export class MutatingAdmissionWebhookPlugin implements AdmissionPlugin {
  readonly name = mutatingAdmissionWebhookPluginName;
  readonly #webhook: Webhook;

  constructor(o: WebhookPluginOptions) {
    this.#webhook = new Webhook(o, dispatchMutating);
  }

  handles(): boolean {
    return true;
  }

  admit(a: Attributes, ctx: AdmissionContext): Promise<void> {
    return this.#webhook.dispatch(a, ctx);
  }

  stop(): void {
    this.#webhook.stop();
  }
}
