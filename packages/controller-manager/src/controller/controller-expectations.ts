/**
 * `ControllerExpectations` and `UIDTrackingControllerExpectations` (pkg/controller/controller_utils.go):
 * how many creations and deletions a controller still waits to see in its informer before it trusts
 * the cache again, so a second sync does not create or delete the same Pods twice.
 */
import { realClock, type Clock } from "@servicenet/component-base/clock";

/** `ExpectationsTimeout`: expectations older than this are treated as fulfilled (a watch event was lost). */
export const expectationsTimeoutMs = 5 * 60_000;

interface ControlleeExpectations {
  add: number;
  del: number;
  timestamp: number;
}

export class ControllerExpectations {
  readonly #store = new Map<string, ControlleeExpectations>();
  readonly #clock: Clock;

  constructor(clock: Clock = realClock) {
    this.#clock = clock;
  }

  /** `GetExpectations`: the outstanding adds and dels of `key`, or undefined. */
  get(key: string): { add: number; del: number } | undefined {
    const e = this.#store.get(key);
    return e === undefined ? undefined : { add: e.add, del: e.del };
  }

  /**
   * `SatisfiedExpectations`: true when `key` has none (a new controller), when they are fulfilled
   * (adds and dels both at or below 0), or when they expired.
   */
  satisfied(key: string): boolean {
    const e = this.#store.get(key);
    if (e === undefined) return true;
    if (e.add <= 0 && e.del <= 0) return true;
    return this.#clock.now() - e.timestamp > expectationsTimeoutMs;
  }

  /** `SetExpectations`: replaces `key`'s expectations, stamped now. */
  set(key: string, add: number, del: number): void {
    this.#store.set(key, { add, del, timestamp: this.#clock.now() });
  }

  /** `ExpectCreations`. */
  expectCreations(key: string, adds: number): void {
    this.set(key, adds, 0);
  }

  /** `ExpectDeletions`. */
  expectDeletions(key: string, dels: number): void {
    this.set(key, 0, dels);
  }

  /** `LowerExpectations`: no-op without expectations. */
  lower(key: string, add: number, del: number): void {
    const e = this.#store.get(key);
    if (e === undefined) return;
    e.add -= add;
    e.del -= del;
  }

  /** `RaiseExpectations`. */
  raise(key: string, add: number, del: number): void {
    this.lower(key, -add, -del);
  }

  /** `CreationObserved`: one expected creation seen (or one that failed). */
  creationObserved(key: string): void {
    this.lower(key, 1, 0);
  }

  /** `DeletionObserved`. */
  deletionObserved(key: string): void {
    this.lower(key, 0, 1);
  }

  /** `DeleteExpectations`: the controller is gone. */
  delete(key: string): void {
    this.#store.delete(key);
  }
}

/**
 * `UIDTrackingControllerExpectations`: deletions are tracked by the deleted Pods' keys, so a Pod
 * deleted twice (a graceful delete, then its final one) is counted once.
 */
export class UIDTrackingControllerExpectations extends ControllerExpectations {
  readonly #uids = new Map<string, Set<string>>();

  /** `ExpectDeletions(rcKey, deletedKeys)`: also remembers which Pods. */
  expectDeletionsOf(key: string, deletedKeys: readonly string[]): void {
    this.#uids.set(key, new Set(deletedKeys));
    this.expectDeletions(key, deletedKeys.length);
  }

  /** `DeletionObserved(rcKey, deleteKey)`: lowers only for a Pod that was expected, once. */
  deletionObservedOf(key: string, deleteKey: string): void {
    const uids = this.#uids.get(key);
    if (uids?.has(deleteKey) !== true) return;
    this.deletionObserved(key);
    uids.delete(deleteKey);
  }

  /** `DeleteExpectations`: the counts and the tracked keys. */
  override delete(key: string): void {
    super.delete(key);
    this.#uids.delete(key);
  }
}
