/**
 * A NodePort allocation "transaction" (upstream portallocator/operation.go).
 * It is better to leak ports than to double-allocate them, so allocations
 * happen at once and releases are deferred to commit; finish() without a
 * commit rolls back whatever this operation allocated.
 */
import { ErrPortAllocated, type PortAllocatorInterface } from "./interfaces.ts";

/** Tracks the allocations and deferred releases of one request. */
export class PortAllocationOperation {
  readonly #pa: PortAllocatorInterface;
  readonly #dryRun: boolean;
  readonly allocated: number[] = [];
  readonly releaseDeferred: number[] = [];
  /** Ports taken by reserveNext that allocateNext has not handed out yet (also in `allocated`). */
  readonly #reserved: number[] = [];
  #shouldRollback = true;

  /** `StartOperation(pa, dryRun)`: with dryRun nothing is ever allocated or released. */
  constructor(pa: PortAllocatorInterface, dryRun: boolean) {
    this.#pa = pa;
    this.#dryRun = dryRun;
  }

  /** Rolls back unless commit() ran. Call on every exit path. */
  async finish(): Promise<void> {
    if (this.#shouldRollback) await this.rollback();
  }

  /** Best-effort release of everything this operation allocated; returns the errors. */
  async rollback(): Promise<Error[]> {
    if (this.#dryRun) return [];
    const errors: Error[] = [];
    for (const port of this.allocated) {
      try {
        await this.#pa.release(port);
      } catch (err) {
        errors.push(err as Error);
      }
    }
    return errors;
  }

  /**
   * Performs the deferred releases. Never rolls back, even on error: repair
   * fixes leaks, while a double allocation could not be fixed.
   */
  async commit(): Promise<Error[]> {
    if (this.#dryRun) return [];
    const errors: Error[] = [];
    // Reserved but never handed out: nothing refers to them.
    for (const port of this.#reserved.splice(0)) this.releaseDeferred.push(port);
    for (const port of this.releaseDeferred) {
      try {
        await this.#pa.release(port);
      } catch (err) {
        errors.push(err as Error);
      }
    }
    this.#shouldRollback = false;
    return errors;
  }

  /** Allocates `port` and records it for rollback. Dry-run only checks that it is free. */
  async allocate(port: number): Promise<void> {
    if (this.#dryRun) {
      if (this.#pa.has(port) || this.allocated.includes(port)) throw new ErrPortAllocated();
      this.allocated.push(port);
      return;
    }
    await this.#pa.allocate(port);
    this.allocated.push(port);
  }

  /**
   * Allocates some port and records it. Dry-run returns a dummy value one past
   * the largest port this operation holds (32769 first), exactly what upstream's
   * code ends up doing (its search loop `port < 100` never runs).
   */
  async allocateNext(): Promise<number> {
    const reserved = this.#reserved.shift();
    if (reserved !== undefined) return reserved;
    if (this.#dryRun) {
      const last = this.allocated.length === 0 ? 32768 : Math.max(...this.allocated);
      this.allocated.push(last + 1);
      return last + 1;
    }
    const port = await this.#pa.allocateNext();
    this.allocated.push(port);
    return port;
  }

  /**
   * Takes `n` ports at once, all or none, for the next `n` allocateNext calls (deviation: upstream
   * allocates them one by one). The stored allocator sends the operations that queue during a
   * write as one batch, so concurrent requests move in lockstep: taken one by one, near the end
   * of the range every request would hold its first port, fail on its second and roll back, and
   * none would succeed. Throws ErrPortRangeFull, holding nothing new, when fewer than `n` are
   * free. Dry-run reserves nothing (allocateNext then makes up its dummy values).
   */
  async reserveNext(n: number): Promise<void> {
    if (this.#dryRun || n <= 0) return;
    const ports = await this.#pa.allocateNextN(n);
    this.allocated.push(...ports);
    this.#reserved.push(...ports);
  }

  /** Marks `port` to be released when the operation commits. */
  releaseDeferredPort(port: number): void {
    this.releaseDeferred.push(port);
  }
}
