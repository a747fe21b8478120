/**
 * The SVG map of one Service range: reserved addresses (network, IPv4 broadcast), the static band
 * (KEP-3070's lower part, one cell per address: at most 256 + the network address) and the dynamic
 * band, one cell per address while it fits, otherwise aggregated into about `maxCells` aligned
 * blocks shaded by how full they are. A /12 or a /64 is a few hundred elements, never millions.
 */
import { addressAt, cidrSize, formatIP, parseCIDR, parseIP } from "@servicenet/api";
import type { RangeUsage } from "./servicecidr-usage.ts";

/** Most cells of one map. */
export const maxCells = 512;
const cell = 12;
const columns = 32;

/** One cell: addresses [first, last] (offsets in the CIDR) and what holds them. */
export interface Cell {
  first: bigint;
  last: bigint;
  kind: "reserved" | "static" | "dynamic";
  /** Allocated addresses in the cell. */
  used: bigint;
  /** Addresses the cell covers that are allocatable. */
  size: bigint;
  /** "namespace/name" of the holders (first few), "<none>" for an IPAddress whose Service is gone. */
  holders: string[];
  /** Addresses where the bitmap and the IPAddress objects disagree. */
  mismatches: number;
  /** Includes the network or broadcast address. */
  reserved: boolean;
}

/** Offsets of the allocated IPs of `u` with who holds them. */
function holderOffsets(u: RangeUsage, base: bigint): Map<bigint, string> {
  const m = new Map<bigint, string>();
  for (const h of u.holders) {
    const ip = parseIP(h.ip);
    if (ip !== null) m.set(ip.value - base, h.service ? `${h.service.namespace}/${h.service.name}` : "<none>");
  }
  return m;
}

/** The smallest power of two `w` with [from, to] in at most `n` blocks of `w`. */
function blockWidth(from: bigint, to: bigint, n: number): bigint {
  let w = 1n;
  while ((to - from + 1n + w - 1n) / w > BigInt(n)) w <<= 1n;
  return w;
}

/**
 * Splits [from, to] into blocks aligned on multiples of a power of two (so a block reads as a
 * sub-prefix, e.g. 10.96.1.0 - 10.96.1.127); the first one starts at `from`. At most n + 1.
 */
function blocks(from: bigint, to: bigint, n: number): { width: bigint; list: [bigint, bigint][] } {
  if (to < from) return { width: 1n, list: [] };
  const width = blockWidth(from, to, n);
  const list: [bigint, bigint][] = [];
  for (let f = from; f <= to; f = (f / width + 1n) * width) {
    const end = (f / width + 1n) * width - 1n;
    list.push([f, end > to ? to : end]);
  }
  return { width, list };
}

/**
 * The cells of `u`'s two maps: the lower map (network address + static band, or the whole range
 * when it has at most 256 addresses) and the dynamic map (the rest, blocks when large).
 */
