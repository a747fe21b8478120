/**
 * The two reconcile functions of RepairIPAddress (upstream repairip.go syncService and
 * syncIPAddress), over informer caches. There is a one-to-one relation between Service ClusterIPs
 * and IPAddresses: `Service.spec.clusterIPs[i] == IPAddress.name` and `IPAddress.spec.parentRef ==
 * Service`. syncService checks it from the Service side (missing, wrong reference, duplicate,
 * wrong labels); syncIPAddress removes IPAddresses no Service holds (orphans, after a grace period).
 */
import {
  formatIP,
  ipAllocatorControllerName,
  labelIPAddressFamily,
  labelIPAddressManagedBy,
  parseIPSloppy,
  type IP,
} from "@servicenet/api";
import type { KubeObject } from "../../../../../storage/index.ts";
import type { EventRecorder } from "@servicenet/client/tools/events";
import { getReference } from "@servicenet/client/tools/record";
import type { Lister } from "../../../../../util/informer/store-informer.ts";
import { serviceIPAddress, type IPAddressClient } from "../ipaddress-client.ts";
import type { ClusterIPRepairMetrics } from "../metrics.ts";
import type { Clock } from "@servicenet/component-base/clock";

/** Orphan IPAddresses are kept this long after creation ("default timeout value on the kube-apiserver"). */
export const orphanGracePeriodMs = 60_000;
/** A second IPAddress created after its Service (a retried create) is kept this long. */
export const recreateGracePeriodMs = 5_000;

/** What the sync functions read and write. */
export interface RepairSyncContext {
  services: Lister<KubeObject>;
  ipAddresses: Lister<KubeObject>;
  client: IPAddressClient;
  recorder: EventRecorder;
  clock: Clock;
  metrics: ClusterIPRepairMetrics | undefined;
  /** True if some ServiceCIDR contains `ip` (network and IPv4 broadcast excluded). */
  inRange(ip: IP): boolean;
  /** Re-checks an IPAddress later (the workqueue's AddAfter). */
  requeueIPAddress(name: string, afterMs: number): void;
  /** The stored Service (null when gone), to confirm a cached one before recreating its IPAddress. */
  getService?(namespace: string, name: string): Promise<KubeObject | null>;
}

interface ParentRef {
  group?: string;
  resource?: string;
  namespace?: string;
  name?: string;
}

const parentRefOf = (ip: KubeObject): ParentRef | undefined =>
  (ip["spec"] as { parentRef?: ParentRef } | undefined)?.parentRef ?? undefined;
const labelsOf = (o: KubeObject): Record<string, string> => (o.metadata["labels"] as Record<string, string> | undefined) ?? {};
const createdAt = (o: KubeObject): number => Date.parse(o.metadata.creationTimestamp ?? "") || 0;
const isCoreServiceRef = (ref: ParentRef | undefined): ref is ParentRef =>
  ref !== undefined && (ref.group ?? "") === "" && ref.resource === "services";
/** Go's `%v` of a *ParentReference: `&{group resource namespace name}`. */
const formatRef = (ref: ParentRef | undefined): string =>
  ref ? `&{${ref.group ?? ""} ${ref.resource ?? ""} ${ref.namespace ?? ""} ${ref.name ?? ""}}` : "<nil>";

/** The Service's ClusterIPs (clusterIPs, or clusterIP for objects written before dual-stack). */
export function serviceClusterIPs(svc: KubeObject): string[] {
  const spec = (svc["spec"] as { clusterIP?: string; clusterIPs?: string[] } | undefined) ?? {};
  if (spec.clusterIP === undefined || spec.clusterIP === "" || spec.clusterIP === "None") return [];
  return spec.clusterIPs && spec.clusterIPs.length > 0 ? spec.clusterIPs : [spec.clusterIP];
}

/**
 * True if one of the Service's ClusterIPs is the address `ip`, however it is spelled: a Service
 * keeps the accepted spelling (`010.096.000.010`, `::ffff:10.96.0.10`, `FD00::A`) while its
 * IPAddress is named canonically, so comparing strings would take it for an orphan.
 */
export function serviceHoldsIP(svc: KubeObject, ip: IP): boolean {
  return serviceClusterIPs(svc).some((c) => {
    const parsed = parseIPSloppy(c);
    return parsed !== null && parsed.family === ip.family && parsed.value === ip.value;
  });
}

