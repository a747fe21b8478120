/**
 * `TopologyCache` (staging/src/k8s.io/endpointslice/topologycache/topologycache.go):
 * tracks allocatable CPU per zone from the Nodes and, per Service and address
 * type, how many endpoints are hinted for each zone, for the topology-mode
 * Auto hints (CPU-proportional, each zone within the 20 % overload threshold).
 */
import { parseQuantityMilli } from "@servicenet/api";
import type { EndpointSlice, Node } from "@servicenet/api";
import { noopLogger, V, type Logger } from "@servicenet/component-base/logs";
import { labelTopologyZone } from "../utils.ts";
import * as msg from "./event.ts";
import type { EventBuilder } from "./event.ts";
import { allocatedHintsByZone, removeHintsFromSlices, totalReadyEndpoints } from "./slice-info.ts";
import type { SliceInfo } from "./slice-info.ts";
import type { Allocation } from "./utils.ts";
import {
  endpointReady,
  getGivingAndReceivingZones,
  hintedFor,
  isNodeReady,
  overloadThreshold,
  redistributeHints,
  serviceOverloaded,
  withoutHints,
} from "./utils.ts";

/** Nodes with any of these labels do not count towards zone capacity (`hasExcludedLabels`). */
const excludedLabels = ["node-role.kubernetes.io/control-plane", "node-role.kubernetes.io/master"];

export interface AddHintsResult {
  readonly toCreate: EndpointSlice[];
  readonly toUpdate: EndpointSlice[];
  readonly events: EventBuilder[];
}

export class TopologyCache {
  readonly #log: Logger;
  #sufficientNodeInfo = false;
  #cpuByZone: Map<string, number> | null = null;
  #cpuRatiosByZone: Map<string, number> | null = null;
  readonly #endpointsByService = new Map<string, Map<string, Map<string, number>>>();
  readonly #hintsPopulated = new Set<string>();

  constructor(logger: Logger = noopLogger) {
    this.#log = logger;
  }

