/**
 * Object builders and API calls the KEP-1880 suites share: Services (upstream's makeService),
 * ServiceCIDRs, IPAddresses, and waits on their state, all through the HTTP API.
 */
import { eventually } from "@servicenet/testing";
import { type Json, type TestApi } from "./harness.ts";

export const servicesPath = (ns = "default") => `/api/v1/namespaces/${ns}/services`;
export const serviceCIDRsPath = "/apis/networking.k8s.io/v1/servicecidrs";
export const ipAddressesPath = "/apis/networking.k8s.io/v1/ipaddresses";

/** A ClusterIP Service on port 80 (upstream makeService), optionally with a fixed ClusterIP. */
export function service(name: string, o: { clusterIP?: string; type?: string; ipFamilies?: string[]; policy?: string } = {}): Json {
  return {
    apiVersion: "v1",
    kind: "Service",
    metadata: { name },
    spec: {
      type: o.type ?? "ClusterIP",
      ports: [{ port: 80, protocol: "TCP" }],
      ...(o.clusterIP ? { clusterIP: o.clusterIP, clusterIPs: [o.clusterIP] } : {}),
      ...(o.ipFamilies ? { ipFamilies: o.ipFamilies } : {}),
      ...(o.policy ? { ipFamilyPolicy: o.policy } : {}),
    },
  };
}

/** A ServiceCIDR object. */
export function serviceCIDR(name: string, ...cidrs: string[]): Json {
  return { apiVersion: "networking.k8s.io/v1", kind: "ServiceCIDR", metadata: { name }, spec: { cidrs } };
}

/** Creates a Service; throws with the Status message on failure. */
export async function createService(t: TestApi, svc: Json, ns = "default"): Promise<Json> {
  return t.must("POST", servicesPath(ns), svc);
}

/** Every Service of every namespace. */
export async function listServices(t: TestApi): Promise<Json[]> {
  return (await t.must("GET", "/api/v1/services")).items;
}

/** Every IPAddress object. */
export async function listIPAddresses(t: TestApi, labelSelector?: string): Promise<Json[]> {
  const q = labelSelector ? `?labelSelector=${encodeURIComponent(labelSelector)}` : "";
  return (await t.must("GET", `${ipAddressesPath}${q}`)).items;
}

/** The IPAddress named `ip`, or undefined (404). */
export async function getIPAddress(t: TestApi, ip: string): Promise<Json> {
  const r = await t.call("GET", `${ipAddressesPath}/${ip}`);
  if (r.status === 404) return undefined;
  if (r.status !== 200) throw new Error(`GET ipaddress ${ip}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/** The ServiceCIDR `name`, or undefined (404). */
export async function getServiceCIDR(t: TestApi, name: string): Promise<Json> {
  const r = await t.call("GET", `${serviceCIDRsPath}/${name}`);
  if (r.status === 404) return undefined;
  if (r.status !== 200) throw new Error(`GET servicecidr ${name}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/** The Ready condition of a ServiceCIDR, if any. */
export function readyCondition(sc: Json): Json {
  return (sc?.status?.conditions ?? []).find((c: Json) => c.type === "Ready");
}

/** Waits until the ServiceCIDR has Ready=True (set by the controller-manager or the default controller). */
export async function waitServiceCIDRReady(t: TestApi, name: string, timeoutMs = 15_000): Promise<Json> {
  return eventually(
    async () => {
      const sc = await getServiceCIDR(t, name);
      return readyCondition(sc)?.status === "True" ? sc : undefined;
    },
    { what: `ServiceCIDR ${name} Ready`, timeoutMs },
  );
}

/** Waits until the ServiceCIDR is gone. */
export async function waitServiceCIDRGone(t: TestApi, name: string, timeoutMs = 30_000): Promise<void> {
  await eventually(async () => (await getServiceCIDR(t, name)) === undefined, { what: `ServiceCIDR ${name} deleted`, timeoutMs });
}

/** Checks that each Service ClusterIP has an IPAddress whose parentRef names the Service. */
export async function expectIPAddressesFor(t: TestApi, svcs: readonly Json[]): Promise<string[]> {
  const problems: string[] = [];
  for (const s of svcs) {
    for (const ip of s.spec.clusterIPs ?? []) {
      const a = await getIPAddress(t, ip);
      const ref = a?.spec?.parentRef;
      if (!a) problems.push(`${s.metadata.name}: no IPAddress ${ip}`);
      else if (ref?.resource !== "services" || ref?.name !== s.metadata.name || ref?.namespace !== s.metadata.namespace)
        problems.push(`${s.metadata.name}: IPAddress ${ip} has parentRef ${JSON.stringify(ref)}`);
    }
  }
  return problems;
}
