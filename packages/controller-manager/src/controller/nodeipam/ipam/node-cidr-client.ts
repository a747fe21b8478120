/** The node IPAM controller's API calls over client-node's CoreV1Api. */
import { CoreV1Api, PatchStrategy, setHeaderOptions, type KubeConfig } from "@kubernetes/client-node";
import type { Node } from "@servicenet/api";
import { toPlain } from "@servicenet/client/rest";
import type { NodeCIDRClient } from "./range-allocator.ts";

/** The patch `PatchNodeCIDRs` (k8s.io/component-helpers/node/util) sends. */
export function nodeCIDRsPatch(cidrs: readonly string[]): Record<string, unknown> {
  return { spec: { podCIDR: cidrs[0], podCIDRs: [...cidrs] } };
}

/** NodeCIDRClient plus the initial Node list (upstream's `listNodes` in ipam.New). */
export function nodeCIDRClient(kubeConfig: KubeConfig): NodeCIDRClient & { listNodes(): Promise<Node[]> } {
  const api = kubeConfig.makeApiClient(CoreV1Api);
  return {
    async patchNodeCIDRs(nodeName, cidrs) {
      const opts = setHeaderOptions("Content-Type", PatchStrategy.StrategicMergePatch);
      await api.patchNode({ name: nodeName, body: nodeCIDRsPatch(cidrs) }, opts);
    },
    async listNodes() {
      return toPlain<{ items: Node[] }>(await api.listNode(), "V1NodeList").items;
    },
  };
}
