/**
 * CRDFinalizer (apiextensions-apiserver pkg/controller/finalizer/crd_finalizer.go): for a deleting
 * CRD with the `customresourcecleanup.apiextensions.k8s.io` finalizer it deletes every custom
 * resource, reporting progress in the Terminating condition, and removes the finalizer (through
 * the status subresource, as upstream) once none is left, which lets the CRD go.
 */
import { StatusError } from "@servicenet/api";
import {
  findCRDCondition,
  setCRDCondition,
  type CustomResourceDefinition,
  type CustomResourceDefinitionCondition,
} from "@servicenet/api/apiextensions/v1";
import { RateLimitingQueue } from "@servicenet/client/util/workqueue";
import { noopLogger, type Logger } from "@servicenet/component-base/logs";
import type { GenericStore } from "../../../registry/generic/store.ts";
import { jsonEqual } from "../../../registry/generic/strategy.ts";
import type { KubeObject } from "../../../storage/index.ts";
import type { Lister, StoreInformer } from "../../../util/informer/store-informer.ts";
import { customResourceCleanupFinalizer } from "../../registry/customresourcedefinition/etcd.ts";
import { runWorker } from "../queue-worker.ts";

/** How often a CRD whose objects are still finalizing is looked at again. */
const recheckMs = 200;

export interface CRDFinalizerOptions {
  informer: StoreInformer;
  crdStore: GenericStore;
  /** The store of the CRD's custom resources (any version: they share the storage). */
  instancesStore(crd: CustomResourceDefinition): GenericStore | undefined;
  now: () => string;
  logger?: Logger;
}

const terminating = (reason: string, message: string): CustomResourceDefinitionCondition => ({
  type: "Terminating",
  status: "True",
  reason,
  message,
});

export class CRDFinalizer {
  readonly #queue = new RateLimitingQueue("crd_finalizer");
  readonly #crds: Lister<KubeObject>;
  readonly #o: CRDFinalizerOptions;

  constructor(o: CRDFinalizerOptions) {
    this.#o = o;
    this.#crds = o.informer;
    const enqueue = (obj: KubeObject): void => {
      const crd = obj as unknown as CustomResourceDefinition;
      if (crd.metadata.deletionTimestamp && (crd.metadata.finalizers ?? []).includes(customResourceCleanupFinalizer))
        this.#queue.add(crd.metadata.name ?? "");
    };
    o.informer.addEventHandler({ onAdd: enqueue, onUpdate: (_o, n) => enqueue(n) });
  }

  run(): Promise<void> {
    return runWorker(this.#queue, (k) => this.sync(k), this.#o.logger ?? noopLogger);
  }

  stop(): void {
    this.#queue.shutDown();
  }

  async sync(name: string): Promise<void> {
    const crd = this.#crds.get(name) as unknown as CustomResourceDefinition | undefined;
    if (!crd?.metadata.deletionTimestamp || !(crd.metadata.finalizers ?? []).includes(customResourceCleanupFinalizer)) return;
    // Progress is reported once; a CRD waiting on its objects' finalizers keeps InstanceDeletionCheck
    // (rewriting both would requeue it on its own writes forever).
    if (findCRDCondition(crd, "Terminating")?.reason === "InstanceDeletionPending")
      await this.#setStatus(name, (c) =>
        setCRDCondition(c, terminating("InstanceDeletionInProgress", "CustomResource deletion is in progress"), this.#o.now()),
      );
    const store = this.#o.instancesStore(crd);
    if (store !== undefined) {
      const left = await this.#deleteInstances(store);
      if (left > 0) {
        await this.#setStatus(name, (c) =>
          setCRDCondition(
            c,
            terminating("InstanceDeletionCheck", `could not confirm zero CustomResources remaining: ${left} remaining`),
            this.#o.now(),
          ),
        );
        this.#queue.addAfter(name, recheckMs);
        return;
      }
    }
    await this.#setStatus(name, (c) => {
      setCRDCondition(c, terminating("InstanceDeletionCompleted", "removed all instances"), this.#o.now());
      c.metadata.finalizers = (c.metadata.finalizers ?? []).filter((f) => f !== customResourceCleanupFinalizer);
    });
  }

  /** deleteInstances: deletes every object; returns how many are still there (held by finalizers). */
  async #deleteInstances(store: GenericStore): Promise<number> {
    const list = await store.list(undefined);
    for (const o of list.items) {
      if (o.metadata.deletionTimestamp) continue;
      try {
        await store.delete(o.metadata.namespace, o.metadata.name ?? "");
      } catch (e) {
        if (!(e instanceof StatusError && e.reason === "NotFound")) throw e;
      }
    }
    return (await store.list(undefined)).items.length;
  }

  /** UpdateStatus with `mutate` applied, unless it changes nothing (no write, so no event to requeue on). */
  async #setStatus(name: string, mutate: (crd: CustomResourceDefinition) => void): Promise<void> {
    const cached = this.#crds.get(name);
    if (cached !== undefined) {
      const next = structuredClone(cached) as unknown as CustomResourceDefinition;
      mutate(next);
      if (jsonEqual(next, cached)) return;
    }
    await this.#o.crdStore.update(
      undefined,
      name,
      async (current) => {
        if (current === null) throw StatusError.notFound({ group: "apiextensions.k8s.io", resource: "customresourcedefinitions" }, name);
        const crd = structuredClone(current) as unknown as CustomResourceDefinition;
        mutate(crd);
        return crd;
      },
      { subresource: "status" },
    );
  }
}
