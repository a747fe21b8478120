/**
 * The node CIDR range allocator of upstream's pkg/controller/nodeipam/ipam/range_allocator.go:
 * one CidrSet per cluster CIDR (in --cluster-cidr order); each Node without podCIDRs gets one
 * block from every set, written as `spec.podCIDRs` (and `spec.podCIDR` = the first) by a
 * strategic-merge patch; Nodes that already have podCIDRs have them occupied; a deleted Node's
 * blocks are released. The Service range(s) are occupied up front where they overlap.
 */
import type { Node, ObjectReference } from "@servicenet/api";
import { formatCIDR, parseCIDRSloppy, type CIDR } from "@servicenet/api/net";
import { describeError, toStatusError } from "@servicenet/client/errors";
import type { Informer } from "@servicenet/client/tools/cache";
import type { EventRecorder } from "@servicenet/client/tools/record";
import { RateLimitingQueue } from "@servicenet/client/util/workqueue";
import { realClock, type Clock } from "@servicenet/component-base/clock";
import { noopLogger, V, type Logger } from "@servicenet/component-base/logs";
import { Controller } from "../../../framework/controller.ts";
import { CidrSet } from "./cidrset/cidr-set.ts";
import type { CidrSetMetrics } from "./cidrset/metrics.ts";

/** Workers syncing Nodes (upstream's `cidrUpdateWorkers`). */
export const cidrUpdateWorkers = 30;
/** Patch attempts per allocation before giving the blocks back (upstream's `cidrUpdateRetries`). */
export const cidrUpdateRetries = 3;

/** `CIDRAllocatorParams`: what the allocator is built from. */
export interface CIDRAllocatorParams {
  /** One or two cluster CIDRs, in --cluster-cidr order. */
  clusterCIDRs: readonly CIDR[];
  serviceCIDR?: CIDR | undefined;
  secondaryServiceCIDR?: CIDR | undefined;
  /** The node block size of each cluster CIDR, index for index. */
  nodeCIDRMaskSizes: readonly number[];
}

/** The one write the allocator makes. */
export interface NodeCIDRClient {
  /** `PatchNodeCIDRs`: strategic-merge patch of `spec.podCIDR` = cidrs[0] and `spec.podCIDRs` = cidrs. */
  patchNodeCIDRs(nodeName: string, cidrs: readonly string[]): Promise<void>;
}

export interface RangeAllocatorDeps {
  nodes: Informer<Node>;
  client: NodeCIDRClient;
  recorder: EventRecorder;
  params: CIDRAllocatorParams;
  /** The Nodes listed before the informer runs (upstream's `nodeList`); their podCIDRs are occupied at once. */
  nodeList?: readonly Node[];
  queue?: RateLimitingQueue<string>;
  /** node_ipam_controller_cidrset_* of every set; none when absent. */
  metrics?: CidrSetMetrics;
  clock?: Clock;
  logger?: Logger;
}

/** `RecordNodeStatusChange` (pkg/controller/util/node): an event about the Node, namespace "" (so "default"). */
function recordNodeStatusChange(recorder: EventRecorder, node: Node, eventtype: string, newStatus: string): void {
  const ref: ObjectReference = {
    apiVersion: "v1",
    kind: "Node",
    name: node.metadata.name ?? "",
    ...(node.metadata.uid ? { uid: node.metadata.uid } : {}),
  };
  recorder.event(ref, eventtype, newStatus, `Node ${node.metadata.name ?? ""} status is now: ${newStatus}`);
}

/** The Node's podCIDRs; objects from the wire may have no spec at all. */
function podCIDRsOf(node: Node): readonly string[] {
  return (node.spec as Node["spec"] | undefined)?.podCIDRs ?? [];
}

/** Go's `net.ParseCIDR` error text. */
function parseOrThrow(s: string, message: (goErr: string) => string): CIDR {
  const c = parseCIDRSloppy(s);
  if (c === null) throw new Error(message(`invalid CIDR address: ${s}`));
  return c;
}

/** `rangeAllocator`. */
export class RangeAllocator {
  readonly queue: RateLimitingQueue<string>;
  /** One set per cluster CIDR (mapped by index). */
  readonly cidrSets: readonly CidrSet[];
  readonly #d: RangeAllocatorDeps;
  readonly #log: Logger;
  readonly #runner: Controller;
  /**
   * podCIDRs written but not yet seen in the informer's cache. A sync of the same Node queued
   * before the write landed in the cache would otherwise allocate again and fail the patch
   * (podCIDRs are immutable) with a spurious CIDRAssignmentFailed.
   */
  readonly #written = new Map<string, readonly string[]>();

