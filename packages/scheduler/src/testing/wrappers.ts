/** Test builders (pkg/scheduler/testing/wrappers.go in spirit): Nodes, Pods and NodeInfos. */
import type { Node, Pod } from "@servicenet/api";
import { SchedulerCache } from "../backend/cache/cache.ts";
import type { NodeInfo } from "../framework/types.ts";

export function makeNode(
  name: string,
  o: { labels?: Record<string, string>; spec?: Record<string, unknown>; allocatable?: Record<string, string> } = {},
): Node {
  return {
    metadata: { name, uid: `uid-${name}`, labels: { "kubernetes.io/hostname": name, ...o.labels } },
    spec: { ...o.spec },
    status: { allocatable: o.allocatable ?? { cpu: "10", memory: "20", pods: "32" } },
  };
}

export function makePod(name: string, spec: Record<string, unknown> = {}, labels?: Record<string, string>): Pod {
  return {
    metadata: { name, namespace: "default", uid: `uid-${name}`, ...(labels ? { labels } : {}) },
    spec: { containers: [{ name: "c" }], ...spec },
  };
}

/** A container asking for these requests. */
export function requests(r: Record<string, string>): Record<string, unknown> {
  return { containers: [{ name: "c", resources: { requests: r } }] };
}

/** NodeInfos of `nodes` with `pods` (bound by spec.nodeName) counted. */
export function nodeInfos(nodes: readonly Node[], pods: readonly Pod[] = []): NodeInfo[] {
  const cache = new SchedulerCache();
  for (const n of nodes) cache.setNode(n);
  for (const p of pods) cache.addPod(p);
  return cache.nodeInfos();
}
