/**
 * The HTML page of `usage servicecidr`: per ServiceCIDR and family a summary (status, size,
 * allocated, free, utilisation, static and dynamic bands), a utilisation bar, the address map
 * (address-map.ts) and the holders, plus the bitmap-vs-IPAddress comparison when the caller could
 * read the bitmaps. One self-contained file: no script, no external resource, so it renders
 * offline, from a file, in any browser.
 */
import { mapSVG, rangeCells, serviceColor } from "./address-map.ts";
import type { RangeUsage } from "./servicecidr-usage.ts";

export interface UsageHTMLOptions {
  /** Who rendered the page, shown in the header (e.g. "servicenet-kubectl", "servicenet apiserver"). */
  source: string;
  /** Shown in the header; default now. */
  generatedAt?: Date;
  /**
   * Why there is no bitmap view when a range has none (a client cannot read RangeAllocation);
   * default: the client explanation.
   */
  noBitmapReason?: string;
  /** Most holder rows per range (default 200). */
  maxHolderRows?: number;
  /** Links to related pages, shown under the header (e.g. the dataplane view). */
  links?: readonly { readonly href: string; readonly text: string }[];
}

/** Escapes text for HTML element content and quoted attribute values. */
export const escapeHTML = (s: string): string => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
const esc = escapeHTML;

/** Percent with one decimal, exact for BigInt counts. */
export function percent(used: bigint, size: bigint): string {
  if (size === 0n) return "0.0%";
  const tenths = (used * 1000n + size / 2n) / size;
  return `${tenths / 10n}.${tenths % 10n}%`;
}

function status(u: RangeUsage): string {
  if (u.deleting) return "Terminating";
  return u.ready === "True" ? "Ready" : u.ready === "Unknown" ? "Ready (no condition)" : "NotReady";
}

/** The utilisation bar: static band and dynamic band, each filled by its use (minimum visible width). */
function barSVG(u: RangeUsage): string {
  const w = 384;
  const staticW = u.static.size === 0n ? 0 : Math.max(24, Math.round(w * 0.2));
  const dynW = w - staticW;
  const part = (x: number, width: number, used: bigint, size: bigint, color: string, cls: string) => {
    const frac = size === 0n ? 0 : Number((used * 10000n) / size) / 10000;
    const fillW = used === 0n ? 0 : Math.max(2, Math.round(width * frac));
    return `<rect class="${cls}" x="${x}" y="0" width="${width}" height="14" fill="#eee" stroke="#999"/><rect x="${x}" y="0" width="${fillW}" height="14" fill="${color}"/>`;
  };
  return (
    `<svg class="bar" width="${w}" height="14" viewBox="0 0 ${w} 14" xmlns="http://www.w3.org/2000/svg" role="img" aria-label="utilisation">` +
    (staticW > 0 ? part(0, staticW, u.static.used, u.static.size, "#4a78b8", "band-static") : "") +
    part(staticW, dynW, u.dynamic.used, u.dynamic.size, "#2f9e5a", "band-dynamic") +
    `</svg>`
  );
}

function bitmapHTML(u: RangeUsage, o: UsageHTMLOptions): string {
  const b = u.bitmap;
  if (b === undefined) return `<p class="bitmap none">Bitmap: ${esc(o.noBitmapReason ?? clientNoBitmap)}</p>`;
  const agree = b.onlyInBitmap.length === 0 && b.onlyInIPAddress.length === 0;
  const list = (ips: string[]) => esc(ips.slice(0, 20).join(", ") + (ips.length > 20 ? `, ... ${ips.length - 20} more` : ""));
  return (
    `<p class="bitmap ${agree ? "agree" : "disagree"}" data-only-in-bitmap="${b.onlyInBitmap.length}" data-only-in-ipaddress="${b.onlyInIPAddress.length}">` +
    `Bitmap (RangeAllocation ${esc(b.range)}): ${b.allocated} allocated; ` +
    (agree
      ? "agrees with the IPAddress objects."
      : `<strong>disagrees</strong> with the IPAddress objects: only in the bitmap ${b.onlyInBitmap.length}` +
        `${b.onlyInBitmap.length ? ` (${list(b.onlyInBitmap)})` : ""}, only as IPAddress ${b.onlyInIPAddress.length}` +
        `${b.onlyInIPAddress.length ? ` (${list(b.onlyInIPAddress)})` : ""}. The repair loops reconcile them.`) +
    `</p>`
  );
}

