/**
 * The configuration digest of API Priority and Fairness (staging/src/k8s.io/apiserver/pkg/util/
 * flowcontrol/apf_controller.go): the FlowSchemas in matching order, each priority level with its
 * nominal concurrency limit (its share of the server's), its lending and borrowing bounds, its
 * current limit (re-derived by `updateBorrowing`), max seats per request and QueueSet.
 */
import { createHash } from "node:crypto";
import type { Clock } from "@servicenet/component-base/clock";
import {
  mandatoryFlowSchemas,
  mandatoryPriorityLevelConfigurations,
  setDefaultsFlowSchema,
  setDefaultsPriorityLevelConfiguration,
  type FlowSchema,
  type PriorityLevelConfiguration,
} from "@servicenet/api/flowcontrol/v1";
import { concurrencyBounds, updateBorrowing, type BorrowingLevel, type BorrowingResult } from "./apf-borrowing.ts";
import { Integrator } from "./fairqueuing/integrator.ts";
import { QueueSet } from "./fairqueuing/queueset/queueset.ts";
import type { DumpedRequest } from "./fairqueuing/queueset/types.ts";
import { compileFlowSchema, type FlowSchemaMatcher, type RequestDigest } from "./match.ts";
import { maximumSeatsLimit } from "./request/width.ts";

/** One priority level's running state. */
export interface PriorityLevelState extends BorrowingLevel {
  name: string;
  uid: string;
  exempt: boolean;
  /** Queues of a Queue level (0 for Reject and Exempt): flows are told apart only with more than one. */
  numQueues: number;
  /** The level's seats in use plus waiting, over time (seatDemandIntegrator). */
  seatDemand: Integrator;
  /** The widest a request of this level may be (maxSeatsTracker). */
  maxSeats: number;
  /** Limited levels only. */
  queueSet: QueueSet | undefined;
  /** Exempt levels: what executes (for the seat demand and the debug dump) and how many ran. */
  exemptExecuting: { requests: Set<DumpedRequest>; seats: number; dispatched: number };
}

/** The outcome of classification. */
export interface Classification {
  flowSchema: FlowSchema;
  priorityLevel: PriorityLevelState;
  flowDistinguisher: string;
  /** hashFlowID of the schema name and distinguisher. */
  flowHash: bigint;
}

/**
 * The digested configuration. `update` may be called with every config change; levels keep their
 * QueueSets (and waiting requests) across changes.
 */
export class APFConfig {
  readonly #serverCL: number;
  readonly #clock: Clock;
  #flowSchemas: FlowSchema[] = [];
  /** The FlowSchemas in matching order, compiled, with their level; the last one is catch-all. */
  #matchers: CompiledFlowSchema[] = [];
  /** hashFlowID results by schema, then distinguisher: a sha256 per request would dominate APF's cost. */
  readonly #flowHashes = new Map<string, Map<string, bigint>>();
  #catchAll: CompiledFlowSchema | undefined;
  readonly #levels = new Map<string, PriorityLevelState>();
  /** The sum of the nominal limits (rounding up may make it exceed the server's limit). */
  #nominalCLSum = 0;

  constructor(serverConcurrencyLimit: number, clock: Clock) {
    this.#serverCL = serverConcurrencyLimit;
    this.#clock = clock;
    this.update([], []);
  }

