/**
 * ClusterIP allocation and release (upstream storage/alloc.go:
 * allocClusterIPs, allocIPs, releaseIPs, updateClusterIPs and their
 * transactions). Maps are keyed by family and iterated in ipFamilies order.
 */
import { V, type Logger } from "@servicenet/component-base/logs";
import { field, formatIP, parseIPSloppy, type Service, serviceTypes, StatusError } from "@servicenet/api";
import type { IPAllocator } from "../ipallocator/interfaces.ts";
import { isHeadlessClusterIPs, isMatchingPreferDualStackClusterIPFields } from "./helpers.ts";
import { nameOf, specOf } from "./service-view.ts";
import { callbackTransaction, type Transaction } from "./transaction.ts";

/** What ClusterIP allocation needs from the Allocators. */
export interface ClusterIPContext {
  readonly serviceIPAllocatorsByFamily: ReadonlyMap<string, IPAllocator>;
  /** Allocation never fails because of logging; its progress lines are V(2). */
  readonly logger: Logger;
}

/** family -> IP string ("" = allocate the next free one). */
export type FamilyIPs = Map<string, string>;

/**
 * Allocates `toAlloc` family by family. On failure the IPs this call already
 * took are released before throwing: upstream returns them to a caller that
 * drops them, leaking until repair runs.
 */
export async function allocIPs(ctx: ClusterIPContext, svc: Service, toAlloc: FamilyIPs, dryRun: boolean): Promise<FamilyIPs> {
  const allocated: FamilyIPs = new Map();
  // IPAddress-backed allocators record the Service as the owner (parentRef).
  const owner = { namespace: svc.metadata?.namespace ?? "", name: svc.metadata?.name ?? "" };
  try {
    for (const [family, ip] of toAlloc) {
      const real = ctx.serviceIPAllocatorsByFamily.get(family);
      if (!real) throw StatusError.internal(`failed to allocate a serviceIP: ${family} is not configured`);
      const allocator = dryRun ? real.dryRun() : real;
      if (ip === "") {
        let got;
        try {
          got = allocator.allocateNextService ? await allocator.allocateNextService(owner) : await allocator.allocateNext();
        } catch (err) {
          throw StatusError.internal(`failed to allocate a serviceIP: ${(err as Error).message}`, err);
        }
        allocated.set(family, formatIP(got));
        continue;
      }
      const parsed = parseIPSloppy(ip);
      if (!parsed) throw StatusError.internal(`failed to parse service IP "${ip}"`);
      try {
        if (allocator.allocateService) await allocator.allocateService(owner, parsed);
        else await allocator.allocate(parsed);
      } catch (err) {
        const el = [field.invalid("spec.clusterIPs", specOf(svc).clusterIPs, `failed to allocate IP ${ip}: ${(err as Error).message}`)];
        throw StatusError.invalid({ group: "", kind: "Service" }, nameOf(svc), el);
      }
      allocated.set(family, ip);
    }
  } catch (err) {
    if (!dryRun) await releaseIPs(ctx, allocated);
    throw err;
  }
  return allocated;
}

/** Releases `toRelease`, skipping families no longer configured; returns what was released. */
export async function releaseIPs(ctx: ClusterIPContext, toRelease: FamilyIPs | null): Promise<FamilyIPs> {
  const released: FamilyIPs = new Map();
  if (!toRelease) return released;
  for (const [family, ip] of toRelease) {
    const allocator = ctx.serviceIPAllocatorsByFamily.get(family);
    if (!allocator) {
      // Maybe the cluster was dual-stack and is now single-stack.
      V(ctx.logger, 2).info("Not releasing ClusterIP because related family is not enabled", { clusterIP: ip, family });
      continue;
    }
    const parsed = parseIPSloppy(ip);
    if (!parsed) throw StatusError.internal(`failed to parse service IP "${ip}"`);
    await allocator.release(parsed);
    released.set(family, ip);
  }
  return released;
}

/**
 * Gives the Service one IP per family (headless and ExternalName get none):
 * a missing entry allocates the next free IP, a given one is reserved as-is.
 * Sets clusterIPs[i] and clusterIP = clusterIPs[0]. Returns what it allocated.
 */
export async function allocClusterIPs(ctx: ClusterIPContext, svc: Service, dryRun: boolean): Promise<FamilyIPs | null> {
  const spec = specOf(svc);
  if (spec.type === serviceTypes.ExternalName) return null;
  if (isHeadlessClusterIPs(svc)) return null;
  const families = spec.ipFamilies ?? [];
  const ips = [...(spec.clusterIPs ?? [])];
  const toAlloc: FamilyIPs = new Map();
  families.forEach((family, i) => {
    if (i >= ips.length) ips.push(""); // just a marker
    toAlloc.set(family, ips[i]!);
  });
  spec.clusterIPs = ips;
  const allocated = await allocIPs(ctx, svc, toAlloc, dryRun);
  families.forEach((family, i) => {
    const ip = allocated.get(family);
    if (ip === undefined) return;
    ips[i] = ip;
    if (i === 0) spec.clusterIP = ip;
  });
  return allocated;
}

