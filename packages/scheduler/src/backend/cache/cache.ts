/**
 * The scheduler's cache (pkg/scheduler/backend/cache/cache.go): a NodeInfo per Node, kept up to
 * date from the Node and Pod informers, with the requests of the Pods on it added and removed as
 * they come and go; a Pod the scheduler has just bound is *assumed* on its Node at once, so the
 * next Pod sees its requests before the informer delivers the binding.
 */
import type { Node, Pod } from "@servicenet/api";
import { allocatableOf, nonZeroRequests, podRequests } from "../../framework/resources.ts";
import { emptyResource, type NodeInfo, type Resource } from "../../framework/types.ts";

const keyOf = (p: Pod) => `${p.metadata.namespace ?? ""}/${p.metadata.name ?? ""}`;

function addTo(r: Resource, d: Resource, sign: 1 | -1): void {
  r.milliCPU += sign * d.milliCPU;
  r.memory += sign * d.memory;
  r.ephemeralStorage += sign * d.ephemeralStorage;
  for (const [k, v] of Object.entries(d.scalar)) r.scalar[k] = (r.scalar[k] ?? 0) + sign * v;
}

/** The Node a Pod counts on, and what it counts for. */
interface Placed {
  node: string;
  requests: Resource;
  nonZero: { milliCPU: number; memory: number };
}

export class SchedulerCache {
  readonly #nodes = new Map<string, NodeInfo>();
  readonly #pods = new Map<string, Placed>();
  /** Nodes the informer has (a NodeInfo may exist before its Node, for the Pods bound to it). */
  readonly #known = new Set<string>();

  /** Every NodeInfo of a Node that exists, in a stable order. */
  nodeInfos(): NodeInfo[] {
    const out: NodeInfo[] = [];
    for (const [name, n] of this.#nodes) if (this.#known.has(name)) out.push(n);
    return out;
  }

  get size(): number {
    return this.#known.size;
  }

  #info(name: string): NodeInfo {
    let n = this.#nodes.get(name);
    if (n === undefined) {
      n = {
        node: { metadata: { name }, spec: {} },
        requested: emptyResource(),
        nonZeroRequested: { milliCPU: 0, memory: 0 },
        allocatable: { ...emptyResource(), pods: 0 },
        pods: new Map(),
      };
      this.#nodes.set(name, n);
    }
    return n;
  }

  /** AddNode / UpdateNode. */
  setNode(node: Node): void {
    const name = node.metadata.name ?? "";
    const n = this.#info(name);
    this.#known.add(name);
    n.node = node;
    n.allocatable = allocatableOf(node.status?.allocatable);
  }

  /** RemoveNode. */
  removeNode(node: Node): void {
    const name = node.metadata.name ?? "";
    this.#known.delete(name);
    if (this.#nodes.get(name)?.pods.size === 0) this.#nodes.delete(name);
  }

  /** AddPod / UpdatePod / AssumePod: the Pod counts on `nodeName` (a Pod moved is taken off the old Node). */
  addPod(pod: Pod, nodeName = pod.spec.nodeName ?? ""): void {
    const key = keyOf(pod);
    this.removePod(pod);
    if (nodeName === "") return;
    const placed: Placed = { node: nodeName, requests: podRequests(pod), nonZero: nonZeroRequests(pod) };
    const n = this.#info(nodeName);
    addTo(n.requested, placed.requests, 1);
    n.nonZeroRequested.milliCPU += placed.nonZero.milliCPU;
    n.nonZeroRequested.memory += placed.nonZero.memory;
    n.pods.set(key, {
      key,
      namespace: pod.metadata.namespace ?? "",
      labels: pod.metadata.labels ?? {},
      terminating: pod.metadata.deletionTimestamp !== undefined,
    });
    this.#pods.set(key, placed);
  }

  /** RemovePod / ForgetPod. */
  removePod(pod: Pod): void {
    const key = keyOf(pod);
    const placed = this.#pods.get(key);
    if (placed === undefined) return;
    this.#pods.delete(key);
    const n = this.#nodes.get(placed.node);
    if (n === undefined) return;
    addTo(n.requested, placed.requests, -1);
    n.nonZeroRequested.milliCPU -= placed.nonZero.milliCPU;
    n.nonZeroRequested.memory -= placed.nonZero.memory;
    n.pods.delete(key);
  }

  /** True when the Pod counts on a Node (bound or assumed). */
  isPlaced(pod: Pod): boolean {
    return this.#pods.has(keyOf(pod));
  }
}
