/**
 * `usage servicecidr [NAME]`, a view upstream kubectl lacks: for each
 * ServiceCIDR and family, how full the range is, split into the KEP-3070
 * static (lower) and dynamic (upper) bands, and which Services hold its IPs.
 * Pure and BigInt throughout, so a /64 (or larger) is exact. With the legacy
 * bitmaps (RangeAllocation, which only the apiserver can read: it is not served
 * over the API), also where the bitmap and the IPAddress objects disagree.
 */
import type { IPAddress, Service, ServiceCIDR } from "@servicenet/api";
import { addressAt, cidrContains, cidrSize, formatCIDR, formatIP, parseCIDR, parseIP, type CIDR, type IP } from "@servicenet/api";

export interface UsageHolder {
  ip: string;
  band: "static" | "dynamic";
  /** "services/<ns>/<name>" style parent (formatParentRef form), "<none>" without parentRef. */
  parent: string;
  /** Set when the parent is a Service that exists and lists this IP in spec.clusterIPs. */
  service?: { namespace: string; name: string };
}

export interface RangeUsage {
  serviceCIDR: string;
  family: "IPv4" | "IPv6";
  cidr: string;
  /** Allocatable addresses: IPv4 2^h-2 (no network/broadcast), IPv6 2^h-1 (no network). */
  size: bigint;
  allocated: bigint;
  free: bigint;
  static: { first: string | null; last: string | null; size: bigint; used: bigint };
  dynamic: { first: string | null; last: string | null; size: bigint; used: bigint };
  holders: UsageHolder[];
  /** Services whose clusterIPs fall in the range but have no IPAddress object (legacy bitmap only). */
  withoutIPAddress: { namespace: string; name: string; ip: string }[];
  /** Ready condition status, or "Unknown" when absent (upstream treats that as ready). */
  ready: string;
  deleting: boolean;
  /** Bitmap vs IPAddress objects, when the caller could read the range's RangeAllocation. */
  bitmap?: BitmapView;
}

/** Where the legacy bitmap of a range and its IPAddress objects disagree (dual-write mode). */
export interface BitmapView {
  /** The RangeAllocation's range (a flag CIDR). */
  range: string;
  /** Allocated in the bitmap. */
  allocated: number;
  /** In the bitmap, with no IPAddress object. */
  onlyInBitmap: string[];
  /** An IPAddress object, not in the bitmap. */
  onlyInIPAddress: string[];
}

/**
 * calculateRangeOffset (KEP-3070): no split up to 16 addresses, otherwise
 * clamp(total/16, 16, 256) addresses at the start of the range.
 */
export function staticBandSize(total: bigint): bigint {
  if (total <= 16n) return 0n;
  const v = total / 16n;
  return v < 16n ? 16n : v > 256n ? 256n : v;
}

function rangeBounds(c: CIDR): { first: bigint; last: bigint; size: bigint } {
  const total = cidrSize(c);
  const v4 = c.family === "IPv4";
  const size = total - (v4 ? 2n : 1n);
  if (size <= 0n) return { first: 1n, last: 0n, size: 0n };
  return { first: 1n, last: v4 ? total - 2n : total - 1n, size };
}

const fmtAt = (c: CIDR, i: bigint): string => formatIP(addressAt(c, i));

/** The services' clusterIPs, keyed by canonical IP. */
function serviceIPIndex(services: readonly Service[]): Map<string, { namespace: string; name: string }[]> {
  const byIP = new Map<string, { namespace: string; name: string }[]>();
  for (const s of services) {
    for (const raw of s.spec?.clusterIPs ?? (s.spec?.clusterIP ? [s.spec.clusterIP] : [])) {
      const ip = parseIP(raw);
      if (ip === null) continue;
      const key = formatIP(ip);
      byIP.set(key, [...(byIP.get(key) ?? []), { namespace: s.metadata?.namespace ?? "", name: s.metadata?.name ?? "" }]);
    }
  }
  return byIP;
}

function parentString(ip: IPAddress): string {
  const ref = ip.spec?.parentRef;
  if (ref === undefined || ref === null) return "<none>";
  const gr = (ref.group ? `${ref.resource ?? ""}.${ref.group}` : (ref.resource ?? "")).toLowerCase();
  return `${gr}${ref.namespace ? `/${ref.namespace}` : ""}/${ref.name ?? ""}`;
}

