/**
 * The apiserver's Service-IP PostStartHooks: `start-kubernetes-service-cidr-controller` (the
 * default ServiceCIDR from the flags, IPAddress modes only) and
 * `start-service-ip-repair-controllers` (the legacy bitmap Repair, or RepairIPAddress with the
 * MultiCIDRServiceAllocator gate; the NodePort repair in every mode). `start` resolves once every
 * hook finished its first pass: that gates /readyz, and after one minute without it the start
 * fails with upstream's `unable to perform initial IP and Port allocation check`.
 */
import { formatCIDR, formatIP, addressAt, type Service } from "@servicenet/api";
import type { ServiceAllocators } from "../../registry/core/rest/service-ip-allocators.ts";
import { Repair, ipRepairComponent } from "../../registry/core/service/ipallocator/controller/repair.ts";
import { RepairIPAddress } from "../../registry/core/service/ipallocator/controller/repairip.ts";
import { storeIPAddressClient } from "../../registry/core/service/ipallocator/ipaddress-client.ts";
import { clusterIPRepairMetrics } from "../../registry/core/service/ipallocator/metrics.ts";
import type { StoredRange } from "../../registry/core/service/ipallocator/stored-range.ts";
import { nodePortRepairMetrics } from "../../registry/core/service/portallocator/controller/metrics.ts";
import { PortRepair, portRepairComponent } from "../../registry/core/service/portallocator/controller/repair.ts";
import type { StoredPortAllocator } from "../../registry/core/service/portallocator/stored-port-allocator.ts";
import { objectKey, resourcePrefix, type Store } from "../../storage/index.ts";
import { storeEventSink } from "../../util/events/store-sink.ts";
import { StoreInformer } from "../../util/informer/store-informer.ts";
import type { MetricsRegistry } from "@servicenet/component-base/metrics";
import { noopLogger, V, type Logger } from "@servicenet/component-base/logs";
import { newEventRecorder } from "@servicenet/client/tools/events";
import { EventBroadcaster } from "@servicenet/client/tools/record";
import { DefaultServiceCIDRController, defaultServiceCIDRControllerName, newServiceCIDRStore } from "./defaultservicecidr/index.ts";

export interface ServiceIPControllersOptions {
  store: Store;
  allocators: ServiceAllocators;
  metrics: MetricsRegistry;
  /** Repair period (upstream 3 min). */
  repairIntervalMs?: number;
  /** How long the first passes may take before the start fails (upstream 1 min). */
  firstPassTimeoutMs?: number;
  /** Where the hooks and their event broadcaster log (the loops' own lines are V(2)). */
  logger?: Logger;
}

/** The running hooks; `stop` ends them. */
export interface ServiceIPControllers {
  stop(): void;
}

const firstPassError = "unable to perform initial IP and Port allocation check";

