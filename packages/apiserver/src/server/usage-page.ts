/**
 * `/servicenet/usage` (a servicenet page, not upstream's): the HTML map of every Service range, as
 * `servicenet-kubectl usage servicecidr -o html` draws it (one renderer, @servicenet/printers/usage),
 * plus what only the apiserver can read: the legacy bitmaps (RangeAllocation objects, not served
 * over the API), compared with the IPAddress objects. `?name=` picks one ServiceCIDR.
 */
import { formatIP, StatusError, type IPAddress, type Service, type ServiceCIDR } from "@servicenet/api";
import { renderUsageHTML, serviceCIDRUsage } from "@servicenet/printers/usage";
import { secondaryServiceIPsKey, serviceIPsKey, snapshotOf } from "../registry/core/service/allocator/storage/keys.ts";
import { Range } from "../registry/core/service/ipallocator/bitmap.ts";
import { ipAddressStoragePath } from "../registry/core/service/ipallocator/ipaddress-client.ts";
import { resourcePrefix, type Store } from "../storage/index.ts";

export const usagePagePath = "/servicenet/usage";

/**
 * The per-node dataplane view runs kube-proxy's code (CategorizeEndpoints, the proxiers), which the
 * apiserver does not import: `kubectl servicenet serve` serves it, on this port by default.
 */
export const dataplaneLink = { href: "http://127.0.0.1:8002/", text: "the per-node dataplane view (run `kubectl servicenet serve`)" };

const noBitmap =
  "none for this range: only the --service-cluster-ip-range ranges have a bitmap (RangeAllocation), and none once DisableAllocatorDualWrite is on.";

/** The stored bitmaps: range -> allocated IPs, for the primary and secondary flag ranges that have one. */
export async function readBitmaps(store: Store): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (const key of [serviceIPsKey, secondaryServiceIPsKey]) {
    const obj = await store.get(key, { ignoreNotFound: true });
    if (obj === null) continue;
    const snap = snapshotOf(obj);
    if (snap.range === "") continue;
    const ips: string[] = [];
    Range.fromSnapshot(snap).forEach((ip) => ips.push(formatIP(ip)));
    out.set(snap.range, ips);
  }
  return out;
}

/** The page for `name` (every ServiceCIDR when empty); NotFound for an unknown name. */
export async function usagePage(store: Store, name: string, now = new Date()): Promise<string> {
  const list = async <T>(path: string): Promise<T[]> => (await store.list(resourcePrefix(path))).items as unknown as T[];
  const [cidrs, ips, services, bitmaps] = await Promise.all([
    list<ServiceCIDR>("servicecidrs"),
    list<IPAddress>(ipAddressStoragePath),
    list<Service>("services/specs"),
    readBitmaps(store),
  ]);
  if (name !== "" && !cidrs.some((c) => c.metadata?.name === name)) {
    throw StatusError.notFound({ group: "networking.k8s.io", resource: "servicecidrs" }, name);
  }
  const usage = serviceCIDRUsage(cidrs, ips, services, name === "" ? undefined : name, bitmaps);
  return renderUsageHTML(usage, {
    source: `servicenet apiserver ${usagePagePath}`,
    generatedAt: now,
    noBitmapReason: noBitmap,
    links: [dataplaneLink],
  });
}
