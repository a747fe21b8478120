/** The kubelet's Pod writes over HTTP: `pods/status` patches and the final delete. */
import type { KubeConfig } from "@kubernetes/client-node";
import type { Pod } from "@servicenet/api";
import { newRESTClient, defaultKubernetesUserAgent } from "@servicenet/client/rest";

/** What the pod workers write. */
export interface PodClient {
  /** JSON merge patch of `pods/status`. */
  patchStatus(namespace: string, name: string, patch: Record<string, unknown>): Promise<Pod>;
  /** The kubelet's final delete: grace period 0, only this UID (pkg/kubelet/status/status_manager.go `syncPod`). */
  deletePod(namespace: string, name: string, uid: string): Promise<void>;
}

const podPath = (ns: string, name: string) => `/api/v1/namespaces/${encodeURIComponent(ns)}/pods/${encodeURIComponent(name)}`;

/** A PodClient over the kubeconfig's REST client. */
export function podClient(kc: KubeConfig): PodClient {
  const rest = newRESTClient(kc, { userAgent: defaultKubernetesUserAgent("kubelet") });
  return {
    patchStatus: (ns, name, patch) => rest.request<Pod>("PATCH", `${podPath(ns, name)}/status`, patch, "application/merge-patch+json"),
    async deletePod(ns, name, uid) {
      await rest.request("DELETE", podPath(ns, name), {
        kind: "DeleteOptions",
        apiVersion: "v1",
        gracePeriodSeconds: 0,
        preconditions: { uid },
      });
    },
  };
}
