/** The StatefulSet controller's requests over the one raw REST client (client-go's typed clients' requests). */
import type { KubeConfig } from "@kubernetes/client-node";
import type { ControllerRevision, Pod, StatefulSet } from "@servicenet/api";
import { newRESTClient } from "@servicenet/client/rest";
import type { HistoryClient } from "../controller/history/controller-history.ts";
import { controllerUserAgent } from "../controller/user-agent.ts";
import type { StatefulPodClient } from "./stateful-pod-control.ts";

const seg = encodeURIComponent;

/** Everything the controller writes: Pods, claims, the status subresource and ControllerRevisions. */
export interface StatefulSetClient extends StatefulPodClient, HistoryClient {
  getStatefulSet(namespace: string, name: string): Promise<StatefulSet>;
  /** PUT of the status subresource (with the set's resourceVersion). */
  updateStatus(set: StatefulSet): Promise<StatefulSet>;
  /** A strategic-merge patch of a revision (adoption). */
  patchRevision(namespace: string, name: string, patch: Record<string, unknown>): Promise<ControllerRevision>;
}

/** The client of `kubeConfig` as the `statefulset-controller` identity sends it. */
export function statefulSetClient(kubeConfig: KubeConfig, userAgent = controllerUserAgent("statefulset-controller")): StatefulSetClient {
  const { request } = newRESTClient(kubeConfig, { userAgent });
  const pods = (ns: string) => `/api/v1/namespaces/${seg(ns)}/pods`;
  const claims = (ns: string) => `/api/v1/namespaces/${seg(ns)}/persistentvolumeclaims`;
  const sets = (ns: string) => `/apis/apps/v1/namespaces/${seg(ns)}/statefulsets`;
  const revisions = (ns: string) => `/apis/apps/v1/namespaces/${seg(ns)}/controllerrevisions`;
  const nsOf = (o: { metadata: { namespace?: string } }) => o.metadata.namespace ?? "";
  return {
    createPod: (pod) => request<Pod>("POST", pods(nsOf(pod)), { apiVersion: "v1", kind: "Pod", ...pod }),
    getPod: (ns, name) => request<Pod>("GET", `${pods(ns)}/${seg(name)}`),
    updatePod: (pod) =>
      request<Pod>("PUT", `${pods(nsOf(pod))}/${seg(pod.metadata.name ?? "")}`, { apiVersion: "v1", kind: "Pod", ...pod }),
    deletePod: async (ns, name) => {
      await request<unknown>("DELETE", `${pods(ns)}/${seg(name)}`);
    },
    getClaim: (ns, name) => request<Record<string, unknown>>("GET", `${claims(ns)}/${seg(name)}`),
    createClaim: (claim) => {
      const ns = ((claim["metadata"] ?? {}) as { namespace?: string }).namespace ?? "";
      return request<Record<string, unknown>>("POST", claims(ns), { apiVersion: "v1", kind: "PersistentVolumeClaim", ...claim });
    },
    getStatefulSet: (ns, name) => request<StatefulSet>("GET", `${sets(ns)}/${seg(name)}`),
    updateStatus: (set) =>
      request<StatefulSet>("PUT", `${sets(nsOf(set))}/${seg(set.metadata.name ?? "")}/status`, {
        ...set,
        apiVersion: "apps/v1",
        kind: "StatefulSet",
      }),
    create: (ns, cr) => request<ControllerRevision>("POST", revisions(ns), { apiVersion: "apps/v1", kind: "ControllerRevision", ...cr }),
    get: (ns, name) => request<ControllerRevision>("GET", `${revisions(ns)}/${seg(name)}`),
    updateRevision: (cr, revision) =>
      request<ControllerRevision>("PUT", `${revisions(nsOf(cr))}/${seg(cr.metadata.name ?? "")}`, {
        ...cr,
        apiVersion: "apps/v1",
        kind: "ControllerRevision",
        revision,
      }),
    delete: async (ns, name) => {
      await request<unknown>("DELETE", `${revisions(ns)}/${seg(name)}`);
    },
    patchRevision: (ns, name, patch) =>
      request<ControllerRevision>("PATCH", `${revisions(ns)}/${seg(name)}`, patch, "application/strategic-merge-patch+json"),
  };
}
