/**
 * Helpers of the EndpointSlice mirroring controller (upstream
 * pkg/controller/endpointslicemirroring/utils.go).
 */
import {
  discoveryV1APIVersion,
  endpointSliceManagedByLabel,
  endpointSliceMirroringControllerName,
  endpointSliceServiceNameLabel,
  endpointSliceSkipMirrorLabel,
  formatIP,
  parseIPSloppy,
  type EndpointAddress,
  type EndpointPort,
  type EndpointSlice,
  type EndpointSliceEndpoint,
  type EndpointSlicePort,
  type Endpoints,
} from "@servicenet/api";
import { endpointsLastChangeTriggerTime } from "../util/endpoint/trigger-time-tracker.ts";
import { portMapKey, type SliceAddressType } from "../endpointslice/utils.ts";

/** corev1.LastAppliedConfigAnnotation. */
export const lastAppliedConfigAnnotation = "kubectl.kubernetes.io/last-applied-configuration";
/** resourcelock.LeaderElectionRecordAnnotationKey: Endpoints used as a leader-election lock are not mirrored. */
export const leaderElectionRecordAnnotationKey = "control-plane.alpha.kubernetes.io/leader";
/** Upstream's default --mirroring-max-endpoints-per-subset. */
export const defaultMirroringMaxEndpointsPerSubset = 1000;

/** upstream addrTypePortMapKey: address type plus the order-independent port key. */
export function addrTypePortMapKey(ports: readonly EndpointSlicePort[] | undefined, addressType: string): string {
  return `${addressType}-${portMapKey(ports)}`;
}

/** upstream addrTypePortMapKey.addressType. */
export function addressTypeOfKey(key: string): SliceAddressType {
  return key.startsWith("IPv6") ? "IPv6" : "IPv4";
}

/** upstream getEndpointSlicePrefix: `<name>-` unless that is no valid name prefix. */
export function getEndpointSlicePrefix(serviceName: string): string {
  // ValidateEndpointSliceName(prefix, true) masks the trailing dash (as a letter): only the length can fail.
  const prefix = `${serviceName}-`;
  return prefix.length > 253 ? serviceName : prefix;
}

/** upstream cloneAndRemoveKeys. */
export function cloneAndRemoveKeys(a: Readonly<Record<string, string>> | undefined, ...keys: string[]): Record<string, string> {
  const out: Record<string, string> = { ...(a ?? {}) };
  for (const k of keys) delete out[k];
  return out;
}

/**
 * upstream newEndpointSlice: the Endpoints' labels (plus service-name and managed-by), its
 * annotations but the trigger time and last-applied-configuration, a controller owner reference to
 * the Endpoints, and either the given name or a generateName from the Endpoints' name.
 */
export function newEndpointSlice(
  endpoints: Endpoints,
  ports: EndpointSlicePort[],
  addressType: SliceAddressType,
  sliceName: string,
): EndpointSlice {
  const meta = endpoints.metadata ?? {};
  const labels: Record<string, string> = {
    ...(meta.labels ?? {}),
    [endpointSliceServiceNameLabel]: meta.name ?? "",
    [endpointSliceManagedByLabel]: endpointSliceMirroringControllerName,
  };
  const annotations = cloneAndRemoveKeys(meta.annotations, endpointsLastChangeTriggerTime, lastAppliedConfigAnnotation);
  const slice: EndpointSlice = {
    apiVersion: discoveryV1APIVersion,
    kind: "EndpointSlice",
    metadata: {
      namespace: meta.namespace ?? "",
      labels,
      ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
      ownerReferences: [
        {
          apiVersion: "v1",
          kind: "Endpoints",
          name: meta.name ?? "",
          uid: meta.uid ?? "",
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    addressType,
    endpoints: [],
    ports,
  };
  if (sliceName === "") slice.metadata.generateName = getEndpointSlicePrefix(meta.name ?? "");
  else slice.metadata.name = sliceName;
  return slice;
}

/**
 * upstream addressToEndpoint: the endpoint and its address type, or null for an address that is no
 * IP. The IP is parsed leniently and re-formatted, as upstream normalises irregular forms.
 */
export function addressToEndpoint(
  address: EndpointAddress,
  ready: boolean,
): { endpoint: EndpointSliceEndpoint; addressType: SliceAddressType } | null {
  const ip = parseIPSloppy(address.ip);
  if (ip === null) return null;
  const endpoint: EndpointSliceEndpoint = { addresses: [formatIP(ip)], conditions: { ready } };
  if (address.targetRef !== undefined) endpoint.targetRef = address.targetRef;
  if (address.nodeName !== undefined) endpoint.nodeName = address.nodeName;
  if (address.hostname) endpoint.hostname = address.hostname;
  return { endpoint, addressType: ip.family === "IPv6" ? "IPv6" : "IPv4" };
}

/** upstream epPortsToEpsPorts. */
export function epPortsToEpsPorts(ports: readonly EndpointPort[] | undefined): EndpointSlicePort[] {
  return (ports ?? []).map((p) => {
    const out: EndpointSlicePort = { name: p.name ?? "", port: p.port, protocol: p.protocol ?? "TCP" };
    if (p.appProtocol !== undefined) out.appProtocol = p.appProtocol;
    return out;
  });
}

/** upstream skipMirror: the skip-mirror label is "true". */
export function skipMirror(labels: Readonly<Record<string, string>> | undefined): boolean {
  return labels?.[endpointSliceSkipMirrorLabel] === "true";
}

/** upstream hasLeaderElection. */
export function hasLeaderElection(annotations: Readonly<Record<string, string>> | undefined): boolean {
  return annotations !== undefined && leaderElectionRecordAnnotationKey in annotations;
}

/** upstream endpointsControllerKey: `<namespace>/<service-name label>`, or undefined without the label. */
export function endpointsControllerKey(slice: EndpointSlice): string | undefined {
  const svc = slice.metadata.labels?.[endpointSliceServiceNameLabel];
  return svc ? `${slice.metadata.namespace ?? ""}/${svc}` : undefined;
}

/** upstream managedByController. */
export function managedByController(slice: EndpointSlice): boolean {
  return slice.metadata.labels?.[endpointSliceManagedByLabel] === endpointSliceMirroringControllerName;
}

/** upstream managedByChanged. */
export function managedByChanged(a: EndpointSlice, b: EndpointSlice): boolean {
  return managedByController(a) !== managedByController(b);
}
