/**
 * SetDefaults_KubeProxyConfiguration (pkg/proxy/apis/config/v1alpha1/defaults.go) and the
 * logging defaults (component-base/logs/api/v1 SetRecommendedLoggingConfiguration).
 */
import { groupVersion } from "./types.ts";
import type { KubeProxyConfiguration } from "./types.ts";

/** Returns `c` with every unset field defaulted (a new object; `c` is not changed). */
export function setDefaultsKubeProxyConfiguration(c: KubeProxyConfiguration): KubeProxyConfiguration {
  const bindAddress = c.bindAddress === undefined || c.bindAddress === "" ? "0.0.0.0" : c.bindAddress;
  const v6 = bindAddress.includes(":");
  // servicenet serves /healthz on loopback by default (upstream: 0.0.0.0 / [::]).
  const [healthzHost, metricsHost] = v6 ? ["[::1]", "[::1]"] : ["127.0.0.1", "127.0.0.1"];
  const iptables = c.iptables ?? {};
  const nftables = c.nftables ?? {};
  const ipvs = c.ipvs ?? {};
  const conntrack = c.conntrack ?? {};
  const client = c.clientConnection ?? {};
  const logging = c.logging ?? {};
  return {
    ...c,
    apiVersion: groupVersion,
    kind: "KubeProxyConfiguration",
    featureGates: c.featureGates ?? {},
    bindAddress,
    healthzBindAddress: withPort(c.healthzBindAddress, healthzHost, 10256),
    metricsBindAddress: withPort(c.metricsBindAddress, metricsHost, 10249),
    oomScoreAdj: c.oomScoreAdj ?? -999,
    clientConnection: {
      ...client,
      contentType: nonEmpty(client.contentType, "application/vnd.kubernetes.protobuf"),
      qps: client.qps === undefined || client.qps === 0 ? 5 : client.qps,
      burst: client.burst === undefined || client.burst === 0 ? 10 : client.burst,
    },
    iptables: {
      ...iptables,
      masqueradeBit: iptables.masqueradeBit ?? 14,
      localhostNodePorts: iptables.localhostNodePorts ?? true,
      syncPeriod: nonZero(iptables.syncPeriod, "30s"),
      minSyncPeriod: nonZero(iptables.minSyncPeriod, "1s"),
    },
    ipvs: { ...ipvs, syncPeriod: nonZero(ipvs.syncPeriod, "30s") },
    nftables: {
      ...nftables,
      masqueradeBit: nftables.masqueradeBit ?? 14,
      syncPeriod: nonZero(nftables.syncPeriod, "30s"),
      minSyncPeriod: nonZero(nftables.minSyncPeriod, "1s"),
    },
    conntrack: {
      ...conntrack,
      maxPerCore: conntrack.maxPerCore ?? 32 * 1024,
      min: conntrack.min ?? 128 * 1024,
      tcpEstablishedTimeout: conntrack.tcpEstablishedTimeout ?? "24h0m0s",
      tcpCloseWaitTimeout: conntrack.tcpCloseWaitTimeout ?? "1h0m0s",
    },
    configSyncPeriod: nonZero(c.configSyncPeriod, "15m0s"),
    logging: {
      ...logging,
      format: nonEmpty(logging.format, "text"),
      flushFrequency: logging.flushFrequency ?? "5s",
      verbosity: logging.verbosity ?? 0,
      options: logging.options ?? { json: { infoBufferSize: "0" }, text: { infoBufferSize: "0" } },
    },
  };
}

function nonEmpty(v: string | undefined, d: string): string {
  return v === undefined || v === "" ? d : v;
}

function nonZero(v: string | undefined, d: string): string {
  return v === undefined || v === "" || /^[+-]?0+(\.0*)?[a-zµμ]*$/.test(v) ? d : v;
}

/** Empty: `host:port`; a bare host gets the port (proxyutil.AppendPortIfNeeded). */
function withPort(v: string | undefined, host: string, port: number): string {
  if (v === undefined || v === "") return `${host}:${port}`;
  if (/^\[.*\]:\d+$/.test(v) || /^[^:]*:\d+$/.test(v)) return v;
  return v.includes(":") ? `[${v}]:${port}` : `${v}:${port}`;
}
