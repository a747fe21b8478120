/**
 * The writes of the Deployment controller (its `client.AppsV1()` calls), over the project's raw
 * REST client so every field of the pod template round-trips as stored. Each returns the object
 * the apiserver answered with; errors are StatusErrors.
 */
import type { KubeConfig } from "@kubernetes/client-node";
import type { Deployment, ReplicaSet } from "@servicenet/api";
import { newRESTClient } from "@servicenet/client/rest";
import { controllerUserAgent } from "../controller/user-agent.ts";

/** What the controller writes; a fake of it records upstream's fake-clientset actions in tests. */
export interface DeploymentClient {
  getDeployment(namespace: string, name: string): Promise<Deployment>;
  /** PUT of the whole Deployment (a rollback rewrites the template and drops its annotation). */
  updateDeployment(d: Deployment): Promise<Deployment>;
  /** PUT of the status subresource (metadata annotations ride along, as upstream's UpdateStatus). */
  updateDeploymentStatus(d: Deployment): Promise<Deployment>;
  createReplicaSet(namespace: string, rs: ReplicaSet): Promise<ReplicaSet>;
  updateReplicaSet(rs: ReplicaSet): Promise<ReplicaSet>;
  deleteReplicaSet(namespace: string, name: string): Promise<void>;
  /** Strategic-merge patch (adoption and release of owner references). */
  patchReplicaSet(namespace: string, name: string, patch: Record<string, unknown>): Promise<ReplicaSet>;
}

const strategicMerge = "application/strategic-merge-patch+json";
const enc = encodeURIComponent;
const deployments = (ns: string) => `/apis/apps/v1/namespaces/${enc(ns)}/deployments`;
const replicaSets = (ns: string) => `/apis/apps/v1/namespaces/${enc(ns)}/replicasets`;
const withKind = <T extends object>(kind: string, o: T): T => ({ ...o, apiVersion: "apps/v1", kind });

/** The client of the `deployment-controller` identity. */
export function deploymentClient(kubeConfig: KubeConfig): DeploymentClient {
  const { request } = newRESTClient(kubeConfig, { userAgent: controllerUserAgent("deployment-controller") });
  const name = (o: { metadata: { name?: string | undefined } }) => enc(o.metadata.name ?? "");
  const ns = (o: { metadata: { namespace?: string | undefined } }) => o.metadata.namespace ?? "default";
  return {
    getDeployment: (namespace, n) => request<Deployment>("GET", `${deployments(namespace)}/${enc(n)}`),
    updateDeployment: (d) => request<Deployment>("PUT", `${deployments(ns(d))}/${name(d)}`, withKind("Deployment", d)),
    updateDeploymentStatus: (d) => request<Deployment>("PUT", `${deployments(ns(d))}/${name(d)}/status`, withKind("Deployment", d)),
    createReplicaSet: (namespace, rs) => request<ReplicaSet>("POST", replicaSets(namespace), withKind("ReplicaSet", rs)),
    updateReplicaSet: (rs) => request<ReplicaSet>("PUT", `${replicaSets(ns(rs))}/${name(rs)}`, withKind("ReplicaSet", rs)),
    deleteReplicaSet: async (namespace, n) => {
      await request<unknown>("DELETE", `${replicaSets(namespace)}/${enc(n)}`);
    },
    patchReplicaSet: (namespace, n, patch) => request<ReplicaSet>("PATCH", `${replicaSets(namespace)}/${enc(n)}`, patch, strategicMerge),
  };
}
