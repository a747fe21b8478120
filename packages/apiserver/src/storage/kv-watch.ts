/**
 * Watch over a KVEngine (upstream etcd3 watcher + the cacher's bookmarks): optional initial state as
 * ADDED events, then every change after the start revision in revision order, predicate transitions
 * reported as ADDED/DELETED, periodic BOOKMARKs, and a single 410 ERROR when history was compacted.
 */
import { toStatusError } from "@servicenet/api/errors";
import { clone, decode } from "./codec.ts";
import { parseResourceVersion, watchTooOld } from "./errors.ts";
import type { KubeObject, Predicate, WatchEvent, WatchOptions } from "./interfaces.ts";
import { asDirectory } from "./keys.ts";
import { prefixEnd, type KVEngine, type KVEvent, type RawKV } from "./kv.ts";
import { listKV } from "./kv-list.ts";
import { WatchStream } from "./watch-stream.ts";

const defaultBookmarkMs = 60_000;

/** Starts a watch of `key` (or the directory `key` when recursive). */
export function watchKV(engine: KVEngine, physPrefix: string, key: string, opts: WatchOptions): WatchStream {
  const stream = new WatchStream(opts.signal ? { signal: opts.signal } : {});
  void run(engine, physPrefix, key, opts, stream).catch((e: unknown) => {
    stream.push({ type: "ERROR", object: toStatusError(e).status });
  });
  return stream;
}

async function run(engine: KVEngine, physPrefix: string, key: string, opts: WatchOptions, stream: WatchStream): Promise<void> {
  const logical = opts.recursive ? asDirectory(key) : key;
  const start = physPrefix + logical;
  const end = opts.recursive ? prefixEnd(start) : start + "\0";
  const predicate = opts.predicate;
  const requested = parseResourceVersion(opts.resourceVersion);
  let from: number;
  if (requested === 0) {
    // "" and "0": the current state as synthetic ADDED events, then changes after it.
    const initial = opts.recursive
      ? await listKV(engine, physPrefix, logical, predicate ? { predicate } : {})
      : await singleKey(engine, start);
    for (const obj of initial.items) if (!predicate || predicate(obj)) stream.push({ type: "ADDED", object: obj });
    from = Number(initial.resourceVersion);
  } else {
    const compacted = await engine.compactedRevision();
    if (requested < compacted) {
      stream.push({ type: "ERROR", object: watchTooOld(requested, compacted).status });
      return;
    }
    from = requested;
  }
  if (stream.closed) return;
  let progress = from;
  const cancel = engine.watch(start, end, from + 1, {
    onEvents(events) {
      for (const ev of events) {
        const out = translate(ev, predicate);
        if (out) stream.push(out);
        progress = Math.max(progress, ev.kv.modRevision);
      }
    },
    onProgress(revision) {
      progress = Math.max(progress, revision);
    },
    onError(err, compacted) {
      if (compacted) {
        void engine.compactedRevision().then(
          (c) => stream.push({ type: "ERROR", object: watchTooOld(requested || from, c).status }),
          () => stream.push({ type: "ERROR", object: watchTooOld(requested || from, 0).status }),
        );
      } else {
        stream.push({ type: "ERROR", object: toStatusError(err).status });
      }
    },
  });
  stream.onEnd(cancel);
  if (opts.allowBookmarks) {
    const timer = setInterval(() => {
      stream.push({ type: "BOOKMARK", object: { metadata: { resourceVersion: String(progress) } } });
    }, opts.bookmarkIntervalMs ?? defaultBookmarkMs);
    timer.unref?.();
    stream.onEnd(() => clearInterval(timer));
  }
}

async function singleKey(engine: KVEngine, physKey: string): Promise<{ items: KubeObject[]; resourceVersion: string }> {
  const res = await engine.range(physKey, physKey + "\0", {});
  return { items: res.kvs.map((kv) => decode(kv.value, kv.modRevision)), resourceVersion: String(res.revision) };
}

/**
 * Masters of values delivered to several subscribers (KVEvent.receivers): parsed once, never handed
 * out while kept here. Every receiver but the last gets a deep copy, the last the master itself, so
 * each watcher owns its objects (the Service watch and informers modify or keep what they get).
 */
const sharedValues = new WeakMap<RawKV, { obj: KubeObject; left: number }>();

/** `decode(kv)` for one of `receivers` subscribers of the same event: a copy nobody else holds. */
export function decodeShared(kv: RawKV, receivers: number): KubeObject {
  if (receivers <= 1) return decode(kv.value, kv.modRevision);
  let entry = sharedValues.get(kv);
  if (!entry) {
    entry = { obj: decode(kv.value, kv.modRevision), left: receivers };
    sharedValues.set(kv, entry);
  }
  entry.left--;
  if (entry.left > 0) return clone(entry.obj);
  sharedValues.delete(kv);
  return entry.obj;
}

/** One engine event as a watch event, or null when the predicate hides it on both sides. */
export function translate(ev: KVEvent, predicate: Predicate | undefined): WatchEvent | null {
  const receivers = ev.receivers ?? 1;
  if (ev.type === "delete") {
    if (!ev.prev) return null;
    const prev = decodeShared(ev.prev, receivers);
    if (predicate && !predicate(prev)) return null;
    prev.metadata.resourceVersion = String(ev.kv.modRevision);
    return { type: "DELETED", object: prev };
  }
  // Without a predicate the old value does not matter: only whether there was one.
  if (!predicate) return { type: ev.prev === null ? "ADDED" : "MODIFIED", object: decodeShared(ev.kv, receivers) };
  const prev = ev.prev ? decodeShared(ev.prev, receivers) : null;
  const prevPasses = prev !== null && predicate(prev);
  const cur = decodeShared(ev.kv, receivers);
  if (predicate(cur)) return { type: prev === null || !prevPasses ? "ADDED" : "MODIFIED", object: cur };
  if (prevPasses) {
    // Left the predicate: the old content with the event's revision, as upstream's watcher sends.
    prev.metadata.resourceVersion = String(ev.kv.modRevision);
    return { type: "DELETED", object: prev };
  }
  return null;
}
