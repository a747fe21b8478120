/**
 * The pure EndpointSlice reconciler (staging/src/k8s.io/endpointslice/
 * reconciler.go): from a Service, its pods and its current slices, the
 * slices to create, update and delete. One set of slices per address type
 * (the address types of the Service's ipFamilies), grouped by port map, at most
 * maxEndpointsPerSlice endpoints each, changing as few slices as possible.
 */
import {
  defaultMaxEndpointsPerSlice,
  selectorFromSet,
  type EndpointSlice,
  type EndpointSliceEndpoint,
  type EndpointSlicePort,
  type Node,
  type Pod,
  type Service,
} from "@servicenet/api";
import { shouldPodBeInEndpoints } from "../util/endpoint/pod.ts";
import { endpointsLastChangeTriggerTime } from "../util/endpoint/trigger-time-tracker.ts";
import { reconcileSliceHints } from "./hints.ts";
import type { HintOptions } from "./hints.ts";
import { reconcileByPortMapping } from "./reconcile-port-mapping.ts";
import type { EventBuilder } from "./topologycache/event.ts";
import {
  addressTypesForService,
  endpointKey,
  endpointPorts,
  newEndpointSlice,
  ownedBy,
  portMapKey,
  podToEndpoint,
  type SliceAddressType,
} from "./utils.ts";

export interface SliceChanges {
  toCreate: EndpointSlice[];
  toUpdate: EndpointSlice[];
  toDelete: EndpointSlice[];
  /** Pods left out for a missing Node; the caller requeues the Service. */
  errors: string[];
  /** Events to record on the Service (TopologyAwareHintsEnabled/Disabled). */
  events: EventBuilder[];
}

export interface ReconcileInput {
  service: Service;
  /** Pods of the Service's namespace; the selector is applied here. */
  pods: readonly Pod[];
  /** Slices labelled with this Service's name and managed by this controller. */
  existingSlices: readonly EndpointSlice[];
  /** Nodes by name (the node lister's Get); undefined skips Node lookups (no zones). */
  nodes?: Pick<ReadonlyMap<string, Node>, "get"> | undefined;
  maxEndpointsPerSlice?: number;
  /** RFC 3339 trigger time for the annotation; undefined removes it. */
  triggerTime?: string | undefined;
  /** Topology hints: the topology cache and the PreferSameTrafficDistribution gate. */
  hints?: HintOptions;
}

/** Plans the slice writes for one Service (`Reconciler.Reconcile`). */
export function reconcile(input: ReconcileInput): SliceChanges {
  const types = addressTypesForService(input.service);
  const out: SliceChanges = { toCreate: [], toUpdate: [], toDelete: [], errors: [], events: [] };
  const byType = new Map<SliceAddressType, EndpointSlice[]>(types.map((t) => [t, []]));
  for (const s of input.existingSlices) {
    const list = byType.get(s.addressType as SliceAddressType);
    // Slices of a family the Service dropped (or the deprecated "IP" type) go.
    if (list === undefined) out.toDelete.push(s);
    else list.push(s);
  }
  for (const t of types) {
    const r = reconcileByAddressType(input, byType.get(t)!, t);
    out.toCreate.push(...r.toCreate);
    out.toUpdate.push(...r.toUpdate);
    out.toDelete.push(...r.toDelete);
    out.errors.push(...r.errors);
    out.events.push(...r.events);
  }
  if (input.service.metadata.deletionTimestamp !== undefined) out.toCreate = [];
  for (const s of [...out.toCreate, ...out.toUpdate]) setTriggerTime(s, input.triggerTime);
  return out;
}

function setTriggerTime(slice: EndpointSlice, t: string | undefined): void {
  const annotations = { ...slice.metadata.annotations };
  if (t !== undefined) annotations[endpointsLastChangeTriggerTime] = t;
  else delete annotations[endpointsLastChangeTriggerTime];
  slice.metadata = { ...slice.metadata, annotations };
}

interface DesiredGroup {
  ports: EndpointSlicePort[];
  endpoints: Map<string, EndpointSliceEndpoint>;
}

