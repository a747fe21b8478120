/**
 * etcd watches on raw gRPC Watch streams, one stream per watch, instead of the etcd3 npm client's
 * WatchManager. That manager multiplexes every watch of a client on one stream and loses track of
 * them: etcd answers the cancel of a watch it had already canceled for compaction, the manager
 * finds no watcher for that response and throws from a stream 'data' handler, which ends the
 * process (and it drops `compact_revision`, and resumes after a reconnect from the header
 * revision, skipping history). With one stream per watch nothing needs matching: every response
 * on the stream is this watch's. Upstream's etcd3/watcher.go gets the same from clientv3, which
 * also re-opens a broken stream from the next revision and reports compaction as ErrCompacted.
 *
 * Nothing here throws into the gRPC stream: handler errors, stream errors and cancellations all
 * end in exactly one `onError` (or are retried), never in an uncaught exception.
 */
import { ClientClosedError, type IDuplexStream, type IKeyValue, type IWatchRequest, type IWatchResponse, type WatchClient } from "etcd3";
import { CompactedError, type KVEvent, type KVWatchHandlers, type RawKV } from "../kv.ts";

/** Delays before re-opening a broken stream (etcd unreachable, restarted, leader change). */
const retryDelaysMs = [50, 100, 200, 500, 1000, 2000];

type Stream = IDuplexStream<IWatchRequest, IWatchResponse>;

export interface EtcdWatchRange {
  key: Buffer;
  rangeEnd: Buffer;
}

export function toRaw(kv: IKeyValue): RawKV {
  return {
    key: kv.key.toString("utf8"),
    value: kv.value.toString("utf8"),
    modRevision: Number(kv.mod_revision),
    createRevision: Number(kv.create_revision),
  };
}

function toEvents(res: IWatchResponse): KVEvent[] {
  return (res.events ?? []).map((e) => ({
    type: e.type === "Delete" ? "delete" : "put",
    kv: e.type === "Delete" ? { ...toRaw(e.kv), value: "" } : toRaw(e.kv),
    prev: e.prev_kv ? toRaw(e.prev_kv) : null,
  }));
}

/** Half-closes and cancels a stream; its late 'error' (CANCELLED) is ignored by the caller. */
function closeStream(s: Stream | null): void {
  if (!s) return;
  try {
    // end() first: etcd3's own error listener only resets the connection while the stream is writable.
    s.end();
    s.cancel();
  } catch {
    // already closed
  }
}

/**
 * Watches `range` from `fromRevision` (inclusive) with previous KVs and progress notifications.
 * Returns the cancel function. Compaction ends the watch with a CompactedError carrying etcd's
 * `compact_revision`; a broken stream is re-opened from the first revision not yet delivered.
 */
export function openEtcdWatch(client: WatchClient, range: EtcdWatchRange, fromRevision: number, handlers: KVWatchHandlers): () => void {
  let next = fromRevision;
  let stopped = false;
  let current: Stream | null = null;
  let attempt = 0;
  let timer: NodeJS.Timeout | undefined;

  const stop = (): void => {
    if (stopped) return;
    stopped = true;
    clearTimeout(timer);
    closeStream(current);
    current = null;
  };
  const fail = (err: unknown, compacted: boolean): void => {
    if (stopped) return;
    stop();
    try {
      handlers.onError(err, compacted);
    } catch {
      // a failing error handler must not reach the gRPC stream either
    }
  };
  const broken = (s: Stream | null): void => {
    if (stopped || s !== current) return;
    closeStream(current);
    current = null;
    timer = setTimeout(open, retryDelaysMs[Math.min(attempt++, retryDelaysMs.length - 1)]);
  };
  const onResponse = (res: IWatchResponse): void => {
    if (res.canceled) {
      const compact = Number(res.compact_revision);
      if (compact > 0) fail(new CompactedError(compact), true);
      else fail(new Error(`etcd canceled the watch: ${res.cancel_reason || "no reason given"}`), false);
      return;
    }
    attempt = 0;
    if (res.created) return;
    const events = toEvents(res);
    if (events.length > 0) {
      next = events[events.length - 1]!.kv.modRevision + 1;
      handlers.onEvents(events);
      return;
    }
    // An event-less response that is neither created nor canceled is a progress notification, sent
    // to synced watchers only: nothing at or below its header revision is still to come.
    const revision = Number(res.header.revision);
    next = Math.max(next, revision + 1);
    handlers.onProgress?.(revision);
  };
  const open = (): void => {
    client.watch().then(
      (s) => {
        if (stopped) {
          closeStream(s);
          return;
        }
        current = s;
        s.on("data", (res: IWatchResponse) => {
          if (s !== current) return;
          try {
            onResponse(res);
          } catch (e) {
            fail(e, false);
          }
        });
        s.on("error", () => broken(s));
        s.on("end", () => broken(s));
        s.write({
          create_request: { key: range.key, range_end: range.rangeEnd, start_revision: next, prev_kv: true, progress_notify: true },
        });
      },
      (err: unknown) => {
        if (stopped) return;
        // A closed client never comes back; anything else (etcd unreachable) is retried.
        if (err instanceof ClientClosedError) fail(err, false);
        else timer = setTimeout(open, retryDelaysMs[Math.min(attempt++, retryDelaysMs.length - 1)]);
      },
    );
  };
  open();
  return stop;
}
