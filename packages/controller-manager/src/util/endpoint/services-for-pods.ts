/** Which Services select a pod: the fan-out of pod events in both endpoint controllers (`GetPodServiceMemberships`). */
import type { Pod, Service } from "@servicenet/api";
import { metaNamespaceKey } from "../../framework/keys.ts";
import { selectorMatches } from "./pod.ts";

/** Keys of the Services (with a selector) that select any of `pods`. */
export function servicesForPods(services: readonly Service[], pods: readonly Pod[]): Set<string> {
  const keys = new Set<string>();
  for (const svc of services) {
    const sel = svc.spec.selector;
    if (sel === undefined) continue;
    if (pods.some((p) => p.metadata.namespace === svc.metadata.namespace && selectorMatches(sel, p.metadata.labels))) keys.add(metaNamespaceKey(svc));
  }
  return keys;
}

/** Pod updates that cannot change endpoints (same resourceVersion: a resync or relist) are ignored. */
export function podChanged(oldPod: Pod, newPod: Pod): boolean {
  return oldPod.metadata.resourceVersion !== newPod.metadata.resourceVersion || oldPod === newPod;
}
