/**
 * How many Pods a PodDisruptionBudget expects and how many must stay healthy
 * (pkg/controller/disruption/disruption.go getExpectedPodCount, getExpectedScale, the finders,
 * countHealthyPods and buildDisruptedPodMap).
 */
import type { IntOrString, OwnerReference, Pod } from "@servicenet/api";
import type { PodDisruptionBudget } from "@servicenet/api/policy/v1";
import { getControllerOf } from "../controller/controller-ref-manager.ts";
import { isPodReady } from "../util/endpoint/pod.ts";

/** `DeletionTimeout`: an eviction's Pod not deleted by then counts again. */
export const deletionTimeoutMs = 2 * 60_000;

/** A controller's uid and its desired replicas (`controllerAndScale`). */
export interface ControllerAndScale {
  uid: string;
  scale: number;
}

/** `podControllerFinder`: the scale of the controller `ref` names, undefined when it is not this finder's kind or is gone. */
export type PodControllerFinder = (ref: OwnerReference, namespace: string) => Promise<ControllerAndScale | undefined>;

/** intstr `GetScaledValueFromIntOrPercent`. */
export function getScaledValueFromIntOrPercent(v: IntOrString, total: number, roundUp: boolean): number {
  if (typeof v === "number") return v;
  if (!v.endsWith("%")) throw new Error("invalid value for IntOrString: invalid type: string is not a percentage");
  const s = v.slice(0, -1);
  if (!/^[+-]?\d+$/.test(s))
    throw new Error(
      `invalid value for IntOrString: invalid value ${JSON.stringify(v)}: strconv.Atoi: parsing ${JSON.stringify(s)}: invalid syntax`,
    );
  const scaled = (Number.parseInt(s, 10) * total) / 100;
  return roundUp ? Math.ceil(scaled) : Math.floor(scaled);
}

/**
 * `getExpectedScale`: the sum of the scales of the Pods' controllers (each counted once); Pods
 * without a controller are returned by name (unmanaged); a controller no finder knows is an error.
 */
export async function getExpectedScale(
  finders: readonly PodControllerFinder[],
  pods: readonly Pod[],
): Promise<{ expectedCount: number; unmanagedPods: string[] }> {
  const controllerScale = new Map<string, number>();
  const unmanagedPods: string[] = [];
  for (const pod of pods) {
    const ref = getControllerOf(pod);
    if (ref === undefined) {
      unmanagedPods.push(pod.metadata.name ?? "");
      continue;
    }
    if (controllerScale.has(ref.uid)) continue;
    let found: ControllerAndScale | undefined;
    for (const finder of finders) {
      found = await finder(ref, pod.metadata.namespace ?? "");
      if (found !== undefined) break;
    }
    if (found === undefined) throw new Error(`found no controllers for pod ${JSON.stringify(pod.metadata.name ?? "")}`);
    controllerScale.set(found.uid, found.scale);
  }
  let expectedCount = 0;
  for (const n of controllerScale.values()) expectedCount += n;
  return { expectedCount, unmanagedPods };
}

/**
 * `getExpectedPodCount`: with maxUnavailable (or a percent minAvailable) the controllers' scale is
 * the denominator; an integer minAvailable counts the matching Pods.
 */
export async function getExpectedPodCount(
  finders: readonly PodControllerFinder[],
  pdb: PodDisruptionBudget,
  pods: readonly Pod[],
): Promise<{ expectedCount: number; desiredHealthy: number; unmanagedPods: string[] }> {
  const { maxUnavailable, minAvailable } = pdb.spec;
  if (maxUnavailable !== undefined) {
    const { expectedCount, unmanagedPods } = await getExpectedScale(finders, pods);
    const max = getScaledValueFromIntOrPercent(maxUnavailable, expectedCount, true);
    return { expectedCount, desiredHealthy: Math.max(0, expectedCount - max), unmanagedPods };
  }
  if (typeof minAvailable === "number") return { expectedCount: pods.length, desiredHealthy: minAvailable, unmanagedPods: [] };
  if (typeof minAvailable === "string") {
    const { expectedCount, unmanagedPods } = await getExpectedScale(finders, pods);
    return { expectedCount, desiredHealthy: getScaledValueFromIntOrPercent(minAvailable, expectedCount, true), unmanagedPods };
  }
  return { expectedCount: 0, desiredHealthy: 0, unmanagedPods: [] };
}

const deleting = (pod: Pod): boolean => pod.metadata.deletionTimestamp !== undefined && pod.metadata.deletionTimestamp !== null;

/** `countHealthyPods`: ready Pods that are neither deleting nor recently approved for eviction. */
export function countHealthyPods(pods: readonly Pod[], disruptedPods: Readonly<Record<string, string>>, nowMs: number): number {
  let healthy = 0;
  for (const pod of pods) {
    if (deleting(pod)) continue;
    const at = disruptedPods[pod.metadata.name ?? ""];
    if (at !== undefined && Date.parse(at) + deletionTimeoutMs > nowMs) continue;
    if (isPodReady(pod)) healthy++;
  }
  return healthy;
}

/**
 * `buildDisruptedPodMap`: the entries of Pods still there and not yet deleting, minus those past
 * the deletion timeout (reported through `notDeleted`); and when to look again.
 */
export function buildDisruptedPodMap(
  pods: readonly Pod[],
  pdb: PodDisruptionBudget,
  nowMs: number,
  notDeleted: (pod: Pod) => void,
): { disruptedPods: Record<string, string>; recheckMs: number | undefined } {
  const result: Record<string, string> = {};
  let recheckMs: number | undefined;
  const disrupted = pdb.status?.disruptedPods;
  if (disrupted === undefined) return { disruptedPods: result, recheckMs };
  for (const pod of pods) {
    if (deleting(pod)) continue;
    const name = pod.metadata.name ?? "";
    const at = disrupted[name];
    if (at === undefined) continue;
    const expectedDeletion = Date.parse(at) + deletionTimeoutMs;
    if (expectedDeletion < nowMs) notDeleted(pod);
    else {
      if (recheckMs === undefined || expectedDeletion < recheckMs) recheckMs = expectedDeletion;
      result[name] = at;
    }
  }
  return { disruptedPods: result, recheckMs };
}
