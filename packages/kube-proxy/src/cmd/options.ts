/** `servicenet-kube-proxy` flags (a subset of kube-proxy's, same names). */
import { hostname } from "node:os";
import { parseArgs } from "node:util";
import { ipFamilyOfCIDRString, ipFamilyOfString } from "@servicenet/api";
import type { LocalMode } from "../apis/config/types.ts";
import type { KubeProxyConfiguration } from "../apis/config/v1alpha1/types.ts";
import { syncPeriods } from "../apis/config/validation/validation.ts";
import { configFromFlags, loadConfigFromFile, platformApplyDefaults, validateConfig } from "./config.ts";
import { float32Flag, int32Flag } from "@servicenet/component-base/cli";
import { parseGoDuration } from "@servicenet/component-base/duration";
import { parseVerbosity, type Logger } from "@servicenet/component-base/logs";
import { stderrLogger } from "./logger.ts";

export interface ProxyServerOptions {
  readonly kubeconfig: string;
  readonly proxyMode: "iptables" | "nftables";
  /** Write per-family rule files here instead of programming the kernel. */
  readonly dryRunDir: string | undefined;
  readonly hostnameOverride: string;
  readonly clusterCIDRs: { readonly IPv4?: string; readonly IPv6?: string };
  /** `--masquerade-all`: SNAT every packet sent to a ClusterIP. */
  readonly masqueradeAll: boolean;
  /** `--detect-local-mode` (default ClusterCIDR) with `--pod-bridge-interface` / `--pod-interface-name-prefix`. */
  readonly detectLocalMode: LocalMode;
  readonly podBridgeInterface: string;
  readonly podInterfaceNamePrefix: string;
  /** `--nodeport-addresses`: CIDRs of either family, or `["primary"]`; empty: every local address. */
  readonly nodePortAddresses: readonly string[];
  readonly nodeIPs: { readonly IPv4: string[]; readonly IPv6: string[] };
  /** host:port of /metrics; "" disables it. */
  readonly metricsBindAddress: string;
  /** host:port of /healthz and /livez (upstream default 0.0.0.0:10256; loopback here); "" disables it. */
  readonly healthzBindAddress: string;
  /** klog's -v: V(n) lines are written when n <= verbosity. */
  readonly verbosity: number;
  readonly minSyncPeriodMs: number;
  readonly syncPeriodMs: number;
  /** The effective KubeProxyConfiguration (flags or `--config`, defaulted), as `--write-config-to` writes it. */
  readonly config: KubeProxyConfiguration;
  /** `--write-config-to FILE`: write `config` there and exit. */
  readonly writeConfigTo: string | undefined;
  /** `--cleanup`: remove kube-proxy's rules of both modes and exit. */
  readonly cleanup: boolean;
}

export const usage = `usage: servicenet-kube-proxy --kubeconfig FILE [--config FILE] [--write-config-to FILE] [--cleanup]
  [--proxy-mode iptables|nftables] [--dry-run DIR]
  [--hostname-override NAME] [--cluster-cidr CIDR[,CIDR]] [--node-ip IP[,IP]] [--masquerade-all]
  [--detect-local-mode ClusterCIDR|NodeCIDR|BridgeInterface|InterfaceNamePrefix] [--pod-bridge-interface NAME]
  [--pod-interface-name-prefix PREFIX] [--nodeport-addresses CIDR[,CIDR]|primary]
  [--metrics-bind-address HOST:PORT] [--healthz-bind-address HOST:PORT] [--min-sync-period 1s] [--sync-period 30s]
  [--kube-api-qps 5] [--kube-api-burst 10] [-v N]`;