/** The IPAddress is managed by the Service allocator (managed-by label). */
export function managedByIPAllocator(ip: KubeObject): boolean {
  return labelsOf(ip)[labelIPAddressManagedBy] === ipAllocatorControllerName;
}

function hasAllocatorLabels(ip: KubeObject): boolean {
  const family = parseIPSloppy(ip.metadata.name ?? "")?.family;
  return family !== undefined && labelsOf(ip)[labelIPAddressFamily] === family && managedByIPAllocator(ip);
}

function svcRef(svc: KubeObject): { namespace: string; name: string } {
  return { namespace: svc.metadata.namespace ?? "", name: svc.metadata.name ?? "" };
}

function warn(
  ctx: RepairSyncContext,
  obj: KubeObject,
  kind: "Service" | "IPAddress",
  reason: string,
  action: string,
  message: string,
): void {
  const apiVersion = kind === "Service" ? "v1" : "networking.k8s.io/v1";
  ctx.recorder.eventf(getReference(obj, kind, apiVersion), null, "Warning", reason, action, message);
}

async function deleteIgnoringNotFound(ctx: RepairSyncContext, name: string): Promise<void> {
  try {
    await ctx.client.delete(name);
  } catch (e) {
    if ((e as { reason?: string }).reason !== "NotFound") throw e;
  }
}

async function recreateIPAddress(ctx: RepairSyncContext, ip: IP, svc: KubeObject): Promise<void> {
  await deleteIgnoringNotFound(ctx, formatIP(ip));
  await ctx.client.create(serviceIPAddress(ip, svcRef(svc)));
}

/** True if the stored Service `live` is the cached `svc` (same uid) and still holds `ip`. */
function holds(live: KubeObject | null, svc: KubeObject, ip: IP): boolean {
  return live !== null && live.metadata.uid === svc.metadata.uid && serviceHoldsIP(live, ip);
}

/** Reconciles the ClusterIPs of the Service with cache key `namespace/name`; throws to be retried. */
export async function syncService(ctx: RepairSyncContext, key: string): Promise<void> {
  const svc = ctx.services.get(key);
  if (!svc) return;
  const { namespace, name } = svcRef(svc);
  for (const clusterIP of serviceClusterIPs(svc)) {
    const ip = parseIPSloppy(clusterIP);
    if (ip === null) {
      ctx.metrics?.ipErrors.inc({ type: "invalid" });
      warn(
        ctx,
        svc,
        "Service",
        "ClusterIPNotValid",
        "ClusterIPValidation",
        `Cluster IP ${clusterIP} is not a valid IP; please recreate Service`,
      );
      continue;
    }
    const family = ip.family;
    const ipName = formatIP(ip);
    if (!ctx.inRange(ip)) {
      ctx.metrics?.ipErrors.inc({ type: "outOfRange" });
      warn(
        ctx,
        svc,
        "Service",
        "ClusterIPOutOfRange",
        "ClusterIPAllocation",
        `Cluster IP [${family}]: ${ipName} is not within any configured Service CIDR; please recreate service`,
      );
      continue;
    }
    // The cache may lag an allocation made a moment ago: ask the store before "repairing".
    const ipAddress = ctx.ipAddresses.get(ipName) ?? (await ctx.client.get(ipName));
    if (!ipAddress) {
      // A Service deleted through another apiserver may still be in this cache (watch lag): its
      // IPAddress is gone for good, and recreating it would leave an orphan that blocks deletions.
      if (ctx.getService && !holds(await ctx.getService(namespace, name), svc, ip)) continue;
      ctx.metrics?.ipErrors.inc({ type: "repair" });
      warn(
        ctx,
        svc,
        "Service",
        "ClusterIPNotAllocated",
        "ClusterIPAllocation",
        `Cluster IP [${family}]: ${ipName} is not allocated; repairing`,
      );
      await ctx.client.create(serviceIPAddress(ip, { namespace, name }));
      continue;
    }
    const ref = parentRefOf(ipAddress);
    const wrongRef = `the ClusterIP [${family}]: ${ipName} for Service ${namespace}/${name} has a wrong reference; repairing`;
    if (!isCoreServiceRef(ref)) {
      ctx.metrics?.ipErrors.inc({ type: "repair" });
      warn(ctx, svc, "Service", "ClusterIPNotAllocated", "ClusterIPAllocation", wrongRef);
      await recreateIPAddress(ctx, ip, svc);
      continue;
    }
    if (ref.namespace !== namespace || ref.name !== name) {
      // Two Services with one IP: only the referenced one keeps it, or this loop would flip the ref forever.
      const refService = ctx.services.get(`${ref.namespace ?? ""}/${ref.name ?? ""}`);
      if (!refService) {
        ctx.metrics?.ipErrors.inc({ type: "repair" });
        warn(ctx, svc, "Service", "ClusterIPNotAllocated", "ClusterIPAllocation", wrongRef);
        await recreateIPAddress(ctx, ip, svc);
        continue;
      }
      if (serviceHoldsIP(refService, ip)) {
        ctx.metrics?.ipErrors.inc({ type: "duplicate" });
        warn(
          ctx,
          svc,
          "Service",
          "ClusterIPAlreadyAllocated",
          "ClusterIPAllocation",
          `Cluster IP [${family}]:${ipName} was assigned to multiple services; please recreate service`,
        );
      }
    }
    if (!hasAllocatorLabels(ipAddress)) await recreateIPAddress(ctx, ip, svc);
  }
}

