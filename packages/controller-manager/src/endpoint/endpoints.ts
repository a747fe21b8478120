/**
 * The pure reconcile step of the Endpoints controller (syncService in
 * pkg/controller/endpoint/endpoints_controller.go): which Endpoints object a
 * Service and its pods call for. Legacy Endpoints carry one address per pod,
 * in the Service's primary family only (ShouldPodBeInEndpoints and
 * podToEndpointAddressForService in pkg/controller/util/endpoint).
 */
import {
  compareEndpointAddresses,
  labelServiceHeadless,
  repackSubsets,
  selectorFromSet,
  type EndpointAddress,
  type EndpointPort,
  type Endpoints,
  type EndpointSubset,
  type Pod,
  type Service,
} from "@servicenet/api";
import {
  endpointsFamily,
  findPort,
  hostnameFor,
  isPodReady,
  isServiceIPSet,
  podIPsOfFamily,
  shouldPodBeInEndpoints,
} from "../util/endpoint/pod.ts";
import { endpointsLastChangeTriggerTime } from "../util/endpoint/trigger-time-tracker.ts";

/** Annotation set when addresses were cut to maxCapacity. */
export const endpointsOverCapacity = "endpoints.kubernetes.io/over-capacity";
/** Addresses kept in one Endpoints object (upstream maxCapacity). */
export const endpointsMaxCapacity = 1000;

export type EndpointsPlan =
  | { readonly action: "create" | "update"; readonly endpoints: Endpoints }
  /** The Service is gone: delete its Endpoints (NotFound is fine). */
  | { readonly action: "delete" }
  /** Up to date, or not ours (ExternalName, no selector). */
  | { readonly action: "none" };

export interface EndpointsInput {
  /** The Service, or undefined if it no longer exists. */
  service: Service | undefined;
  /** Pods of the Service's namespace; the selector is applied here. */
  pods: readonly Pod[];
  existing?: Endpoints | undefined;
  /** From TriggerTimeTracker; undefined removes the annotation. */
  lastChangeTriggerTime?: string | undefined;
}

/** The address for `pod`, or null if it has no IP of the Service's primary family. */
export function podToEndpointAddress(svc: Service, pod: Pod): EndpointAddress | null {
  const ip = podIPsOfFamily(pod, endpointsFamily(svc, pod))[0];
  if (ip === undefined) return null;
  const addr: EndpointAddress = {
    ip,
    targetRef: { kind: "Pod", namespace: pod.metadata.namespace ?? "", name: pod.metadata.name ?? "", uid: pod.metadata.uid ?? "" },
  };
  if (pod.spec.nodeName) addr.nodeName = pod.spec.nodeName;
  const hostname = hostnameFor(pod, svc);
  if (hostname !== undefined) addr.hostname = hostname;
  return addr;
}

/** One subset per (pod, port) before repacking (`addEndpointSubset`). */
export function desiredSubsets(svc: Service, pods: readonly Pod[]): EndpointSubset[] {
  const tolerateUnready = svc.spec.publishNotReadyAddresses === true;
  const out: EndpointSubset[] = [];
  for (const pod of pods) {
    if (!shouldPodBeInEndpoints(pod, tolerateUnready)) continue;
    const addr = podToEndpointAddress(svc, pod);
    if (addr === null) continue; // "Failed to find endpoint for service with ClusterIP on pod"
    const ready = tolerateUnready || isPodReady(pod);
    const subset = (ports: EndpointPort[]): EndpointSubset => (ready ? { addresses: [addr], ports } : { notReadyAddresses: [addr], ports });
    const svcPorts = svc.spec.ports ?? [];
    // Headless Services may have no ports: addresses without ports.
    if (svcPorts.length === 0) {
      if (svc.spec.clusterIP === "None") out.push(subset([]));
      continue;
    }
    for (const sp of svcPorts) {
      const port = findPort(pod, sp);
      if (port === null) continue;
      const epp: EndpointPort = { name: sp.name ?? "", port, protocol: sp.protocol ?? "TCP" };
      if (sp.appProtocol !== undefined) epp.appProtocol = sp.appProtocol;
      out.push(subset([epp]));
    }
  }
  return repackSubsets(out);
}

