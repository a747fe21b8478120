/** The ClusterRole writes of the aggregation controller, over client-node's RbacAuthorizationV1Api. */
import { PatchStrategy, RbacAuthorizationV1Api, setHeaderOptions, type KubeConfig, type V1ClusterRole } from "@kubernetes/client-node";
import type { ClusterRoleClient } from "./clusterroleaggregation-controller.ts";
import { aggregationFieldManager } from "./rules.ts";

/** Server-side apply with Force (PATCH application/apply-patch+yaml) and a plain update. */
export function clusterRoleClient(kubeConfig: KubeConfig): ClusterRoleClient {
  const api = kubeConfig.makeApiClient(RbacAuthorizationV1Api);
  return {
    async apply(ac) {
      const opts = setHeaderOptions("Content-Type", PatchStrategy.ServerSideApply);
      await api.patchClusterRole({ name: ac.metadata.name, body: ac, fieldManager: aggregationFieldManager, force: true }, opts);
    },
    async update(role) {
      await api.replaceClusterRole({ name: role.metadata.name ?? "", body: role as V1ClusterRole });
    },
  };
}
