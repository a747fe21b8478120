/**
 * The node IPAM half of upstream's cmd/kube-controller-manager/app/core.go:
 * `startNodeIpamController` turns the flags into allocator parameters with `validateCIDRs`,
 * `processCIDRs` and `setNodeCIDRMaskSizes`, refusing bad combinations with upstream's messages.
 */
import { parseCIDRSloppy, type CIDR } from "@servicenet/api/net";
import type { KubeConfig } from "@kubernetes/client-node";
import type { Node } from "@servicenet/api";
import type { Informer } from "@servicenet/client/tools/cache";
import type { EventRecorder } from "@servicenet/client/tools/record";
import { noopLogger, type Logger } from "@servicenet/component-base/logs";
import type { MetricsRegistry } from "@servicenet/component-base/metrics";
import { newCidrSetMetrics } from "../controller/nodeipam/ipam/cidrset/metrics.ts";
import { nodeCIDRClient } from "../controller/nodeipam/ipam/node-cidr-client.ts";
import { RateLimitingQueue, type MetricsProvider } from "@servicenet/client/util/workqueue";
import { RangeAllocator, type CIDRAllocatorParams } from "../controller/nodeipam/ipam/range-allocator.ts";
import { validateNodeIpamParams } from "../controller/nodeipam/node-ipam-controller.ts";

/** Default node block sizes (`defaultNodeMaskCIDRIPv4` / `defaultNodeMaskCIDRIPv6`). */
export const defaultNodeMaskCIDRIPv4 = 24;
export const defaultNodeMaskCIDRIPv6 = 64;

/** The node IPAM flags (KubeCloudShared + NodeIPAMController configuration); 0 = mask flag unset. */
export interface NodeIpamOptions {
  allocateNodeCIDRs: boolean;
  clusterCIDR: string;
  /** --service-cluster-ip-range, up to two comma-separated CIDRs. */
  serviceCIDR: string;
  nodeCIDRMaskSize: number;
  nodeCIDRMaskSizeIPv4: number;
  nodeCIDRMaskSizeIPv6: number;
}

/** `processCIDRs`: the comma-separated list parsed (`netutils.ParseCIDRs`), and whether it is dual-stack. */
export function processCIDRs(list: string): { cidrs: CIDR[]; dualStack: boolean } {
  const cidrs = list
    .trim()
    .split(",")
    .map((s) => {
      const c = parseCIDRSloppy(s);
      if (c === null) throw new Error(`failed to parse cidr value:${JSON.stringify(s)} with error:invalid CIDR address: ${s}`);
      return c;
    });
  const families = new Set(cidrs.map((c) => c.family));
  return { cidrs, dualStack: families.size === 2 };
}

/** `validateCIDRs`: one CIDR, or two of different families. */
export function validateCIDRs(list: string): CIDR[] {
  const { cidrs, dualStack } = processCIDRs(list);
  if (cidrs.length > 1 && !dualStack)
    throw new Error(`len of ClusterCIDRs==${cidrs.length} and they are not configured as dual stack (at least one from each IPFamily`);
  if (cidrs.length > 2) throw new Error(`length of clusterCIDRs is:${cidrs.length} more than max allowed of 2`);
  return cidrs;
}

/** `setNodeCIDRMaskSizes`: the node block size of each cluster CIDR from the three mask flags. */
export function setNodeCIDRMaskSizes(o: NodeIpamOptions, clusterCIDRs: readonly CIDR[]): number[] {
  const sorted = (v4: number, v6: number) => clusterCIDRs.map((c) => (c.family === "IPv6" ? v6 : v4));
  let ipv4Mask = defaultNodeMaskCIDRIPv4;
  let ipv6Mask = defaultNodeMaskCIDRIPv6;
  if (clusterCIDRs.length > 1) {
    if (o.nodeCIDRMaskSize !== 0) throw new Error("usage of --node-cidr-mask-size is not allowed with dual-stack clusters");
    if (o.nodeCIDRMaskSizeIPv4 !== 0) ipv4Mask = o.nodeCIDRMaskSizeIPv4;
    if (o.nodeCIDRMaskSizeIPv6 !== 0) ipv6Mask = o.nodeCIDRMaskSizeIPv6;
    return sorted(ipv4Mask, ipv6Mask);
  }
  const isSingleStackIPv6 = clusterCIDRs[0]?.family === "IPv6";
  if (o.nodeCIDRMaskSize !== 0) {
    if (o.nodeCIDRMaskSizeIPv4 !== 0 || o.nodeCIDRMaskSizeIPv6 !== 0)
      throw new Error(
        "usage of --node-cidr-mask-size-ipv4 and --node-cidr-mask-size-ipv6 is not allowed if --node-cidr-mask-size is set. For dual-stack clusters please unset it and use IPFamily specific flags",
      );
    return sorted(o.nodeCIDRMaskSize, o.nodeCIDRMaskSize);
  }
  if (o.nodeCIDRMaskSizeIPv4 !== 0) {
    if (isSingleStackIPv6) throw new Error("usage of --node-cidr-mask-size-ipv4 is not allowed for a single-stack IPv6 cluster");
    ipv4Mask = o.nodeCIDRMaskSizeIPv4;
  }
  if (o.nodeCIDRMaskSizeIPv6 !== 0) {
    if (!isSingleStackIPv6) throw new Error("usage of --node-cidr-mask-size-ipv6 is not allowed for a single-stack IPv4 cluster");
    ipv6Mask = o.nodeCIDRMaskSizeIPv6;
  }
  return sorted(ipv4Mask, ipv6Mask);
}

