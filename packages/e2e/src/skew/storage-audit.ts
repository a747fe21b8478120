/**
 * What the allocators left in storage, read with the Store API over the same SQLite file or etcd
 * the apiservers use (not through any apiserver, whose caches may lag): Services, IPAddress
 * objects, ServiceCIDRs and the legacy bitmaps `/registry/ranges/serviceips` and
 * `/registry/ranges/secondaryserviceips` (core/v1 RangeAllocation: `data` is base64 of Go's
 * big.Int.Bytes(), bit i set = address network+1+i of `range` allocated).
 */
import { addressAt, cidrContains, formatIP, parseCIDR, parseIP, type CIDR } from "@servicenet/api";
import type { KubeObject, Store } from "@servicenet/apiserver";
import { canonicalIP, ipAllocatorManager, managedByLabel, serviceIPs } from "../faults/invariants.ts";
import type { Json } from "../faults/api-client.ts";

export const serviceIPsKey = "/registry/ranges/serviceips";
export const secondaryServiceIPsKey = "/registry/ranges/secondaryserviceips";

/** The addresses a RangeAllocation marks allocated, as canonical IP text. */
export function decodeRangeAllocation(range: string, data: string): Set<string> {
  const cidr = parseCIDR(range);
  if (!cidr) throw new Error(`RangeAllocation with a bad range ${JSON.stringify(range)}`);
  const bytes = Buffer.from(data, "base64");
  const out = new Set<string>();
  // big-endian: the last byte holds bits 0-7.
  for (let j = 0; j < bytes.length; j++) {
    const byte = bytes[bytes.length - 1 - j]!;
    for (let b = 0; b < 8; b++) if (byte & (1 << b)) out.add(formatIP(addressAt(cidr, BigInt(j * 8 + b) + 1n)));
  }
  return out;
}

/** The base64 `data` of a bitmap holding `ips` (the inverse of decodeRangeAllocation). */
export function encodeRangeAllocation(range: string, ips: Iterable<string>): string {
  const cidr = parseCIDR(range)!;
  let n = 0n;
  for (const s of ips) n |= 1n << (parseIP(s)!.value - cidr.ip.value - 1n);
  if (n === 0n) return "";
  let hex = n.toString(16);
  if (hex.length % 2) hex = `0${hex}`;
  return Buffer.from(hex, "hex").toString("base64");
}

/** One stored bitmap: its range, allocated addresses and raw object. */
export interface StoredBitmap {
  cidr: CIDR;
  ips: Set<string>;
  object: KubeObject;
}

/** The RangeAllocation at `key`, decoded; null if it was never created. */
export async function readBitmap(store: Store, key: string): Promise<StoredBitmap | null> {
  const o = await store.get(key, { ignoreNotFound: true });
  if (!o) return null;
  const range = typeof o["range"] === "string" ? o["range"] : "";
  return { cidr: parseCIDR(range)!, ips: decodeRangeAllocation(range, typeof o["data"] === "string" ? o["data"] : ""), object: o };
}

/** Everything the audit compares. */
export interface StorageView {
  services: Json[];
  ipAddresses: Json[];
  serviceCIDRs: Json[];
  bitmaps: StoredBitmap[];
}

/** Reads Services, IPAddresses, ServiceCIDRs and both bitmaps at (roughly) one moment. */
export async function readView(store: Store): Promise<StorageView> {
  const [services, ipAddresses, serviceCIDRs, b1, b2] = await Promise.all([
    store.list("/registry/services/specs/"),
    store.list("/registry/ipaddresses/"),
    store.list("/registry/servicecidrs/"),
    readBitmap(store, serviceIPsKey),
    readBitmap(store, secondaryServiceIPsKey),
  ]);
  return {
    services: services.items,
    ipAddresses: ipAddresses.items,
    serviceCIDRs: serviceCIDRs.items,
    bitmaps: [b1, b2].filter((b) => b !== null),
  };
}

/** What is wrong (or merely pending) in a view. */
export interface Audit {
  services: number;
  clusterIPs: number;
  /** The same IP on two Services (never acceptable). */
  duplicates: string[];
  /** Service IPs without an IPAddress naming that Service. */
  missingIPAddresses: string[];
  /** Service IPs inside a bitmap's range whose bit is not set. */
  missingBits: string[];
  /** Set bits no Service holds (leaks, freed by the legacy Repair after 3 passes). */
  extraBits: string[];
  /** Managed IPAddresses no Service holds, with their age in ms. */
  orphans: { ip: string; ageMs: number }[];
}

const svcKey = (s: Json): string => `${s.metadata.namespace}/${s.metadata.name}`;

/** Compares Services with the IPAddress objects and the bitmaps. */
export function audit(v: StorageView, now = Date.now()): Audit {
  const holder = new Map<string, string>();
  const duplicates: string[] = [];
  for (const s of v.services) {
    for (const ip of serviceIPs(s)) {
      const other = holder.get(ip);
      if (other !== undefined && other !== svcKey(s)) duplicates.push(`${ip}: ${other} and ${svcKey(s)}`);
      else holder.set(ip, svcKey(s));
    }
  }
  const byIP = new Map<string, Json>(v.ipAddresses.map((a) => [canonicalIP(a.metadata.name), a]));
  const missingIPAddresses: string[] = [];
  const missingBits: string[] = [];
  for (const [ip, who] of holder) {
    const a = byIP.get(ip);
    const ref = a?.spec?.parentRef;
    if (!a || ref?.resource !== "services" || `${ref.namespace}/${ref.name}` !== who) missingIPAddresses.push(`${ip} (${who})`);
    const parsed = parseIP(ip)!;
    const bm = v.bitmaps.find((b) => cidrContains(b.cidr, parsed));
    if (bm && !bm.ips.has(ip)) missingBits.push(`${ip} (${who})`);
  }
  const extraBits = v.bitmaps.flatMap((b) => [...b.ips].filter((ip) => !holder.has(ip)));
  const orphans = v.ipAddresses
    .filter((a) => a.metadata.labels?.[managedByLabel] === ipAllocatorManager)
    .filter((a) => {
      const ref = a.spec?.parentRef;
      return holder.get(canonicalIP(a.metadata.name)) !== `${ref?.namespace}/${ref?.name}`;
    })
    .map((a) => ({ ip: canonicalIP(a.metadata.name), ageMs: now - Date.parse(a.metadata.creationTimestamp) }));
  return { services: v.services.length, clusterIPs: holder.size, duplicates, missingIPAddresses, missingBits, extraBits, orphans };
}

/** A one-line summary of an audit for the suites' output. */
export function auditLine(a: Audit): string {
  return `${a.services} Services/${a.clusterIPs} IPs, ${a.duplicates.length} duplicates, ${a.missingIPAddresses.length} without IPAddress, ${a.missingBits.length} without bit, ${a.extraBits.length} extra bits, ${a.orphans.length} orphan IPAddresses`;
}
