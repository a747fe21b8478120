/**
 * Allocation invariants checked against the API only (never against allocator internals, which
 * the KEP-1880 work is changing): no ClusterIP and no NodePort held by two Services, and, where
 * IPAddress objects exist, every IPAddress managed by the ClusterIP allocator points at a live
 * Service that holds that IP (an orphan may live for a grace period: upstream's RepairIPAddress
 * deletes orphans only after 60 s).
 */
import { formatIP, parseIPSloppy } from "@servicenet/api";
import { listAll, type ApiClient, type Json } from "./api-client.ts";

/** Counts of what the check saw, for the suites' summary lines. */
export interface AllocationReport {
  services: number;
  clusterIPs: number;
  nodePorts: number;
  /** IPAddress objects managed by ipallocator.k8s.io (0 where the allocator does not make them). */
  ipAddresses: number;
  /** Managed IPAddresses without a Service holding the IP, younger than the grace period. */
  youngOrphans: number;
  /** Service IPs without an IPAddress (only counted when IPAddress objects are in use). */
  missingIPAddresses: number;
  /** The first of those, as "ip (namespace/name)". */
  missingExamples: string[];
}

export const managedByLabel = "ipaddress.kubernetes.io/managed-by";
export const ipAllocatorManager = "ipallocator.k8s.io";

/**
 * Canonical text of an IP, as IPAddress names are: Services keep accepted non-canonical spellings
 * (`010.096.000.030`, `::ffff:10.96.0.31`, `FD00::AC`), which name the same address. Text that is
 * no IP comes back unchanged.
 */
export function canonicalIP(ip: string): string {
  const parsed = parseIPSloppy(ip);
  return parsed ? formatIP(parsed) : ip;
}

/** ClusterIPs of a Service that are real addresses (not "None", not empty). */
export function serviceIPs(svc: Json): string[] {
  const ips: string[] = svc.spec?.clusterIPs ?? (svc.spec?.clusterIP ? [svc.spec.clusterIP] : []);
  return ips.filter((ip) => ip !== "" && ip !== "None").map(canonicalIP);
}

/** Every nodePort and the healthCheckNodePort of a Service. */
export function serviceNodePorts(svc: Json): number[] {
  const ports: number[] = (svc.spec?.ports ?? []).map((p: Json) => p.nodePort).filter((n: unknown) => typeof n === "number" && n > 0);
  if (svc.spec?.healthCheckNodePort) ports.push(svc.spec.healthCheckNodePort);
  return ports;
}

const key = (svc: Json): string => `${svc.metadata.namespace}/${svc.metadata.name}`;

/** Managed IPAddress objects, or [] when the resource is not served. */
export async function listManagedIPAddresses(c: ApiClient): Promise<Json[]> {
  const probe = await c.call("GET", "/apis/networking.k8s.io/v1/ipaddresses?limit=1");
  if (probe.status === 404) return [];
  const all = await listAll(c, "/apis/networking.k8s.io/v1/ipaddresses");
  return all.filter((a) => a.metadata?.labels?.[managedByLabel] === ipAllocatorManager);
}

/** One pass of the checks: the problems found (empty = all invariants hold) and the counts. */
export async function checkAllocationInvariants(c: ApiClient, graceMs = 60_000): Promise<{ problems: string[]; report: AllocationReport }> {
  const services = await listAll(c, "/api/v1/services");
  const problems: string[] = [];
  const byIP = new Map<string, string>();
  const byPort = new Map<number, string>();
  for (const svc of services) {
    for (const ip of serviceIPs(svc)) {
      const other = byIP.get(ip);
      if (other !== undefined && other !== key(svc)) problems.push(`ClusterIP ${ip} held by ${other} and ${key(svc)}`);
      byIP.set(ip, key(svc));
    }
    for (const port of new Set(serviceNodePorts(svc))) {
      const other = byPort.get(port);
      if (other !== undefined) problems.push(`NodePort ${port} held by ${other} and ${key(svc)}`);
      byPort.set(port, key(svc));
    }
  }
  const addresses = await listManagedIPAddresses(c);
  let youngOrphans = 0;
  const withAddress = new Set<string>();
  for (const a of addresses) {
    const ip = canonicalIP(a.metadata.name);
    const ref = a.spec?.parentRef ?? {};
    const holder = byIP.get(ip);
    const refKey = `${ref.namespace}/${ref.name}`;
    if (ref.resource === "services" && holder === refKey) {
      withAddress.add(ip);
      continue;
    }
    const age = Date.now() - Date.parse(a.metadata.creationTimestamp ?? "");
    if (age < graceMs) youngOrphans++;
    else
      problems.push(
        `IPAddress ${ip} (parentRef ${ref.resource}/${refKey}, age ${Math.round(age / 1000)} s) is not held by that Service (holder: ${holder ?? "none"})`,
      );
  }
  const report: AllocationReport = {
    services: services.length,
    clusterIPs: byIP.size,
    nodePorts: byPort.size,
    ipAddresses: addresses.length,
    youngOrphans,
    missingIPAddresses: addresses.length > 0 ? byIP.size - withAddress.size : 0,
    missingExamples:
      addresses.length > 0
        ? [...byIP]
            .filter(([ip]) => !withAddress.has(ip))
            .slice(0, 10)
            .map(([ip, holder]) => `${ip} (${holder})`)
        : [],
  };
  return { problems, report };
}

/**
 * Runs the checks until they hold; Service-level duplicates fail at once (nothing repairs them),
 * IPAddress problems get `graceMs` (plus a margin for the repair loop) to go away.
 */
export async function expectAllocationInvariants(c: ApiClient, graceMs = 60_000): Promise<AllocationReport> {
  const deadline = Date.now() + graceMs + 15_000;
  for (;;) {
    const { problems, report } = await checkAllocationInvariants(c, graceMs);
    const serviceLevel = problems.filter((p) => !p.startsWith("IPAddress"));
    if (serviceLevel.length > 0) throw new Error(`allocation invariants violated:\n${serviceLevel.slice(0, 20).join("\n")}`);
    if (problems.length === 0) return report;
    if (Date.now() > deadline)
      throw new Error(`IPAddress invariants still violated after ${graceMs} ms:\n${problems.slice(0, 20).join("\n")}`);
    await new Promise((r) => setTimeout(r, 2_000));
  }
}
