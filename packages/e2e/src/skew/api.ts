/**
 * Small API helpers the skew suites share: Events about an object, ServiceCIDR and IPAddress
 * calls, and a Service written straight into storage (bypassing the allocators, as upstream's
 * TestMigrateService writes one straight to etcd).
 */
import type { Store } from "@servicenet/apiserver";
import { listAll, type ApiClient, type Json } from "../faults/api-client.ts";

export const serviceCIDRsPath = "/apis/networking.k8s.io/v1/servicecidrs";
export const ipAddressesPath = "/apis/networking.k8s.io/v1/ipaddresses";

/** core/v1 Events in `namespace` (undefined: all namespaces) whose involvedObject is `kind`/`name`. */
export async function eventsAbout(c: ApiClient, namespace: string | undefined, kind: string, name: string): Promise<Json[]> {
  const all = await listAll(c, namespace === undefined ? "/api/v1/events" : `/api/v1/namespaces/${namespace}/events`);
  return all.filter((e) => e.involvedObject?.kind === kind && e.involvedObject?.name === name);
}

/** The first Event about `kind`/`name` with `reason`, or undefined. */
export async function eventWithReason(
  c: ApiClient,
  namespace: string | undefined,
  kind: string,
  name: string,
  reason: string,
): Promise<Json> {
  return (await eventsAbout(c, namespace, kind, name)).find((e) => e.reason === reason);
}

/** A ServiceCIDR object. */
export function serviceCIDR(name: string, cidrs: string[]): Json {
  return { apiVersion: "networking.k8s.io/v1", kind: "ServiceCIDR", metadata: { name }, spec: { cidrs } };
}

/** POSTs a ServiceCIDR; throws unless 201. */
export async function createServiceCIDR(c: ApiClient, name: string, cidrs: string[]): Promise<Json> {
  const r = await c.call("POST", serviceCIDRsPath, serviceCIDR(name, cidrs));
  if (r.status !== 201) throw new Error(`create ServiceCIDR ${name}: ${r.status} ${r.body?.message}`);
  return r.body;
}

/** The ServiceCIDR, or undefined when it is gone. */
export async function getServiceCIDR(c: ApiClient, name: string): Promise<Json> {
  const r = await c.call("GET", `${serviceCIDRsPath}/${name}`);
  if (r.status === 404) return undefined;
  if (r.status !== 200) throw new Error(`get ServiceCIDR ${name}: ${r.status} ${r.body?.message}`);
  return r.body;
}

/** The Ready condition of a ServiceCIDR object. */
export function readyCondition(sc: Json): Json {
  return sc?.status?.conditions?.find((c: Json) => c.type === "Ready");
}

/** Removes every finalizer of a ServiceCIDR (a "force delete" once it is being deleted). */
export async function dropFinalizers(c: ApiClient, name: string): Promise<void> {
  const cur = await getServiceCIDR(c, name);
  if (!cur) return;
  const r = await c.call("PUT", `${serviceCIDRsPath}/${name}`, { ...cur, metadata: { ...cur.metadata, finalizers: [] } });
  if (r.status !== 200 && r.status !== 404) throw new Error(`drop finalizers of ${name}: ${r.status} ${r.body?.message}`);
}

/** A hand-made IPAddress as the allocator labels them, with a parentRef to `ref` (which may not exist). */
export function managedIPAddress(ip: string, ref: { namespace: string; name: string }): Json {
  return {
    apiVersion: "networking.k8s.io/v1",
    kind: "IPAddress",
    metadata: {
      name: ip,
      labels: {
        "ipaddress.kubernetes.io/ip-family": ip.includes(":") ? "IPv6" : "IPv4",
        "ipaddress.kubernetes.io/managed-by": "ipallocator.k8s.io",
      },
    },
    spec: { parentRef: { group: "", resource: "services", namespace: ref.namespace, name: ref.name } },
  };
}

/** Writes a ClusterIP Service straight into storage (no allocation, no IPAddress, no bit). */
export async function writeServiceToStorage(store: Store, name: string, clusterIP: string): Promise<void> {
  const family = clusterIP.includes(":") ? "IPv6" : "IPv4";
  await store.create(`/registry/services/specs/default/${name}`, {
    apiVersion: "v1",
    kind: "Service",
    metadata: { name, namespace: "default" },
    spec: {
      type: "ClusterIP",
      clusterIP,
      clusterIPs: [clusterIP],
      ipFamilies: [family],
      ipFamilyPolicy: "SingleStack",
      internalTrafficPolicy: "Cluster",
      sessionAffinity: "None",
      selector: { app: name },
      ports: [{ name: "http", protocol: "TCP", port: 80, targetPort: 8080 }],
    },
    status: { loadBalancer: {} },
  });
}

/** Creates Services through the API; returns their ClusterIPs by name. */
export async function createServices(c: ApiClient, bodies: readonly Json[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (const b of bodies) {
    const r = await c.call("POST", "/api/v1/namespaces/default/services", b);
    if (r.status !== 201) throw new Error(`create ${b.metadata.name}: ${r.status} ${r.body?.message}`);
    out.set(b.metadata.name, r.body.spec.clusterIPs);
  }
  return out;
}
