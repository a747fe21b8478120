/**
 * The effective KubeProxyConfiguration: flags fill a defaulted v1alpha1 object, a `--config`
 * file replaces it (upstream's Options.Complete: flags are then ignored except `-v` and
 * `--hostname-override`), platformApplyDefaults fills what depends on the mode, Validate checks it.
 */
import { readFileSync } from "node:fs";
import { aggregateMessage } from "@servicenet/api";
import type { Logger } from "@servicenet/component-base/logs";
import { decodeKubeProxyConfiguration } from "../apis/config/load.ts";
import { setDefaultsKubeProxyConfiguration } from "../apis/config/v1alpha1/defaults.ts";
import type { KubeProxyConfiguration } from "../apis/config/v1alpha1/types.ts";
import { validateKubeProxyConfiguration } from "../apis/config/validation/validation.ts";

/** The flag values that map onto KubeProxyConfiguration fields. */
export interface ConfigFlags {
  readonly kubeconfig: string | undefined;
  readonly proxyMode: string;
  readonly clusterCIDR: string;
  readonly masqueradeAll: boolean;
  readonly detectLocalMode: string;
  readonly podBridgeInterface: string;
  readonly podInterfaceNamePrefix: string;
  readonly nodePortAddresses: readonly string[];
  readonly metricsBindAddress: string;
  readonly healthzBindAddress: string;
  readonly syncPeriod: string;
  readonly minSyncPeriod: string;
  readonly kubeAPIQPS: number;
  readonly kubeAPIBurst: number;
}

/** The flags as a defaulted v1alpha1 object (the sync periods land in the mode's section). */
export function configFromFlags(f: ConfigFlags): KubeProxyConfiguration {
  const periods = { syncPeriod: f.syncPeriod, minSyncPeriod: f.minSyncPeriod };
  const nft = f.proxyMode === "nftables";
  const c = setDefaultsKubeProxyConfiguration({
    clientConnection: { kubeconfig: f.kubeconfig ?? "", qps: f.kubeAPIQPS, burst: f.kubeAPIBurst },
    mode: f.proxyMode,
    clusterCIDR: f.clusterCIDR,
    detectLocalMode: f.detectLocalMode,
    detectLocal: { bridgeInterface: f.podBridgeInterface, interfaceNamePrefix: f.podInterfaceNamePrefix },
    nodePortAddresses: f.nodePortAddresses.length === 0 ? null : [...f.nodePortAddresses],
    iptables: { masqueradeAll: !nft && f.masqueradeAll, ...(nft ? {} : periods) },
    nftables: { masqueradeAll: nft && f.masqueradeAll, ...(nft ? periods : {}) },
  });
  // Flags are applied over the defaults: "" turns a server off rather than asking for the default.
  return { ...c, metricsBindAddress: f.metricsBindAddress, healthzBindAddress: f.healthzBindAddress };
}

/** `loadConfigFromFile`; read errors and decode errors as upstream words them. */
export function loadConfigFromFile(file: string, logger: Logger): KubeProxyConfiguration {
  let data: string;
  try {
    data = readFileSync(file, "utf8");
  } catch (err) {
    throw new Error(
      `failed complete: open ${file}: ${(err as NodeJS.ErrnoException).code === "ENOENT" ? "no such file or directory" : (err as Error).message}`,
    );
  }
  try {
    return decodeKubeProxyConfiguration(data, logger);
  } catch (err) {
    throw new Error(`failed complete: ${(err as Error).message}`);
  }
}

/** `platformApplyDefaults` (server_linux.go): iptables when blank, nftables NodePorts on `primary`, ClusterCIDR detection. */
export function platformApplyDefaults(c: KubeProxyConfiguration): KubeProxyConfiguration {
  const mode = (c.mode ?? "") === "" ? "iptables" : c.mode;
  const noAddrs = (c.nodePortAddresses ?? []).length === 0;
  return {
    ...c,
    mode,
    nodePortAddresses: mode === "nftables" && noAddrs ? ["primary"] : (c.nodePortAddresses ?? null),
    detectLocalMode: (c.detectLocalMode ?? "") === "" ? "ClusterCIDR" : c.detectLocalMode,
  };
}

/** `Options.Validate`: throws `failed validate: …` with the aggregated field errors. */
export function validateConfig(c: KubeProxyConfiguration): void {
  const errs = validateKubeProxyConfiguration(c);
  if (errs.length > 0) throw new Error(`failed validate: ${aggregateMessage(errs)}`);
}
