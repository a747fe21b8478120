/**
 * Large stored values decoded once per revision for LISTs. Upstream serves LISTs from the watch
 * cache, whose objects are decoded once per resourceVersion and shared by every reader
 * (staging/src/k8s.io/apiserver/pkg/storage/cacher/watch_cache.go, storeElement: readers must not
 * mutate them). Here every LIST reads storage, and a 1.4 MB Service of 60,000 labels cost one
 * `JSON.parse` per LIST: tens of milliseconds of one event-loop turn each (and the garbage of
 * 60,000 fresh strings), 30 concurrent LISTs one after the other.
 *
 * A value at or over `sharedDecodeMinBytes` is parsed once per (key, modRevision) and each read
 * gets a fresh copy of everything but the members that make an object large (`sharedMembers`:
 * labels, annotations, managedFields), which are shared with the cache and the other readers, as
 * the watch cache shares whole objects. List readers (the REST LIST, the in-process informers, the
 * Decorator, selectors and encoders) only read those members.
 *
 * A read-only LIST (ListOptions.readOnly: the HTTP LIST, which only decorates and serializes) gets
 * the cached object itself, for values of every size, as the watch cache serves its LISTs: 30
 * concurrent LISTs of 5,000 Services parsed 150,000 objects, each list holding its 5,000 across
 * the turns it took to write them, so young-generation collections copied most of them (hundreds
 * of scavenges of 20-60 ms in the flood e2e).
 */
import { decode } from "./codec.ts";
import type { KubeObject } from "./interfaces.ts";
import { deepCopy, setMember } from "./json-copy.ts";
import type { RawKV } from "./kv.ts";

/** Values shorter than this (UTF-16 code units of JSON) are parsed for every read: a parse is cheap. */
export const sharedDecodeMinBytes = 64 * 1024;

/** The default bound of one engine's cache (UTF-16 code units of the cached values' JSON). */
export const defaultDecodedCacheBytes = 64 * 1024 * 1024;

/** The metadata members shared between readers instead of copied. */
export const sharedMembers: ReadonlySet<string> = new Set(["labels", "annotations", "managedFields"]);

interface Entry {
  modRevision: number;
  size: number;
  obj: KubeObject;
}

/** Decoded large values per key (the newest revision read), least recently used out past `maxBytes`. */
export class DecodedValueCache {
  readonly #maxBytes: number;
  #bytes = 0;
  /** key -> entry; a Map iterates in insertion order, so re-inserting on a hit keeps LRU order. */
  readonly #entries = new Map<string, Entry>();

  constructor(maxBytes = defaultDecodedCacheBytes) {
    this.#maxBytes = maxBytes;
  }

  /**
   * `decode(kv.value, kv.modRevision)`: for a large value, a copy that shares the large metadata
   * members with the object decoded at the first read of this revision.
   */
  decode(kv: RawKV): KubeObject {
    if (kv.value.length < sharedDecodeMinBytes) return decode(kv.value, kv.modRevision);
    const e = this.#entry(kv);
    return e === undefined ? decode(kv.value, kv.modRevision) : shareLargeMembers(e.obj);
  }

  /**
   * The object decoded at the first read of this revision of the key, shared with every other
   * `shared` read (and the source of `decode`'s copies): callers must not change it, beyond the
   * idempotent read-time Decorator, which every reader applies anyway.
   */
  shared(kv: RawKV): KubeObject {
    return this.#entry(kv)?.obj ?? decode(kv.value, kv.modRevision);
  }

  /** The entry of `kv`'s revision, decoded now if the cache held another; undefined past the bound. */
  #entry(kv: RawKV): Entry | undefined {
    const size = kv.value.length;
    if (size > this.#maxBytes) return undefined;
    let e = this.#entries.get(kv.key);
    if (e !== undefined && e.modRevision === kv.modRevision) this.#entries.delete(kv.key);
    else {
      if (e !== undefined) this.#drop(kv.key, e);
      e = { modRevision: kv.modRevision, size, obj: decode(kv.value, kv.modRevision) };
      this.#bytes += size;
    }
    this.#entries.set(kv.key, e);
    this.#evict();
    return e;
  }

  /** Cached entries and their size, for tests. */
  stats(): { entries: number; bytes: number } {
    return { entries: this.#entries.size, bytes: this.#bytes };
  }

  #drop(key: string, e: Entry): void {
    this.#entries.delete(key);
    this.#bytes -= e.size;
  }

  #evict(): void {
    // Checked first: this runs for every item of every read-only LIST, and an iterator per item is garbage.
    if (this.#bytes <= this.#maxBytes) return;
    for (const [key, e] of this.#entries) {
      if (this.#bytes <= this.#maxBytes) return;
      this.#drop(key, e);
    }
  }
}

/** A copy of `obj` (key order kept) whose `sharedMembers` of metadata are `obj`'s own. */
export function shareLargeMembers(obj: KubeObject): KubeObject {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) setMember(out, k, k === "metadata" ? copyMeta(v as Record<string, unknown>) : deepCopy(v));
  return out as KubeObject;
}

function copyMeta(meta: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(meta)) setMember(out, k, sharedMembers.has(k) ? v : deepCopy(v));
  return out;
}

const caches = new WeakMap<object, DecodedValueCache>();

/** The cache of one engine (keys are physical, so one cache per engine, never shared by two). */
export function decodedCacheOf(engine: object): DecodedValueCache {
  let c = caches.get(engine);
  if (c === undefined) caches.set(engine, (c = new DecodedValueCache()));
  return c;
}
