/**
 * Building the Allocators from `--service-cluster-ip-range` and
 * `--service-node-port-range`, with kube-apiserver's flag validation
 * (cmd/kube-apiserver/app/options/validation.go validateClusterIPFlags) and
 * the bitmap allocators of the legacy storage_core.go wiring.
 */
import { cidrBits, parseCIDRSloppy, type CIDR, type IPFamily } from "@servicenet/api";
import type { RandomSource } from "../allocator/interfaces.ts";
import { Range } from "../ipallocator/bitmap.ts";
import { PortAllocator } from "../portallocator/allocator.ts";
import { defaultNodePortRange, parsePortRange } from "../portallocator/port-range.ts";
import type { Logger } from "@servicenet/component-base/logs";
import { Allocators } from "./alloc.ts";

/** Host bits allowed while a bitmap backs the range (IPv4 /12, IPv6 /108). */
const maxCIDRBits = 20;

/** The parsed, validated value of `--service-cluster-ip-range`. */
export interface ServiceClusterIPRanges {
  primary: CIDR;
  secondary: CIDR | null;
}

function sizeError(c: CIDR, flag: string): string | null {
  const bits = cidrBits(c);
  if (bits - c.prefix <= maxCIDRBits) return null;
  return `specified ${flag} is too large; for ${bits}-bit addresses, the mask must be >= ${bits - maxCIDRBits}`;
}

/**
 * Parses and validates `--service-cluster-ip-range` (comma-separated, primary
 * first). `enforceSizeLimit` is upstream's "unless MultiCIDRServiceAllocator
 * and DisableAllocatorDualWrite": true whenever the bitmap allocator is used.
 * Returns the ranges or upstream's error texts.
 */
export function parseServiceClusterIPRanges(value: string, enforceSizeLimit = true): ServiceClusterIPRanges | { errors: string[] } {
  const entries = value.split(",").map((s) => s.trim());
  const parsed = entries.map((s) => parseCIDRSloppy(s));
  const errors: string[] = [];
  const primary = parsed[0] ?? null;
  if (primary === null) errors.push("--service-cluster-ip-range must contain at least one valid cidr");
  if (entries.length > 2) errors.push("--service-cluster-ip-range must not contain more than two entries");
  if (primary && enforceSizeLimit) {
    const e = sizeError(primary, "--service-cluster-ip-range");
    if (e) errors.push(e);
  }
  const secondary = entries.length > 1 ? (parsed[1] ?? null) : null;
  if (entries.length > 1 && secondary === null) errors.push(`invalid CIDR address: ${entries[1]}`);
  if (primary && secondary) {
    if (primary.family === secondary.family) {
      errors.push("--service-cluster-ip-range[0] and --service-cluster-ip-range[1] must be of different IP family");
    }
    if (enforceSizeLimit) {
      const e = sizeError(secondary, "--service-cluster-ip-range[1]");
      if (e) errors.push(e);
    }
  }
  if (errors.length > 0 || primary === null) return { errors };
  return { primary, secondary };
}

/** Options of `newAllocatorsFromFlags`. */
export interface AllocatorFlags {
  /** `--service-cluster-ip-range`, e.g. "10.96.0.0/16,fd00::/108". */
  serviceClusterIPRange: string;
  /** `--service-node-port-range`; default 30000-32767. */
  serviceNodePortRange?: string;
  random?: RandomSource;
  logger?: Logger;
}

/** In-memory bitmap Allocators for the configured ranges; throws with every flag error joined. */
export function newAllocatorsFromFlags(flags: AllocatorFlags): { alloc: Allocators; ranges: Map<IPFamily, Range>; ports: PortAllocator } {
  const r = parseServiceClusterIPRanges(flags.serviceClusterIPRange);
  if ("errors" in r) throw new Error(r.errors.join("; "));
  const ranges = new Map<IPFamily, Range>();
  for (const c of [r.primary, r.secondary]) if (c) ranges.set(c.family, new Range(c, { random: flags.random }));
  const pr = flags.serviceNodePortRange ? parsePortRange(flags.serviceNodePortRange) : defaultNodePortRange;
  const ports = new PortAllocator(pr, { random: flags.random });
  const alloc = new Allocators({
    serviceIPAllocatorsByFamily: ranges,
    defaultServiceIPFamily: r.primary.family,
    serviceNodePorts: ports,
    ...(flags.logger ? { logger: flags.logger } : {}),
  });
  return { alloc, ranges, ports };
}