  /**
   * `NewCIDRRangeAllocator`.
   * @throws Error when a set cannot be made or a listed Node's podCIDRs cannot be occupied
   * (garbage, or outside the cluster CIDRs): fatal for the controller-manager, as upstream.
   */
  constructor(deps: RangeAllocatorDeps) {
    this.#d = deps;
    this.#log = deps.logger ?? noopLogger;
    this.queue = deps.queue ?? new RateLimitingQueue<string>("cidrallocator_node", deps.clock ?? realClock);
    this.cidrSets = deps.params.clusterCIDRs.map((c, i) => new CidrSet(c, deps.params.nodeCIDRMaskSizes[i] ?? 0, deps.metrics));
    for (const s of [deps.params.serviceCIDR, deps.params.secondaryServiceCIDR]) {
      if (s !== undefined) this.filterOutServiceRange(s);
      else this.#log.info("No Service CIDR provided. Skipping filtering out service addresses");
    }
    for (const node of deps.nodeList ?? []) {
      if (podCIDRsOf(node).length === 0) continue;
      V(this.#log, 4).info("Node has CIDR, occupying it in CIDR map", {
        node: node.metadata.name,
        podCIDR: (node.spec as Node["spec"] | undefined)?.podCIDR,
      });
      this.occupyCIDRs(node);
    }
    const enqueue = (n: Node) => this.queue.add(n.metadata.name ?? "");
    deps.nodes.addEventHandler({
      onAdd: enqueue,
      onUpdate: (_o, n) => enqueue(n),
      onDelete: (n) => {
        // Nodes have no finalizer, so the release happens here, from the last known object.
        try {
          this.releaseCIDR(n);
        } catch (err) {
          this.#log.error("error while processing CIDR Release", { err: describeError(err) });
        }
        this.#written.delete(n.metadata.name ?? "");
        enqueue(n);
      },
    });
    this.#runner = new Controller({
      name: "cidrallocator",
      queue: this.queue,
      sync: (k) => this.syncNode(k),
      informers: [deps.nodes],
      // Upstream requeues a failed Node for as long as it takes.
      maxRetries: Number.POSITIVE_INFINITY,
      logger: this.#log,
    });
  }

  /** `Run`: `workers` (default 30) sync Nodes until `signal` aborts. */
  run(signal: AbortSignal, workers = cidrUpdateWorkers): Promise<void> {
    this.#log.info("Starting range CIDR allocator");
    return this.#runner.run(signal, workers).finally(() => this.#log.info("Shutting down range CIDR allocator"));
  }

  /** `syncNode`: a Node being deleted gives its blocks back; any other gets or keeps its blocks. */
  async syncNode(key: string): Promise<void> {
    const node = this.#d.nodes.get(key);
    if (node === undefined) {
      V(this.#log, 3).info("node has been deleted", { node: key });
      return;
    }
    if (node.metadata.deletionTimestamp) {
      V(this.#log, 3).info("node is being deleted", { node: key });
      this.releaseCIDR(node);
      return;
    }
    await this.allocateOrOccupyCIDR(node);
  }

  /** `occupyCIDRs`: marks the Node's podCIDRs used, each in the set of its index. */
  occupyCIDRs(node: Node): void {
    const name = node.metadata.name ?? "";
    podCIDRsOf(node).forEach((s, idx) => {
      const podCIDR = parseOrThrow(s, () => `failed to parse node ${name}, CIDR ${(node.spec as Node["spec"] | undefined)?.podCIDR ?? ""}`);
      const set = this.cidrSets[idx];
      if (set === undefined)
        throw new Error(`node:${name} has an allocated cidr: ${s} at index:${idx} that does not exist in cluster cidrs configuration`);
      try {
        set.occupy(podCIDR);
      } catch (err) {
        throw new Error(
          `failed to mark cidr[${formatCIDR(podCIDR)}] at idx [${idx}] as occupied for node: ${name}: ${(err as Error).message}`,
        );
      }
    });
  }

  /**
   * `AllocateOrOccupyCIDR`: occupies existing podCIDRs, else takes one block per set and patches
   * the Node. A full set records `CIDRNotAvailable` and fails (the key is retried with backoff);
   * blocks taken from the sets before it are not given back, as upstream.
   */
  async allocateOrOccupyCIDR(node: Node): Promise<void> {
    const name = node.metadata.name ?? "";
    if (podCIDRsOf(node).length > 0) {
      this.#written.delete(name);
      this.occupyCIDRs(node);
      return;
    }
    if (this.#written.has(name)) {
      V(this.#log, 4).info("Node CIDRs written, waiting for the informer to see them", { node: name, podCIDRs: this.#written.get(name) });
      return;
    }
    const allocated: CIDR[] = [];
    for (const [idx, set] of this.cidrSets.entries()) {
      try {
        allocated.push(set.allocateNext());
      } catch (err) {
        recordNodeStatusChange(this.#d.recorder, node, "Warning", "CIDRNotAvailable");
        throw new Error(`failed to allocate cidr from cluster cidr at idx:${idx}: ${(err as Error).message}`);
      }
    }
    V(this.#log, 4).info("Putting node with CIDR into the work queue", { node: node.metadata.name, CIDRs: allocated.map(formatCIDR) });
    await this.updateCIDRsAllocation(node.metadata.name ?? "", allocated);
  }

  /** `ReleaseCIDR`: frees the Node's podCIDRs, each in the set of its index. */
  releaseCIDR(node: Node): void {
    const name = node.metadata.name ?? "";
    podCIDRsOf(node).forEach((s, idx) => {
      const podCIDR = parseOrThrow(s, (e) => `failed to parse CIDR ${s} on Node ${name}: ${e}`);
      const set = this.cidrSets[idx];
      if (set === undefined)
        throw new Error(`node:${name} has an allocated cidr: ${s} at index:${idx} that does not exist in cluster cidrs configuration`);
      V(this.#log, 4).info("Release CIDR for node", { CIDR: s, node: name });
      try {
        set.release(podCIDR);
      } catch (err) {
        throw new Error(`error when releasing CIDR ${s}: ${(err as Error).message}`);
      }
    });
  }

  /** `filterOutServiceRange`: occupies `serviceCIDR` in every cluster CIDR it overlaps. */
  filterOutServiceRange(serviceCIDR: CIDR): void {
    this.#d.params.clusterCIDRs.forEach((cidr, idx) => {
      try {
        this.cidrSets[idx]?.occupy(serviceCIDR);
      } catch (err) {
        // Not overlapping (or another family): nothing to filter in this set.
        V(this.#log, 5).info("Service CIDR not filtered out of cluster CIDR", {
          CIDR: formatCIDR(cidr),
          index: idx,
          err: (err as Error).message,
        });
      }
    });
  }

  /** `updateCIDRsAllocation`: writes the blocks unless the Node got podCIDRs meanwhile. */
  async updateCIDRsAllocation(nodeName: string, allocated: readonly CIDR[]): Promise<void> {
    const cidrs = allocated.map(formatCIDR);
    const node = this.#d.nodes.get(nodeName);
    if (node === undefined) {
      this.#releaseAll(allocated);
      throw new Error(`node "${nodeName}" not found`);
    }
    const current = podCIDRsOf(node);
    if (current.length === cidrs.length && current.every((c, i) => c === cidrs[i])) {
      V(this.#log, 4).info("Node already has allocated CIDR. It matches the proposed one", { node: nodeName, CIDRs: cidrs });
      return;
    }
    if (current.length !== 0) {
      this.#log.error("Node already has a CIDR allocated. Releasing the new one", { node: nodeName, podCIDRs: current });
      this.#releaseAll(allocated);
      return;
    }
    let lastErr: unknown;
    for (let i = 0; i < cidrUpdateRetries; i++) {
      try {
        await this.#d.client.patchNodeCIDRs(nodeName, cidrs);
        this.#written.set(nodeName, cidrs);
        this.#log.info("Set node PodCIDR", { node: nodeName, podCIDRs: cidrs });
        return;
      } catch (err) {
        lastErr = err;
      }
    }
    this.#log.error("Failed to update node PodCIDR after multiple attempts", {
      node: nodeName,
      podCIDRs: cidrs,
      err: describeError(lastErr),
    });
    recordNodeStatusChange(this.#d.recorder, node, "Warning", "CIDRAssignmentFailed");
    // A timeout may still have gone through: the blocks stay taken until a restart, as upstream.
    if (String(toStatusError(lastErr)?.status.reason) !== "ServerTimeout") this.#releaseAll(allocated);
    throw lastErr;
  }

  #releaseAll(allocated: readonly CIDR[]): void {
    allocated.forEach((c, idx) => {
      try {
        this.cidrSets[idx]?.release(c);
      } catch (err) {
        this.#log.error("Error when releasing CIDR", { index: idx, CIDR: formatCIDR(c), err: (err as Error).message });
      }
    });
  }
}
