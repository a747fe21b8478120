/**
 * `ServiceChangeTracker` and `ServicePortMap.Update` (pkg/proxy/servicechangetracker.go):
 * changes accumulate per Service between syncs as (previous, current) pairs, and a
 * pair whose ends are equal is dropped because the sync would change nothing.
 */
import type { IPFamily, Service } from "@servicenet/api";
import { getClusterIPByFamily, newServicePortInfo, shouldSkipService } from "../proxy/service-port.ts";
import type { ServicePortInfo } from "../proxy/service-port.ts";
import { namespacedNameString, servicePortKey } from "../proxy/service-port-name.ts";

/** Service ports of one family, keyed by `servicePortKey`. */
export type ServicePortMap = Map<string, ServicePortInfo>;

interface ServiceChange {
  previous: ServicePortMap;
  current: ServicePortMap;
}

/** What a `ServicePortMap` update touched: the NamespacedName strings of changed Services. */
export interface UpdateServiceMapResult {
  readonly updatedServices: ReadonlySet<string>;
}

/**
 * `serviceToServiceMap`: the ports of `svc` this family proxies. Empty when the
 * Service is skipped or has no ClusterIP of this family.
 */
export function serviceToServiceMap(family: IPFamily, svc: Service | undefined): ServicePortMap {
  const out: ServicePortMap = new Map();
  if (svc === undefined || shouldSkipService(svc)) return out;
  const clusterIP = getClusterIPByFamily(family, svc);
  if (clusterIP === "") return out;
  for (const port of svc.spec.ports ?? []) {
    const info = newServicePortInfo(svc, family, clusterIP, port);
    out.set(servicePortKey(info.name), info);
  }
  return out;
}

/** Deep equality of two ServicePortMaps; the records are plain frozen data. */
function sameServiceMaps(a: ServicePortMap, b: ServicePortMap): boolean {
  if (a.size !== b.size) return false;
  for (const [k, v] of a) {
    const w = b.get(k);
    if (w === undefined || JSON.stringify(v) !== JSON.stringify(w)) return false;
  }
  return true;
}

function serviceKey(svc: Service): string {
  return namespacedNameString({ namespace: svc.metadata.namespace ?? "", name: svc.metadata.name ?? "" });
}

export class ServiceChangeTracker {
  readonly #family: IPFamily;
  readonly #items = new Map<string, ServiceChange>();
  /** `sync_proxy_rules_service_changes_total`. */
  changesTotal = 0;

  constructor(family: IPFamily) {
    this.#family = family;
  }

  /**
   * Records a change (add: prev undefined; delete: cur undefined). Returns true
   * when changes are pending, not whether this call changed anything.
   */
  update(prev: Service | undefined, cur: Service | undefined): boolean {
    const svc = cur ?? prev;
    if (svc === undefined) return false;
    this.changesTotal++;
    const key = serviceKey(svc);
    let change = this.#items.get(key);
    if (change === undefined) {
      change = { previous: serviceToServiceMap(this.#family, prev), current: new Map() };
      this.#items.set(key, change);
    }
    change.current = serviceToServiceMap(this.#family, cur);
    if (sameServiceMaps(change.previous, change.current)) this.#items.delete(key);
    return this.#items.size > 0;
  }

  /** `sync_proxy_rules_service_changes_pending`. */
  get pending(): number {
    return this.#items.size;
  }

  /** Hands the accumulated changes to a map update and starts over. */
  checkout(): Map<string, ServiceChange> {
    const items = new Map(this.#items);
    this.#items.clear();
    return items;
  }
}

/** `ServicePortMap.Update`: applies the tracker's pending changes to `map`. */
export function updateServicePortMap(map: ServicePortMap, tracker: ServiceChangeTracker): UpdateServiceMapResult {
  const updatedServices = new Set<string>();
  for (const [nsn, change] of tracker.checkout()) {
    updatedServices.add(nsn);
    for (const key of change.previous.keys()) if (!change.current.has(key)) map.delete(key);
    for (const [key, info] of change.current) map.set(key, info);
  }
  return { updatedServices };
}
