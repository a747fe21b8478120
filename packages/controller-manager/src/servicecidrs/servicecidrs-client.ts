/** ServiceCIDRClient over client-node's NetworkingV1Api. */
import { NetworkingV1Api, type KubeConfig, type V1ServiceCIDR } from "@kubernetes/client-node";
import type { ServiceCIDR } from "@servicenet/api";
import { toPlain } from "@servicenet/client/rest";
import type { ServiceCIDRClient } from "./servicecidrs-controller.ts";

/**
 * Finalizer changes are a PUT of the object with its resourceVersion
 * (upstream uses strategic-merge patches; a PUT needs nothing beyond plain
 * update support from the server and is just as safe under concurrency).
 */
export function serviceCIDRClient(kubeConfig: KubeConfig): ServiceCIDRClient {
  const api = kubeConfig.makeApiClient(NetworkingV1Api);
  const plain = (o: V1ServiceCIDR) => toPlain<ServiceCIDR>(o, "V1ServiceCIDR");
  return {
    async updateFinalizers(cidr, finalizers) {
      const body = { ...cidr, metadata: { ...cidr.metadata, finalizers } } as V1ServiceCIDR;
      return plain(await api.replaceServiceCIDR({ name: cidr.metadata.name ?? "", body }));
    },
    async updateStatus(cidr) {
      return plain(await api.replaceServiceCIDRStatus({ name: cidr.metadata.name ?? "", body: cidr as V1ServiceCIDR }));
    },
  };
}
