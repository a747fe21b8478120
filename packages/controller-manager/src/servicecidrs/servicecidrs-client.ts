/** ServiceCIDRClient over client-node's NetworkingV1Api. */
import { NetworkingV1Api, PatchStrategy, setHeaderOptions, type KubeConfig, type V1ServiceCIDR } from "@kubernetes/client-node";
import type { ServiceCIDR } from "@servicenet/api";
import { toPlain } from "@servicenet/client/rest";
import type { ServiceCIDRClient } from "./servicecidrs-controller.ts";

/**
 * The strategic-merge patch from `before` to `after` finalizers, as upstream's
 * addServiceCIDRFinalizerIfNeeded / removeServiceCIDRFinalizerIfNeeded send it: added ones merged
 * into the list, removed ones through `$deleteFromPrimitiveList`. No resourceVersion, so a cache
 * one write behind does not make it a 409 Conflict.
 */
export function finalizersPatch(before: readonly string[], after: readonly string[]): Record<string, unknown> {
  const added = after.filter((f) => !before.includes(f));
  const removed = before.filter((f) => !after.includes(f));
  return {
    metadata: {
      ...(added.length > 0 ? { finalizers: added } : {}),
      ...(removed.length > 0 ? { "$deleteFromPrimitiveList/finalizers": removed } : {}),
    },
  };
}

/**
 * Finalizer changes are strategic-merge patches (as upstream); the Ready condition is a merge patch
 * of `status.conditions` on the status subresource (upstream applies it server-side with Force:
 * either way no resourceVersion precondition, so no conflict with a stale cache).
 */
export function serviceCIDRClient(kubeConfig: KubeConfig): ServiceCIDRClient {
  const api = kubeConfig.makeApiClient(NetworkingV1Api);
  const plain = (o: V1ServiceCIDR) => toPlain<ServiceCIDR>(o, "V1ServiceCIDR");
  return {
    async updateFinalizers(cidr, finalizers) {
      const body = finalizersPatch(cidr.metadata.finalizers ?? [], finalizers);
      const opts = setHeaderOptions("Content-Type", PatchStrategy.StrategicMergePatch);
      return plain(await api.patchServiceCIDR({ name: cidr.metadata.name ?? "", body }, opts));
    },
    async updateStatus(cidr) {
      const body = { status: { conditions: cidr.status?.conditions ?? [] } };
      const opts = setHeaderOptions("Content-Type", PatchStrategy.MergePatch);
      return plain(await api.patchServiceCIDRStatus({ name: cidr.metadata.name ?? "", body }, opts));
    },
  };
}
