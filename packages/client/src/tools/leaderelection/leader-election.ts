/**
 * Leader election through a coordination.k8s.io/v1 Lease, as client-go's
 * tools/leaderelection: acquire when the lease is free or expired, renew
 * every retryPeriod, give up when no renewal succeeded within renewDeadline,
 * release on stop. Writes carry the read resourceVersion, so two candidates
 * racing for an expired lease cannot both win (one gets 409 Conflict).
 */
import { realClock, sleep, type Clock } from "@servicenet/component-base/clock";
import { noopLogger, type Logger } from "@servicenet/component-base/logs";
import { describeError } from "../../errors/index.ts";

/** The Lease spec fields leader election uses (times in ms since the epoch). */
export interface LeaseRecord {
  holderIdentity: string;
  leaseDurationSeconds: number;
  acquireTime: number;
  renewTime: number;
  leaseTransitions: number;
}

/** A lease as read, with the resourceVersion to write against. */
export interface ObservedLease {
  record: LeaseRecord;
  resourceVersion: string;
}

/** Storage of one Lease object; update must fail (throw) on a stale resourceVersion. */
export interface LeaseClient {
  get(): Promise<ObservedLease | null>;
  create(record: LeaseRecord): Promise<ObservedLease>;
  update(record: LeaseRecord, resourceVersion: string): Promise<ObservedLease>;
}

export type LeaseDecision =
  | { readonly action: "create"; readonly record: LeaseRecord }
  | { readonly action: "update"; readonly record: LeaseRecord }
  | { readonly action: "wait" };

export interface LeaseDecisionInput {
  current: LeaseRecord | null;
  identity: string;
  now: number;
  leaseDurationSeconds: number;
  /** Local time at which `current` was first seen unchanged (client-go's observedTime; avoids trusting remote clocks). */
  observedAt: number;
}

/** The pure step of tryAcquireOrRenew: create, take over/renew, or wait. */
export function decideLease(input: LeaseDecisionInput): LeaseDecision {
  const { current, identity, now, leaseDurationSeconds } = input;
  const fresh: LeaseRecord = { holderIdentity: identity, leaseDurationSeconds, acquireTime: now, renewTime: now, leaseTransitions: 0 };
  if (current === null) return { action: "create", record: fresh };
  const isLeader = current.holderIdentity === identity;
  const expiresAt = input.observedAt + current.leaseDurationSeconds * 1000;
  if (!isLeader && current.holderIdentity !== "" && expiresAt > now) return { action: "wait" };
  if (isLeader) return { action: "update", record: { ...current, leaseDurationSeconds, renewTime: now } };
  return { action: "update", record: { ...fresh, leaseTransitions: current.leaseTransitions + 1 } };
}

/** The record written on release (`ReleaseOnCancel`): no holder, 1 s duration. */
export function releasedRecord(current: LeaseRecord, now: number): LeaseRecord {
  return { ...current, holderIdentity: "", leaseDurationSeconds: 1, acquireTime: now, renewTime: now };
}

function sameRecord(a: LeaseRecord, b: LeaseRecord): boolean {
  return (
    a.holderIdentity === b.holderIdentity &&
    a.leaseDurationSeconds === b.leaseDurationSeconds &&
    a.acquireTime === b.acquireTime &&
    a.renewTime === b.renewTime &&
    a.leaseTransitions === b.leaseTransitions
  );
}

export interface LeaderElectorOptions {
  client: LeaseClient;
  identity: string;
  clock?: Clock;
  logger?: Logger;
  leaseDurationSeconds?: number;
  renewDeadlineSeconds?: number;
  retryPeriodSeconds?: number;
  /** The election's name (upstream `LeaderElectionConfig.Name`), for {@link LeaderElector.check}'s error. */
  name?: string;
}

/** kube-controller-manager's defaults: 15 s lease, 10 s renew deadline, 2 s retry. */
export const defaultLeaderElection = { leaseDurationSeconds: 15, renewDeadlineSeconds: 10, retryPeriodSeconds: 2 } as const;
const jitterFactor = 1.2;

export class LeaderElector {
  readonly #o: Required<Omit<LeaderElectorOptions, "logger" | "clock" | "name">>;
  readonly #name: string;
  readonly #clock: Clock;
  readonly #log: Logger;
  #observed: ObservedLease | null = null;
  #observedAt = 0;

