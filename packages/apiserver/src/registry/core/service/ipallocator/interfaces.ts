/**
 * The ClusterIP allocator contract (upstream
 * pkg/registry/core/service/ipallocator/interfaces.go) and its typed errors,
 * with upstream's messages so clients that parse them keep working.
 *
 * Mutating calls are async: the bitmap answers at once, but allocators that
 * persist (RangeAllocation read-modify-write, IPAddress objects) talk to the
 * store, and the registry must treat every allocator alike.
 */
import { formatIP, type CIDR, type IP, type IPFamily } from "@servicenet/api";

/** The Service an allocation is for (the IPAddress parentRef). */
export interface ServiceRef {
  namespace: string;
  name: string;
}

/** Manages the allocation of IP addresses out of one range. */
export interface IPAllocator {
  /** Reserves `ip`. Throws ErrNotInRange, ErrAllocated (or ErrNotReady for store-backed allocators). */
  allocate(ip: IP): Promise<void>;
  /** Reserves some free IP. Throws ErrFull when none is left. */
  allocateNext(): Promise<IP>;
  /** Frees `ip`; an unallocated or out-of-range IP is a no-op. */
  release(ip: IP): Promise<void>;
  /** Calls `fn` for every allocated IP. */
  forEach(fn: (ip: IP) => void): void;
  /** The range this allocator covers. */
  cidr(): CIDR;
  /** The family of the range. */
  ipFamily(): IPFamily;
  /** True if `ip` is allocated (allocate(ip) would throw ErrAllocated). */
  has(ip: IP): boolean;
  /** Number of free addresses. */
  free(): number;
  /** Number of allocated addresses. */
  used(): number;
  /** A view whose operations check but never persist (upstream `DryRun()`). */
  dryRun(): IPAllocator;
  /** Stops background work, if any. */
  destroy(): void;
  /**
   * `AllocateService`: like allocate, recording `svc` as the owner. Allocators that persist an
   * owner (IPAddress objects) implement it; the registry prefers it over `allocate`.
   */
  allocateService?(svc: ServiceRef, ip: IP): Promise<void>;
  /** `AllocateNextService`: like allocateNext, recording `svc` as the owner. */
  allocateNextService?(svc: ServiceRef): Promise<IP>;
}

/** `range is full` */
export class ErrFull extends Error {
  constructor() {
    super("range is full");
    this.name = "ErrFull";
  }
}

/** `provided IP is already allocated` */
export class ErrAllocated extends Error {
  constructor() {
    super("provided IP is already allocated");
    this.name = "ErrAllocated";
  }
}

/** `the provided network does not match the current range` */
export class ErrMismatchedNetwork extends Error {
  constructor() {
    super("the provided network does not match the current range");
    this.name = "ErrMismatchedNetwork";
  }
}

/** `allocator not ready` */
export class ErrNotReady extends Error {
  constructor() {
    super("allocator not ready");
    this.name = "ErrNotReady";
  }
}

/**
 * `the provided IP (10.1.0.1) is not in the valid range. The range of valid IPs is 10.0.0.0/16`.
 * This is the text of releases 1.20 to 1.3x, which tools such as vcluster parse to discover the
 * service range; the newest upstream shortened it to `provided IP <ip> is not in the valid range`.
 */
export class ErrNotInRange extends Error {
  readonly ip: IP;
  readonly validRange: string;

  constructor(ip: IP, validRange: string) {
    super(`the provided IP (${formatIP(ip)}) is not in the valid range. The range of valid IPs is ${validRange}`);
    this.name = "ErrNotInRange";
    this.ip = ip;
    this.validRange = validRange;
  }
}

/** The persisted form of a range allocator (upstream `api.RangeAllocation` minus metadata). */
export interface RangeAllocation {
  /** The CIDR (or port range) string the bitmap covers. */
  range: string;
  /** Base64 of the bitmap bytes (`big.Int.Bytes()`), as the `data` field is encoded in JSON. */
  data: string;
}
