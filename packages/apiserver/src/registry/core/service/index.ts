/** Service allocation core: bitmap allocators, NodePorts, IP-family defaulting and allocation transactions. */
export { AllocationBitmap, inMemoryBitmapFactory } from "./allocator/bitmap.ts";
export type { AllocatorWithOffsetFactory, BitmapSnapshot, OffsetAllocator, RandomSource, Snapshottable } from "./allocator/interfaces.ts";
export { mathRandom, seededRandom } from "./allocator/random.ts";

export { Range, calculateRangeOffset, usableRangeSize } from "./ipallocator/bitmap.ts";
export type { RangeOptions } from "./ipallocator/bitmap.ts";
export { ErrAllocated, ErrFull, ErrMismatchedNetwork, ErrNotInRange, ErrNotReady } from "./ipallocator/interfaces.ts";
export type { IPAllocator, RangeAllocation } from "./ipallocator/interfaces.ts";

export { PortAllocator, calculatePortRangeOffset } from "./portallocator/allocator.ts";
export type { PortAllocatorOptions } from "./portallocator/allocator.ts";
export { ErrMismatchedPortRange, ErrPortAllocated, ErrPortNotInRange, ErrPortRangeFull } from "./portallocator/interfaces.ts";
export type { PortAllocatorInterface } from "./portallocator/interfaces.ts";
export { PortAllocationOperation } from "./portallocator/operation.ts";
export { defaultNodePortRange, formatPortRange, parsePortRange, portRangeContains } from "./portallocator/port-range.ts";
export type { PortRange } from "./portallocator/port-range.ts";

export { Allocators } from "./storage/alloc.ts";
export type { AllocatorsOptions } from "./storage/alloc.ts";
export type { FamilyIPs } from "./storage/alloc-cluster-ips.ts";
export { initIPFamilyFields } from "./storage/ip-family-fields.ts";
export type { IPFamilyContext } from "./storage/ip-family-fields.ts";
export { defaultOnReadIPFamilies, defaultOnReadService, normalizeClusterIPs, patchAllocatedValues } from "./storage/normalize.ts";
export { MetaTransaction, callbackTransaction, metaTransaction } from "./storage/transaction.ts";
export type { Transaction, TransactionCallbacks } from "./storage/transaction.ts";
export { dropTypeDependentFields, trimFieldsForDualStackDowngrade } from "./strategy-fields.ts";
export { newAllocatorsFromFlags, parseServiceClusterIPRanges } from "./storage/from-flags.ts";
export type { AllocatorFlags, ServiceClusterIPRanges } from "./storage/from-flags.ts";

export { ServiceREST } from "./storage/rest.ts";
export type { ServiceRESTOptions } from "./storage/rest.ts";
export { restoreServiceAllocations } from "./storage/startup.ts";
export type { RestoreReport } from "./storage/startup.ts";
export { initServiceStorage, newServiceREST, serviceRESTOf, serviceStoragePath } from "./storage/startup-server.ts";

export {
  ErrRangeNotInitialized,
  rangeAllocationObject,
  secondaryServiceIPsKey,
  serviceIPAllocationsResource,
  serviceIPsKey,
  serviceNodePortAllocationsResource,
  serviceNodePortsKey,
  snapshotOf,
} from "./allocator/storage/keys.ts";
export type { RangeAllocationSnapshot, RangeRegistry } from "./allocator/storage/keys.ts";
export { StoredAllocator, StoredBitmap } from "./allocator/storage/storage.ts";
export type { StoredAllocatorOptions, StoredAllocatorStats } from "./allocator/storage/storage.ts";
export { StoredRange, dualWriteInitLogLine } from "./ipallocator/stored-range.ts";
export type { StoredRangeOptions } from "./ipallocator/stored-range.ts";
export { StoredPortAllocator } from "./portallocator/stored-port-allocator.ts";
export type { StoredPortAllocatorOptions } from "./portallocator/stored-port-allocator.ts";
export { Repair, ipRepairComponent } from "./ipallocator/controller/repair.ts";
export type { RepairOptions } from "./ipallocator/controller/repair.ts";
export { numRepairsBeforeLeakCleanup, repairLoopInterval } from "./ipallocator/controller/repair-loop.ts";
export { PortRepair, collectServiceNodePorts as collectRepairNodePorts, portRepairComponent } from "./portallocator/controller/repair.ts";
export type { PortRepairOptions } from "./portallocator/controller/repair.ts";
export { nodePortRepairMetrics } from "./portallocator/controller/metrics.ts";
export type { NodePortRepairMetrics } from "./portallocator/controller/metrics.ts";

export {
  RepairIPAddress,
  repairControllerName,
  repairLoopIntervalMs,
  repairMaxRetries,
  repairWorkers,
} from "./ipallocator/controller/repairip.ts";
export type { RepairIPAddressOptions, RepairInformer } from "./ipallocator/controller/repairip.ts";
export { orphanGracePeriodMs, recreateGracePeriodMs } from "./ipallocator/controller/repairip-sync.ts";