function desiredByPortMap(input: ReconcileInput, addressType: SliceAddressType, errors: string[]): Map<string, DesiredGroup> {
  const { service: svc } = input;
  const desired = new Map<string, DesiredGroup>();
  const selected = selectorFromSet(svc.spec.selector);
  for (const pod of input.pods) {
    if (pod.metadata.namespace !== svc.metadata.namespace || !selected(pod.metadata.labels)) continue;
    if (!shouldPodBeInEndpoints(pod, true)) continue;
    const ports = endpointPorts(svc, pod);
    const key = portMapKey(ports);
    const group = desired.get(key) ?? { ports, endpoints: new Map() };
    desired.set(key, group);
    const nodeName = pod.spec.nodeName;
    const node = nodeName ? input.nodes?.get(nodeName) : undefined;
    // A pod on a Node we do not know is left out (and the Service retried), unless not-ready addresses are published.
    if (nodeName && input.nodes !== undefined && node === undefined && svc.spec.publishNotReadyAddresses !== true) {
      errors.push(
        `skipping Pod ${pod.metadata.name} for Service ${svc.metadata.namespace}/${svc.metadata.name}: Node ${nodeName} Not Found`,
      );
      continue;
    }
    const ep = podToEndpoint(pod, node, svc, addressType);
    if (ep.addresses.length > 0) group.endpoints.set(endpointKey(ep), ep);
  }
  return desired;
}

function reconcileByAddressType(input: ReconcileInput, existing: readonly EndpointSlice[], addressType: SliceAddressType): SliceChanges {
  const { service: svc } = input;
  const max = input.maxEndpointsPerSlice ?? defaultMaxEndpointsPerSlice;
  const out: SliceChanges = { toCreate: [], toUpdate: [], toDelete: [], errors: [], events: [] };
  const owned: EndpointSlice[] = [];
  const existingByPortMap = new Map<string, EndpointSlice[]>();
  for (const s of existing) {
    if (!ownedBy(s, svc)) {
      out.toDelete.push(s);
      continue;
    }
    owned.push(s);
    const key = portMapKey(s.ports);
    existingByPortMap.set(key, [...(existingByPortMap.get(key) ?? []), s]);
  }
  const desired = desiredByPortMap(input, addressType, out.errors);
  for (const [key, group] of desired) {
    const r = reconcileByPortMapping(svc, existingByPortMap.get(key) ?? [], group.endpoints, { addressType, ports: group.ports }, max);
    out.toCreate.push(...r.toCreate);
    out.toUpdate.push(...r.toUpdate);
    out.toDelete.push(...r.toDelete);
  }
  for (const [key, slices] of existingByPortMap) if (!desired.has(key)) out.toDelete.push(...slices);
  // With no endpoints at all, one empty placeholder slice per address type.
  if (existing.length === out.toDelete.length && out.toCreate.length === 0) {
    const placeholder = newEndpointSlice(svc, addressType, []);
    if (out.toDelete.length === 1 && isSamePlaceholder(out.toDelete[0]!, placeholder)) out.toDelete = [];
    else out.toCreate.push(placeholder);
  }
  const hinted = reconcileSliceHints(svc, addressType, owned, out, input.hints ?? {});
  return finalize(svc, { ...out, toCreate: hinted.toCreate, toUpdate: hinted.toUpdate, events: hinted.events });
}

function sameMap(a: Readonly<Record<string, string>> | undefined, b: Readonly<Record<string, string>> | undefined): boolean {
  const ea = Object.entries(a ?? {});
  return ea.length === Object.keys(b ?? {}).length && ea.every(([k, v]) => b?.[k] === v);
}

// placeholderSliceCompare: namespace and labels of the metadata, then the rest of the slice.
function isSamePlaceholder(a: EndpointSlice, p: EndpointSlice): boolean {
  return (
    a.metadata.namespace === p.metadata.namespace &&
    sameMap(a.metadata.labels, p.metadata.labels) &&
    a.addressType === p.addressType &&
    a.endpoints.length === 0 &&
    (a.ports ?? []).length === 0
  );
}

/** Turns creates into updates of slices that would be deleted (same address type, same owner) (`finalize`). */
function finalize(svc: Service, c: SliceChanges): SliceChanges {
  const toDelete = [...c.toDelete];
  const toCreate = [...c.toCreate];
  const toUpdate = [...c.toUpdate];
  for (let i = 0; i < toDelete.length && toCreate.length > 0;) {
    const del = toDelete[i]!;
    const create = toCreate[toCreate.length - 1]!;
    if (del.addressType === create.addressType && ownedBy(del, svc)) {
      toCreate.pop();
      const { generateName: _g, ...meta } = create.metadata;
      // Carry the resourceVersion so the replace is a compare-and-swap.
      toUpdate.push({ ...create, metadata: { ...meta, name: del.metadata.name, resourceVersion: del.metadata.resourceVersion } });
      toDelete.splice(i, 1);
    } else i++;
  }
  return { toCreate, toUpdate, toDelete, errors: c.errors, events: c.events };
}
