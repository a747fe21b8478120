/**
 * EstablishingController (apiextensions-apiserver pkg/controller/establish/establishing_controller.go):
 * turns Established True once the CRD's names are accepted. The custom-resource handler queues a
 * CRD when it sees NamesAccepted without Established, so the condition is set only after the
 * handler can serve the resource.
 */
import { StatusError } from "@servicenet/api";
import { RateLimitingQueue } from "@servicenet/client/util/workqueue";
import { isCRDConditionTrue, setCRDCondition, type CustomResourceDefinition } from "@servicenet/api/apiextensions/v1";
import { noopLogger, type Logger } from "@servicenet/component-base/logs";
import type { GenericStore } from "../../../registry/generic/store.ts";
import type { KubeObject } from "../../../storage/index.ts";
import type { Lister } from "../../../util/informer/store-informer.ts";
import { runWorker } from "../queue-worker.ts";

export class EstablishingController {
  readonly #queue = new RateLimitingQueue("crdEstablishing");
  readonly #crds: Lister<KubeObject>;
  readonly #store: GenericStore;
  readonly #now: () => string;
  readonly #logger: Logger;

  constructor(crds: Lister<KubeObject>, store: GenericStore, now: () => string, logger: Logger = noopLogger) {
    this.#crds = crds;
    this.#store = store;
    this.#now = now;
    this.#logger = logger;
  }

  /** QueueCRD: `delayMs` lets HA apiservers see the names first (upstream waits 5 s with several). */
  queueCRD(name: string, delayMs = 0): void {
    if (delayMs > 0) this.#queue.addAfter(name, delayMs);
    else this.#queue.add(name);
  }

  run(): Promise<void> {
    return runWorker(this.#queue, (k) => this.sync(k), this.#logger);
  }

  stop(): void {
    this.#queue.shutDown();
  }

  /** Sets Established=True (reason InitialNamesAccepted) on a CRD whose names are accepted. */
  async sync(name: string): Promise<void> {
    const cached = this.#crds.get(name) as unknown as CustomResourceDefinition | undefined;
    if (cached === undefined) return;
    if (!isCRDConditionTrue(cached, "NamesAccepted") || isCRDConditionTrue(cached, "Established")) return;
    try {
      await this.#store.update(
        undefined,
        name,
        async (current) => {
          if (current === null) throw StatusError.notFound({ group: "apiextensions.k8s.io", resource: "customresourcedefinitions" }, name);
          const crd = structuredClone(current) as unknown as CustomResourceDefinition;
          setCRDCondition(
            crd,
            { type: "Established", status: "True", reason: "InitialNamesAccepted", message: "the initial names have been accepted" },
            this.#now(),
          );
          return crd;
        },
        { subresource: "status" },
      );
    } catch (e) {
      if (e instanceof StatusError && (e.reason === "NotFound" || e.reason === "Conflict")) return;
      throw e;
    }
  }
}
