/**
 * Watch over a KVEngine (upstream etcd3 watcher + the cacher's bookmarks): optional initial state as
 * ADDED events, then every change after the start revision in revision order, predicate transitions
 * reported as ADDED/DELETED, periodic BOOKMARKs, and a single 410 ERROR when history was compacted.
 */
import { toStatusError } from "@servicenet/api/errors";
import { clone, decode, decodeKV } from "./codec.ts";
import { parseResourceVersion, watchTooOld } from "./errors.ts";
import type { KubeObject, Predicate, WatchEvent, WatchOptions } from "./interfaces.ts";
import { asDirectory } from "./keys.ts";
import { CompactedError, prefixEnd, type KVEngine, type KVEvent, type RawKV } from "./kv.ts";
import { listKV } from "./kv-list.ts";
import { WatchStream } from "./watch-stream.ts";

const defaultBookmarkMs = 60_000;
/** How long before a watch's deadline its last bookmark goes (upstream cacheWatcher.nextBookmarkTime). */
const preTimeoutBookmarkMs = 2_000;

/** Starts a watch of `key` (or the directory `key` when recursive). */
export function watchKV(engine: KVEngine, physPrefix: string, key: string, opts: WatchOptions): WatchStream {
  const stream = new WatchStream({
    ...(opts.signal ? { signal: opts.signal } : {}),
    ...(opts.decorate ? { decorate: opts.decorate } : {}),
  });
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
  // Whether to re-read revision `from` itself for its siblings (SiblingFilter): only for a
  // client's resourceVersion, and not at the compacted revision (sqlite keeps no history there).
  let rereadFrom = false;
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
    rereadFrom = requested > compacted;
  }
  if (stream.closed) return;
  let progress = from;
  const siblings = rereadFrom ? new SiblingFilter(from) : null;
  const cancel = engine.watch(start, end, siblings ? from : from + 1, {
    onEvents(events) {
      for (const ev of siblings ? siblings.filter(events) : events) {
        const out = translate(ev, predicate, opts.readOnly === true);
        if (out) stream.push(out);
        progress = Math.max(progress, ev.kv.modRevision);
      }
    },
    onProgress(revision) {
      progress = Math.max(progress, revision);
    },
    onError(err, compacted) {
      if (compacted) {
        // The engine's revision is etcd's own compact_revision, also after a compaction by
        // someone else; compact_rev_key only knows this apiserver's compactions.
        const known = err instanceof CompactedError ? err.compactedRevision : 0;
        void engine.compactedRevision().then(
          (c) => stream.push({ type: "ERROR", object: watchTooOld(requested || from, Math.max(known, c)).status }),
          () => stream.push({ type: "ERROR", object: watchTooOld(requested || from, known).status }),
        );
      } else {
        stream.push({ type: "ERROR", object: toStatusError(err).status });
      }
    },
  });
  stream.onEnd(cancel);
  if (opts.allowBookmarks) {
    const bookmark = (): void => stream.push({ type: "BOOKMARK", object: { metadata: { resourceVersion: String(progress) } } });
    const timer = setInterval(bookmark, opts.bookmarkIntervalMs ?? defaultBookmarkMs);
    timer.unref?.();
    stream.onEnd(() => clearInterval(timer));
    // cacheWatcher.nextBookmarkTime: the last bookmark goes 2 s before the deadline, none after;
    // a watch shorter than that gets none.
    if (opts.deadline !== undefined) {
      const pretimeout = opts.deadline - preTimeoutBookmarkMs - Date.now();
      if (pretimeout < 0) clearInterval(timer);
      else {
        const last = setTimeout(() => {
          clearInterval(timer);
          bookmark();
        }, pretimeout);
        last.unref?.();
        stream.onEnd(() => clearTimeout(last));
      }
    }
  }
}

/**
 * The events of a watch resumed from revision N (read from N itself): kube-apiserver delivers only
 * events after N, and there every revision holds one object, so the client has N's. On etcd one
 * multi-key txn (Store.txn) writes several objects at one revision N; a client that saw one of
 * them and resumed from N would never see the others. So a revision N with two or more events in
 * the watched range is delivered again in full (the client may see an object it already has, with
 * the same resourceVersion); a lone event at N is dropped as the client has it.
 */
export class SiblingFilter {
  private readonly revision: number;
  private held: KVEvent | null = null;
  private seen = 0;

  constructor(revision: number) {
    this.revision = revision;
  }

  filter(events: readonly KVEvent[]): KVEvent[] {
    const out: KVEvent[] = [];
    for (const ev of events) {
      if (ev.kv.modRevision !== this.revision) {
        this.held = null;
        out.push(ev);
        continue;
      }
      // Events come in revision order, so all of N's come before any later one.
      this.seen++;
      if (this.seen === 1) {
        this.held = ev;
        continue;
      }
      if (this.held) out.push(this.held);
      this.held = null;
      out.push(ev);
    }
    return out;
  }
}

