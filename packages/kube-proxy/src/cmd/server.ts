/** `ProxyServer`: proxiers for both families, their runners, the informers, /metrics and /healthz. */
import { createServer } from "node:http";
import type { Server } from "node:http";
import { withRateLimit } from "@servicenet/client/rest";
import { loadKubeConfig } from "@servicenet/client/tools/clientcmd";
import type { Logger } from "@servicenet/component-base/logs";
import { stderrLogger } from "./logger.ts";
import { listenLikeGo, splitHostPort } from "@servicenet/component-base/net";
import { newDualStackIptablesProxier, newDualStackNftablesProxier } from "../metaproxier/dual-stack.ts";
import type { MetaProxier } from "../metaproxier/meta-proxier.ts";
import { ProxierHealthServer } from "../healthcheck/proxier-health.ts";
import { ServiceHealthServer } from "../healthcheck/service-health.ts";
import { withNodeHealth } from "../healthcheck/node-health.ts";
import { newProxyMetrics } from "../metrics/metrics.ts";
import type { ProxyMetrics } from "../metrics/metrics.ts";
import { DryRunApplier, IptablesApplier, NftablesApplier } from "../runner/appliers.ts";
import { applyUnavailableReason } from "../runner/exec.ts";
import { FamilyRunner } from "../runner/family-runner.ts";
import { defaultSysctlRoot, ensureSysctl, routeLocalnetMessage, sysctlRouteLocalnet } from "../runner/sysctl.ts";
import { startInformers } from "./informers.ts";
import type { ProxyServerOptions } from "./options.ts";
import { DryRunConntrack, ExecConntrack } from "../conntrack/index.ts";
import { NodePortAddresses } from "../util/nodeport-addresses.ts";
import { getLocalDetectors, resolveNodePortAddresses } from "./local-detectors.ts";
import { platformCleanup } from "../runner/cleanup.ts";
import { waitForPodCIDR } from "./wait-pod-cidr.ts";

export interface RunningProxyServer {
  readonly metrics: ProxyMetrics;
  readonly runners: readonly FamilyRunner[];
  /** Address /metrics listens on, if enabled. */
  readonly metricsAddress: string | undefined;
  /** Address /healthz and /livez listen on, if enabled. */
  readonly healthzAddress: string | undefined;
  /** The per-Service health check servers (healthCheckNodePorts). */
  readonly serviceHealth: ServiceHealthServer;
  stop(): Promise<void>;
}

/** Tools a mode needs when it programs the kernel. */
export function requiredTools(mode: ProxyServerOptions["proxyMode"]): string[] {
  return mode === "iptables" ? ["iptables", "iptables-restore", "ip6tables", "ip6tables-restore"] : ["nft"];
}

function buildRunners(
  o: ProxyServerOptions,
  podCIDRs: readonly string[],
  metrics: ProxyMetrics,
  logger: Logger,
  health: ProxierHealthServer,
  serviceHealth: ServiceHealthServer,
): { runners: FamilyRunner[]; meta: MetaProxier } {
  const detectors = getLocalDetectors(o, podCIDRs);
  const nodePortAddresses = resolveNodePortAddresses(o);
  // A dry-run node's addresses are its --node-ip values, not those of the machine it runs on.
  const allNodeIPs = [...o.nodeIPs.IPv4, ...o.nodeIPs.IPv6];
  const fam = (f: "IPv4" | "IPv6") => ({
    nodeName: o.hostnameOverride,
    localDetector: detectors[f],
    masqueradeAll: o.masqueradeAll,
    nodeIPs: o.nodeIPs[f],
    nodePortAddresses,
    ...(o.dryRunDir !== undefined ? { interfaceAddrs: () => allNodeIPs } : {}),
  });
  // Stale UDP flows are deleted after each sync (conntrack.CleanStaleEntries), in dry-run only described.
  const conntrack = o.dryRunDir !== undefined ? new DryRunConntrack(o.dryRunDir) : new ExecConntrack();
  const ropts = { minSyncPeriodMs: o.minSyncPeriodMs, syncPeriodMs: o.syncPeriodMs, logger, health, serviceHealth, conntrack };
  if (o.proxyMode === "iptables") {
    const d = newDualStackIptablesProxier({ ipv4: fam("IPv4"), ipv6: fam("IPv6") }, { logger });
    const applier = (v6: boolean) =>
      o.dryRunDir !== undefined ? new DryRunApplier(o.dryRunDir, "iptables") : new IptablesApplier({ localhostNodePorts: !v6 });
    const runners = [
      new FamilyRunner({ kind: "iptables", proxier: d.ipv4, applier: applier(false) }, metrics, ropts),
      new FamilyRunner({ kind: "iptables", proxier: d.ipv6, applier: applier(true) }, metrics, ropts),
    ];
    return { runners, meta: d.meta };
  }
  const d = newDualStackNftablesProxier({ ipv4: fam("IPv4"), ipv6: fam("IPv6") }, { logger });
  const applier = () => (o.dryRunDir !== undefined ? new DryRunApplier(o.dryRunDir, "nftables") : new NftablesApplier());
  const runners = [
    new FamilyRunner({ kind: "nftables", proxier: d.ipv4, applier: applier() }, metrics, ropts),
    new FamilyRunner({ kind: "nftables", proxier: d.ipv6, applier: applier() }, metrics, ropts),
  ];
  return { runners, meta: d.meta };
}

