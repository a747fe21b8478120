/**
 * The Service allocators of one apiserver, per allocator mode (upstream
 * pkg/registry/core/rest/storage_core.go newServiceIPAllocators):
 * - `bitmap`: one bitmap Range per flag CIDR (legacy);
 * - `dual-write`: one MetaAllocator per family over the ServiceCIDRs, writing the flag CIDR's
 *   bitmap too;
 * - `ipaddress`: the MetaAllocators alone; the 20-host-bit flag limit no longer applies.
 * The families a cluster serves are always those of `--service-cluster-ip-range`, as upstream:
 * a ServiceCIDR of another family adds no family.
 */
import type { CIDR, IPFamily } from "@servicenet/api";
import { allocatorMode, type AllocatorMode, type FeatureGates } from "../../../features/kube-features.ts";
import type { Store } from "../../../storage/index.ts";
import { StoreInformer } from "../../../util/informer/store-informer.ts";
import { noopLogger, type Logger } from "@servicenet/component-base/logs";
import type { MetricsRegistry } from "@servicenet/component-base/metrics";
import type { RandomSource } from "../service/allocator/interfaces.ts";
import { StoredRange } from "../service/ipallocator/stored-range.ts";
import { StoredPortAllocator } from "../service/portallocator/stored-port-allocator.ts";
import { secondaryServiceIPsKey, serviceIPsKey } from "../service/allocator/storage/keys.ts";
import { MetaAllocator } from "../service/ipallocator/cidrallocator.ts";
import type { BitmapAllocator } from "../service/ipallocator/dual-write.ts";
import type { IPAllocator } from "../service/ipallocator/interfaces.ts";
import { ipAddressStoragePath, storeIPAddressClient } from "../service/ipallocator/ipaddress-client.ts";
import { clusterIPAllocatorMetrics } from "../service/ipallocator/metrics.ts";
import type { PortAllocatorInterface } from "../service/portallocator/interfaces.ts";
import { defaultNodePortRange, parsePortRange } from "../service/portallocator/port-range.ts";
import { Allocators } from "../service/storage/alloc.ts";
import { parseServiceClusterIPRanges, type ServiceClusterIPRanges } from "../service/storage/from-flags.ts";

/** Builds the persisted legacy bitmap of a flag CIDR (`key` = /registry/ranges/serviceips or the secondary). */
export type BitmapFactory = (cidr: CIDR, key: string, primary: boolean) => Promise<BitmapAllocator & { persisted?: boolean }>;
/** Builds the NodePort allocator. */
export type PortAllocatorFactory = (range: ReturnType<typeof parsePortRange>) => Promise<PortAllocatorInterface & { persisted?: boolean }>;

export interface ServiceAllocatorsConfig {
  store: Store;
  /** `--service-cluster-ip-range`, primary first. */
  serviceClusterIPRange: string;
  /** `--service-node-port-range`; default 30000-32767. */
  serviceNodePortRange?: string;
  featureGates: FeatureGates;
  metrics?: MetricsRegistry;
  /** The allocators' and informers' logger (restore skips, clean-up failures, list/watch errors). */
  logger?: Logger;
  random?: RandomSource;
  /** The legacy bitmaps; default: persisted RangeAllocations (StoredRange). */
  bitmapFactory?: BitmapFactory;
  /** The NodePort allocator; default: the persisted RangeAllocation (StoredPortAllocator). */
  portAllocatorFactory?: PortAllocatorFactory;
}

/** What newServiceAllocators built; `stop` ends the informers. */
export interface ServiceAllocators {
  mode: AllocatorMode;
  ranges: ServiceClusterIPRanges;
  allocators: Allocators;
  /** The ServiceCIDR and IPAddress caches (IPAddress modes only). */
  serviceCIDRs?: StoreInformer;
  ipAddresses?: StoreInformer;
  metas: ReadonlyMap<IPFamily, MetaAllocator>;
  bitmaps: ReadonlyMap<IPFamily, BitmapAllocator>;
  /** The NodePort allocator (persisted by default). */
  ports: PortAllocatorInterface;
  stop(): void;
}

