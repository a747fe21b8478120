/**
 * Event recording as client-go tools/record/event.go has it: a recorder builds core/v1 Events
 * and hands them to a broadcaster; the broadcaster queues them (1000 at most, later ones dropped,
 * as `watch.NewLongQueueBroadcaster(maxQueuedEvents, DropIfChannelFull)`) for its watchers, and
 * `startRecordingToSink` correlates each one (events-cache.ts) and writes it, retrying up to 12
 * times 10 s apart (the first wait random) unless the server refused it for good.
 */
import { isDNS1123Subdomain, type Event, type EventSource, type ObjectReference } from "@servicenet/api";
import { realClock, sleep, type Clock } from "@servicenet/component-base/clock";
import { noopLogger, V, type Logger } from "@servicenet/component-base/logs";
import { randomUUID } from "node:crypto";
import { httpStatusOf, isAlreadyExists, toStatusError } from "../../errors/index.ts";
import { EventCorrelator, eventUnixNano, formatTime, type CorrelatorOptions } from "./events-cache.ts";

const maxTriesPerEvent = 12;
const defaultSleepDurationMs = 10_000;
const maxQueuedEvents = 1000;

/** Where Events go (`EventSink`): the apiserver's events resource, or a test double. */
export interface EventSink {
  create(event: Event): Promise<Event>;
  /** Strategic-merge patch of an Event already written (its name and namespace are on `event`). */
  patch(event: Event, patch: Record<string, unknown>): Promise<Event>;
}

/** Records events about objects (`EventRecorder`); never throws and never waits for the write. */
export interface EventRecorder {
  /** `eventtype` is "Normal" or "Warning"; other types are logged and dropped, as upstream. */
  event(object: ObjectReference, eventtype: string, reason: string, message: string): void;
  annotatedEvent(object: ObjectReference, annotations: Record<string, string>, eventtype: string, reason: string, message: string): void;
}

/** Options of an EventBroadcaster. */
export interface BroadcasterOptions {
  clock?: Clock;
  logger?: Logger;
  /** Wait between write attempts (`WithSleepDuration`); default 10 s. */
  sleepDurationMs?: number;
  correlator?: Omit<CorrelatorOptions, "clock" | "unixNano">;
}

/** `util.ValidateEventType`: only "Normal" and "Warning" are recorded; anything else is logged. */
export function validateEventType(eventtype: string, log: Logger): boolean {
  if (eventtype === "Normal" || eventtype === "Warning") return true;
  log.error("Unsupported event type", { eventType: eventtype });
  return false;
}

/** `GenerateEventName`: `<object>.<unix nanoseconds in hex>`, or a UUID when that is no valid name. */
export function generateEventName(refName: string, unixNano: bigint): string {
  const name = `${refName}.${unixNano.toString(16)}`;
  return isDNS1123Subdomain(name).length === 0 ? name : randomUUID();
}

/** The reference `ref.GetReference` makes of an object of `kind` in `apiVersion`. */
export function getReference(
  obj: { metadata?: { name?: string; namespace?: string; uid?: string; resourceVersion?: string } },
  kind: string,
  apiVersion: string,
): ObjectReference {
  const m = obj.metadata ?? {};
  return {
    kind,
    apiVersion,
    name: m.name ?? "",
    ...(m.namespace ? { namespace: m.namespace } : {}),
    ...(m.uid ? { uid: m.uid } : {}),
    ...(m.resourceVersion ? { resourceVersion: m.resourceVersion } : {}),
  };
}

type Watcher = (e: Event) => Promise<void>;

/** `EventBroadcaster`: fans recorded Events out to the sink and loggers started on it. */
export class EventBroadcaster {
  readonly #clock: Clock;
  readonly #log: Logger;
  readonly #o: BroadcasterOptions;
  readonly #watchers: { fn: Watcher; queue: Event[]; running: boolean }[] = [];
  readonly #stop = new AbortController();

  #lastUnixNano = -1n;

  constructor(options: BroadcasterOptions = {}) {
    this.#o = options;
    this.#clock = options.clock ?? realClock;
    this.#log = options.logger ?? noopLogger;
  }

  /** An Event name's stamp for `ms`, unique among this broadcaster's Events ({@link eventUnixNano}). */
  nextUnixNano(ms: number): bigint {
    this.#lastUnixNano = eventUnixNano(ms, this.#lastUnixNano);
    return this.#lastUnixNano;
  }

  /** The clock the Events' timestamps and the retries go by. */
  get clock(): Clock {
    return this.#clock;
  }

  /** Where dropped and failed Events are logged. */
  get logger(): Logger {
    return this.#log;
  }