/**
 * The sysctls the proxiers need, set as upstream's NewProxier does: route_localnet=1 for the
 * IPv4 iptables proxier's localhost NodePorts (unless --nodeport-addresses leaves 127.0.0.0/8 out).
 * Nothing in dry-run or nftables mode (nftables never accepts NodePorts on 127.0.0.1).
 */
export async function ensureProxySysctls(
  o: Pick<ProxyServerOptions, "proxyMode" | "dryRunDir" | "nodePortAddresses" | "nodeIPs">,
  logger: Logger,
  root = defaultSysctlRoot,
): Promise<void> {
  if (o.dryRunDir !== undefined || o.proxyMode !== "iptables") return;
  if (!new NodePortAddresses("IPv4", resolveNodePortAddresses(o)).containsIPv4Loopback) return;
  logger.info(routeLocalnetMessage);
  await ensureSysctl(sysctlRouteLocalnet, 1, root);
}

/**
 * Starts kube-proxy. Without --dry-run it refuses to start (with the reason)
 * when not root or the netfilter tools are missing.
 */
export async function runProxyServer(
  o: ProxyServerOptions & { readonly podCIDRTimeoutMs?: number },
  logger: Logger = stderrLogger(o.verbosity),
): Promise<RunningProxyServer> {
  if (o.dryRunDir === undefined) {
    const reason = applyUnavailableReason(requiredTools(o.proxyMode));
    if (reason !== undefined) throw new Error(reason);
  }
  // platformCleanup: rules the other mode left behind (switching between iptables and nftables).
  if (o.dryRunDir === undefined) for (const e of await platformCleanup(o.proxyMode, false)) logger.error(e);
  await ensureProxySysctls(o, logger);
  // createClient (cmd/kube-proxy/app/server.go): one clientset of clientConnection's QPS and Burst.
  const client = o.config.clientConnection;
  const kc = withRateLimit(loadKubeConfig(o.kubeconfig), { qps: client?.qps ?? 5, burst: client?.burst ?? 10 });
  const metrics = newProxyMetrics();
  // cmd/kube-proxy/app/server.go: NewProxierHealthServer(HealthzBindAddress, 2*SyncPeriod).
  const health = new ProxierHealthServer({ healthTimeoutMs: 2 * o.syncPeriodMs, metrics });
  // Dry-run must not open ports on every address of the machine: health check ports bind on loopback.
  const serviceHealth = new ServiceHealthServer({
    hostname: o.hostnameOverride,
    bindAddresses: o.dryRunDir !== undefined ? ["127.0.0.1"] : ["0.0.0.0"],
    proxierHealth: health,
    logger,
  });
  // platformSetup: NodeCIDR detection needs this Node's podCIDRs before the proxiers exist.
  let podCIDRs: string[] = [];
  if (o.detectLocalMode === "NodeCIDR") {
    logger.info("Watching for node, awaiting podCIDR allocation", { hostname: o.hostnameOverride });
    podCIDRs = await waitForPodCIDR(kc, o.hostnameOverride, logger, o.podCIDRTimeoutMs);
    logger.info("NodeInfo", { podCIDRs });
  }
  const { runners, meta } = buildRunners(o, podCIDRs, metrics, logger, health, serviceHealth);
  for (const r of runners) r.start();
  const informers = await startInformers(kc, withNodeHealth(meta, health), o.hostnameOverride, logger);
  const servers: Server[] = [];
  const closeAll = async () => {
    await informers.stop();
    for (const r of runners) r.stop();
    await serviceHealth.close();
    await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  };
  try {
    if (o.metricsBindAddress !== "") servers.push(await serveMetrics(o.metricsBindAddress, metrics));
    if (o.healthzBindAddress !== "") servers.push(await health.listen(o.healthzBindAddress));
  } catch (err) {
    await closeAll();
    throw err;
  }
  const metricsServer = o.metricsBindAddress === "" ? undefined : servers[0];
  const healthzServer = o.healthzBindAddress === "" ? undefined : servers[servers.length - 1];
  return {
    metrics,
    runners,
    metricsAddress: addressOf(metricsServer),
    healthzAddress: addressOf(healthzServer),
    serviceHealth,
    stop: closeAll,
  };
}

function addressOf(server: Server | undefined): string | undefined {
  const addr = server?.address();
  return addr !== null && typeof addr === "object" ? `${addr.address}:${addr.port}` : undefined;
}

async function serveMetrics(bind: string, metrics: ProxyMetrics): Promise<Server> {
  const { host, port } = splitHostPort(bind);
  const server = createServer((req, res) => {
    // The metrics server's own /healthz is a plain "ok" (upstream installs healthz.InstallHandler there too).
    if (req.url === "/metrics") {
      res.writeHead(200, { "content-type": "text/plain; version=0.0.4; charset=utf-8" });
      res.end(metrics.registry.render());
    } else if (req.url === "/healthz" || req.url === "/livez") {
      res.writeHead(200, { "content-type": "text/plain" });
      res.end("ok");
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  try {
    await listenLikeGo(server, host, port);
  } catch (e) {
    throw new Error(`failed to start metrics server on ${bind}: ${(e as Error).message}`);
  }
  return server;
}
