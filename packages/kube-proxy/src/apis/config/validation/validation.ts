/**
 * Validation of the local-detection and NodePort-address settings, with upstream's messages
 * and field paths (pkg/proxy/apis/config/validation/validation.go).
 */
import { field, GoValue, isDualStackCIDRStrings, parseCIDRSloppy, parseIPSloppy } from "@servicenet/api";
import { formatGoDuration, parseGoDuration } from "@servicenet/component-base/duration";
import type { KubeProxyConfiguration } from "../v1alpha1/types.ts";
import type { FieldError } from "@servicenet/api";
import { localModes, nodePortAddressesPrimary } from "../types.ts";
import type { DetectLocalConfiguration } from "../types.ts";

const root = "KubeProxyConfiguration";

/** `validateKubeProxyNodePortAddress`: CIDRs, or `primary` alone. */
export function validateKubeProxyNodePortAddress(addrs: readonly string[], path = `${root}.NodePortAddresses`): FieldError[] {
  const errs: FieldError[] = [];
  for (const [i, a] of addrs.entries()) {
    if (a === nodePortAddressesPrimary) {
      if (i !== 0 || addrs.length !== 1) errs.push(field.invalid(`${path}[${i}]`, a, "can't use both 'primary' and CIDRs"));
      break;
    }
    if (parseCIDRSloppy(a) === null) errs.push(field.invalid(`${path}[${i}]`, a, "must be a valid CIDR"));
  }
  return errs;
}

/** `validateDetectLocalMode`: one of the four modes, or blank. */
export function validateDetectLocalMode(mode: string, path = `${root}.DetectLocalMode`): FieldError[] {
  const valid = [...localModes, ""];
  return valid.includes(mode) ? [] : [field.notSupported(path, mode, valid)];
}

/** `validateDetectLocalConfiguration`: what the chosen mode needs. */
export function validateDetectLocalConfiguration(
  mode: string,
  c: DetectLocalConfiguration,
  path = `${root}.DetectLocalConfiguration`,
): FieldError[] {
  if (mode === "BridgeInterface") return validateInterface(c.bridgeInterface, `${path}.InterfaceName`);
  if (mode === "InterfaceNamePrefix") return validateInterface(c.interfaceNamePrefix, `${path}.InterfacePrefix`);
  if (mode === "ClusterCIDR" && c.clusterCIDRs.length > 0) return validateDualStackCIDRStrings(c.clusterCIDRs, `${path}.ClusterCIDRs`);
  return [];
}

function validateInterface(iface: string, path: string): FieldError[] {
  return iface.length === 0 ? [field.invalid(path, iface, "must not be empty")] : [];
}

const pairMessage = "must be a either a single CIDR or dual-stack pair of CIDRs (e.g. [10.100.0.0/16, fde4:8dba:82e1::/48]";

/** `validateDualStackCIDRStrings`. */
export function validateDualStackCIDRStrings(cidrs: readonly string[], path: string): FieldError[] {
  if (cidrs.length === 0) return [field.invalid(path, [...cidrs], "must contain at least one CIDR")];
  if (cidrs.length > 2) return [field.invalid(path, [...cidrs], pairMessage)];
  const errs: FieldError[] = [];
  for (const [i, c] of cidrs.entries()) {
    if (parseCIDRSloppy(c) === null) {
      errs.push(field.invalid(`${path}[${i}]`, c, "must be a valid CIDR block (e.g. 10.100.0.0/16 or fde4:8dba:82e1::/48)"));
    }
  }
  // IsDualStackCIDRStrings errs (and adds nothing) when a CIDR does not parse.
  if (cidrs.length === 2 && errs.length === 0 && !isDualStackCIDRStrings([...cidrs]))
    errs.push(field.invalid(path, [...cidrs], pairMessage));
  return errs;
}

