/**
 * `endpoints.RepackSubsets` and `SortSubsets` (pkg/api/v1/endpoints/util.go):
 * one subset per distinct address set, each carrying every port those
 * addresses offer.
 */
import type { EndpointAddress, EndpointPort, EndpointSubset } from "./endpoints.ts";

const noPortSentinel = "<none>";

function addrKey(a: EndpointAddress): string {
  return `${a.ip}\u0000${a.targetRef?.uid ?? ""}`;
}

function portKey(p: EndpointPort): string {
  return JSON.stringify([p.name ?? "", p.port, p.protocol ?? "", p.appProtocol ?? ""]);
}

/** Byte order of the IP string, then targetRef UID (`LessEndpointAddress`). */
export function compareEndpointAddresses(a: EndpointAddress, b: EndpointAddress): number {
  if (a.ip !== b.ip) return a.ip < b.ip ? -1 : 1;
  const ua = a.targetRef?.uid;
  const ub = b.targetRef?.uid;
  if (ub === undefined) return ua === undefined ? 0 : 1;
  if (ua === undefined) return -1;
  return ua < ub ? -1 : ua > ub ? 1 : 0;
}

// Upstream orders ports and subsets by an FNV hash of the Go struct dump; we
// use a plain deterministic order instead (name, port, protocol).
function comparePorts(a: EndpointPort, b: EndpointPort): number {
  const ka = portKey(a);
  const kb = portKey(b);
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

function subsetSortKey(s: EndpointSubset): string {
  const first = s.addresses?.[0] ?? s.notReadyAddresses?.[0];
  return `${first?.ip ?? ""}\u0000${(s.ports ?? []).map(portKey).join(",")}`;
}

/** Regroups single-address subsets into the canonical N-to-M form and sorts it. */
export function repackSubsets(subsets: readonly EndpointSubset[]): EndpointSubset[] {
  const addrs = new Map<string, EndpointAddress>();
  // port key -> (address key -> ready)
  const byPort = new Map<string, { port: EndpointPort | null; ready: Map<string, boolean> }>();
  for (const s of subsets) {
    const ports: (EndpointPort | null)[] = s.ports !== undefined && s.ports.length > 0 ? s.ports : [null];
    for (const port of ports) {
      const pk = port === null ? noPortSentinel : portKey(port);
      // As upstream's mapAddressByPort, a port enters the map only with an address: a subset
      // without addresses packs to nothing.
      if ((s.addresses ?? []).length + (s.notReadyAddresses ?? []).length === 0) continue;
      const entry = byPort.get(pk) ?? { port, ready: new Map<string, boolean>() };
      byPort.set(pk, entry);
      for (const a of s.addresses ?? []) {
        const k = addrKey(a);
        if (!addrs.has(k)) addrs.set(k, a);
        entry.ready.set(k, true);
      }
      for (const a of s.notReadyAddresses ?? []) {
        const k = addrKey(a);
        if (!addrs.has(k)) addrs.set(k, a);
        // A ready address stays ready even if also listed as not ready.
        if (!entry.ready.has(k)) entry.ready.set(k, false);
      }
    }
  }
  // address-set key -> ports offered by exactly that set
  const bySet = new Map<string, { ready: Map<string, boolean>; ports: EndpointPort[] }>();
  for (const { port, ready } of byPort.values()) {
    const setKey = [...ready.entries()]
      .map(([k, r]) => `${k}=${r}`)
      .sort()
      .join("|");
    const entry = bySet.get(setKey) ?? { ready, ports: [] };
    bySet.set(setKey, entry);
    if (port !== null) entry.ports.push(port);
  }
  const out: EndpointSubset[] = [];
  for (const { ready, ports } of bySet.values()) {
    const ra: EndpointAddress[] = [];
    const na: EndpointAddress[] = [];
    for (const [k, r] of ready) (r ? ra : na).push(addrs.get(k)!);
    const subset: EndpointSubset = {};
    if (ra.length > 0) subset.addresses = ra.sort(compareEndpointAddresses);
    if (na.length > 0) subset.notReadyAddresses = na.sort(compareEndpointAddresses);
    if (ports.length > 0) subset.ports = ports.sort(comparePorts);
    out.push(subset);
  }
  return out.sort((a, b) => (subsetSortKey(a) < subsetSortKey(b) ? -1 : subsetSortKey(a) > subsetSortKey(b) ? 1 : 0));
}
