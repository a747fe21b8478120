/**
 * The ValidatingAdmissionWebhook admission plugin (admission/plugin/webhook/validating/plugin.go):
 * ValidatingWebhookConfigurations, dispatched in the validating phase.
 */
import type { Attributes } from "../../../attributes.ts";
import type { AdmissionContext, AdmissionPlugin } from "../../../interfaces.ts";
import { Webhook, type WebhookPluginOptions } from "../generic/plugin.ts";
import { dispatchValidating } from "./dispatcher.ts";

export const validatingAdmissionWebhookPluginName = "ValidatingAdmissionWebhook";

/** The plugin; `stop()` ends its informer. */
export class ValidatingAdmissionWebhookPlugin implements AdmissionPlugin {
  readonly name = validatingAdmissionWebhookPluginName;
  readonly #webhook: Webhook;

  constructor(o: WebhookPluginOptions) {
    this.#webhook = new Webhook(o, dispatchValidating);
  }

  handles(): boolean {
    return true;
  }

  validate(a: Attributes, ctx: AdmissionContext): Promise<void> {
    return this.#webhook.dispatch(a, ctx);
  }

  stop(): void {
    this.#webhook.stop();
  }
}
