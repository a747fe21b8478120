/** `servicenet-kube-proxy` flags (a subset of kube-proxy's, same names). */
import { hostname } from "node:os";
import { parseArgs } from "node:util";
import { aggregateMessage, ipFamilyOfCIDRString, ipFamilyOfString } from "@servicenet/api";
import type { FieldError } from "@servicenet/api";
import type { LocalMode } from "../apis/config/types.ts";
import {
  validateDetectLocalConfiguration,
  validateDetectLocalMode,
  validateKubeProxyNodePortAddress,
} from "../apis/config/validation/validation.ts";
import { parseGoDuration } from "@servicenet/component-base/duration";
import { parseVerbosity } from "@servicenet/component-base/logs";

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
}

export const usage = `usage: servicenet-kube-proxy --kubeconfig FILE [--proxy-mode iptables|nftables] [--dry-run DIR]
  [--hostname-override NAME] [--cluster-cidr CIDR[,CIDR]] [--node-ip IP[,IP]] [--masquerade-all]
  [--detect-local-mode ClusterCIDR|BridgeInterface|InterfaceNamePrefix] [--pod-bridge-interface NAME]
  [--pod-interface-name-prefix PREFIX] [--nodeport-addresses CIDR[,CIDR]|primary]
  [--metrics-bind-address HOST:PORT] [--healthz-bind-address HOST:PORT] [--min-sync-period 1s] [--sync-period 30s]
  [-v N]`;

/** Parses argv (without node and script). Throws with a message on bad input. */
export function parseOptions(argv: readonly string[]): ProxyServerOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      kubeconfig: { type: "string" },
      "proxy-mode": { type: "string", default: "iptables" },
      "dry-run": { type: "string" },
      "hostname-override": { type: "string" },
      "cluster-cidr": { type: "string", default: "" },
      "node-ip": { type: "string", default: "" },
      "masquerade-all": { type: "boolean", default: false },
      "detect-local-mode": { type: "string", default: "" },
      "pod-bridge-interface": { type: "string", default: "" },
      "pod-interface-name-prefix": { type: "string", default: "" },
      "nodeport-addresses": { type: "string", default: "" },
      "metrics-bind-address": { type: "string", default: "127.0.0.1:10249" },
      "healthz-bind-address": { type: "string", default: "127.0.0.1:10256" },
      v: { type: "string", short: "v", default: "0" },
      "min-sync-period": { type: "string", default: "1s" },
      "sync-period": { type: "string", default: "30s" },
    },
    strict: true,
  });
  if (values.kubeconfig === undefined) throw new Error("--kubeconfig is required");
  const mode = values["proxy-mode"];
  if (mode !== "iptables" && mode !== "nftables") throw new Error(`--proxy-mode must be iptables or nftables, not ${JSON.stringify(mode)}`);
  const detect = { mode: values["detect-local-mode"], bridge: values["pod-bridge-interface"], prefix: values["pod-interface-name-prefix"] };
  const nodePortAddresses = splitList(values["nodeport-addresses"]);
  // platformApplyDefaults (before Validate): blank means ClusterCIDR.
  const detectLocalMode = (detect.mode === "" ? "ClusterCIDR" : detect.mode) as LocalMode;
  const errs: FieldError[] = [
    ...validateKubeProxyNodePortAddress(nodePortAddresses),
    ...validateDetectLocalMode(detectLocalMode),
    ...validateDetectLocalConfiguration(detectLocalMode, {
      bridgeInterface: detect.bridge,
      interfaceNamePrefix: detect.prefix,
      clusterCIDRs: splitList(values["cluster-cidr"]),
    }),
  ];
  // Options.Validate: the errors aggregated, as kube-proxy prints them.
  if (errs.length > 0) throw new Error(`failed validate: ${aggregateMessage(errs)}`);
  if (detectLocalMode === "NodeCIDR") throw new Error("--detect-local-mode NodeCIDR is not supported by servicenet-kube-proxy yet");
  const clusterCIDRs: { IPv4?: string; IPv6?: string } = {};
  for (const c of splitList(values["cluster-cidr"])) {
    const fam = ipFamilyOfCIDRString(c);
    if (fam === null) throw new Error(`--cluster-cidr: invalid CIDR ${JSON.stringify(c)}`);
    if (clusterCIDRs[fam] !== undefined) throw new Error(`--cluster-cidr: two ${fam} CIDRs`);
    clusterCIDRs[fam] = c;
  }
  const nodeIPs = { IPv4: [] as string[], IPv6: [] as string[] };
  for (const ip of splitList(values["node-ip"])) {
    const fam = ipFamilyOfString(ip);
    if (fam === null) throw new Error(`--node-ip: invalid IP ${JSON.stringify(ip)}`);
    nodeIPs[fam].push(ip);
  }
  return {
    kubeconfig: values.kubeconfig,
    proxyMode: mode,
    dryRunDir: values["dry-run"],
    hostnameOverride: values["hostname-override"] ?? hostname(),
    clusterCIDRs,
    masqueradeAll: values["masquerade-all"],
    detectLocalMode,
    podBridgeInterface: detect.bridge,
    podInterfaceNamePrefix: detect.prefix,
    // platformApplyDefaults: nftables mode defaults to the primary node IPs.
    nodePortAddresses: nodePortAddresses.length === 0 && mode === "nftables" ? ["primary"] : nodePortAddresses,
    nodeIPs,
    metricsBindAddress: values["metrics-bind-address"],
    healthzBindAddress: values["healthz-bind-address"],
    verbosity: parseVerbosity(values.v.replace(/^=/, "")), // "-v=4" reaches parseArgs as "=4"
    minSyncPeriodMs: parseGoDuration(values["min-sync-period"]),
    syncPeriodMs: parseGoDuration(values["sync-period"]),
  };
}

function splitList(s: string): string[] {
  return s
    .split(",")
    .map((x) => x.trim())
    .filter((x) => x !== "");
}
