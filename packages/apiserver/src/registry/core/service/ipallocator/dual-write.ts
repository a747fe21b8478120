/**
 * Dual write (MultiCIDRServiceAllocator on, DisableAllocatorDualWrite off; upstream 1.31-1.34):
 * every IP of the flag CIDR is taken in the legacy bitmap AND as an IPAddress object, so an old
 * apiserver that only knows the bitmap and a new one can never hand out the same IP.
 *
 * Order (upstream after https://github.com/kubernetes/kubernetes/pull/129798, "check first on the old allocator and later confirm the write
 * in the new allocator"):
 * - dynamic, CIDR = the bitmap's: the bitmap picks the IP (so it stays inside the bitmap's window,
 *   https://github.com/kubernetes/kubernetes/issues/129797), then the IPAddress is created for it. An IPAddress that already exists means
 *   someone holds the IP without a bit: the bit is kept (it is now correct) and the next IP tried.
 * - dynamic, another CIDR: the IPAddress allocator picks; if the bitmap covers the IP (overlapping
 *   ServiceCIDRs), its bit is taken too, and on failure the IPAddress is deleted and another tried.
 * - static: bit first (an error writes nothing), then the IPAddress.
 * Deviation: when the IPAddress create fails after the bit was taken, the bit is released here;
 * upstream leaves it set, a leak no repair loop reclaims in that mode.
 */
import type { IP } from "@servicenet/api";
import { ErrAllocated, ErrFull, type IPAllocator, type ServiceRef } from "./interfaces.ts";
import type { IPAddressAllocator } from "./ipallocator.ts";

/** The legacy bitmap as the dual-write path needs it: an IPAllocator that can say what it covers. */
export interface BitmapAllocator extends IPAllocator {
  /** True if `ip` is one of the bitmap's usable addresses. */
  contains(ip: IP): boolean;
}

/** Attempts per CIDR to find an IP both stores agree is free before moving on. */
const maxConfirmAttempts = 16;

const sameCIDR = (a: IPAllocator, b: IPAllocator): boolean =>
  a.cidr().family === b.cidr().family && a.cidr().ip.value === b.cidr().ip.value && a.cidr().prefix === b.cidr().prefix;

/** Static dual-write allocation of `ip` from `allocator`. */
export async function dualWriteAllocateStatic(
  bitmap: BitmapAllocator,
  allocator: IPAddressAllocator,
  svc: ServiceRef,
  ip: IP,
): Promise<void> {
  const covered = bitmap.contains(ip);
  if (covered) await bitmap.allocate(ip);
  try {
    await allocator.allocateService(svc, ip);
  } catch (e) {
    if (covered) await bitmap.release(ip).catch(() => undefined);
    throw e;
  }
}

/** Dynamic dual-write allocation from `allocator`; throws ErrFull when it has nothing both stores agree on. */
export async function dualWriteAllocateNext(bitmap: BitmapAllocator, allocator: IPAddressAllocator, svc: ServiceRef): Promise<IP> {
  if (sameCIDR(bitmap, allocator)) return bitmapFirst(bitmap, allocator, svc);
  for (let i = 0; i < maxConfirmAttempts; i++) {
    const ip = await allocator.allocateNextService(svc);
    if (!bitmap.contains(ip)) return ip;
    try {
      await bitmap.allocate(ip);
      return ip;
    } catch (e) {
      await allocator.release(ip);
      if (!(e instanceof ErrAllocated)) throw e;
    }
  }
  throw new ErrFull();
}

async function bitmapFirst(bitmap: BitmapAllocator, allocator: IPAddressAllocator, svc: ServiceRef): Promise<IP> {
  // Each round takes one more bit, so the loop ends when the bitmap is full at the latest.
  for (;;) {
    const ip = await bitmap.allocateNext(); // ErrFull ends it
    try {
      await allocator.allocateService(svc, ip);
      return ip;
    } catch (e) {
      if (e instanceof ErrAllocated) continue; // held as an IPAddress without its bit: keep the bit
      await bitmap.release(ip).catch(() => undefined);
      throw e;
    }
  }
}
