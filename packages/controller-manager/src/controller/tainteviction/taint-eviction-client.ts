/** The taint-eviction controller's requests over the one raw REST client (client-go's typed Pods()). */
import type { KubeConfig } from "@kubernetes/client-node";
import type { Pod } from "@servicenet/api";
import { newRESTClient } from "@servicenet/client/rest";
import { controllerUserAgent } from "../user-agent.ts";

/** What `addConditionAndDeletePod` asks of the apiserver. */
export interface TaintEvictionClient {
  getPod(namespace: string, name: string): Promise<Pod>;
  /** A strategic merge patch of `pods/status` (`PatchPodStatus`). */
  patchPodStatus(namespace: string, name: string, patch: object): Promise<Pod>;
  /** DELETE with empty DeleteOptions: the Pod's own grace period. */
  deletePod(namespace: string, name: string): Promise<void>;
}

const seg = encodeURIComponent;

/**
 * The client of `startTaintEvictionController`: upstream gives it the "node-controller" client
 * (it "uses existing cluster role from node-controller"), so its user agent ends in that name.
 */
export function taintEvictionClient(kubeConfig: KubeConfig, userAgent = controllerUserAgent("node-controller")): TaintEvictionClient {
  const { request } = newRESTClient(kubeConfig, { userAgent });
  const pod = (ns: string, name: string) => `/api/v1/namespaces/${seg(ns)}/pods/${seg(name)}`;
  return {
    getPod: (ns, name) => request<Pod>("GET", pod(ns, name)),
    patchPodStatus: (ns, name, patch) => request<Pod>("PATCH", `${pod(ns, name)}/status`, patch, "application/strategic-merge-patch+json"),
    deletePod: async (ns, name) => {
      await request<unknown>("DELETE", pod(ns, name));
    },
  };
}