async function singleKey(engine: KVEngine, physKey: string): Promise<{ items: KubeObject[]; resourceVersion: string }> {
  const res = await engine.range(physKey, physKey + "\0", {});
  return { items: res.kvs.map((kv) => decode(kv.value, kv.modRevision)), resourceVersion: String(res.revision) };
}

/**
 * Masters of values delivered to several subscribers (KVEvent.receivers): parsed once. Every
 * receiver that may modify what it gets (the Service watch and informers modify or keep it) owns
 * its object: a deep copy, or the master itself for the last one when no read-only receiver shares
 * it. Read-only receivers (the HTTP watch, which only serialises; WatchOptions.readOnly) share the
 * master itself, as upstream's watch cache hands every watcher the same object: with only HTTP
 * watchers, which is every Pod event, an event costs no copy at all.
 */
const sharedValues = new WeakMap<RawKV, SharedValue>();

interface SharedValue {
  obj: KubeObject;
  left: number;
  /** The one object every read-only receiver gets: the master, once one asked. */
  readOnly?: KubeObject;
}

/** `decode(kv)` for one of `receivers` subscribers of the same event: a copy nobody else holds, or the read-only receivers' shared copy. */
export function decodeShared(kv: RawKV, receivers: number, readOnly = false): KubeObject {
  if (receivers <= 1) return decodeKV(kv);
  let entry = sharedValues.get(kv);
  if (!entry) {
    entry = { obj: decodeKV(kv), left: receivers };
    sharedValues.set(kv, entry);
  }
  entry.left--;
  if (entry.left <= 0) sharedValues.delete(kv);
  // The entry, not the RawKV, marks the copies: an engine may keep its RawKVs (memory's replay
  // log), while the entry goes once every receiver has dropped its copy.
  if (readOnly) return (entry.readOnly ??= markOrigin(entry.obj, entry));
  return markOrigin(entry.left > 0 || entry.readOnly !== undefined ? clone(entry.obj) : entry.obj, entry);
}

const origin = Symbol("servicenet.sharedOrigin");

/** Non-enumerable, so spreads, JSON and structuredClone leave it behind. */
function markOrigin(obj: KubeObject, from: object): KubeObject {
  Object.defineProperty(obj, origin, { value: from, enumerable: false, configurable: true });
  return obj;
}

/**
 * The stored value a watch event's object was decoded from, when several watchers got a copy of
 * it: watchers that serialise it unchanged can share one encoding (upstream's cachingObject in
 * `staging/src/k8s.io/apiserver/pkg/storage/cacher/caching_object.go`). Undefined for objects only
 * one watcher got.
 */
export function sharedOrigin(obj: KubeObject): object | undefined {
  return (obj as { [origin]?: object })[origin];
}

/** One engine event as a watch event, or null when the predicate hides it on both sides. */
export function translate(ev: KVEvent, predicate: Predicate | undefined, readOnly = false): WatchEvent | null {
  const receivers = ev.receivers ?? 1;
  const take = (kv: RawKV): KubeObject => decodeShared(kv, receivers, readOnly);
  if (ev.type === "delete") {
    if (!ev.prev) return null;
    const prev = take(ev.prev);
    if (predicate && !predicate(prev)) return null;
    return { type: "DELETED", object: atRevision(prev, ev.kv.modRevision, readOnly) };
  }
  // Without a predicate the old value does not matter: only whether there was one.
  if (!predicate) return { type: ev.prev === null ? "ADDED" : "MODIFIED", object: take(ev.kv) };
  const prev = ev.prev ? take(ev.prev) : null;
  const prevPasses = prev !== null && predicate(prev);
  const cur = take(ev.kv);
  if (predicate(cur)) return { type: prev === null || !prevPasses ? "ADDED" : "MODIFIED", object: cur };
  if (prevPasses) {
    // Left the predicate: the old content with the event's revision, as upstream's watcher sends.
    return { type: "DELETED", object: atRevision(prev, ev.kv.modRevision, readOnly) };
  }
  return null;
}

/**
 * The old value reported at the deleting revision. A read-only receivers' shared copy is not
 * changed in place: an engine may hand the same RawKV to another event (as its current value).
 */
function atRevision(obj: KubeObject, revision: number, shared: boolean): KubeObject {
  if (!shared) {
    obj.metadata.resourceVersion = String(revision);
    return obj;
  }
  const from = sharedOrigin(obj);
  const out = { ...obj, metadata: { ...obj.metadata, resourceVersion: String(revision) } };
  return from === undefined ? out : markOrigin(out, from);
}