const clientNoBitmap =
  "not shown: the legacy bitmap (RangeAllocation) is not served over the API, so a client cannot compare it with the IPAddress objects; the apiserver's /servicenet/usage page shows it.";

function holdersHTML(u: RangeUsage, max: number): string {
  const rows = u.holders.slice(0, max).map((h) => {
    const who = h.service ? `${h.service.namespace}/${h.service.name}` : "<none>";
    return `<tr><td>${esc(h.ip)}</td><td>${h.band}</td><td>${esc(h.parent)}</td><td><span class="sw" style="background:${serviceColor(who)}"></span>${esc(h.service ? who : "<missing>")}</td></tr>`;
  });
  for (const s of u.withoutIPAddress.slice(0, max)) {
    rows.push(
      `<tr class="noip"><td>${esc(s.ip)}</td><td>-</td><td>&lt;no IPAddress&gt;</td><td>${esc(`${s.namespace}/${s.name}`)}</td></tr>`,
    );
  }
  if (rows.length === 0) return `<p class="holders none">No address allocated.</p>`;
  const more = u.holders.length > max ? `<p class="more">... ${u.holders.length - max} more</p>` : "";
  return `<details class="holders"${u.holders.length <= 20 ? " open" : ""}><summary>${u.holders.length} allocated addresses</summary><table><thead><tr><th>IP</th><th>Band</th><th>ParentRef</th><th>Service</th></tr></thead><tbody>${rows.join("")}</tbody></table>${more}</details>`;
}

function rangeHTML(u: RangeUsage, o: UsageHTMLOptions): string {
  const { lower, upper, blockSize } = rangeCells(u);
  const lowerLabel = upper.length === 0 ? "every address of the range" : "network address and the static band, one cell per address";
  const upperLabel = blockSize === 1n ? "the dynamic band, one cell per address" : `the dynamic band in blocks of ${blockSize} addresses`;
  const attrs = {
    name: u.serviceCIDR,
    family: u.family,
    cidr: u.cidr,
    status: status(u),
    size: u.size,
    allocated: u.allocated,
    free: u.free,
    "static-size": u.static.size,
    "static-used": u.static.used,
    "dynamic-size": u.dynamic.size,
    "dynamic-used": u.dynamic.used,
    cells: lower.length + upper.length,
  };
  const data = Object.entries(attrs)
    .map(([k, v]) => `data-${k}="${esc(String(v))}"`)
    .join(" ");
  const band = (b: RangeUsage["static"]) => (b.first === null ? "none" : `${esc(b.first)} - ${esc(b.last ?? "")}`);
  return (
    `<section class="range${u.deleting ? " deleting" : ""}" ${data}>` +
    `<h2>${esc(u.serviceCIDR)} <code>${esc(u.cidr)}</code> <span class="fam">${u.family}</span> <span class="status s-${status(u).split(" ")[0]}">${esc(status(u))}</span></h2>` +
    `<p class="summary"><span class="util">${percent(u.allocated, u.size)} used</span>: <span class="allocated">${u.allocated}</span> allocated of <span class="size">${u.size}</span>, <span class="free">${u.free}</span> free` +
    ` &middot; static band ${band(u.static)}: <span class="static-used">${u.static.used}</span>/${u.static.size}` +
    ` &middot; dynamic band ${band(u.dynamic)}: <span class="dynamic-used">${u.dynamic.used}</span>/${u.dynamic.size}</p>` +
    (u.deleting ? `<p class="deleting-note">Being deleted: the finalizer holds it while addresses allocated from it remain.</p>` : "") +
    barSVG(u) +
    `<div class="maps"><figure>${mapSVG(u, lower, lowerLabel)}<figcaption>${esc(lowerLabel)}</figcaption></figure>` +
    (upper.length > 0 ? `<figure>${mapSVG(u, upper, upperLabel)}<figcaption>${esc(upperLabel)}</figcaption></figure>` : "") +
    `</div>` +
    bitmapHTML(u, o) +
    holdersHTML(u, o.maxHolderRows ?? 200) +
    `</section>`
  );
}

