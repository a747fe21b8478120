/**
 * Which hints a Service's slices of one address type get, as the reconciler
 * decides it (staging/src/k8s.io/endpointslice/reconciler.go reconcileByAddressType,
 * Kubernetes 1.33): the topology-mode annotation (topology cache) wins over
 * `spec.trafficDistribution`; without either, hints are removed.
 */
import type { EndpointSlice, Service } from "@servicenet/api";
import { formatWithAddressType, hintsDisabled, topologyAwareHintsDisabled } from "./topologycache/event.ts";
import type { EventBuilder } from "./topologycache/event.ts";
import type { TopologyCache } from "./topologycache/topology-cache.ts";
import { removeHintsFromSlices } from "./topologycache/slice-info.ts";
import { reconcileHints } from "./trafficdist/trafficdist.ts";

/** `v1.AnnotationTopologyMode`. */
export const annotationTopologyMode = "service.kubernetes.io/topology-mode";
/** `v1.DeprecatedAnnotationTopologyAwareHints`: takes precedence when both are set. */
export const deprecatedAnnotationTopologyAwareHints = "service.kubernetes.io/topology-aware-hints";

export interface HintOptions {
  /** The controller's topology cache (TopologyAwareHints, GA in 1.33); absent: the annotation is ignored. */
  readonly topologyCache?: TopologyCache | undefined;
  /** Feature gate PreferSameTrafficDistribution (alpha, off in 1.33): PreferSameZone/PreferSameNode are honoured. */
  readonly preferSameTrafficDistribution?: boolean | undefined;
}

/** `hintsEnabled`: the (deprecated, else current) topology annotation is "Auto" or "auto". */
export function hintsEnabled(annotations: Readonly<Record<string, string>> | undefined): boolean {
  const val = annotations?.[deprecatedAnnotationTopologyAwareHints] ?? annotations?.[annotationTopologyMode];
  return val === "Auto" || val === "auto";
}

/** `validTrafficDistribution`. */
export function validTrafficDistribution(td: string | undefined, preferSameTrafficDistribution: boolean): boolean {
  if (td === "PreferClose") return true;
  return preferSameTrafficDistribution && (td === "PreferSameZone" || td === "PreferSameNode");
}

/** Slices of `existing` neither updated nor deleted (`unchangedSlices`). */
function unchangedSlices(
  existing: readonly EndpointSlice[],
  toUpdate: readonly EndpointSlice[],
  toDelete: readonly EndpointSlice[],
): EndpointSlice[] {
  const changed = new Set([...toUpdate, ...toDelete].map((s) => s.metadata.name));
  return existing.filter((s) => !changed.has(s.metadata.name));
}

export interface HintedChanges {
  toCreate: EndpointSlice[];
  toUpdate: EndpointSlice[];
  events: EventBuilder[];
}

/** Adds, corrects or removes the hints of one address type's slices; returns the Events to record on the Service. */
export function reconcileSliceHints(
  svc: Service,
  addressType: string,
  existing: readonly EndpointSlice[],
  changes: { toCreate: EndpointSlice[]; toUpdate: EndpointSlice[]; toDelete: readonly EndpointSlice[] },
  opts: HintOptions,
): HintedChanges {
  const serviceKey = `${svc.metadata.namespace ?? ""}/${svc.metadata.name ?? ""}`;
  const si = {
    serviceKey,
    addressType,
    toCreate: changes.toCreate,
    toUpdate: changes.toUpdate,
    unchanged: unchangedSlices(existing, changes.toUpdate, changes.toDelete),
  };
  const auto = hintsEnabled(svc.metadata.annotations);
  const td = svc.spec.trafficDistribution;
  const canUseTrafficDistribution = validTrafficDistribution(td, opts.preferSameTrafficDistribution ?? false) && !auto;
  const cache = opts.topologyCache;
  let out: HintedChanges = { toCreate: si.toCreate, toUpdate: si.toUpdate, events: [] };
  if (cache !== undefined && auto) {
    out = cache.addHints(si);
  } else {
    if (cache !== undefined) {
      // Hints this controller added for the annotation go; trafficDistribution may add its own below.
      if (cache.hasPopulatedHints(serviceKey))
        out.events.push(hintsDisabled(formatWithAddressType(topologyAwareHintsDisabled, addressType)));
      cache.removeHints(serviceKey, addressType);
    }
    if (!canUseTrafficDistribution) out = { ...removeHintsFromSlices(si), events: out.events };
  }
  if (canUseTrafficDistribution) {
    const r = reconcileHints(td, out.toCreate, out.toUpdate, unchangedSlices(existing, out.toUpdate, changes.toDelete));
    out = { toCreate: r.toCreate, toUpdate: r.toUpdate, events: out.events };
  }
  return out;
}