  get priorityLevels(): readonly PriorityLevelState[] {
    return [...this.#levels.values()];
  }

  get flowSchemas(): readonly FlowSchema[] {
    return this.#flowSchemas;
  }

  /** The level called `name`, if configured. */
  priorityLevel(name: string): PriorityLevelState | undefined {
    return this.#levels.get(name);
  }

  /**
   * updateBorrowing: re-derives every level's current limit from its seat demand since the last
   * adjustment (run every borrowingAdjustmentPeriod, and after each config change).
   */
  updateBorrowing(): BorrowingResult {
    return updateBorrowing([...this.#levels.values()], this.#nominalCLSum);
  }

  /**
   * digestConfigObjects: the mandatory objects are imagined when missing; FlowSchemas that name no
   * existing priority level are dangling and skipped; nominal limits are
   * ceil(serverCL x shares / sum of shares); the current limits are then re-derived at once.
   */
  update(flowSchemas: readonly FlowSchema[], priorityLevels: readonly PriorityLevelConfiguration[]): void {
    const pls = withMandatory(priorityLevels, mandatoryPriorityLevelConfigurations(), setDefaultsPriorityLevelConfiguration);
    const fss = withMandatory(flowSchemas, mandatoryFlowSchemas(), setDefaultsFlowSchema);
    const shares = (pl: PriorityLevelConfiguration): number =>
      (pl.spec?.type === "Exempt" ? pl.spec.exempt?.nominalConcurrencyShares : pl.spec?.limited?.nominalConcurrencyShares) ?? 0;
    const sumShares = pls.reduce((s, pl) => s + shares(pl), 0);
    const seen = new Set<string>();
    this.#nominalCLSum = 0;
    for (const pl of pls) {
      const name = pl.metadata.name ?? "";
      seen.add(name);
      const nominalCL = sumShares > 0 ? Math.ceil((this.#serverCL * shares(pl)) / sumShares) : 0;
      this.#nominalCLSum += nominalCL;
      this.#levels.set(name, this.#level(pl, nominalCL, this.#levels.get(name)));
    }
    for (const name of [...this.#levels.keys()]) if (!seen.has(name)) this.#levels.delete(name);
    this.updateBorrowing();
    this.#flowSchemas = fss
      .filter((fs) => this.#levels.has(fs.spec?.priorityLevelConfiguration.name ?? ""))
      .sort(
        (a, b) =>
          (a.spec?.matchingPrecedence ?? 0) - (b.spec?.matchingPrecedence ?? 0) || cmp(a.metadata.name ?? "", b.metadata.name ?? ""),
      );
    this.#matchers = this.#flowSchemas.map((fs) => ({
      fs,
      name: fs.metadata.name ?? "",
      level: this.#levels.get(fs.spec!.priorityLevelConfiguration.name)!,
      method: fs.spec?.distinguisherMethod?.type,
      matches: compileFlowSchema(fs),
    }));
    // The fallback when nothing matches (startRequest's catchAllFlowSchema).
    const catchAll = this.#matchers.find((m) => m.name === "catch-all")!;
    this.#catchAll = { ...catchAll, matches: () => true };
  }

  #level(pl: PriorityLevelConfiguration, nominalCL: number, old: PriorityLevelState | undefined): PriorityLevelState {
    const name = pl.metadata.name ?? "";
    const exempt = pl.spec?.type === "Exempt";
    const common = exempt ? pl.spec?.exempt : pl.spec?.limited;
    // An Exempt level has no borrowing limit: it may take as much as the server has.
    const borrowing = exempt ? undefined : pl.spec?.limited?.borrowingLimitPercent;
    const { minCL, maxCL, lendableCL } = concurrencyBounds(nominalCL, common?.lendablePercent, borrowing, this.#serverCL);
    const q = pl.spec?.limited?.limitResponse?.queuing;
    const queuing = !exempt && pl.spec?.limited?.limitResponse?.type === "Queue" && q !== undefined;
    const cfg = {
      name,
      queues: queuing ? (q.queues ?? 0) : 0,
      handSize: queuing ? (q.handSize ?? 0) : 0,
      queueLengthLimit: queuing ? (q.queueLengthLimit ?? 0) : 0,
    };
    // A new level starts halfway into its lendable seats; an existing one keeps its current limit.
    const currentCL = old?.currentCL ?? nominalCL - Math.floor(lendableCL / 2);
    const seatDemand = old?.seatDemand ?? new Integrator(this.#clock);
    let queueSet = exempt ? undefined : old?.queueSet;
    if (queueSet) queueSet.reconfigure(cfg, currentCL);
    else if (!exempt) queueSet = new QueueSet(cfg, currentCL, this.#clock, seatDemand);
    return {
      name,
      uid: pl.metadata.uid ?? "",
      exempt,
      numQueues: cfg.queues,
      nominalCL,
      minCL,
      maxCL,
      currentCL,
      targetCL: old?.targetCL ?? 0,
      seatDemand,
      seatDemandStats: old === undefined ? { avg: 0, stdDev: 0, highWatermark: 0, smoothed: 0 } : old.seatDemandStats,
      resetSeatDemand: () => seatDemand.reset(),
      // An Exempt level's limit is bookkeeping only: nothing waits for it.
      setCurrentCL: (cl) => queueSet?.setConcurrencyLimit(cl),
      maxSeats: exempt ? maximumSeatsLimit : levelMaxSeats(nominalCL, cfg.handSize),
      queueSet,
      exemptExecuting: old?.exemptExecuting ?? { requests: new Set(), seats: 0, dispatched: 0 },
    };
  }

  /**
   * Classify (startRequest): the first matching FlowSchema (catch-all when none does) and the
   * request's flow; the distinguisher and its hash only where there are queues to pick among.
   */
  classify(digest: RequestDigest): Classification {
    let m = this.#catchAll!;
    for (const c of this.#matchers)
      if (c.matches(digest)) {
        m = c;
        break;
      }
    if (m.level.numQueues <= 1) return { flowSchema: m.fs, priorityLevel: m.level, flowDistinguisher: "", flowHash: 0n };
    const flowDistinguisher = computeFlowDistinguisher(digest, m.method);
    return { flowSchema: m.fs, priorityLevel: m.level, flowDistinguisher, flowHash: this.#flowHash(m.name, flowDistinguisher) };
  }

  #flowHash(fsName: string, distinguisher: string): bigint {
    let bySchema = this.#flowHashes.get(fsName);
    if (bySchema === undefined) this.#flowHashes.set(fsName, (bySchema = new Map()));
    let h = bySchema.get(distinguisher);
    if (h === undefined) {
      // Bounded: flows come and go (users, namespaces); start over rather than grow without end.
      if (bySchema.size >= maxCachedFlowsPerSchema) bySchema.clear();
      bySchema.set(distinguisher, (h = hashFlowID(fsName, distinguisher)));
    }
    return h;
  }
}

/** A request may take at most a hand's share of the level's nominal seats, and never more than 10. */
function levelMaxSeats(nominalCL: number, handSize: number): number {
  const perHand = handSize > 0 ? Math.ceil(nominalCL / handSize) : nominalCL;
  return Math.max(1, Math.min(perHand, maximumSeatsLimit));
}

const maxCachedFlowsPerSchema = 10_000;

/** A FlowSchema ready for classification. */
interface CompiledFlowSchema {
  fs: FlowSchema;
  name: string;
  level: PriorityLevelState;
  method: string | undefined;
  matches: FlowSchemaMatcher;
}

function withMandatory<T extends { metadata: { name?: string | undefined } }>(
  objs: readonly T[],
  mandatory: T[],
  setDefaults: (o: T) => void,
): T[] {
  const names = new Set(objs.map((o) => o.metadata.name));
  const imagined = mandatory.filter((m) => !names.has(m.metadata.name));
  imagined.forEach(setDefaults);
  return [...objs, ...imagined];
}

/** computeFlowDistinguisher: the user's name (ByUser), the namespace (ByNamespace), or nothing. */
export function computeFlowDistinguisher(digest: RequestDigest, method: string | undefined): string {
  if (method === "ByUser") return digest.user.name;
  if (method === "ByNamespace") return digest.requestInfo.isResourceRequest ? digest.requestInfo.namespace : "";
  return "";
}

/** hashFlowID: the first 8 bytes, little-endian, of sha256(schema name, 0, distinguisher). */
export function hashFlowID(fsName: string, distinguisher: string): bigint {
  const sum = createHash("sha256").update(fsName).update(Buffer.of(0)).update(distinguisher).digest();
  return sum.readBigUInt64LE(0);
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
