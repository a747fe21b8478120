/** EndpointsClient over client-node's CoreV1Api. */
import { CoreV1Api, type KubeConfig, type V1Endpoints } from "@kubernetes/client-node";
import type { Endpoints } from "@servicenet/api";
import { isNotFound } from "@servicenet/client/errors";
import { toPlain } from "@servicenet/client/rest";
import type { EndpointsClient } from "./endpoints-controller.ts";

/** Creates, replaces and deletes Endpoints through the apiserver's HTTP API. */
export function endpointsClient(kubeConfig: KubeConfig): EndpointsClient {
  const api = kubeConfig.makeApiClient(CoreV1Api);
  return {
    async create(namespace, endpoints) {
      return toPlain<Endpoints>(await api.createNamespacedEndpoints({ namespace, body: endpoints as V1Endpoints }), "V1Endpoints");
    },
    async update(namespace, endpoints) {
      const name = endpoints.metadata.name ?? "";
      return toPlain<Endpoints>(await api.replaceNamespacedEndpoints({ name, namespace, body: endpoints as V1Endpoints }), "V1Endpoints");
    },
    async delete(namespace, name) {
      try {
        await api.deleteNamespacedEndpoints({ name, namespace });
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    },
  };
}
