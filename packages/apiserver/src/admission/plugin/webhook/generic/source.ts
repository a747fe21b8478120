/**
 * The webhooks of every configuration of one kind, followed through an informer over the
 * apiserver's own storage (admission/configuration/{validating,mutating}_webhook_manager.go):
 * configurations in name order, webhooks in their order within each, matchConditions compiled
 * once per configuration resourceVersion.
 */
import type { MutatingWebhook, MutatingWebhookConfiguration } from "@servicenet/api/admissionregistration/v1";
import type { CompilationResult } from "../../../../apiserver/cel/index.ts";
import type { KubeObject, Store } from "../../../../storage/index.ts";
import { StoreInformer } from "../../../../util/informer/store-informer.ts";
import { compileMatchCondition, type MatchConditionCompileOptions } from "../matchconditions/compile.ts";

/** One webhook with where it comes from (webhook.WebhookAccessor). */
export interface WebhookAccessor {
  /** Unique per configuration and index, as upstream's accessor UID. */
  uid: string;
  configurationName: string;
  webhook: MutatingWebhook;
  matchConditions: { name: string; program: CompilationResult }[];
}

type Configuration = MutatingWebhookConfiguration & KubeObject;

/** A configuration informer and its compiled webhooks; `stop()` ends the informer. */
export class WebhookSource {
  readonly #informer: StoreInformer<Configuration>;
  #cache = new Map<string, { resourceVersion: string; hooks: WebhookAccessor[] }>();

  readonly #gates: MatchConditionCompileOptions;

  /** `gates`: AuthorizeWithSelectors and StrictCostEnforcementForWebhooks, for the matchConditions. */
  constructor(store: Store, storagePath: string, gates: MatchConditionCompileOptions = {}) {
    this.#gates = gates;
    this.#informer = new StoreInformer<Configuration>(store, storagePath);
    this.#informer.start();
  }

  /** The webhooks now configured; waits for the informer's first list. */
  async webhooks(): Promise<WebhookAccessor[]> {
    if (!this.#informer.hasSynced()) await this.#informer.waitForSync();
    const configs = this.#informer.list().sort((a, b) => ((a.metadata.name ?? "") < (b.metadata.name ?? "") ? -1 : 1));
    const next = new Map<string, { resourceVersion: string; hooks: WebhookAccessor[] }>();
    const out: WebhookAccessor[] = [];
    for (const c of configs) {
      const name = c.metadata.name ?? "";
      const rv = c.metadata.resourceVersion ?? "";
      let entry = this.#cache.get(name);
      if (entry?.resourceVersion !== rv) entry = { resourceVersion: rv, hooks: accessors(c, this.#gates) };
      next.set(name, entry);
      out.push(...entry.hooks);
    }
    this.#cache = next;
    return out;
  }

  stop(): void {
    this.#informer.stop();
  }
}

function accessors(c: Configuration, gates: MatchConditionCompileOptions): WebhookAccessor[] {
  const name = c.metadata.name ?? "";
  return (c.webhooks ?? []).map((webhook, i) => ({
    uid: `${name}/${webhook.name}/${i}`,
    configurationName: name,
    webhook,
    matchConditions: (webhook.matchConditions ?? []).map((m) => ({
      name: m.name,
      program: compileMatchCondition(m.expression, gates),
    })),
  }));
}
