/**
 * Startup restore of the in-memory allocators from the stored Services. Upstream persists the
 * bitmaps (RangeAllocation objects) and runs repair loops (pkg/registry/core/service/
 * ipallocator/controller/repair.go, portallocator/controller/repair.go); servicenet's allocators
 * are in memory only, so every start rebuilds them from the Services themselves. The persistent
 * snapshot and the periodic repair are a later issue (KEP-1880 IPAddress objects).
 */
import { formatIP, parseIPSloppy, type Service } from "@servicenet/api";
import { ErrAllocated, ErrNotInRange } from "../ipallocator/interfaces.ts";
import { ErrPortAllocated, ErrPortNotInRange } from "../portallocator/interfaces.ts";
import type { Allocators } from "./alloc.ts";
import { V, type Logger } from "@servicenet/component-base/logs";
import { collectServiceNodePorts, isHeadlessClusterIPs, needsClusterIP, needsHealthCheck } from "./helpers.ts";
import { nameOf, specOf } from "./service-view.ts";

/** What a restore did: values marked allocated, and values skipped (with a log line each). */
export interface RestoreReport {
  clusterIPs: number;
  nodePorts: number;
  skipped: number;
}

/** Marks the ClusterIPs of `svc` allocated; returns [marked, skipped]. */
async function restoreClusterIPs(alloc: Allocators, svc: Service, log: Logger): Promise<[number, number]> {
  if (!needsClusterIP(svc) || isHeadlessClusterIPs(svc)) return [0, 0];
  let marked = 0;
  let skipped = 0;
  for (const text of specOf(svc).clusterIPs ?? []) {
    const ip = parseIPSloppy(text);
    const allocator = ip ? alloc.serviceIPAllocatorsByFamily.get(ip.family) : undefined;
    if (!ip || !allocator) {
      // A family the cluster no longer serves (or garbage): the repair loop would report it.
      log.info(`Not restoring ClusterIP ${text} of service ${nameOf(svc)}: its IP family is not configured on this server`);
      skipped++;
      continue;
    }
    try {
      await allocator.allocate(ip);
      marked++;
    } catch (err) {
      skipped++;
      if (err instanceof ErrNotInRange) log.info(`Not restoring ClusterIP ${formatIP(ip)} of service ${nameOf(svc)}: ${err.message}`);
      else if (err instanceof ErrAllocated)
        log.error(`ClusterIP ${formatIP(ip)} of service ${nameOf(svc)} is also held by another service`);
      else throw err;
    }
  }
  return [marked, skipped];
}

/** Marks the NodePorts and healthCheckNodePort of `svc` allocated; returns [marked, skipped]. */
async function restoreNodePorts(alloc: Allocators, svc: Service, log: Logger): Promise<[number, number]> {
  // One Service may use one nodePort for several protocols: count it once.
  const ports = new Set(collectServiceNodePorts(svc));
  const hcnp = specOf(svc).healthCheckNodePort ?? 0;
  if (needsHealthCheck(svc) && hcnp > 0) ports.add(hcnp);
  let marked = 0;
  let skipped = 0;
  for (const port of ports) {
    try {
      await alloc.serviceNodePorts.allocate(port);
      marked++;
    } catch (err) {
      skipped++;
      if (err instanceof ErrPortNotInRange) log.info(`Not restoring node port ${port} of service ${nameOf(svc)}: ${err.message}`);
      else if (err instanceof ErrPortAllocated) log.error(`node port ${port} of service ${nameOf(svc)} is also held by another service`);
      else throw err;
    }
  }
  return [marked, skipped];
}

/**
 * Marks every ClusterIP, NodePort and healthCheckNodePort of `services` allocated. Values outside
 * the configured ranges or families are logged and skipped; a value two stored Services share is
 * logged as an error (the first one keeps it). Call once, on empty allocators, before serving.
 */
export async function restoreServiceAllocations(alloc: Allocators, services: readonly Service[], log: Logger): Promise<RestoreReport> {
  const report: RestoreReport = { clusterIPs: 0, nodePorts: 0, skipped: 0 };
  for (const svc of services) {
    const [ips, ipSkipped] = alloc.restoreFromServices.clusterIPs ? await restoreClusterIPs(alloc, svc, log) : [0, 0];
    const [ports, portSkipped] = alloc.restoreFromServices.nodePorts ? await restoreNodePorts(alloc, svc, log) : [0, 0];
    report.clusterIPs += ips;
    report.nodePorts += ports;
    report.skipped += ipSkipped + portSkipped;
  }
  V(log, 2).info("restored service allocations from storage", { ...report });
  return report;
}
