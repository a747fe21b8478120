/**
 * The UDP conntrack reconciler (pkg/proxy/conntrack/cleanup.go `CleanStaleEntries`): after each
 * sync, flows to a UDP Service frontend (ClusterIP, LoadBalancer VIP or external IP and port, or
 * any address on its NodePort) whose reply source is not one of the Service's serving endpoints
 * are deleted, so a client's next datagram goes through the new rules instead of the old DNAT.
 * Traffic policies, topology and terminating state are not considered (a Service change must not
 * break a UDP flow a TCP one would keep), and a Service without serving endpoints is left alone.
 */
import type { IPFamily } from "@servicenet/api";
import type { EndpointsMap } from "../tracker/endpoints-change-tracker.ts";
import type { ServicePortMap } from "../tracker/service-change-tracker.ts";
import { joinHostPort } from "../util/hash.ts";
import type { Conntrack, ConntrackFilter } from "./conntrack.ts";

/** Each UDP frontend (`ip:port`, or `*:nodePort`) and the serving endpoints (`ip:port`) it may reply from. */
export type ConntrackFrontends = Map<string, ReadonlySet<string>>;

/** The frontends of the UDP Service ports with serving endpoints, and their endpoints. */
export function udpFrontends(svcPortMap: ServicePortMap, endpointsMap: EndpointsMap): ConntrackFrontends {
  const out: ConntrackFrontends = new Map();
  for (const [name, svc] of svcPortMap) {
    if (svc.protocol !== "UDP") continue;
    const serving = new Set((endpointsMap.get(name) ?? []).filter((e) => e.serving).map((e) => e.endpoint));
    if (serving.size === 0) continue;
    for (const ip of [svc.clusterIP, ...svc.loadBalancerVIPs, ...svc.externalIPs]) out.set(joinHostPort(ip, svc.port), serving);
    if (svc.nodePort !== 0) out.set(`*:${svc.nodePort}`, serving);
  }
  return out;
}

export interface CleanupResult {
  readonly deleted: number;
  readonly frontends: ConntrackFrontends;
}

/** Lists `family`'s flows and deletes the stale UDP ones; resolves with how many went. */
export async function cleanStaleEntries(
  ct: Conntrack,
  family: IPFamily,
  svcPortMap: ServicePortMap,
  endpointsMap: EndpointsMap,
): Promise<CleanupResult> {
  const frontends = udpFrontends(svcPortMap, endpointsMap);
  const filters: ConntrackFilter[] = [];
  for (const flow of await ct.listEntries(family)) {
    if (flow.protocol !== "udp") continue;
    const reply = joinHostPort(flow.replySrc, flow.replyPortSrc);
    const byIP = frontends.get(joinHostPort(flow.origDst, flow.origPortDst));
    if (byIP !== undefined && !byIP.has(reply))
      filters.push({
        protocol: "udp",
        origDst: flow.origDst,
        origPortDst: flow.origPortDst,
        replySrc: flow.replySrc,
        replyPortSrc: flow.replyPortSrc,
      });
    const byNodePort = frontends.get(`*:${flow.origPortDst}`);
    if (byNodePort !== undefined && !byNodePort.has(reply))
      filters.push({ protocol: "udp", origPortDst: flow.origPortDst, replySrc: flow.replySrc, replyPortSrc: flow.replyPortSrc });
  }
  const deleted = filters.length === 0 ? 0 : await ct.clearEntries(family, filters);
  return { deleted, frontends };
}
