/**
 * The MutatingAdmissionWebhook admission plugin (admission/plugin/webhook/mutating/plugin.go over
 * generic/webhook.go): MutatingWebhookConfigurations followed through an informer, each request's
 * object handed to the matching webhooks in the mutating phase, before the strategy.
 */
import type { Attributes } from "../../../attributes.ts";
import type { AdmissionContext, AdmissionPlugin } from "../../../interfaces.ts";
import { isExemptAdmissionConfigurationResource } from "../generic/should-call-hook.ts";
import { WebhookSource } from "../generic/source.ts";
import { syncNamespaces, type WebhookPluginOptions } from "../validating/plugin.ts";
import { dispatchMutating } from "./dispatcher.ts";

export const mutatingAdmissionWebhookPluginName = "MutatingAdmissionWebhook";

/** The plugin; `stop()` ends its informer. */
export class MutatingAdmissionWebhookPlugin implements AdmissionPlugin {
  readonly name = mutatingAdmissionWebhookPluginName;
  readonly #o: WebhookPluginOptions;
  readonly #source: WebhookSource;

  constructor(o: WebhookPluginOptions) {
    this.#o = o;
    this.#source = new WebhookSource(o.store, o.configurationsStoragePath);
  }

  handles(): boolean {
    return true;
  }

  async admit(a: Attributes, ctx: AdmissionContext): Promise<void> {
    if (isExemptAdmissionConfigurationResource(a)) return;
    const hooks = await this.#source.webhooks();
    if (hooks.length === 0) return;
    await syncNamespaces(this.#o.namespaces, a);
    await dispatchMutating(hooks, a, ctx, (n) => this.#o.namespaces.get(n), this.#o.post);
  }

  stop(): void {
    this.#source.stop();
  }
}
