/**
 * The disruption controller's `finders()` (pkg/controller/disruption/disruption.go): a Pod's
 * controller and its scale, from the ReplicaSet and Deployment caches (a ReplicaSet owned by a
 * Deployment is counted as the Deployment), else through any kind's `scale` subresource
 * (`getScaleController`: StatefulSets and custom resources).
 */
import type { Deployment, OwnerReference, ReplicaSet } from "@servicenet/api";
import type { Informer } from "@servicenet/client/tools/cache";
import { getControllerOf } from "../controller/controller-ref-manager.ts";
import type { PodControllerFinder } from "./expected.ts";

/** What `getScaleController` asks the apiserver: the scale of `ref`, or undefined when it has no such object. */
export type ScaleGetter = (ref: OwnerReference, namespace: string) => Promise<{ uid: string; replicas: number } | undefined>;

/** `schema.ParseGroupVersion`'s group; an apiVersion of more than two parts is an error. */
function groupOf(apiVersion: string): string {
  const parts = apiVersion.split("/");
  if (parts.length > 2) throw new Error(`unexpected GroupVersion string: ${apiVersion}`);
  return parts.length === 2 ? parts[0]! : "";
}

/** `verifyGroupKind`. */
export function verifyGroupKind(ref: OwnerReference, kind: string, groups: readonly string[]): boolean {
  const group = groupOf(ref.apiVersion);
  return ref.kind === kind && groups.includes(group);
}

const appsGroups = ["apps", "extensions"];

/** Typed caches and the scale getter the finders read. */
export interface FinderSources {
  replicaSets: Informer<ReplicaSet>;
  deployments: Informer<Deployment>;
  getScale: ScaleGetter;
}

/** The ReplicaSet `ref` names, if it still has that uid. */
function replicaSetOf(s: FinderSources, ref: OwnerReference, namespace: string): ReplicaSet | undefined {
  if (!verifyGroupKind(ref, "ReplicaSet", appsGroups)) return undefined;
  const rs = s.replicaSets.get(`${namespace}/${ref.name}`);
  return rs?.metadata.uid === ref.uid ? rs : undefined;
}

/** `finders()` in upstream's order (ReplicationControllers are not served here: the scale finder answers for them). */
export function finders(s: FinderSources): PodControllerFinder[] {
  // getPodDeployment: the Deployment of the Pod's ReplicaSet.
  const deployment: PodControllerFinder = async (ref, namespace) => {
    const rs = replicaSetOf(s, ref, namespace);
    const owner = rs === undefined ? undefined : getControllerOf(rs);
    if (owner === undefined || !verifyGroupKind(owner, "Deployment", appsGroups)) return undefined;
    const d = s.deployments.get(`${namespace}/${owner.name}`);
    if (d === undefined || d.metadata.uid !== owner.uid) return undefined;
    return { uid: d.metadata.uid ?? "", scale: d.spec.replicas ?? 1 };
  };
  // getPodReplicaSet: a ReplicaSet that no Deployment controls.
  const replicaSet: PodControllerFinder = async (ref, namespace) => {
    const rs = replicaSetOf(s, ref, namespace);
    if (rs === undefined || getControllerOf(rs)?.kind === "Deployment") return undefined;
    return { uid: rs.metadata.uid ?? "", scale: rs.spec.replicas ?? 1 };
  };
  // getScaleController: the scale subresource of whatever kind the reference names.
  const scale: PodControllerFinder = async (ref, namespace) => {
    const got = await s.getScale(ref, namespace);
    if (got === undefined || got.uid !== ref.uid) return undefined;
    return { uid: got.uid, scale: got.replicas };
  };
  return [deployment, replicaSet, scale];
}
