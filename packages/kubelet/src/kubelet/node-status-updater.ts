/**
 * Node status updates (pkg/kubelet/kubelet_node_status.go `syncNodeStatus`, `tryUpdateNodeStatus`)
 * for every Node of the process on one timer: each nodeStatusUpdateFrequency (10 s) a Node's
 * status is computed by the setters against the informer's copy, and patched only when it changed
 * (`nodeStatusHasChanged`: conditions compared without their heartbeats) or when
 * nodeStatusReportFrequency (5 min) has passed since its last report, so that its Ready
 * condition's lastHeartbeatTime moves every 5 min while the Lease is the 10 s heartbeat. The timer
 * ticks ten times per period and each tick checks a tenth of the Nodes: a steady stream of cheap
 * local comparisons, no timer or closure per Node. Each Node's updates are sequential, as each
 * kubelet's one `syncNodeStatus` loop (`wait.JitterUntil`, sliding): a Node whose patch is still in
 * flight skips its turn, so a slow apiserver never gets the same report twice.
 */
import { isDeepStrictEqual } from "node:util";
import { parseQuantityMilli, type Node } from "@servicenet/api";
import { describeError } from "@servicenet/client/errors";
import { realClock, type Clock, type TimerHandle } from "@servicenet/component-base/clock";
import { noopLogger, type Logger } from "@servicenet/component-base/logs";
import { nodeConditions } from "../nodestatus/setters.ts";
import { rfc3339 } from "./status/time.ts";

type NodeStatus = NonNullable<Node["status"]>;

/** KubeletConfiguration's nodeStatusUpdateFrequency and nodeStatusReportFrequency defaults. */
export const defaultNodeStatusUpdateFrequencyMs = 10_000;
export const defaultNodeStatusReportFrequencyMs = 300_000;

const slots = 10;

export interface NodeStatusUpdaterOptions {
  /** The Node as the apiserver has it (the informer's copy). */
  get(name: string): Node | undefined;
  /** Strategic merge patch of `nodes/<name>/status` (the heartbeat client's PatchNodeStatus). */
  patchStatus(name: string, patch: { status: Record<string, unknown> }): Promise<unknown>;
  /** The status fields besides the conditions that the kubelet owns for Node `index` (capacity, addresses, nodeInfo). */
  owned(index: number, name: string): Omit<NodeStatus, "conditions">;
  clock?: Clock;
  logger?: Logger;
  updateFrequencyMs?: number;
  reportFrequencyMs?: number;
}

// nodeConditionsHaveChanged: same conditions by type, heartbeats aside.
function conditionsChanged(a: NodeStatus["conditions"] = [], b: NodeStatus["conditions"] = []): boolean {
  if (a.length !== b.length) return true;
  const strip = (cs: NonNullable<NodeStatus["conditions"]>) =>
    [...cs].sort((x, y) => x.type.localeCompare(y.type)).map((c) => ({ ...c, lastHeartbeatTime: undefined }));
  return !isDeepStrictEqual(strip(a), strip(b));
}

// apiequality.Semantic on a ResourceList: quantities by value ("128Gi" is "131072Mi").
function sameResources(a: Readonly<Record<string, string>> = {}, b: Readonly<Record<string, string>> = {}): boolean {
  const keys = Object.keys(a);
  return (
    keys.length === Object.keys(b).length &&
    keys.every((k) => b[k] !== undefined && parseQuantityMilli(a[k] ?? "") === parseQuantityMilli(b[k]))
  );
}

// Whether status field `k` differs, as apiequality.Semantic would see it.
function fieldChanged(k: string, was: unknown, v: unknown): boolean {
  if (k === "capacity" || k === "allocatable") return !sameResources(was as Record<string, string>, v as Record<string, string>);
  // nodeInfo: the fields the kubelet sets (the apiserver's copy may carry empty others).
  if (k === "nodeInfo") return Object.entries(v as object).some(([f, x]) => !isDeepStrictEqual((was as Record<string, unknown>)?.[f], x));
  return !isDeepStrictEqual(was, v);
}

