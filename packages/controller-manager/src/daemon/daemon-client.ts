/** The DaemonSet controller's requests over the one raw REST client (client-go's typed clients' requests). */
import type { KubeConfig } from "@kubernetes/client-node";
import type { ControllerRevision, DaemonSet } from "@servicenet/api";
import { newRESTClient } from "@servicenet/client/rest";
import { controllerUserAgent } from "../controller/user-agent.ts";

const seg = encodeURIComponent;

/** DaemonSet status writes and the ControllerRevisions of its history. */
export interface DaemonSetClient {
  getDaemonSet(namespace: string, name: string): Promise<DaemonSet>;
  /** PUT of the status subresource (with the set's resourceVersion). */
  updateStatus(ds: DaemonSet): Promise<DaemonSet>;
  createRevision(namespace: string, cr: ControllerRevision): Promise<ControllerRevision>;
  getRevision(namespace: string, name: string): Promise<ControllerRevision>;
  updateRevision(cr: ControllerRevision): Promise<ControllerRevision>;
  deleteRevision(namespace: string, name: string): Promise<void>;
}

/** The client of `kubeConfig` as the `daemon-set-controller` identity sends it. */
export function daemonSetClient(kubeConfig: KubeConfig, userAgent = controllerUserAgent("daemon-set-controller")): DaemonSetClient {
  const { request } = newRESTClient(kubeConfig, { userAgent });
  const sets = (ns: string) => `/apis/apps/v1/namespaces/${seg(ns)}/daemonsets`;
  const revisions = (ns: string) => `/apis/apps/v1/namespaces/${seg(ns)}/controllerrevisions`;
  return {
    getDaemonSet: (ns, name) => request<DaemonSet>("GET", `${sets(ns)}/${seg(name)}`),
    updateStatus: (ds) =>
      request<DaemonSet>("PUT", `${sets(ds.metadata.namespace ?? "")}/${seg(ds.metadata.name ?? "")}/status`, {
        ...ds,
        apiVersion: "apps/v1",
        kind: "DaemonSet",
      }),
    createRevision: (ns, cr) =>
      request<ControllerRevision>("POST", revisions(ns), { apiVersion: "apps/v1", kind: "ControllerRevision", ...cr }),
    getRevision: (ns, name) => request<ControllerRevision>("GET", `${revisions(ns)}/${seg(name)}`),
    updateRevision: (cr) =>
      request<ControllerRevision>("PUT", `${revisions(cr.metadata.namespace ?? "")}/${seg(cr.metadata.name ?? "")}`, {
        apiVersion: "apps/v1",
        kind: "ControllerRevision",
        ...cr,
      }),
    deleteRevision: async (ns, name) => {
      await request<unknown>("DELETE", `${revisions(ns)}/${seg(name)}`);
    },
  };
}
