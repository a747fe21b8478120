/**
 * Building blocks of the EndpointSlice reconciler
 * (staging/src/k8s.io/endpointslice/utils.go and util/endpointset.go).
 */
import {
  discoveryV1APIVersion,
  endpointSliceControllerName,
  endpointSliceManagedByLabel,
  endpointSliceServiceNameLabel,
  ipFamilyOfString,
  labelServiceHeadless,
  type EndpointSlice,
  type EndpointSliceEndpoint,
  type EndpointSlicePort,
  type Node,
  type Pod,
  type Service,
} from "@servicenet/api";
import { findPort, hostnameFor, isPodReady, isServiceIPSet, podIPsOfFamily } from "../util/endpoint/pod.ts";

/** An EndpointSlice address type the controller manages. */
export type SliceAddressType = "IPv4" | "IPv6";

/** `v1.LabelTopologyZone`, copied from the Node onto each endpoint. */
export const labelTopologyZone = "topology.kubernetes.io/zone";

/**
 * One address type per spec.ipFamilies entry; without families, the
 * clusterIP's family (headful) or both (headless) (`getAddressTypesForService`).
 */
export function addressTypesForService(svc: Service): SliceAddressType[] {
  const out = new Set<SliceAddressType>();
  for (const f of svc.spec.ipFamilies ?? []) if (f === "IPv4" || f === "IPv6") out.add(f);
  if (out.size > 0) return [...out];
  if (isServiceIPSet(svc)) return [ipFamilyOfString(svc.spec.clusterIP!) === "IPv6" ? "IPv6" : "IPv4"];
  return ["IPv4", "IPv6"];
}

/** The slice ports a pod offers for the Service (`getEndpointPorts`); headless without ports: none. */
export function endpointPorts(svc: Service, pod: Pod): EndpointSlicePort[] {
  const out: EndpointSlicePort[] = [];
  for (const sp of svc.spec.ports ?? []) {
    const port = findPort(pod, sp);
    if (port === null) continue;
    const p: EndpointSlicePort = { name: sp.name ?? "", port, protocol: sp.protocol ?? "TCP" };
    if (sp.appProtocol !== undefined) p.appProtocol = sp.appProtocol;
    out.push(p);
  }
  return out;
}

/** Order-independent key of a port list (`NewPortMapKey`). */
export function portMapKey(ports: readonly EndpointSlicePort[] | undefined): string {
  return JSON.stringify((ports ?? []).map((p) => [p.name ?? "", p.port ?? 0, p.protocol ?? "TCP", p.appProtocol ?? ""]).sort());
}

/** The endpoint of `pod` in a slice of `addressType` (`podToEndpoint`). */
export function podToEndpoint(pod: Pod, node: Node | undefined, svc: Service, addressType: SliceAddressType): EndpointSliceEndpoint {
  const serving = isPodReady(pod);
  const terminating = pod.metadata.deletionTimestamp !== undefined;
  // Ready is never true for a terminating pod unless the Service publishes not-ready addresses.
  const ready = svc.spec.publishNotReadyAddresses === true || (serving && !terminating);
  const ep: EndpointSliceEndpoint = {
    addresses: podIPsOfFamily(pod, addressType),
    conditions: { ready, serving, terminating },
    targetRef: { kind: "Pod", namespace: pod.metadata.namespace ?? "", name: pod.metadata.name ?? "", uid: pod.metadata.uid ?? "" },
  };
  if (pod.spec.nodeName) ep.nodeName = pod.spec.nodeName;
  const zone = node?.metadata.labels?.[labelTopologyZone];
  if (zone) ep.zone = zone;
  const hostname = hostnameFor(pod, svc);
  if (hostname !== undefined) ep.hostname = hostname;
  return ep;
}

/** Identity of an endpoint: addresses, hostname and pod (`hashEndpoint`); other fields may change in place. */
export function endpointKey(ep: EndpointSliceEndpoint): string {
  return JSON.stringify([[...ep.addresses].sort(), ep.hostname ?? "", ep.targetRef?.namespace ?? "", ep.targetRef?.name ?? ""]);
}

/**
 * Equal in everything the key leaves out (`EndpointsEqualBeyondHash`). Hints are
 * not compared: desired endpoints have none; the hint heuristics decide on them.
 */
export function endpointsEqualBeyondKey(a: EndpointSliceEndpoint, b: EndpointSliceEndpoint): boolean {
  const ca = a.conditions ?? {};
  const cb = b.conditions ?? {};
  const ref = (e: EndpointSliceEndpoint) =>
    JSON.stringify([e.targetRef?.kind, e.targetRef?.namespace, e.targetRef?.name, e.targetRef?.uid]);
  return (
    (a.nodeName ?? "") === (b.nodeName ?? "") &&
    (a.zone ?? "") === (b.zone ?? "") &&
    ca.ready === cb.ready &&
    ca.serving === cb.serving &&
    ca.terminating === cb.terminating &&
    ref(a) === ref(b)
  );
}

const reserved = new Set([endpointSliceServiceNameLabel, endpointSliceManagedByLabel, labelServiceHeadless]);

/**
 * The labels a slice of `svc` must carry: the Service's own (reserved keys
 * skipped), headless label, service-name and managed-by
 * (`setEndpointSliceLabels`). `changed` compares with the slice's labels.
 */
export function sliceLabels(slice: EndpointSlice | undefined, svc: Service): { labels: Record<string, string>; changed: boolean } {
  const labels: Record<string, string> = {};
  for (const [k, v] of Object.entries(svc.metadata.labels ?? {})) if (!reserved.has(k)) labels[k] = v;
  if (!isServiceIPSet(svc)) labels[labelServiceHeadless] = "";
  labels[endpointSliceServiceNameLabel] = svc.metadata.name ?? "";
  labels[endpointSliceManagedByLabel] = endpointSliceControllerName;
  const have = slice?.metadata.labels ?? {};
  // Upstream only notices removed or changed Service labels; we also notice added ones.
  const changed = Object.keys(have).length !== Object.keys(labels).length || Object.entries(labels).some(([k, v]) => have[k] !== v);
  return { labels, changed };
}

/** True if the slice has an owner reference to this Service's UID (`ownedBy`). */
export function ownedBy(slice: EndpointSlice, svc: Service): boolean {
  return (slice.metadata.ownerReferences ?? []).some((o) => o.uid === svc.metadata.uid && o.kind === "Service" && o.apiVersion === "v1");
}

/** A new, unnamed slice of `svc` (`newEndpointSlice`): generateName `<service>-`, controller owner reference. */
export function newEndpointSlice(svc: Service, addressType: SliceAddressType, ports: EndpointSlicePort[]): EndpointSlice {
  return {
    apiVersion: discoveryV1APIVersion,
    kind: "EndpointSlice",
    metadata: {
      generateName: `${svc.metadata.name ?? ""}-`,
      namespace: svc.metadata.namespace,
      labels: sliceLabels(undefined, svc).labels,
      ownerReferences: [
        {
          apiVersion: "v1",
          kind: "Service",
          name: svc.metadata.name ?? "",
          uid: svc.metadata.uid ?? "",
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    addressType,
    endpoints: [],
    ports,
  };
}
