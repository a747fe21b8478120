/**
 * pkg/controller/statefulset/stateful_set_utils.go: a StatefulSet Pod's identity (name, ordinal,
 * hostname, subdomain, labels), its storage, its revision, the Pod states the control loop acts
 * on, and the revision patch of a set.
 */
import type { ControllerRevision, Pod, StatefulSet, StatefulSetStatus } from "@servicenet/api";
import { getPodFromTemplate, type ControllerObject } from "../controller/pod-control.ts";
import { newControllerRef } from "../controller/controller-ref-manager.ts";
import { controllerRevisionHashLabel, newControllerRevision, templatePatch } from "../controller/history/controller-history.ts";
import { isPodAvailable } from "../replicaset/replica-set-utils.ts";
import { isPodReady } from "../util/endpoint/pod.ts";

/** `apps.StatefulSetPodNameLabel`. */
export const statefulSetPodNameLabel = "statefulset.kubernetes.io/pod-name";
/** `apps.PodIndexLabel` (PodIndexLabel, GA in 1.32). */
export const podIndexLabel = "apps.kubernetes.io/pod-index";
/** `apps.StatefulSetRevisionLabel`. */
export const statefulSetRevisionLabel = controllerRevisionHashLabel;

/** The kind the controller manages (`apps.SchemeGroupVersion.WithKind("StatefulSet")`). */
export const statefulSetKind = { apiVersion: "apps/v1", kind: "StatefulSet" } as const;

/** The StatefulSet as the controller object its Pods, revisions and events refer to. */
export const asControllerObject = (set: StatefulSet): ControllerObject => ({ ...statefulSetKind, metadata: set.metadata });

const statefulPodRegex = /^(.*)-([0-9]+)$/;

/** `getParentNameAndOrdinal`: `web-2` is `web`, 2; a name without an ordinal is "", -1. */
export function getParentNameAndOrdinal(pod: Pod): { parent: string; ordinal: number } {
  const m = statefulPodRegex.exec(pod.metadata.name ?? "");
  if (m === null) return { parent: "", ordinal: -1 };
  const ordinal = Number.parseInt(m[2]!, 10);
  // strconv.ParseInt(.., 10, 32): out of int32 range is no ordinal.
  return ordinal > 2147483647 ? { parent: m[1]!, ordinal: -1 } : { parent: m[1]!, ordinal };
}

export const getOrdinal = (pod: Pod): number => getParentNameAndOrdinal(pod).ordinal;

/** `getStartOrdinal`: `spec.ordinals.start` (StatefulSetStartOrdinal, GA in 1.31), else 0. */
export const getStartOrdinal = (set: StatefulSet): number => set.spec.ordinals?.start ?? 0;

/** `getEndOrdinal`: the last ordinal of the replicas. */
export const getEndOrdinal = (set: StatefulSet): number => getStartOrdinal(set) + (set.spec.replicas ?? 1) - 1;

/** `podInOrdinalRange`. */
export function podInOrdinalRange(pod: Pod, set: StatefulSet): boolean {
  const o = getOrdinal(pod);
  return o >= getStartOrdinal(set) && o <= getEndOrdinal(set);
}

/** `getPodName`: `<set>-<ordinal>`. */
export const getPodName = (set: StatefulSet, ordinal: number): string => `${set.metadata.name ?? ""}-${ordinal}`;

/** `getPersistentVolumeClaimName`: `<claim>-<set>-<ordinal>`. */
export const getPersistentVolumeClaimName = (set: StatefulSet, claimName: string, ordinal: number): string =>
  `${claimName}-${set.metadata.name ?? ""}-${ordinal}`;

/** `isMemberOf`: the Pod's name says it is one of the set's. */
export const isMemberOf = (set: StatefulSet, pod: Pod): boolean => getParentNameAndOrdinal(pod).parent === set.metadata.name;

/** `identityMatches`: name, namespace and pod-name label are the set's for the Pod's ordinal. */
export function identityMatches(set: StatefulSet, pod: Pod): boolean {
  const { parent, ordinal } = getParentNameAndOrdinal(pod);
  return (
    ordinal >= 0 &&
    set.metadata.name === parent &&
    pod.metadata.name === getPodName(set, ordinal) &&
    pod.metadata.namespace === set.metadata.namespace &&
    pod.metadata.labels?.[statefulSetPodNameLabel] === pod.metadata.name
  );
}

const claimTemplateName = (claim: Record<string, unknown>): string => ((claim["metadata"] ?? {}) as { name?: string }).name ?? "";

