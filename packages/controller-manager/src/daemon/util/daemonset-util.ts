/**
 * pkg/controller/daemon/util/daemonset_util.go and the eligibility check of daemon_controller.go
 * (`NodeShouldRunDaemonPod`, `predicates`): the Pod a DaemonSet runs on a Node, with the
 * tolerations every daemon Pod gets and the node affinity that pins it to its Node.
 */
import {
  requiredNodeAffinityMatches,
  toleratesTaint,
  type DaemonSet,
  type Node,
  type NodeAffinity,
  type Pod,
  type PodTemplateSpec,
  type Toleration,
} from "@servicenet/api";
import { controllerRevisionHashLabel } from "../../controller/history/controller-history.ts";

/** `extensions.DaemonSetTemplateGenerationKey`: the deprecated template-generation label of daemon Pods. */
export const daemonSetTemplateGenerationKey = "pod-template-generation";
/** `apps.DefaultDaemonSetUniqueLabelKey`. */
export const defaultDaemonSetUniqueLabelKey = controllerRevisionHashLabel;

/** The tolerations `AddOrUpdateDaemonPodTolerations` adds (Exists, with their effect). */
const daemonTolerations: readonly Toleration[] = [
  { key: "node.kubernetes.io/not-ready", operator: "Exists", effect: "NoExecute" },
  { key: "node.kubernetes.io/unreachable", operator: "Exists", effect: "NoExecute" },
  { key: "node.kubernetes.io/disk-pressure", operator: "Exists", effect: "NoSchedule" },
  { key: "node.kubernetes.io/memory-pressure", operator: "Exists", effect: "NoSchedule" },
  { key: "node.kubernetes.io/pid-pressure", operator: "Exists", effect: "NoSchedule" },
  { key: "node.kubernetes.io/unschedulable", operator: "Exists", effect: "NoSchedule" },
];

const sameToleration = (a: Toleration, b: Toleration) =>
  (a.key ?? "") === (b.key ?? "") &&
  (a.operator ?? "") === (b.operator ?? "") &&
  (a.value ?? "") === (b.value ?? "") &&
  (a.effect ?? "") === (b.effect ?? "");

/** `v1helper.AddOrUpdateTolerationInPodSpec`. */
function addOrUpdateToleration(spec: Pod["spec"], t: Toleration): void {
  const list = (spec.tolerations ??= []);
  const i = list.findIndex((x) => sameToleration(x, t));
  if (i >= 0) list[i] = { ...t };
  else list.push({ ...t });
}

/** `AddOrUpdateDaemonPodTolerations`: the node-condition taints, and network-unavailable for host-network Pods. */
export function addOrUpdateDaemonPodTolerations(spec: Pod["spec"]): void {
  for (const t of daemonTolerations) addOrUpdateToleration(spec, t);
  if ((spec as Record<string, unknown>)["hostNetwork"] === true)
    addOrUpdateToleration(spec, { key: "node.kubernetes.io/network-unavailable", operator: "Exists", effect: "NoSchedule" });
}

/** `ReplaceDaemonSetPodNodeNameNodeAffinity`: the required node affinity becomes `metadata.name In [node]`; preferred terms stay. */
export function replaceDaemonSetPodNodeNameNodeAffinity(
  affinity: Record<string, unknown> | undefined,
  nodeName: string,
): Record<string, unknown> {
  const term = { matchFields: [{ key: "metadata.name", operator: "In", values: [nodeName] }] };
  const out = structuredClone(affinity ?? {});
  const na = (out["nodeAffinity"] ??= {}) as NodeAffinity;
  na.requiredDuringSchedulingIgnoredDuringExecution = { ...na.requiredDuringSchedulingIgnoredDuringExecution, nodeSelectorTerms: [term] };
  return out;
}

/** `GetTemplateGeneration`: apps/v1's templateGeneration annotation, or undefined. */
export function getTemplateGeneration(ds: DaemonSet): number | undefined {
  const v = ds.metadata.annotations?.["deprecated.daemonset.template.generation"];
  if (v === undefined) return undefined;
  const n = Number.parseInt(v, 10);
  return Number.isNaN(n) ? undefined : n;
}

/** `CreatePodTemplate`: the template with the daemon tolerations, the generation label and the revision hash. */
export function createPodTemplate(template: PodTemplateSpec, generation: number | undefined, hash: string): PodTemplateSpec {
  const t = structuredClone(template);
  addOrUpdateDaemonPodTolerations(t.spec);
  t.metadata.labels = {
    ...t.metadata.labels,
    ...(generation !== undefined ? { [daemonSetTemplateGenerationKey]: String(generation) } : {}),
    ...(hash !== "" ? { [defaultDaemonSetUniqueLabelKey]: hash } : {}),
  };
  return t;
}

/** `IsPodUpdated`: the Pod carries the set's hash or its template generation. */
export function isPodUpdated(pod: Pod, hash: string, generation: number | undefined): boolean {
  const labels = pod.metadata.labels ?? {};
  return (
    (hash !== "" && labels[defaultDaemonSetUniqueLabelKey] === hash) ||
    (generation !== undefined && labels[daemonSetTemplateGenerationKey] === String(generation))
  );
}

/** `GetTargetNodeName`: the Pod's nodeName, else the node its affinity pins it to. */
export function getTargetNodeName(pod: Pod): string | undefined {
  if ((pod.spec.nodeName ?? "") !== "") return pod.spec.nodeName;
  const terms = ((pod.spec as Record<string, unknown>)["affinity"] as { nodeAffinity?: NodeAffinity } | undefined)?.nodeAffinity
    ?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
  for (const t of terms ?? [])
    for (const f of t.matchFields ?? []) if (f.key === "metadata.name" && f.operator === "In" && f.values?.length === 1) return f.values[0];
  return undefined;
}

/** `NewPod`: the Pod the set would run on `nodeName`, for the eligibility check. */
function newPod(ds: DaemonSet, nodeName: string): Pod {
  const spec = structuredClone(ds.spec.template.spec);
  spec.nodeName = nodeName;
  addOrUpdateDaemonPodTolerations(spec);
  return { metadata: { ...structuredClone(ds.spec.template.metadata), namespace: ds.metadata.namespace }, spec };
}

/** The first taint of `effects` that no toleration tolerates. */
const untolerated = (node: Node, tolerations: readonly Toleration[], effects: readonly string[]) =>
  (node.spec?.taints ?? []).find((t) => effects.includes(t.effect) && !tolerations.some((x) => toleratesTaint(x, t)));

/**
 * `NodeShouldRunDaemonPod`: whether the set should run a Pod on `node`, and whether a Pod already
 * there may go on running (it may unless a NoExecute taint is not tolerated).
 */
export function nodeShouldRunDaemonPod(node: Node, ds: DaemonSet): { shouldRun: boolean; shouldContinueRunning: boolean } {
  const pod = newPod(ds, node.metadata.name ?? "");
  const templateNode = ds.spec.template.spec.nodeName ?? "";
  if (templateNode !== "" && templateNode !== node.metadata.name) return { shouldRun: false, shouldContinueRunning: false };
  if (!requiredNodeAffinityMatches(pod, node)) return { shouldRun: false, shouldContinueRunning: false };
  const tolerations = pod.spec.tolerations ?? [];
  if (untolerated(node, tolerations, ["NoSchedule", "NoExecute"]) !== undefined)
    return { shouldRun: false, shouldContinueRunning: untolerated(node, tolerations, ["NoExecute"]) === undefined };
  return { shouldRun: true, shouldContinueRunning: true };
}
