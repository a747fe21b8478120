/** EndpointSliceClient over client-node's DiscoveryV1Api. */
import { DiscoveryV1Api, type KubeConfig, type V1EndpointSlice } from "@kubernetes/client-node";
import type { EndpointSlice } from "@servicenet/api";
import { isNotFound } from "@servicenet/client/errors";
import { toPlain } from "@servicenet/client/rest";
import type { EndpointSliceClient } from "./endpointslice-controller.ts";

/** Creates, replaces and deletes EndpointSlices through the apiserver's HTTP API. */
export function endpointSliceClient(kubeConfig: KubeConfig): EndpointSliceClient {
  const api = kubeConfig.makeApiClient(DiscoveryV1Api);
  return {
    async create(namespace, slice) {
      return toPlain<EndpointSlice>(
        await api.createNamespacedEndpointSlice({ namespace, body: slice as V1EndpointSlice }),
        "V1EndpointSlice",
      );
    },
    async update(namespace, slice) {
      const name = slice.metadata.name ?? "";
      return toPlain<EndpointSlice>(
        await api.replaceNamespacedEndpointSlice({ name, namespace, body: slice as V1EndpointSlice }),
        "V1EndpointSlice",
      );
    },
    async delete(namespace, name) {
      try {
        await api.deleteNamespacedEndpointSlice({ name, namespace });
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    },
  };
}
