/**
 * The event correlator of client-go tools/record/events_cache.go: before an Event is written it
 * is (1) aggregated: the 10th distinct message for one object and reason within 10 minutes turns
 * into one "(combined from similar events): ..." Event; (2) observed: a repeat of an Event already
 * written becomes a patch of its `count`, `lastTimestamp` and `message` instead of a new object;
 * (3) spam-filtered: per source and object, a token bucket of burst 25 refilled once per 5 min.
 */
import type { Event } from "@servicenet/api";
import type { Clock } from "@servicenet/component-base/clock";
import { LRU } from "./lru.ts";

const maxLruCacheEntries = 4096;
const defaultAggregateMaxEvents = 10;
const defaultAggregateIntervalInSeconds = 600;
const defaultSpamBurst = 25;
const defaultSpamQPS = 1 / 300;

/** Options of the correlator (`CorrelatorOptions`); zero or absent fields take upstream's defaults. */
export interface CorrelatorOptions {
  lruCacheSize?: number;
  burstSize?: number;
  qps?: number;
  maxEvents?: number;
  maxIntervalInSeconds?: number;
  clock: Pick<Clock, "now">;
  /**
   * The Unix-nanosecond stamp of an aggregate Event's name for a time in ms: the broadcaster's
   * (EventBroadcaster.nextUnixNano), so it is unique among all its Events; default one of this
   * correlator's own.
   */
  unixNano?: (ms: number) => bigint;
}

/** What to do with one Event: write `event` (as a patch when `patch` is set), or skip it. */
export interface EventCorrelateResult {
  event?: Event;
  patch?: Record<string, unknown>;
  skip: boolean;
}

const join = (parts: (string | undefined)[]): string => parts.map((p) => p ?? "").join("");

/** `getEventKey`: every field that makes two Events the same Event. */
export function getEventKey(e: Event): string {
  const o = e.involvedObject;
  return join([
    e.source?.component,
    e.source?.host,
    o.kind,
    o.namespace,
    o.name,
    o.fieldPath,
    o.uid,
    o.apiVersion,
    e.type,
    e.reason,
    e.message,
  ]);
}

/** `getSpamKey`: the source and object an Event is about. */
export function getSpamKey(e: Event): string {
  const o = e.involvedObject;
  return join([e.source?.component, e.source?.host, o.kind, o.namespace, o.name, o.uid, o.apiVersion, e.type]);
}

function aggregateKeyOf(e: Event): [aggregateKey: string, localKey: string] {
  const o = e.involvedObject;
  const key = join([e.source?.component, e.source?.host, o.kind, o.namespace, o.name, o.uid, o.apiVersion, e.type, e.reason]);
  return [key + join([e.reportingComponent, e.reportingInstance]), e.message ?? ""];
}

/** A token bucket that only answers "now or not" (flowcontrol's PassiveRateLimiter.TryAccept). */
export class PassiveTokenBucket {
  readonly #qps: number;
  readonly #burst: number;
  #tokens: number;
  #last: number;

  constructor(qps: number, burst: number, now: number) {
    this.#qps = qps;
    this.#burst = burst;
    this.#tokens = burst;
    this.#last = now;
  }

  tryAccept(now: number): boolean {
    this.#tokens = Math.min(this.#burst, this.#tokens + ((now - this.#last) / 1000) * this.#qps);
    this.#last = now;
    if (this.#tokens < 1) return false;
    this.#tokens -= 1;
    return true;
  }
}

interface AggregateRecord {
  localKeys: Set<string>;
  lastTimestamp: number;
}

interface EventLog {
  count: number;
  firstTimestamp: string | undefined;
  name: string;
  resourceVersion: string | undefined;
}

/**
 * The Unix time in nanoseconds of an Event recorded at `ms` (milliseconds), after `last` (the
 * previous stamp of the same broadcaster). Go's clock gives every Event its own nanosecond; from a
 * millisecond clock, two Events of one object in the same millisecond would get one name and the
 * second would be refused as AlreadyExists (and dropped), so a later stamp within the same
 * millisecond is taken instead.
 */
export function eventUnixNano(ms: number, last: bigint): bigint {
  const ns = BigInt(Math.floor(ms)) * 1_000_000n;
  return last >= ns && last < ns + 999_999n ? last + 1n : ns;
}

/** Go's metav1.Time as the wire has it: RFC 3339 in UTC, whole seconds. */
export const formatTime = (ms: number): string => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(".000Z", "Z");

/** Aggregation, observation and spam filtering of Events before they reach the sink. */
export class EventCorrelator {
  readonly #clock: Pick<Clock, "now">;
  readonly #spam: LRU<PassiveTokenBucket>;
  readonly #aggregates: LRU<AggregateRecord>;
  readonly #logs: LRU<EventLog>;
  readonly #o: Required<Omit<CorrelatorOptions, "clock" | "unixNano">>;
  readonly #unixNano: (ms: number) => bigint;