/** `nodeStatusHasChanged` over the fields the kubelet writes (Semantic.DeepEqual for quantities). */
export function nodeStatusHasChanged(original: NodeStatus | undefined, status: NodeStatus): boolean {
  if (conditionsChanged(original?.conditions, status.conditions)) return true;
  return Object.entries(status).some(([k, v]) => k !== "conditions" && fieldChanged(k, original?.[k], v));
}

/**
 * The status patch from `original` to `status` (nodeutil `PatchNodeStatus`): the conditions, and
 * the other fields that changed. `addresses` is wrongly marked patchStrategy=merge on `type`,
 * which would merge a Node's two InternalIPs into one: a changed list replaces the old one
 * (`$patch: replace`, as upstream's fixupPatchForNodeStatusAddresses).
 */
export function nodeStatusPatch(original: NodeStatus | undefined, status: NodeStatus): { status: Record<string, unknown> } {
  const patch: Record<string, unknown> = { conditions: status.conditions };
  for (const [k, v] of Object.entries(status)) {
    if (k === "conditions" || !fieldChanged(k, original?.[k], v)) continue;
    patch[k] = k === "addresses" ? [...(v as unknown[]), { $patch: "replace" }] : v;
  }
  return { status: patch };
}

/** The status updates of the process's Nodes. */
export class NodeStatusUpdater {
  readonly #o: NodeStatusUpdaterOptions;
  readonly #clock: Clock;
  readonly #log: Logger;
  readonly #period: number;
  readonly #report: number;
  readonly #names: string[] = [];
  /** Nodes whose kubelet is gone: never reported again. */
  readonly #removed = new Set<string>();
  readonly #lastReport: number[] = [];
  /** The Nodes whose patch is in flight (by index). */
  readonly #inFlight = new Set<number>();
  #tick = 0;
  #timer: TimerHandle | undefined;
  patches = 0;

  constructor(o: NodeStatusUpdaterOptions) {
    this.#o = o;
    this.#clock = o.clock ?? realClock;
    this.#log = o.logger ?? noopLogger;
    this.#period = o.updateFrequencyMs ?? defaultNodeStatusUpdateFrequencyMs;
    this.#report = o.reportFrequencyMs ?? defaultNodeStatusReportFrequencyMs;
  }

  /** Adds Node `index` (the order of the calls) whose status was last reported at `lastReportMs`. */
  add(name: string, lastReportMs: number): void {
    this.#names.push(name);
    this.#lastReport.push(lastReportMs);
  }

  /** Stops reporting Node `name`'s status (its kubelet is gone). */
  remove(name: string): void {
    this.#removed.add(name);
  }

  /** Ticks until `stop`: every period/10, a tenth of the Nodes. */
  start(): void {
    const next = () => {
      this.#timer = this.#clock.setTimeout(() => {
        const slot = ++this.#tick % slots;
        for (let i = slot; i < this.#names.length; i += slots) void this.sync(i);
        next();
      }, this.#period / slots);
    };
    next();
  }

  stop(): void {
    if (this.#timer !== undefined) this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** `tryUpdateNodeStatus` for Node `i`: true when a patch was sent; false while its last one is in flight. */
  async sync(i: number): Promise<boolean> {
    const name = this.#names[i] ?? "";
    if (this.#removed.has(name)) return false;
    const node = this.#o.get(name);
    // Its last report not yet answered: the lastReport and the informer's copy are both still old,
    // so this turn would send the same patch again (the updates of one kubelet never overlap).
    if (node === undefined || this.#inFlight.has(i)) return false;
    const now = this.#clock.now();
    const status: NodeStatus = { ...this.#o.owned(i, name), conditions: nodeConditions(rfc3339(now), node.status?.conditions) };
    const due = now - (this.#lastReport[i] ?? 0) >= this.#report;
    if (!due && !nodeStatusHasChanged(node.status, status)) return false;
    this.#inFlight.add(i);
    try {
      await this.#o.patchStatus(name, nodeStatusPatch(node.status, status));
      this.#lastReport[i] = now;
      this.patches++;
      return true;
    } catch (err) {
      this.#log.error("Error updating node status, will retry", { node: name, err: describeError(err) });
      return false;
    } finally {
      this.#inFlight.delete(i);
    }
  }
}
