/**
 * pkg/scheduler/framework/plugins/noderesources/fit.go: the Pod's requests must fit what the Node
 * has left of its allocatable resources, and one more Pod its Pod count (Filter, `fitsRequest`:
 * every shortfall is a reason; one the whole Node could never hold makes the status
 * UnschedulableAndUnresolvable, which preemption cannot help). Scoring is LeastAllocated, the
 * default strategy (least_allocated.go: cpu and memory, weight 1 each).
 */
import type { Pod } from "@servicenet/api";
import { nonZeroRequests, podRequests } from "../../resources.ts";
import { maxNodeScore, status, type FilterPlugin, type NodeInfo, type Resource, type ScorePlugin, type Status } from "../../types.ts";

export const nodeResourcesFitName = "NodeResourcesFit";

/** One shortfall (`InsufficientResource`). */
export interface InsufficientResource {
  resourceName: string;
  reason: string;
  requested: number;
  used: number;
  capacity: number;
  unresolvable: boolean;
}

function check(out: InsufficientResource[], name: string, requested: number, used: number, capacity: number): void {
  if (requested > 0 && requested > capacity - used)
    out.push({ resourceName: name, reason: `Insufficient ${name}`, requested, used, capacity, unresolvable: requested > capacity });
}

/** `fitsRequest`. */
export function fitsRequest(req: Resource, node: NodeInfo): InsufficientResource[] {
  const out: InsufficientResource[] = [];
  const a = node.allocatable;
  const r = node.requested;
  if (node.pods.size + 1 > a.pods)
    out.push({ resourceName: "pods", reason: "Too many pods", requested: 1, used: node.pods.size, capacity: a.pods, unresolvable: false });
  if (req.milliCPU === 0 && req.memory === 0 && req.ephemeralStorage === 0 && Object.keys(req.scalar).length === 0) return out;
  check(out, "cpu", req.milliCPU, r.milliCPU, a.milliCPU);
  check(out, "memory", req.memory, r.memory, a.memory);
  check(out, "ephemeral-storage", req.ephemeralStorage, r.ephemeralStorage, a.ephemeralStorage);
  for (const [name, q] of Object.entries(req.scalar)) check(out, name, q, r.scalar[name] ?? 0, a.scalar[name] ?? 0);
  return out;
}

/** `leastRequestedScore`: the share left free, 0..100. */
function leastRequestedScore(requested: number, capacity: number): number {
  if (capacity === 0 || requested > capacity) return 0;
  return Math.floor(((capacity - requested) * maxNodeScore) / capacity);
}

export const nodeResourcesFit: FilterPlugin & ScorePlugin = {
  name: nodeResourcesFitName,
  weight: 1,
  filter(pod: Pod, node: NodeInfo): Status | null {
    const short = fitsRequest(podRequests(pod), node);
    if (short.length === 0) return null;
    const code = short.some((s) => s.unresolvable) ? "UnschedulableAndUnresolvable" : "Unschedulable";
    return status(nodeResourcesFitName, code, ...short.map((s) => s.reason));
  },
  score(pod: Pod, node: NodeInfo): number {
    const req = nonZeroRequests(pod);
    const cpu = leastRequestedScore(node.nonZeroRequested.milliCPU + req.milliCPU, node.allocatable.milliCPU);
    const memory = leastRequestedScore(node.nonZeroRequested.memory + req.memory, node.allocatable.memory);
    return Math.floor((cpu + memory) / 2);
  },
};
