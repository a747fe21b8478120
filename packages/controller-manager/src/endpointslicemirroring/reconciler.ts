/**
 * The pure half of the mirroring reconciler (upstream pkg/controller/endpointslicemirroring
 * reconciler.go and reconciler_helpers.go): which EndpointSlices an Endpoints resource calls for,
 * given the slices already mirrored from it. One slice per (address type, port set) of the
 * repacked subsets, holding at most maxEndpointsPerSubset endpoints.
 */
import {
  endpointSliceManagedByLabel,
  endpointSliceServiceNameLabel,
  repackSubsets,
  type EndpointSlice,
  type EndpointSliceEndpoint,
  type EndpointSlicePort,
  type Endpoints,
} from "@servicenet/api";
import { endpointKey, endpointsEqualBeyondKey, type SliceAddressType } from "../endpointslice/utils.ts";
import { endpointsLastChangeTriggerTime } from "../util/endpoint/trigger-time-tracker.ts";
import { EndpointPortCache } from "./metrics/cache.ts";
import {
  addrTypePortMapKey,
  addressToEndpoint,
  addressTypeOfKey,
  cloneAndRemoveKeys,
  defaultMirroringMaxEndpointsPerSubset,
  epPortsToEpsPorts,
  lastAppliedConfigAnnotation,
  newEndpointSlice,
} from "./utils.ts";

/** What to write, and what was left out (upstream's events and AddressesSkippedPerSync). */
export interface MirrorPlan {
  toCreate: EndpointSlice[];
  toUpdate: EndpointSlice[];
  toDelete: EndpointSlice[];
  /** Addresses that are no IP (upstream's InvalidIPAddress event). */
  invalidAddresses: number;
  /** Invalid plus those beyond maxEndpointsPerSubset (TooManyAddressesToMirror when more than the invalid ones). */
  addressesSkipped: number;
  totals: { added: number; updated: number; removed: number };
  /** Endpoints and slices per port map once the plan is carried out (upstream's epMetrics). */
  portCache: EndpointPortCache;
}

type EndpointSet = Map<string, EndpointSliceEndpoint>;

/** upstream desiredCalc. */
class DesiredCalc {
  readonly portsByKey = new Map<string, EndpointSlicePort[]>();
  readonly endpointsByKey = new Map<string, EndpointSet>();

  /** upstream initPorts: one key per address type for the subset's ports. */
  initPorts(subsetPorts: Parameters<typeof epPortsToEpsPorts>[0]): Record<SliceAddressType, string> {
    const ports = epPortsToEpsPorts(subsetPorts);
    const multiKey = {} as Record<SliceAddressType, string>;
    for (const t of ["IPv4", "IPv6"] as const) {
      const key = addrTypePortMapKey(ports, t);
      multiKey[t] = key;
      if (!this.endpointsByKey.has(key)) this.endpointsByKey.set(key, new Map());
      this.portsByKey.set(key, ports);
    }
    return multiKey;
  }

  /** upstream addAddress: false for an address that is no IP. */
  addAddress(address: Parameters<typeof addressToEndpoint>[0], multiKey: Record<SliceAddressType, string>, ready: boolean): boolean {
    const got = addressToEndpoint(address, ready);
    if (got === null) return false;
    this.endpointsByKey.get(multiKey[got.addressType])!.set(endpointKey(got.endpoint), got.endpoint);
    return true;
  }
}

/** upstream totalChanges. */
function totalChanges(existing: EndpointSlice, desired: EndpointSet): MirrorPlan["totals"] {
  const totals = { added: 0, updated: 0, removed: 0 };
  let matches = 0;
  for (const ep of existing.endpoints ?? []) {
    const got = desired.get(endpointKey(ep));
    if (got === undefined) totals.removed++;
    else {
      matches++;
      if (!endpointsEqualBeyondKey(got, ep)) totals.updated++;
    }
  }
  totals.added = desired.size - matches;
  return totals;
}

/** apiequality.Semantic.DeepEqual of two string maps (nil and empty alike). */
function sameMap(a: Readonly<Record<string, string>> | undefined, b: Readonly<Record<string, string>> | undefined): boolean {
  const ea = Object.entries(a ?? {}).sort();
  const eb = Object.entries(b ?? {}).sort();
  return JSON.stringify(ea) === JSON.stringify(eb);
}

/** The existing slice points at this very Endpoints object (a recreated Endpoints has a new UID). */
function ownedByEndpoints(slice: EndpointSlice, endpoints: Endpoints): boolean {
  const uid = endpoints.metadata?.uid;
  return !uid || (slice.metadata.ownerReferences ?? []).some((r) => r.uid === uid);
}