/** Flag errors of `--service-cluster-ip-range` for this mode, joined; throws them (the apiserver exits). */
export function serviceClusterIPRangesFor(value: string, mode: AllocatorMode): ServiceClusterIPRanges {
  const r = parseServiceClusterIPRanges(value, mode !== "ipaddress");
  if ("errors" in r) throw new Error(r.errors.join("; "));
  return r;
}

/** Builds and (for the IPAddress modes) starts the allocators; resolves once their caches are synced. */
export async function newServiceAllocators(cfg: ServiceAllocatorsConfig): Promise<ServiceAllocators> {
  const mode = allocatorMode(cfg.featureGates);
  const ranges = serviceClusterIPRangesFor(cfg.serviceClusterIPRange, mode);
  const flagCIDRs = [ranges.primary, ranges.secondary].filter((c): c is CIDR => c !== null);
  const metrics = cfg.metrics ? clusterIPAllocatorMetrics(cfg.metrics) : undefined;
  const logger = cfg.logger ?? noopLogger;
  const bitmapFactory: BitmapFactory =
    cfg.bitmapFactory ??
    (async (cidr, key) => {
      const r = Object.assign(
        new StoredRange({
          cidr,
          store: cfg.store,
          key,
          logger,
          ...(cfg.random ? { random: cfg.random } : {}),
          ...(metrics ? { metrics } : {}),
        }),
        { persisted: true },
      );
      // Dual-write on a new cluster: nobody runs the legacy repair that would create the bitmap.
      if (mode === "dual-write") await r.ensureInitialized();
      return r;
    });
  const bitmaps = new Map<IPFamily, BitmapAllocator & { persisted?: boolean }>();
  if (mode !== "ipaddress") {
    for (const [i, c] of flagCIDRs.entries())
      bitmaps.set(c.family, await bitmapFactory(c, i === 0 ? serviceIPsKey : secondaryServiceIPsKey, i === 0));
  }
  const byFamily = new Map<IPFamily, IPAllocator>();
  const metas = new Map<IPFamily, MetaAllocator>();
  let serviceCIDRs: StoreInformer | undefined;
  let ipAddresses: StoreInformer | undefined;
  if (mode === "bitmap") {
    for (const [f, b] of bitmaps) byFamily.set(f, b);
  } else {
    const informer = cfg.logger ? { logger: cfg.logger } : {};
    serviceCIDRs = new StoreInformer(cfg.store, "servicecidrs", informer);
    ipAddresses = new StoreInformer(cfg.store, ipAddressStoragePath, informer);
    const client = storeIPAddressClient(cfg.store);
    for (const c of flagCIDRs) {
      const bitmap = bitmaps.get(c.family);
      const meta = new MetaAllocator({
        family: c.family,
        client,
        serviceCIDRs,
        ipAddresses,
        flagCIDR: c,
        logger,
        ...(bitmap ? { bitmap } : {}),
        ...(metrics ? { metrics } : {}),
      });
      metas.set(c.family, meta);
      byFamily.set(c.family, meta);
    }
    serviceCIDRs.start();
    ipAddresses.start();
    await Promise.all([serviceCIDRs.waitForSync(), ipAddresses.waitForSync()]);
  }
  const portRange = cfg.serviceNodePortRange ? parsePortRange(cfg.serviceNodePortRange) : defaultNodePortRange;
  const ports = cfg.portAllocatorFactory
    ? await cfg.portAllocatorFactory(portRange)
    : Object.assign(new StoredPortAllocator({ portRange, store: cfg.store, logger, ...(cfg.random ? { random: cfg.random } : {}) }), {
        persisted: true,
      });
  const inMemoryIPs = mode === "bitmap" && [...bitmaps.values()].some((b) => !b.persisted);
  const allocators = new Allocators({
    serviceIPAllocatorsByFamily: byFamily,
    defaultServiceIPFamily: ranges.primary.family,
    serviceNodePorts: ports,
    logger,
    restoreFromServices: { clusterIPs: inMemoryIPs, nodePorts: !(ports as { persisted?: boolean }).persisted },
  });
  return {
    mode,
    ranges,
    allocators,
    ...(serviceCIDRs ? { serviceCIDRs } : {}),
    ...(ipAddresses ? { ipAddresses } : {}),
    metas,
    bitmaps,
    ports,
    stop: () => {
      serviceCIDRs?.stop();
      ipAddresses?.stop();
    },
  };
}
