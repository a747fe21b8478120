/**
 * The NodePort allocator contract and errors (upstream
 * pkg/registry/core/service/portallocator/allocator.go), with upstream's texts.
 */

/** Manages the allocation of ports out of a range. Mutations are async like the IP allocators'. */
export interface PortAllocatorInterface {
  /** Reserves `port`. Throws ErrPortNotInRange or ErrPortAllocated. */
  allocate(port: number): Promise<void>;
  /** Reserves some free port. Throws ErrPortRangeFull. */
  allocateNext(): Promise<number>;
  /**
   * Reserves `n` free ports in one operation, all or none: throws ErrPortRangeFull (taking
   * nothing) when fewer than `n` are free. No upstream counterpart; see PortAllocationOperation.reserveNext.
   */
  allocateNextN(n: number): Promise<number[]>;
  /** Frees `port`; free or out-of-range ports are a no-op. */
  release(port: number): Promise<void>;
  /** Calls `fn` for every allocated port. */
  forEach(fn: (port: number) => void): void;
  /** True if `port` is allocated. */
  has(port: number): boolean;
  /** Number of free ports. */
  free(): number;
  /** Number of allocated ports. */
  used(): number;
  destroy(): void;
}

/** `range is full` (the port allocator's own sentinel). */
export class ErrPortRangeFull extends Error {
  constructor() {
    super("range is full");
    this.name = "ErrPortRangeFull";
  }
}

/** `provided port is already allocated` */
export class ErrPortAllocated extends Error {
  constructor() {
    super("provided port is already allocated");
    this.name = "ErrPortAllocated";
  }
}

/** `the provided port range does not match the current port range` */
export class ErrMismatchedPortRange extends Error {
  constructor() {
    super("the provided port range does not match the current port range");
    this.name = "ErrMismatchedPortRange";
  }
}

/** `provided port is not in the valid range. The range of valid ports is 30000-32767` */
export class ErrPortNotInRange extends Error {
  readonly validPorts: string;

  constructor(validPorts: string) {
    super(`provided port is not in the valid range. The range of valid ports is ${validPorts}`);
    this.name = "ErrPortNotInRange";
    this.validPorts = validPorts;
  }
}
