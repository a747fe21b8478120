/** The TTL-after-finished controller's reads and deletes of Jobs over the one raw REST client. */
import type { KubeConfig } from "@kubernetes/client-node";
import type { Job } from "@servicenet/api";
import { newRESTClient } from "@servicenet/client/rest";
import { controllerUserAgent } from "../controller/user-agent.ts";

export interface TTLJobClient {
  get(namespace: string, name: string): Promise<Job>;
  /** A foreground delete with a UID precondition. */
  delete(namespace: string, name: string, uid: string): Promise<void>;
}

const seg = encodeURIComponent;

/** The ttl-after-finished-controller's client. */
export function ttlJobClient(kubeConfig: KubeConfig, userAgent = controllerUserAgent("ttl-after-finished-controller")): TTLJobClient {
  const { request } = newRESTClient(kubeConfig, { userAgent });
  const path = (ns: string, name: string) => `/apis/batch/v1/namespaces/${seg(ns)}/jobs/${seg(name)}`;
  return {
    get: (ns, name) => request<Job>("GET", path(ns, name)),
    delete: async (ns, name, uid) => {
      await request<unknown>("DELETE", path(ns, name), {
        apiVersion: "v1",
        kind: "DeleteOptions",
        propagationPolicy: "Foreground",
        preconditions: { uid },
      });
    },
  };
}