  constructor(options: LeaderElectorOptions) {
    this.#o = { ...defaultLeaderElection, ...options };
    this.#clock = options.clock ?? realClock;
    this.#log = options.logger ?? noopLogger;
    this.#name = options.name ?? "";
    const { leaseDurationSeconds: d, renewDeadlineSeconds: r, retryPeriodSeconds: p } = this.#o;
    if (d <= r) throw new Error("leaseDuration must be greater than renewDeadline");
    if (r <= jitterFactor * p) throw new Error("renewDeadline must be greater than retryPeriod*JitterFactor");
  }

  /** True if the last observed record names us. */
  get isLeader(): boolean {
    return this.#observed?.record.holderIdentity === this.#o.identity;
  }

  /**
   * upstream `LeaderElector.Check`: a leader that last saw its lease renewed longer ago than the
   * lease duration plus `maxTolerableExpiredLeaseMs` should have stepped down (a stuck renew loop):
   * it throws. A standby is healthy.
   */
  check(maxTolerableExpiredLeaseMs: number): void {
    if (!this.isLeader) return;
    if (this.#clock.now() - this.#observedAt > this.#o.leaseDurationSeconds * 1000 + maxTolerableExpiredLeaseMs)
      throw new Error(`failed election to renew leadership on lease ${this.#name}`);
  }

  /** One attempt; true if we hold the lease afterwards. Errors (incl. 409) count as false. */
  async tryAcquireOrRenew(): Promise<boolean> {
    const now = this.#clock.now();
    try {
      const got = await this.#o.client.get();
      if (got !== null && (this.#observed === null || !sameRecord(got.record, this.#observed.record))) {
        this.#observed = got;
        this.#observedAt = now;
      } else if (got !== null) this.#observed = got;
      // The Lease holds whole seconds, as client-go's int32(LeaseDuration / time.Second).
      const decision = decideLease({
        current: got?.record ?? null,
        identity: this.#o.identity,
        now,
        leaseDurationSeconds: Math.trunc(this.#o.leaseDurationSeconds),
        observedAt: this.#observedAt,
      });
      if (decision.action === "wait") return false;
      const written =
        decision.action === "create"
          ? await this.#o.client.create(decision.record)
          : await this.#o.client.update(decision.record, got!.resourceVersion);
      this.#observed = written;
      this.#observedAt = now;
      return true;
    } catch (err) {
      this.#log.info("error acquiring or renewing lease", { identity: this.#o.identity, err: describeError(err) });
      return false;
    }
  }

  /**
   * Blocks until leadership is acquired, runs `lead(signal)` and renews;
   * resolves with "lost" if renewal failed for renewDeadline, "stopped" if
   * `signal` aborted (after releasing the lease).
   */
  async run(signal: AbortSignal, lead: (leading: AbortSignal) => void): Promise<"lost" | "stopped"> {
    const p = this.#o.retryPeriodSeconds * 1000;
    while (!(await this.tryAcquireOrRenew())) {
      if (!(await sleep(this.#clock, p + Math.random() * jitterFactor * p, signal))) return "stopped";
    }
    this.#log.info("successfully acquired lease", { identity: this.#o.identity });
    const leading = new AbortController();
    lead(leading.signal);
    let lastRenew = this.#clock.now();
    for (;;) {
      if (!(await sleep(this.#clock, p, signal))) {
        leading.abort();
        await this.release();
        return "stopped";
      }
      if (await this.tryAcquireOrRenew()) lastRenew = this.#clock.now();
      else if (this.#clock.now() - lastRenew >= this.#o.renewDeadlineSeconds * 1000 || !this.#holderMaybeUs()) {
        this.#log.error("leaderelection lost", { identity: this.#o.identity });
        leading.abort();
        return "lost";
      }
    }
  }

  /** Gives the lease up if we hold it, so a successor need not wait for expiry. */
  async release(): Promise<boolean> {
    if (!this.isLeader || this.#observed === null) return false;
    try {
      this.#observed = await this.#o.client.update(
        releasedRecord(this.#observed.record, this.#clock.now()),
        this.#observed.resourceVersion,
      );
      this.#log.info("released lease", { identity: this.#o.identity });
      return true;
    } catch (err) {
      this.#log.error("failed to release lease", { err: describeError(err) });
      return false;
    }
  }

  // Someone else visibly took the lease: stop at once instead of waiting for the deadline.
  #holderMaybeUs(): boolean {
    return this.#observed === null || this.#observed.record.holderIdentity === this.#o.identity;
  }
}
