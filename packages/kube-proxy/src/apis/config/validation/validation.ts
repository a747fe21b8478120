/**
 * Validation of the local-detection and NodePort-address settings, with upstream's messages
 * and field paths (pkg/proxy/apis/config/validation/validation.go).
 */
import { field, isDualStackCIDRStrings, parseCIDRSloppy } from "@servicenet/api";
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