/** Cuts subsets to maxCapacity addresses, ready ones first, proportionally per subset (`truncateEndpoints`). */
export function truncateSubsets(subsets: EndpointSubset[], max = endpointsMaxCapacity): boolean {
  const totalReady = subsets.reduce((n, s) => n + (s.addresses?.length ?? 0), 0);
  const total = subsets.reduce((n, s) => n + (s.addresses?.length ?? 0) + (s.notReadyAddresses?.length ?? 0), 0);
  if (total <= max) return false;
  let canReady = Math.min(totalReady, max);
  let canNotReady = max - canReady;
  const totalNotReady = total - totalReady;
  subsets.forEach((s, i) => {
    const last = i === subsets.length - 1;
    const r = s.addresses?.length ?? 0;
    const n = s.notReadyAddresses?.length ?? 0;
    const keepR = last ? canReady : Math.min(r, Math.floor((r / Math.max(1, totalReady)) * Math.min(totalReady, max)));
    const keepN = last ? canNotReady : Math.min(n, Math.floor((n / Math.max(1, totalNotReady)) * (max - Math.min(totalReady, max))));
    if (s.addresses) s.addresses = s.addresses.slice(0, keepR);
    if (s.notReadyAddresses) s.notReadyAddresses = s.notReadyAddresses.slice(0, keepN);
    canReady -= s.addresses?.length ?? 0;
    canNotReady -= s.notReadyAddresses?.length ?? 0;
  });
  return true;
}

function withoutHeadless(labels: Readonly<Record<string, string>> | undefined): Record<string, string> {
  const { [labelServiceHeadless]: _drop, ...rest } = labels ?? {};
  return rest;
}

function sameLabels(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => a[k] === b[k]);
}

/** Deep equality of JSON-like values, ignoring key order and members that are undefined. */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameValue(x, b[i]));
  }
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  const ka = Object.keys(ra).filter((k) => ra[k] !== undefined);
  const kb = Object.keys(rb).filter((k) => rb[k] !== undefined);
  return ka.length === kb.length && ka.every((k) => sameValue(ra[k], rb[k]));
}

// Pod resourceVersion churn (annotation edits) must not rewrite Endpoints. The key order must not
// matter either: a LIST comes through client-node's serializer (its own key order), a watch event
// keeps the server's, and a restart (LIST only) must not rewrite every Endpoints object.
function normalizeForCompare(subsets: readonly EndpointSubset[] | undefined): unknown {
  const strip = (a: EndpointAddress) => ({ ...a, targetRef: a.targetRef ? { ...a.targetRef, resourceVersion: undefined } : undefined });
  return (subsets ?? []).map((s) => ({
    a: (s.addresses ?? []).map(strip).sort(compareEndpointAddresses),
    n: (s.notReadyAddresses ?? []).map(strip).sort(compareEndpointAddresses),
    p: s.ports ?? [],
  }));
}

/** What to do with the Endpoints of `service` (create, update, delete or nothing). */
export function computeEndpoints(input: EndpointsInput): EndpointsPlan {
  const { service: svc, existing } = input;
  if (svc === undefined) return { action: "delete" };
  if (svc.spec.type === "ExternalName" || svc.spec.selector === undefined) return { action: "none" };
  const selected = selectorFromSet(svc.spec.selector);
  const pods = input.pods.filter((p) => p.metadata.namespace === svc.metadata.namespace && selected(p.metadata.labels));
  const subsets = desiredSubsets(svc, pods);
  const svcLabels = svc.metadata.labels ?? {};
  const create = existing?.metadata.resourceVersion === undefined || existing.metadata.resourceVersion === "";
  const capacityOK = capacityAnnotationSetCorrectly(existing?.metadata.annotations, existing?.subsets);
  if (
    !create &&
    sameValue(normalizeForCompare(existing?.subsets), normalizeForCompare(subsets)) &&
    sameLabels(withoutHeadless(existing?.metadata.labels), svcLabels) &&
    capacityOK
  ) {
    return { action: "none" };
  }
  const annotations = { ...(create ? {} : existing?.metadata.annotations) };
  if (input.lastChangeTriggerTime !== undefined) annotations[endpointsLastChangeTriggerTime] = input.lastChangeTriggerTime;
  else delete annotations[endpointsLastChangeTriggerTime];
  if (truncateSubsets(subsets)) annotations[endpointsOverCapacity] = "truncated";
  else delete annotations[endpointsOverCapacity];
  const labels = withoutHeadless(svcLabels);
  if (!isServiceIPSet(svc)) labels[labelServiceHeadless] = "";
  const base = create ? { name: svc.metadata.name, namespace: svc.metadata.namespace } : existing.metadata;
  const endpoints: Endpoints = { apiVersion: "v1", kind: "Endpoints", metadata: { ...base, labels, annotations }, subsets };
  return { action: create ? "create" : "update", endpoints };
}

/** Over capacity counts as wrong (it must be truncated); under it, the annotation must be absent. */
function capacityAnnotationSetCorrectly(
  annotations: Readonly<Record<string, string>> | undefined,
  subsets: readonly EndpointSubset[] | undefined,
): boolean {
  const n = (subsets ?? []).reduce((acc, s) => acc + (s.addresses?.length ?? 0) + (s.notReadyAddresses?.length ?? 0), 0);
  if (n > endpointsMaxCapacity) return false;
  return annotations?.[endpointsOverCapacity] === undefined;
}