interface PodVolume {
  name: string;
  persistentVolumeClaim?: { claimName?: string };
  [k: string]: unknown;
}
const volumesOf = (pod: Pod): PodVolume[] => ((pod.spec as Record<string, unknown>)["volumes"] as PodVolume[] | undefined) ?? [];

/** `storageMatches`: each claim template is mounted from the Pod's own claim. */
export function storageMatches(set: StatefulSet, pod: Pod): boolean {
  const ordinal = getOrdinal(pod);
  if (ordinal < 0) return false;
  const volumes = new Map(volumesOf(pod).map((v) => [v.name, v]));
  return (set.spec.volumeClaimTemplates ?? []).every((claim) => {
    const name = claimTemplateName(claim);
    const v = volumes.get(name);
    return v?.persistentVolumeClaim?.claimName === getPersistentVolumeClaimName(set, name, ordinal);
  });
}

/** `getPersistentVolumeClaims`: the claims the Pod of `ordinal` needs, from the templates. */
export function getPersistentVolumeClaims(set: StatefulSet, pod: Pod): Record<string, unknown>[] {
  const ordinal = getOrdinal(pod);
  const selectorLabels = set.spec.selector?.matchLabels ?? {};
  return (set.spec.volumeClaimTemplates ?? []).map((template) => {
    const claim = structuredClone(template);
    const meta = (claim["metadata"] ??= {}) as Record<string, unknown>;
    meta["name"] = getPersistentVolumeClaimName(set, claimTemplateName(template), ordinal);
    meta["namespace"] = set.metadata.namespace;
    meta["labels"] = { ...(meta["labels"] as Record<string, string> | undefined), ...selectorLabels };
    delete claim["status"];
    return claim;
  });
}

/** `updateStorage`: the Pod's volumes with one per claim template, replacing template volumes of the same name. */
export function updateStorage(set: StatefulSet, pod: Pod): void {
  const claims = getPersistentVolumeClaims(set, pod);
  if (claims.length === 0) return;
  const ordinal = getOrdinal(pod);
  const templates = (set.spec.volumeClaimTemplates ?? []).map(claimTemplateName);
  const fromClaims: PodVolume[] = templates.map((name) => ({
    name,
    persistentVolumeClaim: { claimName: getPersistentVolumeClaimName(set, name, ordinal) },
  }));
  const kept = volumesOf(pod).filter((v) => !templates.includes(v.name));
  (pod.spec as Record<string, unknown>)["volumes"] = [...fromClaims, ...kept];
}

/** `updateIdentity`: name, namespace, and the pod-name and pod-index labels. */
export function updateIdentity(set: StatefulSet, pod: Pod): void {
  const ordinal = getOrdinal(pod);
  pod.metadata.name = getPodName(set, ordinal);
  pod.metadata.namespace = set.metadata.namespace;
  pod.metadata.labels = { ...pod.metadata.labels, [statefulSetPodNameLabel]: pod.metadata.name, [podIndexLabel]: String(ordinal) };
}

/** `initIdentity`: the identity, and hostname and subdomain from the name and serviceName. */
function initIdentity(set: StatefulSet, pod: Pod): void {
  updateIdentity(set, pod);
  const spec = pod.spec as Record<string, unknown>;
  spec["hostname"] = pod.metadata.name;
  spec["subdomain"] = set.spec.serviceName ?? "";
  if (spec["subdomain"] === "") delete spec["subdomain"];
}

const phaseOf = (pod: Pod): string => pod.status?.phase ?? "";
export const isCreated = (pod: Pod): boolean => phaseOf(pod) !== "";
export const isPending = (pod: Pod): boolean => phaseOf(pod) === "Pending";
export const isFailed = (pod: Pod): boolean => phaseOf(pod) === "Failed";
export const isSucceeded = (pod: Pod): boolean => phaseOf(pod) === "Succeeded";
export const isTerminating = (pod: Pod): boolean => pod.metadata.deletionTimestamp !== undefined && pod.metadata.deletionTimestamp !== null;
export const isRunningAndReady = (pod: Pod): boolean => phaseOf(pod) === "Running" && isPodReady(pod);
export const isRunningAndAvailable = (pod: Pod, minReadySeconds: number, now: number): boolean => isPodAvailable(pod, minReadySeconds, now);
/** `isHealthy`: running, ready and not terminating. */
export const isHealthy = (pod: Pod): boolean => isRunningAndReady(pod) && !isTerminating(pod);
/** `allowsBurst`: Parallel pod management. */
export const allowsBurst = (set: StatefulSet): boolean => set.spec.podManagementPolicy === "Parallel";

