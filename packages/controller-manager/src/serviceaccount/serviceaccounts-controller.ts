/**
 * The ServiceAccounts controller (pkg/controller/serviceaccount/serviceaccounts_controller.go):
 * every active namespace has the `default` ServiceAccount. A namespace's add or update, and the
 * delete of a ServiceAccount, queue the namespace; its sync creates what the lister lacks.
 */
import {
  defaultServiceAccountName,
  namespacePhases,
  namespaceTerminatingCause,
  type Namespace,
  type ServiceAccount,
} from "@servicenet/api";
import { hasStatusCause, isAlreadyExists } from "@servicenet/client/errors";
import type { Informer } from "@servicenet/client/tools/cache";
import { RateLimitingQueue } from "@servicenet/client/util/workqueue";
import { realClock, type Clock } from "@servicenet/component-base/clock";
import { noopLogger, type Logger } from "@servicenet/component-base/logs";
import { Controller } from "../framework/controller.ts";

/** The controller's name in logs and health checks (upstream's). */
export const serviceAccountsControllerName = "serviceaccount-controller";

/** The write of the controller: ServiceAccounts(ns).Create. */
export interface ServiceAccountClient {
  create(namespace: string, sa: ServiceAccount): Promise<void>;
}

export interface ServiceAccountsDeps {
  namespaces: Informer<Namespace>;
  serviceAccounts: Informer<ServiceAccount>;
  client: ServiceAccountClient;
  /** ServiceAccountsControllerOptions.ServiceAccounts: the names ensured in every namespace (default: `default`). */
  serviceAccountsToEnsure?: readonly string[];
  queue?: RateLimitingQueue<string>;
  clock?: Clock;
  logger?: Logger;
}

export class ServiceAccountsController {
  readonly queue: RateLimitingQueue<string>;
  readonly #d: ServiceAccountsDeps;
  readonly #names: readonly string[];
  readonly #runner: Controller;

  constructor(deps: ServiceAccountsDeps) {
    this.#d = deps;
    this.#names = deps.serviceAccountsToEnsure ?? [defaultServiceAccountName];
    this.queue = deps.queue ?? new RateLimitingQueue<string>("serviceaccount", deps.clock ?? realClock);
    const enqueueNamespace = (ns: Namespace) => this.queue.add(ns.metadata.name ?? "");
    deps.namespaces.addEventHandler({ onAdd: enqueueNamespace, onUpdate: (_old, ns) => enqueueNamespace(ns) });
    // serviceAccountDeleted: the namespace of a deleted ServiceAccount is looked at again.
    deps.serviceAccounts.addEventHandler({ onDelete: (sa) => this.queue.add(sa.metadata.namespace ?? "") });
    this.#runner = new Controller({
      name: serviceAccountsControllerName,
      queue: this.queue,
      sync: (k) => this.syncNamespace(k),
      informers: [deps.namespaces, deps.serviceAccounts],
      // Upstream requeues a failed namespace rate-limited, without a retry limit.
      maxRetries: Number.POSITIVE_INFINITY,
      logger: deps.logger ?? noopLogger,
    });
  }

  run(signal: AbortSignal, workers: number): Promise<void> {
    return this.#runner.run(signal, workers);
  }

  /** syncNamespace: creates the missing ServiceAccounts of an active namespace; all failures are returned together. */
  async syncNamespace(name: string): Promise<void> {
    const ns = this.#d.namespaces.get(name);
    // A namespace that is gone or terminating gets nothing new.
    if (ns === undefined || (ns.status?.phase ?? namespacePhases.Active) !== namespacePhases.Active) return;
    const failures: unknown[] = [];
    for (const saName of this.#names) {
      if (this.#d.serviceAccounts.get(`${name}/${saName}`) !== undefined) continue;
      try {
        await this.#d.client.create(name, { metadata: { name: saName, namespace: name } });
      } catch (err) {
        // Someone else made it, or the namespace began terminating: nothing to retry.
        if (!isAlreadyExists(err) && !hasStatusCause(err, namespaceTerminatingCause)) failures.push(err);
      }
    }
    if (failures.length === 1) throw failures[0];
    if (failures.length > 1)
      throw new AggregateError(failures, failures.map((e) => (e instanceof Error ? e.message : String(e))).join(", "));
  }
}