/** Parses argv (without node and script) and the `--config` file. Throws with a message on bad input. */
export function parseOptions(argv: readonly string[], logger: Logger = stderrLogger()): ProxyServerOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      config: { type: "string" },
      "write-config-to": { type: "string" },
      cleanup: { type: "boolean", default: false },
      kubeconfig: { type: "string" },
      "proxy-mode": { type: "string", default: "" },
      "dry-run": { type: "string" },
      "hostname-override": { type: "string", default: "" },
      "cluster-cidr": { type: "string", default: "" },
      "node-ip": { type: "string", default: "" },
      "masquerade-all": { type: "boolean", default: false },
      "detect-local-mode": { type: "string", default: "" },
      "pod-bridge-interface": { type: "string", default: "" },
      "pod-interface-name-prefix": { type: "string", default: "" },
      "nodeport-addresses": { type: "string", default: "" },
      "metrics-bind-address": { type: "string", default: "127.0.0.1:10249" },
      "healthz-bind-address": { type: "string", default: "127.0.0.1:10256" },
      v: { type: "string", short: "v" },
      "min-sync-period": { type: "string", default: "1s" },
      "sync-period": { type: "string", default: "30s" },
      "kube-api-qps": { type: "string", default: "5" },
      "kube-api-burst": { type: "string", default: "10" },
    },
    strict: true,
  });
  for (const d of [values["min-sync-period"], values["sync-period"]]) parseGoDuration(d);
  const fromFlags = configFromFlags({
    kubeconfig: values.kubeconfig,
    proxyMode: values["proxy-mode"],
    clusterCIDR: splitList(values["cluster-cidr"]).join(","),
    masqueradeAll: values["masquerade-all"],
    detectLocalMode: values["detect-local-mode"],
    podBridgeInterface: values["pod-bridge-interface"],
    podInterfaceNamePrefix: values["pod-interface-name-prefix"],
    nodePortAddresses: splitList(values["nodeport-addresses"]),
    metricsBindAddress: values["metrics-bind-address"],
    healthzBindAddress: values["healthz-bind-address"],
    syncPeriod: values["sync-period"],
    minSyncPeriod: values["min-sync-period"],
    kubeAPIQPS: float32Flag("--kube-api-qps", values["kube-api-qps"]),
    kubeAPIBurst: int32Flag("--kube-api-burst", values["kube-api-burst"]),
  });
  // Options.Complete: a config file replaces the flags' configuration.
  const loaded = values.config !== undefined ? loadConfigFromFile(values.config, logger) : fromFlags;
  const config = platformApplyDefaults(loaded);
  validateConfig(config);
  const writeConfigTo = values["write-config-to"];
  const cleanup = values.cleanup;
  const kubeconfig = config.clientConnection?.kubeconfig ?? "";
  if (kubeconfig === "" && writeConfigTo === undefined && !cleanup) throw new Error("--kubeconfig is required");
  const mode = config.mode;
  if (mode !== "iptables" && mode !== "nftables") throw new Error(`--proxy-mode must be iptables or nftables, not ${JSON.stringify(mode)}`);
  const detectLocalMode = config.detectLocalMode as LocalMode;
  const clusterCIDRs: { IPv4?: string; IPv6?: string } = {};
  for (const c of splitList(config.clusterCIDR ?? "")) {
    const fam = ipFamilyOfCIDRString(c);
    if (fam !== null) clusterCIDRs[fam] ??= c;
  }
  const nodeIPs = { IPv4: [] as string[], IPv6: [] as string[] };
  for (const ip of splitList(values["node-ip"])) {
    const fam = ipFamilyOfString(ip);
    if (fam === null) throw new Error(`--node-ip: invalid IP ${JSON.stringify(ip)}`);
    nodeIPs[fam].push(ip);
  }
  const periods = syncPeriods(config);
  const section = mode === "nftables" ? config.nftables : config.iptables;
  // processHostnameOverrideFlag: the flag wins over the file.
  const hostnameOverride = values["hostname-override"] || config.hostnameOverride || hostname();
  return {
    kubeconfig,
    proxyMode: mode,
    dryRunDir: values["dry-run"],
    hostnameOverride: hostnameOverride.trim().toLowerCase(),
    clusterCIDRs,
    masqueradeAll: section?.masqueradeAll ?? false,
    detectLocalMode,
    podBridgeInterface: config.detectLocal?.bridgeInterface ?? "",
    podInterfaceNamePrefix: config.detectLocal?.interfaceNamePrefix ?? "",
    nodePortAddresses: config.nodePortAddresses ?? [],
    nodeIPs,
    metricsBindAddress: config.metricsBindAddress ?? "",
    healthzBindAddress: config.healthzBindAddress ?? "",
    // copyLogsFromFlags: -v wins over the file's logging.verbosity.
    verbosity: values.v !== undefined ? parseVerbosity(values.v.replace(/^=/, "")) : (config.logging?.verbosity ?? 0), // "-v=4" reaches parseArgs as "=4"
    minSyncPeriodMs: periods.min,
    syncPeriodMs: periods.sync,
    config,
    writeConfigTo,
    cleanup,
  };
}

function splitList(s: string): string[] {
  return s
    .split(",")
    .map((x) => x.trim())
    .filter((x) => x !== "");
}
