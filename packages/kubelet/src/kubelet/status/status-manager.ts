/**
 * The status manager's write rules (pkg/kubelet/status/status_manager.go): a Pod's status is
 * written only when what the kubelet reports differs from what the apiserver has
 * (`isPodStatusByKubeletEqual`), as a patch of the status subresource guarded by the Pod's UID
 * (`statusutil.PatchPodStatus`), with the conditions the kubelet does not own kept
 * (`mergePodStatus`). The manager of one Node (`StatusManager`) is in status-sync.ts.
 */
import { semanticEqual, type Pod, type PodStatus } from "@servicenet/api";

/** pkg/kubelet/types/pod_status.go `PodConditionsByKubelet`. */
export const podConditionsByKubelet: ReadonlySet<string> = new Set([
  "PodScheduled",
  "Ready",
  "Initialized",
  "ContainersReady",
  "PodReadyToStartContainers",
]);

/** The status fields the kubelet writes. */
const ownedFields = ["phase", "hostIP", "hostIPs", "podIP", "podIPs", "startTime", "containerStatuses", "initContainerStatuses"] as const;

/** The Pod's conditions after a kubelet update: the others' first, in their order, then the kubelet's. */
export function mergeConditions(old: PodStatus | undefined, generated: PodStatus): NonNullable<PodStatus["conditions"]> {
  const others = (old?.conditions ?? []).filter((c) => !podConditionsByKubelet.has(c.type));
  return [...others, ...(generated.conditions ?? []).filter((c) => podConditionsByKubelet.has(c.type))];
}

/** True when the apiserver's status already says what the kubelet would write. */
export function statusEqual(old: PodStatus | undefined, generated: PodStatus): boolean {
  const o = (old ?? {}) as Record<string, unknown>;
  const g = generated as Record<string, unknown>;
  // apiequality.Semantic.DeepEqual: an absent field equals its zero value, as the decoded copy of a
  // Pod (`lastProbeTime: undefined`) and the generated status differ only in such keys.
  for (const f of ownedFields) if (!semanticEqual(o[f], g[f])) return false;
  const kubeletConds = (s: PodStatus | undefined) => (s?.conditions ?? []).filter((c) => podConditionsByKubelet.has(c.type));
  return semanticEqual(kubeletConds(old), kubeletConds(generated));
}

/**
 * The JSON merge patch of `pods/status` for `generated`: every owned field (lists replace as a
 * whole) and the UID, so a Pod recreated under the same name is never written with another's status.
 */
export function statusPatch(pod: Pod, generated: PodStatus): Record<string, unknown> {
  const g = generated as Record<string, unknown>;
  const status: Record<string, unknown> = { conditions: mergeConditions(pod.status, generated) };
  for (const f of ownedFields) status[f] = g[f] ?? null;
  return { metadata: { uid: pod.metadata.uid }, status };
}