  constructor(options: CorrelatorOptions) {
    this.#clock = options.clock;
    let last = -1n;
    this.#unixNano = options.unixNano ?? ((ms) => (last = eventUnixNano(ms, last)));
    this.#o = {
      lruCacheSize: options.lruCacheSize || maxLruCacheEntries,
      burstSize: options.burstSize || defaultSpamBurst,
      qps: options.qps || defaultSpamQPS,
      maxEvents: options.maxEvents || defaultAggregateMaxEvents,
      maxIntervalInSeconds: options.maxIntervalInSeconds || defaultAggregateIntervalInSeconds,
    };
    this.#spam = new LRU(this.#o.lruCacheSize);
    this.#aggregates = new LRU(this.#o.lruCacheSize);
    this.#logs = new LRU(this.#o.lruCacheSize);
  }

  /** `EventCorrelate`: what to write for `event`. */
  correlate(event: Event): EventCorrelateResult {
    const [aggregated, key] = this.#aggregate(event);
    const [observed, patch] = this.#observe(aggregated, key);
    if (this.#filtered(observed)) return { skip: true };
    return { event: observed, ...(patch ? { patch } : {}), skip: false };
  }

  /** `UpdateState`: remember what the server returned, so the next repeat patches it. */
  updateState(event: Event): void {
    this.#logs.add(getEventKey(event), {
      count: event.count ?? 0,
      firstTimestamp: event.firstTimestamp ?? undefined,
      name: event.metadata.name ?? "",
      resourceVersion: event.metadata.resourceVersion,
    });
  }

  #aggregate(event: Event): [Event, string] {
    const now = this.#clock.now();
    const eventKey = getEventKey(event);
    const [aggregateKey, localKey] = aggregateKeyOf(event);
    let record = this.#aggregates.get(aggregateKey) ?? { localKeys: new Set<string>(), lastTimestamp: 0 };
    if (now - record.lastTimestamp > this.#o.maxIntervalInSeconds * 1000) record = { localKeys: new Set(), lastTimestamp: 0 };
    record.localKeys.add(localKey);
    record.lastTimestamp = now;
    this.#aggregates.add(aggregateKey, record);
    if (record.localKeys.size < this.#o.maxEvents) return [event, eventKey];
    // Upstream pops any one key so the set stays below the limit.
    record.localKeys.delete(record.localKeys.values().next().value as string);
    const t = formatTime(now);
    const combined: Event = {
      metadata: {
        // EventAggregate names it `%v.%x` of ref.Name and now.UnixNano() (no GenerateEventName).
        name: `${event.involvedObject.name ?? ""}.${this.#unixNano(now).toString(16)}`,
        namespace: event.metadata.namespace,
      },
      count: 1,
      firstTimestamp: t,
      involvedObject: event.involvedObject,
      lastTimestamp: t,
      message: `(combined from similar events): ${event.message ?? ""}`,
      type: event.type,
      reason: event.reason,
      source: event.source,
    };
    return [combined, aggregateKey];
  }

  #observe(event: Event, key: string): [Event, Record<string, unknown> | undefined] {
    const last = this.#logs.get(key);
    let out = event;
    let patch: Record<string, unknown> | undefined;
    if (last !== undefined && last.count > 0) {
      out = {
        ...event,
        metadata: { ...event.metadata, name: last.name, resourceVersion: last.resourceVersion },
        firstTimestamp: last.firstTimestamp,
        count: last.count + 1,
      };
      // CreateTwoWayMergePatch from a copy with count 0, lastTimestamp at the epoch and no message.
      patch = { count: out.count, lastTimestamp: out.lastTimestamp, ...(out.message ? { message: out.message } : {}) };
    }
    this.#logs.add(key, {
      count: out.count ?? 0,
      firstTimestamp: out.firstTimestamp ?? undefined,
      name: out.metadata.name ?? "",
      resourceVersion: out.metadata.resourceVersion,
    });
    return [out, patch];
  }

  #filtered(event: Event): boolean {
    const key = getSpamKey(event);
    const now = this.#clock.now();
    let bucket = this.#spam.get(key);
    if (bucket === undefined) bucket = new PassiveTokenBucket(this.#o.qps, this.#o.burstSize, now);
    const filter = !bucket.tryAccept(now);
    this.#spam.add(key, bucket);
    return filter;
  }
}
