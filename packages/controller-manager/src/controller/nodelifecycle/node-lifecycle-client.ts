/** The node lifecycle controller's requests over the one raw REST client (client-go's typed Nodes() and Pods()). */
import type { KubeConfig } from "@kubernetes/client-node";
import type { Node, Pod } from "@servicenet/api";
import { newRESTClient } from "@servicenet/client/rest";
import type { NodeLifecycleClient } from "../util/node/controller-utils.ts";
import { controllerUserAgent } from "../user-agent.ts";

const seg = encodeURIComponent;

/**
 * Node get, status update and taint patch, Pod status update. The taint patch carries the
 * resourceVersion it was computed from: `spec.taints` has no merge key, so the list is replaced
 * and a concurrent change must be a Conflict (`PatchNodeTaints` in pkg/controller/controller_utils.go).
 */
export function nodeLifecycleClient(kubeConfig: KubeConfig, userAgent = controllerUserAgent("node-controller")): NodeLifecycleClient {
  const { request } = newRESTClient(kubeConfig, { userAgent });
  const node = (name: string) => `/api/v1/nodes/${seg(name)}`;
  return {
    getNode: (name) => request<Node>("GET", node(name)),
    patchNodeTaints: async (name, resourceVersion, taints) => {
      const patch = { metadata: { resourceVersion }, spec: { taints } };
      await request<Node>("PATCH", node(name), patch, "application/strategic-merge-patch+json");
    },
    updateNodeStatus: (n) => request<Node>("PUT", `${node(n.metadata.name ?? "")}/status`, { ...n, apiVersion: "v1", kind: "Node" }),
    updatePodStatus: (p) =>
      request<Pod>("PUT", `/api/v1/namespaces/${seg(p.metadata.namespace ?? "")}/pods/${seg(p.metadata.name ?? "")}/status`, {
        ...p,
        apiVersion: "v1",
        kind: "Pod",
      }),
  };
}
