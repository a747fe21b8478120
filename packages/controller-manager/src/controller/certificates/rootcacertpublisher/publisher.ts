/**
 * The root CA certificate publisher (pkg/controller/certificates/rootcacertpublisher/publisher.go):
 * every namespace has the ConfigMap `kube-root-ca.crt` holding the CA bundle that verifies the
 * apiserver, which the Pods' `kube-api-access-*` projected volumes mount. A namespace's add or
 * update (while Active), and the update or delete of that ConfigMap, queue the namespace; its sync
 * creates the ConfigMap when missing and restores its data and description when edited.
 */
import { namespacePhases, namespaceTerminatingCause, type ConfigMap, type Namespace } from "@servicenet/api";
import { hasStatusCause, isNotFound } from "@servicenet/client/errors";
import type { Informer } from "@servicenet/client/tools/cache";
import { RateLimitingQueue } from "@servicenet/client/util/workqueue";
import { realClock, type Clock } from "@servicenet/component-base/clock";
import { noopLogger, type Logger } from "@servicenet/component-base/logs";
import { Controller } from "../../../framework/controller.ts";

/** RootCACertConfigMapName, DescriptionAnnotation and Description (upstream's constants). */
export const rootCACertConfigMapName = "kube-root-ca.crt";
export const descriptionAnnotation = "kubernetes.io/description";
export const description =
  "Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. " +
  "No other usage is guaranteed across distributions of Kubernetes clusters.";

/** The writes of the publisher: ConfigMaps(ns).Create and Update. */
export interface PublisherClient {
  create(namespace: string, cm: ConfigMap): Promise<void>;
  update(namespace: string, cm: ConfigMap): Promise<void>;
}

export interface PublisherDeps {
  configMaps: Informer<ConfigMap>;
  namespaces: Informer<Namespace>;
  client: PublisherClient;
  /** The PEM bundle published as `ca.crt`. */
  rootCA: string;
  queue?: RateLimitingQueue<string>;
  clock?: Clock;
  logger?: Logger;
}

export class Publisher {
  readonly queue: RateLimitingQueue<string>;
  readonly #d: PublisherDeps;
  readonly #runner: Controller;

  constructor(deps: PublisherDeps) {
    this.#d = deps;
    this.queue = deps.queue ?? new RateLimitingQueue<string>("root_ca_cert_publisher", deps.clock ?? realClock);
    // configMapDeleted / configMapUpdated: only the published ConfigMap queues its namespace.
    const onConfigMap = (cm: ConfigMap) => {
      if (cm.metadata.name !== rootCACertConfigMapName || (cm.metadata.namespace ?? "") === "") return;
      this.queue.add(cm.metadata.namespace ?? "");
    };
    deps.configMaps.addEventHandler({ onUpdate: (_old, cm) => onConfigMap(cm), onDelete: onConfigMap });
    // namespaceAdded queues every namespace; namespaceUpdated only an Active one.
    deps.namespaces.addEventHandler({
      onAdd: (ns) => this.queue.add(ns.metadata.name ?? ""),
      onUpdate: (_old, ns) => {
        if (ns.status?.phase === namespacePhases.Active) this.queue.add(ns.metadata.name ?? "");
      },
    });
    this.#runner = new Controller({
      name: "root-ca-certificate-publisher-controller",
      queue: this.queue,
      sync: (k) => this.syncNamespace(k),
      informers: [deps.configMaps, deps.namespaces],
      // processNextWorkItem requeues rate-limited without a retry limit.
      maxRetries: Number.POSITIVE_INFINITY,
      logger: deps.logger ?? noopLogger,
    });
  }

  /** Run: upstream's startRootCACertPublisher runs one worker. */
  run(signal: AbortSignal, workers = 1): Promise<void> {
    return this.#runner.run(signal, workers);
  }

  /** syncNamespace: creates the ConfigMap when missing, else restores `ca.crt` and the description. */
  async syncNamespace(name: string): Promise<void> {
    const cm = this.#d.configMaps.get(`${name}/${rootCACertConfigMapName}`);
    const data = { "ca.crt": this.#d.rootCA };
    if (cm === undefined) {
      try {
        await this.#d.client.create(name, {
          metadata: { name: rootCACertConfigMapName, annotations: { [descriptionAnnotation]: description } },
          data,
        });
      } catch (err) {
        // Don't retry a create if the namespace doesn't exist or is terminating.
        if (isNotFound(err) || hasStatusCause(err, namespaceTerminatingCause)) return;
        throw err;
      }
      return;
    }
    if (sameData(cm.data, data) && (cm.metadata.annotations?.[descriptionAnnotation] ?? "") !== "") return;
    // A copy, so the informer's cached object is not modified.
    await this.#d.client.update(name, {
      ...cm,
      metadata: { ...cm.metadata, annotations: { ...cm.metadata.annotations, [descriptionAnnotation]: description } },
      data,
    });
  }
}

/** reflect.DeepEqual of the ConfigMap's data and the wanted one. */
function sameData(have: Record<string, string> | undefined, want: Record<string, string>): boolean {
  const keys = Object.keys(have ?? {});
  return keys.length === Object.keys(want).length && keys.every((k) => have?.[k] === want[k]);
}