export const getPodRevision = (pod: Pod): string => pod.metadata.labels?.[statefulSetRevisionLabel] ?? "";
function setPodRevision(pod: Pod, revision: string): void {
  pod.metadata.labels = { ...pod.metadata.labels, [statefulSetRevisionLabel]: revision };
}

/** `newStatefulSetPod`: the template's Pod with the ordinal's identity and storage, owned by the set. */
export function newStatefulSetPod(set: StatefulSet, ordinal: number): Pod {
  const owner = asControllerObject(set);
  const pod = getPodFromTemplate(set.spec.template, owner, newControllerRef(owner));
  pod.metadata.name = getPodName(set, ordinal);
  initIdentity(set, pod);
  updateStorage(set, pod);
  return pod;
}

/**
 * `newVersionedStatefulSetPod`: below the partition (or, without rollingUpdate, the current
 * replicas) a RollingUpdate set keeps the current revision; every other Pod is the update revision's.
 */
export function newVersionedStatefulSetPod(
  currentSet: StatefulSet,
  updateSet: StatefulSet,
  currentRevision: string,
  updateRevision: string,
  ordinal: number,
): Pod {
  const strategy = currentSet.spec.updateStrategy;
  const start = getStartOrdinal(currentSet);
  const keepCurrent =
    strategy?.type === "RollingUpdate" &&
    ((strategy.rollingUpdate === undefined && ordinal < start + (currentSet.status?.currentReplicas ?? 0)) ||
      (strategy.rollingUpdate !== undefined && ordinal < start + (strategy.rollingUpdate.partition ?? 0)));
  const pod = newStatefulSetPod(keepCurrent ? currentSet : updateSet, ordinal);
  setPodRevision(pod, keepCurrent ? currentRevision : updateRevision);
  return pod;
}

/** `getPatch`: the revision data, `{"spec":{"template":{...,"$patch":"replace"}}}` as Go marshals it (sorted keys). */
export function getPatch(set: StatefulSet): string {
  return templatePatch(set.spec.template);
}

/** `newRevision`: the set's revision `revision`, with the set's annotations. */
export function newRevision(set: StatefulSet, revision: number, collisionCount: number): ControllerRevision {
  const owner = asControllerObject(set);
  const cr = newControllerRevision(
    set,
    newControllerRef(owner),
    set.spec.template.metadata.labels ?? {},
    getPatch(set),
    revision,
    collisionCount,
  );
  if (set.metadata.annotations !== undefined) cr.metadata.annotations = { ...set.metadata.annotations };
  return cr;
}

/** `ApplyRevision`: the set with the revision's template (the patch replaces it). */
export function applyRevision(set: StatefulSet, revision: ControllerRevision): StatefulSet {
  const clone = structuredClone(set);
  const template = ((revision.data ?? {}) as { spec?: { template?: Record<string, unknown> } }).spec?.template;
  if (template !== undefined) {
    const { $patch: _replace, ...rest } = structuredClone(template);
    clone.spec.template = rest as StatefulSet["spec"]["template"];
  }
  return clone;
}

/** `completeRollingUpdate`: a finished RollingUpdate makes the update revision the current one. */
export function completeRollingUpdate(set: StatefulSet, status: StatefulSetStatus): void {
  if (
    set.spec.updateStrategy?.type === "RollingUpdate" &&
    status.updatedReplicas === status.replicas &&
    status.readyReplicas === status.replicas
  ) {
    status.currentReplicas = status.updatedReplicas;
    status.currentRevision = status.updateRevision;
  }
}

/** `inconsistentStatus`: the computed status differs from the set's in what the controller reports. */
export function inconsistentStatus(set: StatefulSet, status: StatefulSetStatus): boolean {
  const s = set.status;
  return (
    (status.observedGeneration ?? 0) > (s?.observedGeneration ?? 0) ||
    status.replicas !== (s?.replicas ?? 0) ||
    (status.currentReplicas ?? 0) !== (s?.currentReplicas ?? 0) ||
    (status.readyReplicas ?? 0) !== (s?.readyReplicas ?? 0) ||
    (status.updatedReplicas ?? 0) !== (s?.updatedReplicas ?? 0) ||
    (status.currentRevision ?? "") !== (s?.currentRevision ?? "") ||
    status.availableReplicas !== (s?.availableReplicas ?? 0) ||
    (status.updateRevision ?? "") !== (s?.updateRevision ?? "")
  );
}
