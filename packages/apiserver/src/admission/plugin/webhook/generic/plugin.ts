/**
 * What the two webhook plugins share (admission/plugin/webhook/generic/webhook.go Webhook and
 * Dispatch): the configurations' source, the exemption of the admission configuration kinds, the
 * namespace informer's sync, then the kind's dispatcher.
 */
import type { Agent } from "node:https";
import type { KubeObject, Store } from "../../../../storage/index.ts";
import type { Lister } from "../../../../util/informer/store-informer.ts";
import type { Attributes } from "../../../attributes.ts";
import type { Authorizer } from "../../../../authorization/authorizer/interfaces.ts";
import type { EquivalentResourceMapper } from "../../../equivalent-resources.ts";
import type { AdmissionContext } from "../../../interfaces.ts";
import type { AdmissionWebhookMetrics } from "../../../metrics/metrics.ts";
import type { ServiceResolver } from "../../../../util/webhook/serviceresolver.ts";
import type { AuthenticationInfoResolver } from "../../../../util/webhook/authentication.ts";
import { newWebhookAgent, postWebhook } from "../client.ts";
import type { WebhookPoster } from "./call-hook.ts";
import { isExemptAdmissionConfigurationResource } from "./should-call-hook.ts";
import { WebhookSource, type WebhookAccessor } from "./source.ts";

export interface WebhookPluginOptions {
  store: Store;
  /** The namespace informer the server already keeps (namespaceSelector, namespaceObject). */
  namespaces: Lister<KubeObject> & { start?(): void };
  configurationsStoragePath: string;
  /** How a review is posted; the HTTPS client unless a test records calls. */
  post?: WebhookPoster;
  /** The webhook metrics on the server's registry; uncounted when absent. */
  metrics?: AdmissionWebhookMetrics;
  /** Resolves `clientConfig.service` references (kube-apiserver's buildServiceResolver). */
  serviceResolver?: ServiceResolver;
  /** The webhooks' client credentials (the plugin's WebhookAdmission kubeconfig); anonymous without it. */
  authInfoResolver?: AuthenticationInfoResolver;
  /** The server's authorizer, behind the matchConditions' `authorizer` variable. */
  authorizer?: Authorizer;
  /** The AuthorizeWithSelectors feature gate (default on): `fieldSelector()`/`labelSelector()` compile. */
  authorizeWithSelectors?: boolean;
  /**
   * The StrictCostEnforcementForWebhooks feature gate (default on; only an emulated 1.31 may turn
   * it off): matchConditions are charged the CEL library functions' costs.
   */
  strictCost?: boolean;
  /** Equivalent resources and their conversion, for matchPolicy Equivalent; only exact rules match without it. */
  equivalentResources?: EquivalentResourceMapper;
}

/** A dispatcher of one kind (validating or mutating). */
export type Dispatcher = (
  hooks: readonly WebhookAccessor[],
  a: Attributes,
  ctx: AdmissionContext,
  namespace: (name: string) => unknown,
  post?: WebhookPoster,
  metrics?: AdmissionWebhookMetrics,
  authorizer?: Authorizer,
  mapper?: EquivalentResourceMapper,
) => Promise<void>;

/** The generic webhook: `dispatch(a, ctx)` runs the configured webhooks; `stop()` ends the informer. */
export class Webhook {
  readonly #o: WebhookPluginOptions;
  readonly #source: WebhookSource;
  readonly #dispatcher: Dispatcher;
  readonly #post: WebhookPoster;
  #agent: Agent | undefined;

  constructor(o: WebhookPluginOptions, dispatcher: Dispatcher) {
    this.#o = o;
    if (o.post === undefined) {
      const agent = newWebhookAgent();
      this.#agent = agent;
      const post = { resolver: o.serviceResolver, agent, auth: o.authInfoResolver };
      this.#post = (cc, body, timeoutMs) => postWebhook(cc, body, timeoutMs, post);
    } else this.#post = o.post;
    this.#dispatcher = dispatcher;
    this.#source = new WebhookSource(o.store, o.configurationsStoragePath, {
      authorizeWithSelectors: o.authorizeWithSelectors ?? true,
      strictCost: o.strictCost ?? true,
    });
  }

  async dispatch(a: Attributes, ctx: AdmissionContext): Promise<void> {
    if (isExemptAdmissionConfigurationResource(a)) return;
    const hooks = await this.#source.webhooks();
    if (hooks.length === 0) return;
    const namespaces = this.#o.namespaces;
    if (a.namespace !== "") {
      namespaces.start?.();
      const wait = (namespaces as { waitForSync?: () => Promise<void> }).waitForSync;
      if (!namespaces.hasSynced() && wait) await wait.call(namespaces);
    }
    await this.#dispatcher(
      hooks,
      a,
      ctx,
      (n) => namespaces.get(n),
      this.#post,
      this.#o.metrics,
      this.#o.authorizer,
      this.#o.equivalentResources,
    );
  }

  stop(): void {
    this.#source.stop();
    this.#agent?.destroy();
  }
}
