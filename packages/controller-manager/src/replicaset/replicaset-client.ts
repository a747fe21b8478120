/** The ReplicaSet controller's writes over the one raw REST client (client-go's typed clients' requests). */
import type { KubeConfig } from "@kubernetes/client-node";
import type { Pod, ReplicaSet } from "@servicenet/api";
import { newRESTClient } from "@servicenet/client/rest";
import type { PodClient } from "../controller/pod-control.ts";
import type { ReplicaSetClient } from "./replica-set-utils.ts";
import { controllerUserAgent } from "../controller/user-agent.ts";

const seg = encodeURIComponent;

/** Pod create, delete and strategic-merge patch, as `RealPodControl` sends them. */
export function podClient(kubeConfig: KubeConfig, userAgent = controllerUserAgent("replicaset-controller")): PodClient {
  const { request } = newRESTClient(kubeConfig, { userAgent });
  const pods = (ns: string) => `/api/v1/namespaces/${seg(ns)}/pods`;
  return {
    create: (ns, pod) => request<Pod>("POST", pods(ns), { apiVersion: "v1", kind: "Pod", ...pod }),
    delete: async (ns, name) => {
      await request<unknown>("DELETE", `${pods(ns)}/${seg(name)}`);
    },
    patch: (ns, name, patch) => request<Pod>("PATCH", `${pods(ns)}/${seg(name)}`, patch, "application/strategic-merge-patch+json"),
  };
}

/** GET of a ReplicaSet and PUT of its status subresource. */
export function replicaSetClient(kubeConfig: KubeConfig, userAgent = controllerUserAgent("replicaset-controller")): ReplicaSetClient {
  const { request } = newRESTClient(kubeConfig, { userAgent });
  const path = (ns: string, name: string) => `/apis/apps/v1/namespaces/${seg(ns)}/replicasets/${seg(name)}`;
  return {
    get: (ns, name) => request<ReplicaSet>("GET", path(ns, name)),
    updateStatus: (rs) =>
      request<ReplicaSet>("PUT", `${path(rs.metadata.namespace ?? "", rs.metadata.name ?? "")}/status`, {
        ...rs,
        apiVersion: "apps/v1",
        kind: "ReplicaSet",
      }),
  };
}