/**
 * `startNodeIpamController` up to the allocator: undefined when --allocate-node-cidrs is off,
 * else the allocator parameters. An unparsable Service CIDR is only a warning, as upstream.
 * @throws Error with upstream's message for a bad flag combination.
 */
export function nodeIpamParams(o: NodeIpamOptions, log: Logger = noopLogger): CIDRAllocatorParams | undefined {
  if (!o.allocateNodeCIDRs) return undefined;
  const clusterCIDRs = validateCIDRs(o.clusterCIDR);
  const [primary = "", secondary = ""] = o.serviceCIDR.split(",");
  const service = (s: string): CIDR | undefined => {
    if (s.trim() === "") return undefined;
    const c = parseCIDRSloppy(s);
    if (c === null) log.info("Warning: unsuccessful parsing of service CIDR", { CIDR: s, err: `invalid CIDR address: ${s}` });
    return c ?? undefined;
  };
  const serviceCIDR = service(primary);
  const secondaryServiceCIDR = service(secondary);
  if (serviceCIDR !== undefined && secondaryServiceCIDR !== undefined && serviceCIDR.family === secondaryServiceCIDR.family)
    throw new Error("serviceCIDR and secondaryServiceCIDR are not dualstack (from different IPfamiles)");
  const nodeCIDRMaskSizes = setNodeCIDRMaskSizes(o, clusterCIDRs);
  const params = { clusterCIDRs, serviceCIDR, secondaryServiceCIDR, nodeCIDRMaskSizes };
  validateNodeIpamParams(params);
  return params;
}

/** What `startNodeIpamController` needs besides the flags. */
export interface NodeIpamDeps {
  nodes: Informer<Node>;
  /** The `node-controller` identity's client config (upstream's ClientOrDie("node-controller")). */
  kubeConfig: KubeConfig;
  recorder: EventRecorder;
  logger?: Logger;
  /** The process's workqueue metrics (workqueue_* with name "cidrallocator_node"). */
  queueMetrics?: MetricsProvider;
  /** The process's registry, for node_ipam_controller_cidrset_*. */
  metrics?: MetricsRegistry;
}

/**
 * `startNodeIpamController`: undefined when --allocate-node-cidrs is off; else the range
 * allocator, built after listing the Nodes so their podCIDRs are occupied before any allocation.
 * @throws Error (fatal for the controller-manager) for bad flags or a Node's podCIDRs outside the cluster CIDRs.
 */
export async function startNodeIpamController(o: NodeIpamOptions, d: NodeIpamDeps): Promise<RangeAllocator | undefined> {
  const log = d.logger ?? noopLogger;
  const params = nodeIpamParams(o, log);
  if (params === undefined) return undefined;
  const client = nodeCIDRClient(d.kubeConfig);
  const nodeList = await client.listNodes();
  const queue = new RateLimitingQueue<string>("cidrallocator_node", undefined, undefined, d.queueMetrics);
  const metrics = d.metrics !== undefined ? newCidrSetMetrics(d.metrics) : undefined;
  return new RangeAllocator({
    nodes: d.nodes,
    client,
    recorder: d.recorder,
    params,
    nodeList,
    logger: log,
    queue,
    ...(metrics ? { metrics } : {}),
  });
}
