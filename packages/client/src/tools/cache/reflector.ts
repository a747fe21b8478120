/**
 * The one reflector (client-go tools/cache/reflector.go ListAndWatch): LIST, hand the items to
 * the sink as a replace, then WATCH from the list's resourceVersion, applying every event. A
 * clean close of the watch re-watches from the last resourceVersion seen; a 410 Expired/Gone
 * (ERROR event or HTTP status) forgets it, so the next round relists. Every failed round, and a
 * watch the server closed within a second with no event ("very short watch"), waits the
 * exponential backoff first.
 */
import { realClock, sleep, type Clock } from "@servicenet/component-base/clock";
import { noopLogger, V, type Logger } from "@servicenet/component-base/logs";
import { describeError, isResourceExpired, toStatusError } from "../../errors/index.ts";
import { BackoffManager, type BackoffOptions } from "./backoff.ts";
import type { ListerWatcher, WatchEvent, WatchHandle } from "./list-watch.ts";

/** Where a reflector puts what it learns (the DeltaFIFO's role). */
export interface ReflectorSink<T> {
  /** The full set after a LIST. */
  replace(items: T[]): void;
  add(obj: T): void;
  update(obj: T): void;
  delete(obj: T): void;
}

export interface ReflectorOptions {
  /** For logs, e.g. the watch path. */
  name?: string;
  clock?: Clock;
  logger?: Logger;
  backoff?: Partial<BackoffOptions>;
}

/** A watch shorter than this with no event counts as failed (reflector.go's "very short watch"). */
const minWatchMs = 1000;

interface RV {
  metadata?: { resourceVersion?: string | undefined } | undefined;
}

export class Reflector<T> {
  readonly #lw: ListerWatcher<T>;
  readonly #sink: ReflectorSink<T>;
  readonly #name: string;
  readonly #clock: Clock;
  readonly #log: Logger;
  readonly #backoff: BackoffManager;
  readonly #stop = new AbortController();
  #rv = "";
  #watch: WatchHandle | undefined;
  #endWatch: ((err: unknown) => void) | undefined;
  #running: Promise<void> | undefined;

  constructor(lw: ListerWatcher<T>, sink: ReflectorSink<T>, options: ReflectorOptions = {}) {
    this.#lw = lw;
    this.#sink = sink;
    this.#name = options.name ?? "reflector";
    this.#clock = options.clock ?? realClock;
    this.#log = options.logger ?? noopLogger;
    this.#backoff = new BackoffManager(this.#clock, options.backoff);
  }

  /** The resourceVersion the cache is at ("" before the first list and after a 410). */
  get lastSyncResourceVersion(): string {
    return this.#rv;
  }

  /** Starts list/watch rounds until stop(). */
  run(): void {
    this.#running ??= this.#loop();
  }

  /**
   * Stops the rounds and closes the watch. It does not wait for a LIST in flight (a hung server
   * would hold shutdown); whatever that LIST returns is dropped, as is every later event.
   */
  async stop(): Promise<void> {
    this.#stop.abort();
    this.#watch?.abort();
    this.#endWatch?.(null);
  }

  get #stopped(): boolean {
    return this.#stop.signal.aborted;
  }

  async #loop(): Promise<void> {
    while (!this.#stopped) {
      const err = await this.#listAndWatch();
      if (this.#stopped) return;
      const delay = this.#backoff.next();
      this.#log.error("list/watch failed, retrying", {
        reflector: this.#name,
        err: describeError(err),
        backoffMs: Math.round(delay),
        relist: this.#rv === "",
      });
      if (!(await sleep(this.#clock, delay, this.#stop.signal))) return;
    }
  }

  /** One round; resolves with the error that ended it. */
  async #listAndWatch(): Promise<unknown> {
    if (this.#rv === "") {
      try {
        const list = await this.#lw.list();
        if (this.#stopped) return null;
        this.#sink.replace(list.items);
        this.#rv = list.metadata?.resourceVersion ?? "";
      } catch (err) {
        return err;
      }
    }
    for (;;) {
      const started = this.#clock.now();
      const { err, events } = await this.#watchOnce();
      if (this.#stopped) return null;
      if (err === null && (events > 0 || this.#clock.now() - started >= minWatchMs)) {
        V(this.#log, 4).info("watch closed, watching again", { reflector: this.#name, resourceVersion: this.#rv });
        continue;
      }
      if (err !== null && isResourceExpired(err)) this.#rv = "";
      return (
        err ?? new Error(`very short watch: ${this.#name}: Unexpected watch close - watch lasted less than a second and no items received`)
      );
    }
  }

  async #watchOnce(): Promise<{ err: unknown; events: number }> {
    let events = 0;
    const err = await new Promise<unknown>((resolve) => {
      let ended = false;
      const end = (e: unknown) => {
        if (ended) return;
        ended = true;
        this.#endWatch = undefined;
        resolve(e);
      };
      this.#endWatch = end;
      const onEvent = (e: WatchEvent) => {
        if (ended) return;
        events++;
        const error = this.#apply(e);
        if (error !== undefined) {
          this.#watch?.abort();
          end(error);
        }
      };
      this.#lw.watch(this.#rv, onEvent, end).then(
        (h) => {
          this.#watch = h;
          if (ended || this.#stopped) h.abort();
        },
        (e: unknown) => end(e),
      );
    });
    this.#watch = undefined;
    return { err, events };
  }

  /** Applies one event; returns the error an ERROR event carries. */
  #apply(e: WatchEvent): unknown {
    if (e.type === "ERROR") return toStatusError(e.object) ?? new Error(`watch ${this.#name}: ERROR event ${JSON.stringify(e.object)}`);
    const obj = e.object as T & RV;
    if (e.type === "ADDED") this.#sink.add(obj);
    else if (e.type === "MODIFIED") this.#sink.update(obj);
    else if (e.type === "DELETED") this.#sink.delete(obj);
    else if (e.type !== "BOOKMARK") return undefined;
    const rv = obj.metadata?.resourceVersion;
    if (rv !== undefined && rv !== "") this.#rv = rv;
    return undefined;
  }
}
