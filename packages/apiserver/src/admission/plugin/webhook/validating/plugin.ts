/**
 * The ValidatingAdmissionWebhook admission plugin (admission/plugin/webhook/validating/plugin.go
 * over generic/webhook.go): ValidatingWebhookConfigurations followed through an informer, each
 * request dispatched to the matching webhooks in the validating phase.
 */
import type { Store, KubeObject } from "../../../../storage/index.ts";
import type { Lister } from "../../../../util/informer/store-informer.ts";
import type { Attributes } from "../../../attributes.ts";
import type { AdmissionContext, AdmissionPlugin } from "../../../interfaces.ts";
import type { WebhookPoster } from "../generic/call-hook.ts";
import { isExemptAdmissionConfigurationResource } from "../generic/should-call-hook.ts";
import { WebhookSource } from "../generic/source.ts";
import { dispatchValidating } from "./dispatcher.ts";

export const validatingAdmissionWebhookPluginName = "ValidatingAdmissionWebhook";

export interface WebhookPluginOptions {
  store: Store;
  /** The namespace informer the server already keeps (namespaceSelector, namespaceObject). */
  namespaces: Lister<KubeObject> & { start?(): void };
  configurationsStoragePath: string;
  /** How a review is posted; the HTTPS client unless a test records calls. */
  post?: WebhookPoster;
}

/** The plugin; `stop()` ends its informer. */
export class ValidatingAdmissionWebhookPlugin implements AdmissionPlugin {
  readonly name = validatingAdmissionWebhookPluginName;
  readonly #o: WebhookPluginOptions;
  readonly #source: WebhookSource;

  constructor(o: WebhookPluginOptions) {
    this.#o = o;
    this.#source = new WebhookSource(o.store, o.configurationsStoragePath);
  }

  handles(): boolean {
    return true;
  }

  async validate(a: Attributes, ctx: AdmissionContext): Promise<void> {
    if (isExemptAdmissionConfigurationResource(a)) return;
    const hooks = await this.#source.webhooks();
    if (hooks.length === 0) return;
    await syncNamespaces(this.#o.namespaces, a);
    await dispatchValidating(hooks, a, ctx, (n) => this.#o.namespaces.get(n), this.#o.post);
  }

  stop(): void {
    this.#source.stop();
  }
}

/** Starts and waits for the namespace informer when the request is in a namespace. */
export async function syncNamespaces(namespaces: WebhookPluginOptions["namespaces"], a: Attributes): Promise<void> {
  if (a.namespace === "") return;
  namespaces.start?.();
  const w = (namespaces as { waitForSync?: () => Promise<void> }).waitForSync;
  if (!namespaces.hasSynced() && w) await w.call(namespaces);
}
