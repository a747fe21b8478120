/**
 * Pod helpers shared by the Endpoints and EndpointSlice controllers
 * (pkg/api/v1/pod/util.go, staging endpointslice/util and
 * pkg/controller/util/endpoint).
 */
import { ipFamilyOfString, selectorFromSet, type IPFamily, type Pod, type Service, type ServicePort } from "@servicenet/api";
import { metaNamespaceKey, type GenericLister } from "@servicenet/client/tools/cache";

/** The pod's Ready condition status is True (`podutil.IsPodReady`). */
export function isPodReady(pod: Pod): boolean {
  return pod.status?.conditions?.some((c) => c.type === "Ready" && c.status === "True") ?? false;
}

/** Succeeded or Failed (`podutil.IsPodTerminal`). */
export function isPodTerminal(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase === "Succeeded" || phase === "Failed";
}

/**
 * `ShouldPodBeInEndpoints`: not terminal, has an IP, and (unless
 * `includeTerminating`) not being deleted.
 */
export function shouldPodBeInEndpoints(pod: Pod, includeTerminating: boolean): boolean {
  if (isPodTerminal(pod)) return false;
  if (!pod.status?.podIP && (pod.status?.podIPs?.length ?? 0) === 0) return false;
  if (!includeTerminating && pod.metadata.deletionTimestamp !== undefined) return false;
  return true;
}

/** The pod's IPs, `status.podIPs` or, from an old writer, only `status.podIP`. */
export function podIPs(pod: Pod): string[] {
  const ips = pod.status?.podIPs?.map((p) => p.ip) ?? [];
  if (ips.length === 0 && pod.status?.podIP) ips.push(pod.status.podIP);
  return ips;
}

/** Pod IPs of one family, in status order (endpointslice `getEndpointAddresses`). */
export function podIPsOfFamily(pod: Pod, family: IPFamily): string[] {
  return podIPs(pod).filter((ip) => (ipFamilyOfString(ip) === "IPv6") === (family === "IPv6"));
}

/** The clusterIP is set and not "None" (`helper.IsServiceIPSet`). */
export function isServiceIPSet(svc: Service): boolean {
  const ip = svc.spec.clusterIP ?? "";
  return ip !== "" && ip !== "None";
}

/**
 * The family of the legacy Endpoints address (`podToEndpointAddressForService`):
 * spec.ipFamilies[0]; for an old apiserver without families, the clusterIP's
 * family (headful) or the pod's primary IP's family (headless).
 */
export function endpointsFamily(svc: Service, pod: Pod): IPFamily {
  const first = svc.spec.ipFamilies?.[0];
  if (first === "IPv6" || first === "IPv4") return first;
  const probe = isServiceIPSet(svc) ? svc.spec.clusterIP! : (pod.status?.podIP ?? podIPs(pod)[0] ?? "");
  return ipFamilyOfString(probe) === "IPv6" ? "IPv6" : "IPv4";
}

/**
 * The container port a Service port targets (`podutil.FindPort`): a number
 * as is, a name looked up among container ports with the same protocol
 * (TCP when unset, as defaulting would make it). Null if nothing matches.
 */
export function findPort(pod: Pod, sp: ServicePort): number | null {
  const target = sp.targetPort ?? sp.port;
  if (typeof target === "number") return target;
  if (/^\d+$/.test(target)) return Number(target);
  const protocol = sp.protocol ?? "TCP";
  const initSidecars =
    (pod.spec["initContainers"] as Pod["spec"]["containers"] | undefined)?.filter((c) => c["restartPolicy"] === "Always") ?? [];
  for (const c of [...pod.spec.containers, ...initSidecars]) {
    for (const p of c.ports ?? []) if (p.name === target && (p.protocol ?? "TCP") === protocol) return p.containerPort;
  }
  return null;
}

/** Hostname is published when the pod's subdomain is the Service (`ShouldSetHostname`). */
export function hostnameFor(pod: Pod, svc: Service): string | undefined {
  const hostname = pod.spec["hostname"];
  const subdomain = pod.spec["subdomain"];
  if (typeof hostname !== "string" || hostname === "") return undefined;
  return subdomain === svc.metadata.name && pod.metadata.namespace === svc.metadata.namespace ? hostname : undefined;
}

/**
 * Keys of the Services (with a selector) that select any of `pods` (`GetPodServiceMemberships`):
 * only the Services of each pod's namespace are looked at, through the lister.
 */
export function servicesForPods(services: GenericLister<Service>, pods: readonly Pod[]): Set<string> {
  const keys = new Set<string>();
  for (const pod of pods) {
    for (const svc of services.byNamespace(pod.metadata.namespace ?? "").list()) {
      // Services without a selector have no managed endpoints.
      if (svc.spec.selector === undefined) continue;
      if (selectorFromSet(svc.spec.selector)(pod.metadata.labels)) keys.add(metaNamespaceKey(svc));
    }
  }
  return keys;
}

/** Pod updates that cannot change endpoints (same resourceVersion: a resync or relist) are ignored. */
export function podChanged(oldPod: Pod, newPod: Pod): boolean {
  return oldPod.metadata.resourceVersion !== newPod.metadata.resourceVersion || oldPod === newPod;
}