const style = `body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#222;max-width:1100px}
h1{font-size:20px;margin:0 0 4px}h2{font-size:16px;margin:0 0 6px}code{font-size:13px}
.range{border:1px solid #ccc;border-radius:6px;padding:12px 16px;margin:16px 0}
.range.deleting{border-color:#c77;background:#fff8f8}
.fam{color:#666;font-size:12px}.status{font-size:12px;padding:1px 6px;border-radius:8px;background:#e3f2e5}
.s-Terminating{background:#f6d5d5}.s-NotReady{background:#fbe7c6}
.maps{display:flex;flex-wrap:wrap;gap:24px;margin:10px 0}figure{margin:0}figcaption{font-size:12px;color:#555}
.legend span{display:inline-block;margin-right:14px}.sw{display:inline-block;width:10px;height:10px;margin-right:4px;vertical-align:middle}
table{border-collapse:collapse;font-size:12px}td,th{padding:1px 10px 1px 0;text-align:left}
.bitmap.disagree{color:#a00}.bitmap.none{color:#666}.overview td{padding-right:16px}`;

const legend =
  `<p class="legend"><span><i class="sw" style="background:#333"></i>reserved (network, IPv4 broadcast)</span>` +
  `<span><i class="sw" style="background:#dbe7f5;outline:1px solid #6a8fc7"></i>free, static band</span>` +
  `<span><i class="sw" style="background:#eee"></i>free, dynamic band</span>` +
  `<span><i class="sw" style="background:hsl(200,62%,42%)"></i>allocated (colour per Service; blocks shaded by use)</span>` +
  `<span><i class="sw" style="background:#e08a00"></i>IPAddress without its Service</span>` +
  `<span><i class="sw" style="outline:2px solid #d00"></i>bitmap and IPAddress disagree</span></p>`;

function linksHTML(o: UsageHTMLOptions): string {
  const links = o.links ?? [];
  if (links.length === 0) return "";
  return `<p class="links">See also: ${links.map((l) => `<a href="${esc(l.href)}">${esc(l.text)}</a>`).join(", ")}</p>`;
}

/** renderUsageHTML: the whole page for `usage`, as one self-contained HTML document. */
export function renderUsageHTML(usage: readonly RangeUsage[], o: UsageHTMLOptions): string {
  const when = (o.generatedAt ?? new Date()).toISOString();
  const overview = usage
    .map(
      (u) =>
        `<tr><td>${esc(u.serviceCIDR)}</td><td>${u.family}</td><td><code>${esc(u.cidr)}</code></td><td>${esc(status(u))}</td><td>${u.allocated}/${u.size}</td><td>${percent(u.allocated, u.size)}</td></tr>`,
    )
    .join("");
  return (
    `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>Service CIDR usage</title><style>${style}</style></head><body>` +
    `<h1>Service CIDR usage</h1><p class="meta">${esc(o.source)}, ${esc(when)}: ${usage.length} range${usage.length === 1 ? "" : "s"}. ` +
    `Static band: the lower part of each range (KEP-3070: min(max(16, size/16), 256) addresses) that dynamic allocation uses last.</p>` +
    linksHTML(o) +
    legend +
    `<table class="overview"><thead><tr><th>ServiceCIDR</th><th>Family</th><th>CIDR</th><th>Status</th><th>Allocated</th><th>Used</th></tr></thead><tbody>${overview}</tbody></table>` +
    usage.map((u) => rangeHTML(u, o)).join("\n") +
    `</body></html>\n`
  );
}