/** The parts of `Validate` (validation.go) that concern the settings servicenet-kube-proxy uses. */
export function validateKubeProxyConfiguration(c: KubeProxyConfiguration): FieldError[] {
  const errs: FieldError[] = [];
  const mode = c.mode ?? "";
  const bit = (mode === "nftables" ? c.nftables?.masqueradeBit : c.iptables?.masqueradeBit) ?? 14;
  const section = mode === "nftables" ? "KubeProxyNFTablesConfiguration" : "KubeProxyIPTablesConfiguration";
  if (bit < 0 || bit > 31) errs.push(field.invalid(`${root}.${section}.MasqueradeBit`, bit, "must be within the range [0, 31]"));
  if (!["iptables", "ipvs", "nftables", ""].includes(mode)) {
    errs.push(
      field.invalid(
        `${root}.Mode.ProxyMode`,
        mode,
        "must be iptables, ipvs, nftables or blank (blank means the best-available proxy [currently iptables])",
      ),
    );
  }
  // validateClientConnectionConfiguration: ValidateNonnegativeField on the Burst.
  const burst = c.clientConnection?.burst ?? 0;
  if (burst < 0) errs.push(field.invalid(`${root}.ClientConnection.Burst`, burst, "must be greater than or equal to 0"));
  const periods = syncPeriods(c);
  if (periods.sync <= 0) errs.push(field.invalid(`${root}.SyncPeriod`, new GoValue(periods.syncText), "must be greater than 0"));
  if (periods.min < 0)
    errs.push(field.invalid(`${root}.MinSyncPeriod`, new GoValue(periods.minText), "must be greater than or equal to 0"));
  if (periods.min > periods.sync) {
    errs.push(field.invalid(`${root}.SyncPeriod`, new GoValue(periods.minText), `must be greater than or equal to ${root}.MinSyncPeriod`));
  }
  if (parseIPSloppy(c.bindAddress ?? "") === null) {
    errs.push(field.invalid(`${root}.BindAddress`, c.bindAddress ?? "", "not a valid textual representation of an IP address"));
  }
  // servicenet: an empty metrics address turns /metrics off, as the flag's help says.
  if ((c.healthzBindAddress ?? "") !== "") errs.push(...validateHostPort(c.healthzBindAddress ?? "", `${root}.HealthzBindAddress`));
  if ((c.metricsBindAddress ?? "") !== "") errs.push(...validateHostPort(c.metricsBindAddress ?? "", `${root}.MetricsBindAddress`));
  errs.push(...validateKubeProxyNodePortAddress(c.nodePortAddresses ?? []));
  errs.push(...validateDetectLocalMode(c.detectLocalMode ?? ""));
  errs.push(
    ...validateDetectLocalConfiguration(c.detectLocalMode ?? "", {
      bridgeInterface: c.detectLocal?.bridgeInterface ?? "",
      interfaceNamePrefix: c.detectLocal?.interfaceNamePrefix ?? "",
      clusterCIDRs: (c.clusterCIDR ?? "") === "" ? [] : (c.clusterCIDR ?? "").split(","),
    }),
  );
  return errs;
}

/** The internal SyncPeriod/MinSyncPeriod: the mode's section (v1alpha1 conversion.go). */
export function syncPeriods(c: KubeProxyConfiguration): { sync: number; min: number; syncText: string; minText: string } {
  const s = c.mode === "nftables" ? c.nftables : c.mode === "ipvs" ? c.ipvs : c.iptables;
  const sync = parseGoDuration(s?.syncPeriod ?? "0s");
  const min = parseGoDuration(s?.minSyncPeriod ?? "0s");
  // metav1.Duration is a fmt.Stringer: field errors print it as Go's Duration.String.
  return { sync, min, syncText: formatGoDuration(sync), minText: formatGoDuration(min) };
}

/** `validateHostPort`. */
function validateHostPort(input: string, path: string): FieldError[] {
  const m = /^(?:\[([^\]]*)\]|([^:]*)):([^:]*)$/.exec(input);
  if (m === null) return [field.invalid(path, input, "must be IP:port")];
  const host = m[1] ?? m[2] ?? "";
  const port = m[3] ?? "";
  const errs: FieldError[] = [];
  if (parseIPSloppy(host) === null) errs.push(field.invalid(path, host, "must be a valid IP"));
  const p = /^[+-]?\d+$/.test(port) ? Number(port) : NaN;
  // servicenet accepts port 0 (an ephemeral port, which tests and the e2e use); upstream wants 1-65535.
  if (!(p >= 0 && p <= 65535)) errs.push(field.invalid(path, port, "must be a valid port"));
  return errs;
}