/** Starts the hooks; resolves after their first successful passes. */
export async function startServiceIPControllers(o: ServiceIPControllersOptions): Promise<ServiceIPControllers> {
  const abort = new AbortController();
  const sa = o.allocators;
  const listServices = async (): Promise<Service[]> => (await o.store.list(resourcePrefix("services/specs"))).items as unknown as Service[];
  const interval = o.repairIntervalMs ?? 3 * 60_000;
  // One broadcaster writing to storage for every hook's recorder (upstream's events.NewBroadcaster
  // with the loopback client's EventSinkImpl in each controller).
  const broadcaster = new EventBroadcaster({ logger: o.logger ?? noopLogger });
  broadcaster.startRecordingToSink(storeEventSink(o.store));
  const stops: (() => void)[] = [() => abort.abort(), () => broadcaster.shutdown()];
  try {
    if (sa.mode !== "bitmap") await startDefaultServiceCIDR(o, broadcaster, abort.signal);
    const firsts: Promise<void>[] = [];
    const first = (run: (onFirst: () => void) => Promise<void>, name: string): void => {
      firsts.push(
        new Promise<void>((resolve, reject) => {
          run(resolve).then(
            () => reject(new Error(`${name} stopped before its first pass`)),
            (e: unknown) => reject(e instanceof Error ? e : new Error(String(e))),
          );
        }),
      );
    };
    if (sa.mode !== "ipaddress") {
      // bitmap: the legacy repair. dual-write: the same loop, quiet, only to free the bits of
      // allocations that never became Services (see Repair's `quiet`).
      const [primary, secondary] = [sa.ranges.primary, sa.ranges.secondary];
      const quiet = sa.mode === "dual-write";
      const legacy = new Repair({
        listServices,
        network: primary,
        alloc: sa.bitmaps.get(primary.family) as StoredRange,
        secondaryNetwork: secondary,
        secondaryAlloc: secondary ? (sa.bitmaps.get(secondary.family) as StoredRange) : null,
        recorder: newEventRecorder(broadcaster, ipRepairComponent),
        intervalMs: interval,
        ...(quiet ? { quiet } : { metrics: clusterIPRepairMetrics(o.metrics) }),
        ...(o.logger ? { logger: o.logger } : {}),
      });
      first((done) => legacy.runUntil(done, abort.signal), "the ClusterIP repair");
    }
    if (sa.mode !== "bitmap") {
      const services = new StoreInformer(o.store, "services/specs");
      services.start();
      stops.push(() => services.stop());
      const repair = new RepairIPAddress({
        services,
        serviceCIDRs: sa.serviceCIDRs!,
        ipAddresses: sa.ipAddresses!,
        client: storeIPAddressClient(o.store),
        recorder: newEventRecorder(broadcaster, ipRepairComponent),
        intervalMs: interval,
        metrics: clusterIPRepairMetrics(o.metrics),
        waitForDefaultServiceCIDR: true,
        getService: (ns, name) => o.store.get(objectKey("services/specs", ns, name), { ignoreNotFound: true }),
        ...(o.logger ? { logger: o.logger } : {}),
      });
      first((done) => repair.runUntil(done, abort.signal), "the IPAddress repair");
    }
    const ports = new PortRepair({
      listServices,
      portRange: (sa.ports as StoredPortAllocator).portRange,
      alloc: sa.ports as StoredPortAllocator,
      recorder: newEventRecorder(broadcaster, portRepairComponent),
      intervalMs: interval,
      metrics: nodePortRepairMetrics(o.metrics),
      ...(o.logger ? { logger: o.logger } : {}),
    });
    first((done) => ports.runUntil(done, abort.signal), "the NodePort repair");
    await withTimeout(Promise.all(firsts), o.firstPassTimeoutMs ?? 60_000);
  } catch (e) {
    for (const s of stops) s();
    throw new Error(`${firstPassError}: ${(e as Error).message}`, { cause: e });
  }
  return { stop: () => stops.forEach((s) => s()) };
}

/** The default ServiceCIDR exists and this apiserver's allocators see it (so kubernetes.default can get its IP). */
async function startDefaultServiceCIDR(o: ServiceIPControllersOptions, broadcaster: EventBroadcaster, signal: AbortSignal): Promise<void> {
  const sa = o.allocators;
  const cidrs = [sa.ranges.primary, sa.ranges.secondary].filter((c) => c !== null).map((c) => formatCIDR(c));
  const ctrl = new DefaultServiceCIDRController({
    cidrs,
    serviceCIDRs: newServiceCIDRStore(o.store),
    informer: sa.serviceCIDRs!,
    recorder: newEventRecorder(broadcaster, defaultServiceCIDRControllerName),
    ...(o.logger ? { logger: o.logger } : {}),
  });
  await ctrl.start(signal);
  // The first IP of the primary flag range is kubernetes.default's; the informer may lag the create
  // (2 s at most: after a family change no ServiceCIDR ever holds it, and the Service loop retries).
  const meta = sa.metas.get(sa.ranges.primary.family)!;
  const first = addressAt(sa.ranges.primary, 1n);
  for (let i = 0; i < 200 && !meta.allocatorFor(first, true) && !signal.aborted; i++) await new Promise((r) => setTimeout(r, 10));
  if (!meta.allocatorFor(first, true))
    V(o.logger ?? noopLogger, 2).info(`no ServiceCIDR holds ${formatIP(first)} yet: kubernetes.default will wait for one`);
}

async function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const t = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`not done after ${ms} ms`)), ms)));
  try {
    return await Promise.race([p, t]);
  } finally {
    clearTimeout(timer);
  }
}