/** Create: allocate ClusterIPs; revert releases them (never on dry-run, which allocated nothing). */
export async function txnAllocClusterIPs(ctx: ClusterIPContext, svc: Service, dryRun: boolean): Promise<Transaction> {
  const toRelease = await allocClusterIPs(ctx, svc, dryRun);
  return callbackTransaction({
    revert: async () => {
      if (dryRun) return;
      try {
        await releaseIPs(ctx, toRelease);
      } catch (err) {
        ctx.logger.info("failed to release clusterIPs for failed new service", { service: nameOf(svc), error: String(err) });
      }
    },
  });
}

/**
 * Update cases: A ExternalName -> IP type allocates all; B IP type ->
 * ExternalName releases all (on commit); C upgrade allocates the secondary;
 * D downgrade releases the old secondary (on commit). Headless old services
 * and PreferDualStack-sticky updates need nothing.
 */
export async function updateClusterIPs(
  ctx: ClusterIPContext,
  svc: Service,
  old: Service,
  dryRun: boolean,
): Promise<{ allocated: FamilyIPs | null; toRelease: FamilyIPs | null }> {
  const spec = specOf(svc);
  const oldSpec = specOf(old);
  const none = { allocated: null, toRelease: null };
  if (isMatchingPreferDualStackClusterIPFields(svc, old)) return none;
  if (oldSpec.type === serviceTypes.ExternalName && spec.type !== serviceTypes.ExternalName) {
    return { allocated: await allocClusterIPs(ctx, svc, dryRun), toRelease: null };
  }
  if (isHeadlessClusterIPs(old)) return none;
  const oldFamilies = oldSpec.ipFamilies ?? [];
  const oldIPs = oldSpec.clusterIPs ?? [];
  if (oldSpec.type !== serviceTypes.ExternalName && spec.type === serviceTypes.ExternalName) {
    const toRelease: FamilyIPs = new Map();
    oldFamilies.forEach((family, i) => {
      if (oldIPs[i] !== undefined) toRelease.set(family, oldIPs[i]);
    });
    return { allocated: null, toRelease };
  }
  const families = spec.ipFamilies ?? [];
  if (oldFamilies.length === 1 && families.length === 2) {
    const ips = [...(spec.clusterIPs ?? [])];
    if (ips.length < 2) ips.push(""); // marker
    spec.clusterIPs = ips;
    const allocated = await allocIPs(ctx, svc, new Map([[families[1]!, ips[1]!]]), dryRun);
    ips[1] = allocated.get(families[1]!)!;
    return { allocated, toRelease: null };
  }
  if (oldFamilies.length === 2 && families.length === 1) {
    // The primary stays; only the old secondary goes, once the update is stored.
    return { allocated: null, toRelease: new Map([[oldFamilies[1]!, oldIPs[1] ?? ""]]) };
  }
  return none;
}

/** Update: revert releases what was newly allocated; commit releases what the update gave up. */
export async function txnUpdateClusterIPs(ctx: ClusterIPContext, svc: Service, old: Service, dryRun: boolean): Promise<Transaction> {
  const { allocated, toRelease } = await updateClusterIPs(ctx, svc, old, dryRun);
  const release = async (what: FamilyIPs | null, msg: string) => {
    try {
      await releaseIPs(ctx, what);
    } catch (err) {
      ctx.logger.error(msg, { service: nameOf(svc), error: String(err) });
    }
  };
  return callbackTransaction({
    commit: async () => {
      if (dryRun) return;
      if (allocated && allocated.size > 0)
        V(ctx.logger, 2).info("allocated clusterIPs", { service: nameOf(svc), clusterIPs: Object.fromEntries(allocated) });
      await release(toRelease, "failed to clean up after successful service update");
    },
    revert: async () => {
      if (dryRun) return;
      await release(allocated, "failed to clean up after failed service update");
    },
  });
}

/** Delete: releases every clusterIP by its parsed family (ExternalName and headless hold none). */
export async function releaseClusterIPs(ctx: ClusterIPContext, svc: Service): Promise<FamilyIPs> {
  const spec = specOf(svc);
  if (spec.type === serviceTypes.ExternalName || isHeadlessClusterIPs(svc)) return new Map();
  const toRelease: FamilyIPs = new Map();
  for (const ip of spec.clusterIPs ?? []) {
    toRelease.set(parseIPSloppy(ip)?.family === "IPv6" ? "IPv6" : "IPv4", ip);
  }
  return releaseIPs(ctx, toRelease);
}
