/**
 * `EndpointsChangeTracker` and `EndpointsMap.Update` (pkg/proxy/endpointschangetracker.go,
 * endpointslicecache.go): per Service, the applied slices and the pending ones;
 * a slice of another address type than the tracker's family is ignored.
 */
import type { EndpointSlice, IPFamily } from "@servicenet/api";
import { endpointSliceKeys, endpointsFromSlices } from "./endpoint-slice-data.ts";
import type { EndpointsMap } from "./endpoint-slice-data.ts";

export type { EndpointsMap } from "./endpoint-slice-data.ts";

/** Annotation the EndpointSlice controller sets (`v1.EndpointsLastChangeTriggerTime`). */
export const lastChangeTriggerTimeAnnotation = "endpoints.kubernetes.io/last-change-trigger-time";

interface PendingSlice {
  readonly slice: EndpointSlice;
  readonly remove: boolean;
  /** JSON of the fields that matter, for the DeepEqual upstream does. */
  readonly digest: string;
}

interface ServiceSlices {
  applied: Map<string, PendingSlice>;
  pending: Map<string, PendingSlice>;
}

/** What an EndpointsMap update touched. */
export interface UpdateEndpointsMapResult {
  readonly updatedServices: ReadonlySet<string>;
  /** Trigger times (ms since epoch) per Service, for network_programming_duration_seconds. */
  readonly lastChangeTriggerTimes: ReadonlyMap<string, readonly number[]>;
}

function digestOf(slice: EndpointSlice, remove: boolean): string {
  return JSON.stringify([remove, slice.metadata.labels ?? {}, slice.addressType, slice.endpoints, slice.ports ?? []]);
}

export class EndpointsChangeTracker {
  readonly #addressType: IPFamily;
  readonly #nodeName: string;
  readonly #startTime: number;
  readonly #services = new Map<string, ServiceSlices>();
  /** Services with pending slices, so that a checkout does not walk every Service. */
  readonly #dirty = new Set<string>();
  readonly #triggerTimes = new Map<string, number[]>();
  /** `sync_proxy_rules_endpoint_changes_total`. */
  changesTotal = 0;

  constructor(family: IPFamily, nodeName: string, startTime: number = Date.now()) {
    this.#addressType = family;
    this.#nodeName = nodeName;
    this.#startTime = startTime;
  }

  /** `EndpointSliceUpdate`: returns true when the slice changes what this family proxies. */
  endpointSliceUpdate(slice: EndpointSlice, remove: boolean): boolean {
    if (slice.addressType !== this.#addressType) return false;
    const keys = endpointSliceKeys(slice);
    if (keys === null) return false;
    this.changesTotal++;
    const data: PendingSlice = { slice, remove, digest: digestOf(slice, remove) };
    let svc = this.#services.get(keys.service);
    const known = svc?.pending.get(keys.slice) ?? svc?.applied.get(keys.slice);
    const changed = known !== undefined ? known.digest !== data.digest : !remove;
    if (changed) {
      if (svc === undefined) this.#services.set(keys.service, (svc = { applied: new Map(), pending: new Map() }));
      svc.pending.set(keys.slice, data);
      this.#dirty.add(keys.service);
      this.#recordTriggerTime(keys.service, slice, remove);
    }
    return changed;
  }

  #recordTriggerTime(service: string, slice: EndpointSlice, remove: boolean): void {
    if (remove) {
      this.#triggerTimes.delete(service);
      return;
    }
    const raw = slice.metadata.annotations?.[lastChangeTriggerTimeAnnotation];
    const t = raw === undefined ? NaN : Date.parse(raw);
    // Times before this tracker started belong to changes a previous process programmed. Trigger
    // times are often whole seconds (Pod condition and creation times), so a change made in the
    // second the tracker started compares against the start truncated to its second.
    if (Number.isNaN(t) || t < Math.floor(this.#startTime / 1000) * 1000) return;
    const list = this.#triggerTimes.get(service) ?? [];
    list.push(t);
    this.#triggerTimes.set(service, list);
  }

  /** `sync_proxy_rules_endpoint_changes_pending`. */
  get pending(): number {
    return this.#dirty.size;
  }

  /** `checkoutChanges`: (previous, current) endpoints per changed Service; pending becomes applied. */
  checkout(): { changes: Map<string, { previous: EndpointsMap; current: EndpointsMap }>; triggerTimes: Map<string, number[]> } {
    const changes = new Map<string, { previous: EndpointsMap; current: EndpointsMap }>();
    for (const key of this.#dirty) {
      const svc = this.#services.get(key);
      if (svc === undefined || svc.pending.size === 0) continue;
      const previous = this.#endpointsOf(svc.applied);
      for (const [name, p] of svc.pending) {
        if (p.remove) svc.applied.delete(name);
        else svc.applied.set(name, p);
      }
      svc.pending.clear();
      changes.set(key, { previous, current: this.#endpointsOf(svc.applied) });
      if (svc.applied.size === 0) this.#services.delete(key);
    }
    this.#dirty.clear();
    const triggerTimes = new Map(this.#triggerTimes);
    this.#triggerTimes.clear();
    return { changes, triggerTimes };
  }

  #endpointsOf(slices: Map<string, PendingSlice>): EndpointsMap {
    return endpointsFromSlices(
      [...slices.values()].map((p) => p.slice),
      this.#nodeName,
    );
  }
}

/** `EndpointsMap.Update`: applies the tracker's pending changes to `map`. */
export function updateEndpointsMap(map: EndpointsMap, tracker: EndpointsChangeTracker): UpdateEndpointsMapResult {
  const { changes, triggerTimes } = tracker.checkout();
  const updatedServices = new Set<string>();
  for (const [svc, change] of changes) {
    updatedServices.add(svc);
    for (const key of change.previous.keys()) map.delete(key);
    for (const [key, eps] of change.current) map.set(key, eps);
  }
  return { updatedServices, lastChangeTriggerTimes: triggerTimes };
}