  /** `NewRecorder`: a recorder whose Events carry `source` (reportingController = component, reportingInstance = host). */
  newRecorder(source: EventSource): EventRecorder {
    const emit = (ref: ObjectReference, annotations: Record<string, string> | undefined, type: string, reason: string, message: string) => {
      if (!validateEventType(type, this.#log)) return;
      const ms = this.#clock.now();
      const t = formatTime(ms);
      const event: Event = {
        metadata: {
          name: generateEventName(ref.name ?? "", this.nextUnixNano(ms)),
          namespace: ref.namespace || "default",
          ...(annotations ? { annotations } : {}),
        },
        involvedObject: ref,
        reason,
        message,
        firstTimestamp: t,
        lastTimestamp: t,
        count: 1,
        type,
        source,
        reportingComponent: source.component ?? "",
        reportingInstance: source.host ?? "",
      };
      this.action(event);
    };
    return {
      event: (ref, type, reason, message) => emit(ref, undefined, type, reason, message),
      annotatedEvent: (ref, annotations, type, reason, message) => emit(ref, annotations, type, reason, message),
    };
  }

  /** `StartRecordingToSink`: correlate and write every Event to `sink`. */
  startRecordingToSink(sink: EventSink): void {
    // One stamp source for recorded and aggregated Events, so their names cannot collide either.
    const correlator = new EventCorrelator({ ...this.#o.correlator, clock: this.#clock, unixNano: (ms) => this.nextUnixNano(ms) });
    this.startEventWatcher((e) => this.#recordToSink(sink, e, correlator));
  }

  /** `StartStructuredLogging`: one log line per Event at `-v=verbosity`. */
  startStructuredLogging(verbosity: number): void {
    const log = V(this.#log, verbosity);
    this.startEventWatcher(async (e) => {
      const o = e.involvedObject;
      log.info("Event occurred", {
        object: o.namespace ? `${o.namespace}/${o.name}` : o.name,
        fieldPath: o.fieldPath ?? "",
        kind: o.kind,
        apiVersion: o.apiVersion,
        type: e.type,
        reason: e.reason,
        message: e.message,
      });
    });
  }

  /** `StartEventWatcher`: `handler` sees every Event after this call, one at a time. */
  startEventWatcher(handler: (e: Event) => Promise<void>): void {
    this.#watchers.push({ fn: handler, queue: [], running: false });
  }

  /** `Shutdown`: stops retries and drops what is still queued. */
  shutdown(): void {
    this.#stop.abort();
    for (const w of this.#watchers) w.queue.length = 0;
  }

  /**
   * `Action`: hands `event` to every watcher (the recorders of both shapes call it); dropped for
   * a watcher that already has 1000 queued.
   */
  action(event: Event): void {
    if (this.#stop.signal.aborted) return;
    for (const w of this.#watchers) {
      if (w.queue.length >= maxQueuedEvents) {
        this.#log.error("Unable to record event: too many queued events, dropped event", { reason: event.reason });
        continue;
      }
      w.queue.push(structuredClone(event));
      if (!w.running) void this.#run(w);
    }
  }

  async #run(w: { fn: Watcher; queue: Event[]; running: boolean }): Promise<void> {
    w.running = true;
    try {
      for (let e = w.queue.shift(); e !== undefined && !this.#stop.signal.aborted; e = w.queue.shift()) {
        await w.fn(e).catch((err: unknown) => this.#log.error("event handler failed", { err }));
      }
    } finally {
      w.running = false;
    }
  }

  async #recordToSink(sink: EventSink, event: Event, correlator: EventCorrelator): Promise<void> {
    const result = correlator.correlate(event);
    if (result.skip || !result.event) return;
    const sleepMs = this.#o.sleepDurationMs ?? defaultSleepDurationMs;
    for (let tries = 1; ; tries++) {
      if (await recordEvent(sink, result.event, result.patch, correlator, this.#log)) return;
      if (tries >= maxTriesPerEvent) {
        this.#log.error("Unable to write event (retry limit exceeded!)", { reason: event.reason });
        return;
      }
      const delay = tries === 1 ? sleepMs * Math.random() : sleepMs;
      if (!(await sleep(this.#clock, delay, this.#stop.signal))) {
        this.#log.error("Unable to write event (broadcaster is shut down)", { reason: event.reason });
        return;
      }
    }
  }
}

/** `recordEvent`: true when done (written, or refused for good), false to retry. */
async function recordEvent(
  sink: EventSink,
  event: Event,
  patch: Record<string, unknown> | undefined,
  correlator: EventCorrelator,
  log: Logger,
): Promise<boolean> {
  let written: Event | undefined;
  let err: unknown;
  const update = (event.count ?? 0) > 1 && patch !== undefined;
  if (update) written = await sink.patch(event, patch).catch((e: unknown) => ((err = e), undefined));
  if (!update || httpStatusOf(err) === 404) {
    err = undefined;
    const { resourceVersion: _rv, ...metadata } = event.metadata;
    written = await sink.create({ ...event, metadata }).catch((e: unknown) => ((err = e), undefined));
  }
  if (written !== undefined) {
    correlator.updateState(written);
    return true;
  }
  const status = httpStatusOf(err);
  if (status !== undefined && status > 0) {
    // A StatusError: the server answered, so a retry gets the same answer.
    if (isAlreadyExists(err) || isNamespaceTerminating(err)) V(log, 5).info("Server rejected event (will not retry!)", { err });
    else log.error("Server rejected event (will not retry!)", { err });
    return true;
  }
  log.error("Unable to write event (may retry after sleeping)", { err });
  return false;
}

/** `errors.HasStatusCause(err, v1.NamespaceTerminatingCause)` (a cause's type is `reason` on the wire). */
function isNamespaceTerminating(err: unknown): boolean {
  return (toStatusError(err)?.status.details?.causes ?? []).some((c) => c.reason === "NamespaceTerminating");
}
