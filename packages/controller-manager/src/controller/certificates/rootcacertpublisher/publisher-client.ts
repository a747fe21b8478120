/** The ConfigMap writes of the root CA certificate publisher, over client-node's CoreV1Api. */
import { CoreV1Api, type KubeConfig, type V1ConfigMap } from "@kubernetes/client-node";
import type { PublisherClient } from "./publisher.ts";

/** ConfigMaps(ns).Create and Update. */
export function publisherClient(kubeConfig: KubeConfig): PublisherClient {
  const api = kubeConfig.makeApiClient(CoreV1Api);
  return {
    async create(namespace, cm) {
      await api.createNamespacedConfigMap({ namespace, body: cm as V1ConfigMap });
    },
    async update(namespace, cm) {
      await api.replaceNamespacedConfigMap({ name: cm.metadata.name ?? "", namespace, body: cm as V1ConfigMap });
    },
  };
}