export function rangeCells(u: RangeUsage): { lower: Cell[]; upper: Cell[]; blockSize: bigint } {
  const c = parseCIDR(u.cidr);
  if (c === null) return { lower: [], upper: [], blockSize: 1n };
  const total = cidrSize(c);
  const lastAddr = total - 1n;
  const v4 = c.family === "IPv4";
  const isReserved = (o: bigint) => o === 0n || (v4 && o === lastAddr);
  const staticEnd = u.static.size; // offsets 1..staticEnd are the static band
  const held = holderOffsets(u, c.ip.value);
  const mismatched = new Set(
    [...(u.bitmap?.onlyInBitmap ?? []), ...(u.bitmap?.onlyInIPAddress ?? [])].map((s) => (parseIP(s)?.value ?? -1n) - c.ip.value),
  );
  const sorted = [...held.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const mis = [...mismatched].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const make = (first: bigint, last: bigint): Cell => {
    const inside = sorted.filter((o) => o >= first && o <= last);
    const reserved = isReserved(first) || isReserved(last);
    const reservedCount = (isReserved(first) ? 1n : 0n) + (last !== first && isReserved(last) ? 1n : 0n);
    return {
      first,
      last,
      kind: first === last && reserved ? "reserved" : first >= 1n && first <= staticEnd ? "static" : first === 0n ? "reserved" : "dynamic",
      used: BigInt(inside.length),
      size: last - first + 1n - reservedCount,
      holders: [...new Set(inside.slice(0, 50).map((o) => held.get(o)!))].slice(0, 5),
      mismatches: mis.filter((o) => o >= first && o <= last).length,
      reserved,
    };
  };
  const single = (from: bigint, to: bigint) => {
    const out: Cell[] = [];
    for (let o = from; o <= to; o++) out.push(make(o, o));
    return out;
  };
  if (total <= 256n) return { lower: single(0n, lastAddr), upper: [], blockSize: 1n };
  const upper = blocks(staticEnd + 1n, lastAddr, maxCells);
  return { lower: single(0n, staticEnd), upper: upper.list.map(([f, l]) => make(f, l)), blockSize: upper.width };
}

/** A stable colour per Service (hue from its name). */
export function serviceColor(holder: string): string {
  if (holder === "<none>") return "#e08a00";
  let h = 0;
  for (const ch of holder) h = (h * 31 + ch.charCodeAt(0)) % 360;
  return `hsl(${h}, 62%, 42%)`;
}

const esc = (s: string): string => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

function fill(x: Cell): { color: string; opacity: number } {
  if (x.kind === "reserved") return { color: "#333", opacity: 1 };
  if (x.used === 0n) return { color: x.kind === "static" ? "#dbe7f5" : "#eeeeee", opacity: 1 };
  const color = serviceColor(x.holders[0] ?? "<none>");
  if (x.size <= 1n) return { color, opacity: 1 };
  // A block: at least 0.35 so one address in 2^54 still shows, full when the block is full.
  const frac = Number((x.used * 1000n) / (x.size > 0n ? x.size : 1n)) / 1000;
  return { color, opacity: Math.min(1, 0.35 + 0.65 * frac) };
}

/** The SVG of `cells` (a grid of `columns` columns), every cell titled with its addresses and holders. */
export function mapSVG(u: RangeUsage, cells: readonly Cell[], label: string): string {
  const c = parseCIDR(u.cidr);
  if (c === null || cells.length === 0) return "";
  const rows = Math.ceil(cells.length / columns);
  const rects = cells.map((x, i) => {
    const { color, opacity } = fill(x);
    const addr = (o: bigint) => formatIP(addressAt(c, o));
    const what =
      x.first === x.last
        ? `${addr(x.first)}${x.kind === "reserved" ? (x.first === 0n ? " (network address, reserved)" : " (broadcast address, reserved)") : ""}`
        : `${addr(x.first)} - ${addr(x.last)} (${x.last - x.first + 1n} addresses${x.reserved ? ", incl. a reserved one" : ""})`;
    const held = x.used === 0n ? "free" : `${x.used} allocated${x.holders.length > 0 ? `: ${x.holders.join(", ")}` : ""}`;
    const warn = x.mismatches > 0 ? `; bitmap and IPAddress disagree on ${x.mismatches}` : "";
    const stroke = x.mismatches > 0 ? ` stroke="#d00" stroke-width="2"` : x.kind === "static" ? ` stroke="#6a8fc7" stroke-width="0.6"` : "";
    return (
      `<rect class="cell ${x.kind}${x.used > 0n ? " used" : ""}${x.mismatches > 0 ? " mismatch" : ""}" x="${(i % columns) * cell}" y="${Math.floor(i / columns) * cell}" ` +
      `width="${cell - 1}" height="${cell - 1}" fill="${color}" fill-opacity="${opacity}"${stroke} data-used="${x.used}">` +
      `<title>${esc(`${what}: ${x.kind === "reserved" ? "reserved" : held}${warn}`)}</title></rect>`
    );
  });
  return (
    `<svg class="map" role="img" aria-label="${esc(label)}" width="${columns * cell}" height="${rows * cell}" ` +
    `viewBox="0 0 ${columns * cell} ${rows * cell}" xmlns="http://www.w3.org/2000/svg">${rects.join("")}</svg>`
  );
}