/** upstream reconcileByPortMapping. */
function reconcileByPortMapping(
  endpoints: Endpoints,
  existing: readonly EndpointSlice[],
  desired: EndpointSet,
  ports: EndpointSlicePort[],
  addressType: SliceAddressType,
  max: number,
): Pick<MirrorPlan, "toCreate" | "toUpdate" | "toDelete" | "totals"> {
  const out = { toCreate: [] as EndpointSlice[], toUpdate: [] as EndpointSlice[], toDelete: [] as EndpointSlice[] };
  if (desired.size === 0) {
    const removed = existing.reduce((n, s) => n + (s.endpoints ?? []).length, 0);
    return { ...out, toDelete: [...existing], totals: { added: 0, updated: 0, removed } };
  }
  let totals = { added: desired.size, updated: 0, removed: 0 };
  const first = existing[0];
  if (first !== undefined) {
    // All but one go.
    out.toDelete = existing.slice(1);
    // The slice must carry the Endpoints' labels and annotations (but the trigger time and
    // last-applied-configuration) besides the endpoints themselves.
    const compareAnnotations = cloneAndRemoveKeys(
      endpoints.metadata?.annotations,
      endpointsLastChangeTriggerTime,
      lastAppliedConfigAnnotation,
    );
    const compareLabels = cloneAndRemoveKeys(first.metadata.labels, endpointSliceManagedByLabel, endpointSliceServiceNameLabel);
    totals = totalChanges(first, desired);
    if (
      totals.added === 0 &&
      totals.updated === 0 &&
      totals.removed === 0 &&
      sameMap(endpoints.metadata?.labels, compareLabels) &&
      sameMap(compareAnnotations, first.metadata.annotations) &&
      ownedByEndpoints(first, endpoints)
    )
      return { ...out, totals };
  }
  const slice = newEndpointSlice(endpoints, ports, addressType, first?.metadata.name ?? "");
  for (const ep of desired.values()) {
    if ((slice.endpoints ?? []).length >= max) break;
    slice.endpoints.push(ep);
  }
  if (slice.metadata.name) out.toUpdate.push(slice);
  else out.toCreate.push(slice);
  return { ...out, totals };
}

/** upstream recycleSlices: a create and a delete of one address type become an update. */
function recycleSlices(plan: Pick<MirrorPlan, "toCreate" | "toUpdate" | "toDelete">): void {
  for (const t of ["IPv4", "IPv6"]) {
    const creates = plan.toCreate.filter((s) => s.addressType === t);
    const deletes = plan.toDelete.filter((s) => s.addressType === t);
    for (let i = 0; i < creates.length && i < deletes.length; i++) {
      const slice = creates[i]!;
      plan.toCreate.splice(plan.toCreate.indexOf(slice), 1);
      plan.toDelete.splice(plan.toDelete.indexOf(deletes[i]!), 1);
      slice.metadata.name = deletes[i]!.metadata.name!;
      delete slice.metadata.generateName;
      plan.toUpdate.push(slice);
    }
  }
}

/** upstream reconciler.reconcile, without the writes: the plan finalize would carry out. */
export function reconcile(
  endpoints: Endpoints,
  existingSlices: readonly EndpointSlice[],
  maxEndpointsPerSubset = defaultMirroringMaxEndpointsPerSubset,
): MirrorPlan {
  const d = new DesiredCalc();
  let invalidAddresses = 0;
  let addressesSkipped = 0;
  // The subsets in canonical form first.
  for (const subset of repackSubsets(endpoints.subsets ?? [])) {
    const multiKey = d.initPorts(subset.ports);
    const total = (subset.addresses ?? []).length + (subset.notReadyAddresses ?? []).length;
    let added = 0;
    // At most maxEndpointsPerSubset per subset: one subset maps to one slice.
    for (const [addresses, ready] of [
      [subset.addresses ?? [], true],
      [subset.notReadyAddresses ?? [], false],
    ] as const) {
      for (const address of addresses) {
        if (added >= maxEndpointsPerSubset) break;
        if (d.addAddress(address, multiKey, ready)) added++;
        else invalidAddresses++;
      }
    }
    addressesSkipped += total - added;
  }
  const existingByKey = new Map<string, EndpointSlice[]>();
  for (const s of existingSlices) {
    const key = addrTypePortMapKey(s.ports, s.addressType);
    existingByKey.set(key, [...(existingByKey.get(key) ?? []), s]);
  }
  const plan: MirrorPlan = {
    toCreate: [],
    toUpdate: [],
    toDelete: [],
    invalidAddresses,
    addressesSkipped,
    totals: { added: 0, updated: 0, removed: 0 },
    portCache: new EndpointPortCache(),
  };
  for (const [key, desired] of d.endpointsByKey) {
    const existing = existingByKey.get(key) ?? [];
    const pm = reconcileByPortMapping(endpoints, existing, desired, d.portsByKey.get(key)!, addressTypeOfKey(key), maxEndpointsPerSubset);
    plan.toCreate.push(...pm.toCreate);
    plan.toUpdate.push(...pm.toUpdate);
    plan.toDelete.push(...pm.toDelete);
    plan.totals.added += pm.totals.added;
    plan.totals.updated += pm.totals.updated;
    plan.totals.removed += pm.totals.removed;
    plan.portCache.set(key, { endpoints: desired.size, slices: existing.length + pm.toCreate.length - pm.toDelete.length });
  }
  // Port sets no longer desired: their slices go.
  for (const [key, slices] of existingByKey) if (!d.endpointsByKey.has(key)) plan.toDelete.push(...slices);
  recycleSlices(plan);
  // No new slices for an Endpoints being deleted (upstream finalize).
  if (endpoints.metadata?.deletionTimestamp !== undefined) plan.toCreate = [];
  return plan;
}