/**
 * Deletes the IPAddress `name` only if it is still the object the decision was made on (same uid):
 * a stale cache must never remove an IPAddress syncService has just recreated.
 */
async function deleteExamined(ctx: RepairSyncContext, examined: KubeObject): Promise<void> {
  const name = examined.metadata.name ?? "";
  const live = await ctx.client.get(name);
  if (!live || (examined.metadata.uid !== undefined && live.metadata.uid !== examined.metadata.uid)) return;
  await deleteIgnoringNotFound(ctx, name);
}

/** Checks that an allocator-managed IPAddress is held by its Service; deletes orphans and wrong references. */
export async function syncIPAddress(ctx: RepairSyncContext, key: string): Promise<void> {
  const ipAddress = ctx.ipAddresses.get(key);
  // Other controllers' IPAddresses are theirs to manage (and would hot-loop here).
  if (!ipAddress || !managedByIPAllocator(ipAddress)) return;
  const name = ipAddress.metadata.name ?? "";
  const ref = parentRefOf(ipAddress);
  if (!isCoreServiceRef(ref)) {
    warn(
      ctx,
      ipAddress,
      "IPAddress",
      "IPAddressNotAllocated",
      "IPAddressAllocation",
      `IPAddress ${name} appears to have been modified, not referencing a Service ${formatRef(ref)}: cleaning up`,
    );
    await deleteExamined(ctx, ipAddress);
    return;
  }
  const svc = ctx.services.get(`${ref.namespace ?? ""}/${ref.name ?? ""}`);
  const now = ctx.clock.now();
  if (!svc) {
    // The allocator creates the IPAddress before the Service is stored: give the create time to finish.
    const lifetime = now - createdAt(ipAddress);
    if (lifetime >= orphanGracePeriodMs) {
      ctx.metrics?.ipErrors.inc({ type: "leak" });
      warn(
        ctx,
        ipAddress,
        "IPAddress",
        "IPAddressNotAllocated",
        "IPAddressAllocation",
        `IPAddress: ${name} for Service ${ref.namespace ?? ""}/${ref.name ?? ""} appears to have leaked: cleaning up`,
      );
      await deleteExamined(ctx, ipAddress);
      return;
    }
    ctx.requeueIPAddress(key, orphanGracePeriodMs - lifetime);
    return;
  }
  // Deviation: upstream compares `ipAddress.Name == clusterIP` as strings, so a Service whose
  // accepted ClusterIP is not canonical loses its IPAddress here (and syncService recreates it).
  const ip = parseIPSloppy(name);
  if (ip !== null && serviceHoldsIP(svc, ip)) return;
  // "service create is called again": a retried create allocated a second IP for the same name.
  // Also an update that allocates (a dual-stack upgrade) creates the IPAddress before the Service
  // is stored. Timestamps have second precision, so the same second counts as "after".
  const ipCreated = createdAt(ipAddress);
  if (ipCreated >= createdAt(svc) && now - ipCreated < recreateGracePeriodMs) {
    ctx.requeueIPAddress(key, recreateGracePeriodMs - (now - ipCreated));
    return;
  }
  const { namespace, name: svcName } = svcRef(svc);
  warn(
    ctx,
    ipAddress,
    "IPAddress",
    "IPAddressWrongReference",
    "IPAddressAllocation",
    `IPAddress: ${name} for Service ${namespace}/${svcName} has a wrong reference; cleaning up`,
  );
  await deleteExamined(ctx, ipAddress);
}