/** Usage of one CIDR of one ServiceCIDR. */
function rangeUsage(
  sc: ServiceCIDR,
  cidrText: string,
  c: CIDR,
  ips: { ip: IP; obj: IPAddress }[],
  svcIPs: ReturnType<typeof serviceIPIndex>,
  bitmaps: ReadonlyMap<string, readonly string[]>,
): RangeUsage {
  const { first, last, size } = rangeBounds(c);
  const offset = staticBandSize(cidrSize(c));
  const dynFirst = first + offset;
  const holders: UsageHolder[] = [];
  let staticUsed = 0n;
  let dynamicUsed = 0n;
  const seen = new Set<string>();
  for (const { ip, obj } of ips) {
    if (!cidrContains(c, ip)) continue;
    const idx = ip.value - c.ip.value;
    if (idx < first || idx > last) continue;
    const band = idx < dynFirst ? "static" : "dynamic";
    if (band === "static") staticUsed++;
    else dynamicUsed++;
    const text = formatIP(ip);
    seen.add(text);
    const ref = obj.spec?.parentRef;
    const holder: UsageHolder = { ip: text, band, parent: parentString(obj) };
    const owner = (svcIPs.get(text) ?? []).find(
      (s) => ref?.resource === "services" && !ref.group && s.namespace === ref.namespace && s.name === ref.name,
    );
    if (owner !== undefined) holder.service = owner;
    holders.push(holder);
  }
  const withoutIPAddress: RangeUsage["withoutIPAddress"] = [];
  for (const [text, owners] of svcIPs) {
    const ip = parseIP(text);
    if (ip === null || !cidrContains(c, ip) || seen.has(text)) continue;
    for (const o of owners) withoutIPAddress.push({ ...o, ip: text });
  }
  const allocated = staticUsed + dynamicUsed;
  const ready = (sc.status?.conditions ?? []).find((x) => x.type === "Ready")?.status ?? "Unknown";
  const band = (lo: bigint, hi: bigint, used: bigint) => ({
    first: hi >= lo ? fmtAt(c, lo) : null,
    last: hi >= lo ? fmtAt(c, hi) : null,
    size: hi >= lo ? hi - lo + 1n : 0n,
    used,
  });
  const bitmap = bitmapView(c, seen, bitmaps);
  return {
    ...(bitmap === undefined ? {} : { bitmap }),
    serviceCIDR: sc.metadata?.name ?? "",
    family: c.family,
    cidr: cidrText,
    size,
    allocated,
    free: size > allocated ? size - allocated : 0n,
    static: band(first, dynFirst - 1n, staticUsed),
    dynamic: band(dynFirst, last, dynamicUsed),
    holders: holders.sort((a, b) => (addrValue(a.ip) < addrValue(b.ip) ? -1 : 1)),
    withoutIPAddress,
    ready,
    deleting: Boolean(sc.metadata?.deletionTimestamp),
  };
}

const addrValue = (s: string): bigint => parseIP(s)?.value ?? 0n;

/** The bitmap of exactly this CIDR (bitmaps exist for the flag ranges only), compared with `seen`. */
function bitmapView(c: CIDR, seen: ReadonlySet<string>, bitmaps: ReadonlyMap<string, readonly string[]>): BitmapView | undefined {
  const key = formatCIDR(c);
  for (const [range, allocated] of bitmaps) {
    const r = parseCIDR(range);
    if (r === null || formatCIDR(r) !== key) continue;
    const inBitmap = new Set(allocated.flatMap((s) => (parseIP(s) === null ? [] : [formatIP(parseIP(s)!)])));
    return {
      range,
      allocated: inBitmap.size,
      onlyInBitmap: [...inBitmap].filter((ip) => !seen.has(ip)).sort((a, b) => (addrValue(a) < addrValue(b) ? -1 : 1)),
      onlyInIPAddress: [...seen].filter((ip) => !inBitmap.has(ip)).sort((a, b) => (addrValue(a) < addrValue(b) ? -1 : 1)),
    };
  }
  return undefined;
}

/**
 * serviceCIDRUsage: one entry per (ServiceCIDR, CIDR), in ServiceCIDR order.
 * With `name`, only that ServiceCIDR; throws if it does not exist. `bitmaps` (range -> allocated
 * IPs of its RangeAllocation) adds the bitmap-vs-IPAddress view to the ranges it covers.
 */
export function serviceCIDRUsage(
  serviceCIDRs: readonly ServiceCIDR[],
  ipAddresses: readonly IPAddress[],
  services: readonly Service[],
  name?: string,
  bitmaps: ReadonlyMap<string, readonly string[]> = new Map(),
): RangeUsage[] {
  const selected = name === undefined ? serviceCIDRs : serviceCIDRs.filter((s) => s.metadata?.name === name);
  if (name !== undefined && selected.length === 0) throw new Error(`servicecidrs.networking.k8s.io "${name}" not found`);
  const ips = ipAddresses.flatMap((obj) => {
    const ip = parseIP(obj.metadata?.name ?? "");
    return ip === null ? [] : [{ ip, obj }];
  });
  const svcIPs = serviceIPIndex(services);
  return selected.flatMap((sc) =>
    (sc.spec?.cidrs ?? []).flatMap((text) => {
      const c = parseCIDR(text);
      return c === null ? [] : [rangeUsage(sc, text, c, ips, svcIPs, bitmaps)];
    }),
  );
}