  /** `SetNodes`: zone CPU ratios from ready, non-control-plane Nodes; none unless every such Node has a zone and CPU and there are two zones. */
  setNodes(nodes: readonly Node[]): void {
    const cpuByZone = new Map<string, number>();
    let sufficient = true;
    let total = 0;
    for (const node of nodes) {
      const labels = node.metadata.labels ?? {};
      if (excludedLabels.some((l) => l in labels)) continue;
      if (!isNodeReady(node)) continue;
      const cpu = parseQuantityMilli(node.status?.allocatable?.["cpu"] ?? "0") ?? 0;
      const zone = labels[labelTopologyZone];
      if (zone === undefined || zone === "" || cpu === 0) {
        cpuByZone.clear();
        sufficient = false;
        this.#log.info("Can't get CPU or zone information for node", { node: node.metadata.name });
        break;
      }
      total += cpu;
      cpuByZone.set(zone, (cpuByZone.get(zone) ?? 0) + cpu);
    }
    if (total === 0 || !sufficient || cpuByZone.size < 2) {
      V(this.#log, 2).info("Insufficient node info for topology hints", { totalZones: cpuByZone.size, sufficientNodeInfo: sufficient });
      this.#sufficientNodeInfo = false;
      this.#cpuByZone = null;
      this.#cpuRatiosByZone = null;
      return;
    }
    this.#sufficientNodeInfo = true;
    this.#cpuByZone = cpuByZone;
    this.#cpuRatiosByZone = new Map([...cpuByZone].map(([zone, cpu]) => [zone, cpu / total]));
  }

  /** Every counted Node had a zone and CPU, and there are at least two zones. */
  get sufficientNodeInfo(): boolean {
    return this.#sufficientNodeInfo;
  }

  /** Allocatable milli-CPU per zone, or null without sufficient Node information. */
  get cpuByZone(): ReadonlyMap<string, number> | null {
    return this.#cpuByZone;
  }

  /** Each zone's share of the allocatable CPU, or null without sufficient Node information. */
  get cpuRatiosByZone(): ReadonlyMap<string, number> | null {
    return this.#cpuRatiosByZone;
  }

  /** Hinted endpoints per zone, per address type, of a Service with hints. */
  endpointZoneInfo(serviceKey: string): ReadonlyMap<string, ReadonlyMap<string, number>> | undefined {
    return this.#endpointsByService.get(serviceKey);
  }

  /** `GetOverloadedServices`: Services whose hints leave some zone below its minimum. */
  getOverloadedServices(): string[] {
    const out: string[] = [];
    for (const [key, byType] of this.#endpointsByService) {
      if ([...byType.values()].some((ezi) => serviceOverloaded(ezi, this.#cpuRatiosByZone ?? new Map()))) out.push(key);
    }
    return out;
  }

  /** `HasPopulatedHints`. */
  hasPopulatedHints(serviceKey: string): boolean {
    return this.#hintsPopulated.has(serviceKey);
  }

  /** `SetHints`. */
  setHints(serviceKey: string, addressType: string, allocated: Map<string, number>): void {
    let byType = this.#endpointsByService.get(serviceKey);
    if (byType === undefined) this.#endpointsByService.set(serviceKey, (byType = new Map()));
    byType.set(addressType, allocated);
    this.#hintsPopulated.add(serviceKey);
  }

  /** `RemoveHints`. */
  removeHints(serviceKey: string, addressType: string): void {
    const byType = this.#endpointsByService.get(serviceKey);
    byType?.delete(addressType);
    if (byType !== undefined && byType.size === 0) this.#endpointsByService.delete(serviceKey);
    this.#hintsPopulated.delete(serviceKey);
  }

  /**
   * `AddHints`: hints every ready endpoint for its own zone, then moves hints
   * from zones above their CPU share to zones below it; removes all hints (with
   * a TopologyAwareHintsDisabled event) when that cannot be done safely.
   */
  addHints(si: SliceInfo): AddHintsResult {
    const { allocations, event } = this.getAllocations(totalReadyEndpoints(si));
    if (allocations === null) {
      this.#log.info(`${event.message}, removing hints`, { key: si.serviceKey, addressType: si.addressType });
      event.message = msg.formatWithAddressType(event.message, si.addressType);
      return this.#disable(si, [event]);
    }
    const allocated = allocatedHintsByZone(si, allocations);
    const allocatable = [...si.toCreate, ...si.toUpdate];
    // Step 1: every ready endpoint hinted for its own zone.
    for (const slice of allocatable) {
      for (let i = 0; i < slice.endpoints.length; i++) {
        const ep = slice.endpoints[i]!;
        if (!endpointReady(ep)) {
          if (ep.hints !== undefined) slice.endpoints[i] = withoutHints(ep);
          continue;
        }
        if (ep.zone === undefined || ep.zone === "") {
          this.#log.info("Endpoint found without zone specified, removing hints", { key: si.serviceKey, addressType: si.addressType });
          return this.#disable(si, [msg.hintsDisabled(msg.formatWithAddressType(msg.noZoneSpecified, si.addressType))]);
        }
        allocated.set(ep.zone, (allocated.get(ep.zone) ?? 0) + 1);
        slice.endpoints[i] = hintedFor(ep, ep.zone);
      }
    }
    // Steps 2 and 3: zones above their share give endpoints to zones below it.
    const { giving, receiving } = getGivingAndReceivingZones(allocations, allocated);
    for (const [zone, diff] of redistributeHints(allocatable, giving, receiving)) allocated.set(zone, (allocated.get(zone) ?? 0) + diff);
    if (allocated.size === 0) {
      V(this.#log, 2).info("No hints allocated for zones, removing them", { key: si.serviceKey, addressType: si.addressType });
      return this.#disable(si, [msg.hintsDisabled(msg.formatWithAddressType(msg.noAllocatedHintsForZones, si.addressType))]);
    }
    const wasEnabled = this.hasPopulatedHints(si.serviceKey);
    this.setHints(si.serviceKey, si.addressType, allocated);
    const events: EventBuilder[] = [];
    if (!wasEnabled) {
      this.#log.info("Topology Aware Hints has been enabled, adding hints.", { key: si.serviceKey, addressType: si.addressType });
      events.push({
        eventType: "Normal",
        reason: "TopologyAwareHintsEnabled",
        message: msg.formatWithAddressType(msg.topologyAwareHintsEnabled, si.addressType),
      });
    }
    return { toCreate: si.toCreate, toUpdate: si.toUpdate, events };
  }

  #disable(si: SliceInfo, events: EventBuilder[]): AddHintsResult {
    this.removeHints(si.serviceKey, si.addressType);
    const { toCreate, toUpdate } = removeHintsFromSlices(si);
    return { toCreate, toUpdate, events };
  }

  /**
   * `getAllocations`: minimum, maximum and desired endpoints per zone, or null
   * with the reason when no allocation keeps every zone within the threshold.
   */
  getAllocations(
    numEndpoints: number,
  ): { allocations: Map<string, Allocation>; event?: undefined } | { allocations: null; event: EventBuilder } {
    const ratios = this.#cpuRatiosByZone;
    if (ratios === null) return { allocations: null, event: msg.hintsDisabled(msg.insufficientNodeInfo) };
    if (ratios.size < 2) return { allocations: null, event: msg.hintsDisabled(msg.nodesReadyInOneZoneOnly) };
    const counts = `(${numEndpoints} endpoints, ${ratios.size} zones)`;
    if (ratios.size > numEndpoints)
      return { allocations: null, event: msg.hintsDisabled(`${msg.insufficientNumberOfEndpoints} ${counts}`) };
    let remaining = numEndpoints;
    let minTotal = 0;
    const allocations = new Map<string, Allocation>();
    for (const [zone, ratio] of ratios) {
      const desired = ratio * numEndpoints;
      const minimum = Math.ceil(desired * (1 / (1 + overloadThreshold)));
      allocations.set(zone, { minimum, maximum: 0, desired: Math.max(desired, minimum) });
      minTotal += minimum;
      remaining -= minimum;
      if (remaining < 0) return { allocations: null, event: msg.hintsDisabled(`${msg.minAllocationExceedsOverloadThreshold} ${counts}`) };
    }
    for (const a of allocations.values()) a.maximum = a.minimum + numEndpoints - minTotal;
    return { allocations };
  }
}
