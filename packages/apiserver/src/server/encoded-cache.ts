/**
 * Each stored object serialized once per encoder, as upstream's watch cache does
 * (staging/src/k8s.io/apiserver/pkg/storage/cacher/caching_object.go, cachingObject.CacheEncode:
 * the first encoder to serialize an object keeps the bytes, every other list or watcher that
 * serializes it with the same encoder reuses them). Here the object is re-read from storage for
 * every request, so the cache is keyed by what identifies its stored version: the object's
 * namespace, name and resourceVersion (a revision no other write shares). An update or delete
 * gives the next read a new resourceVersion, so an entry is never served for a newer version;
 * storing one drops the older version of the same object, and the least recently used entries go
 * past `maxBytes`.
 *
 * Why: a LIST that includes a Service of 100,000 labels ordered its fields (`goFieldOrder`) and
 * stringified 2.4 MB again for every LIST, each one step of hundreds of milliseconds on the only
 * event loop.
 */
import type { KubeObject } from "../storage/index.ts";
import { stringifyJSON } from "../util/json/json.ts";

/** The default bound of one cache (UTF-16 code units of cached JSON, about bytes for ASCII JSON). */
export const defaultEncodedCacheBytes = 64 * 1024 * 1024;

/** JSON text of stored objects, per (encoder, namespace/name, resourceVersion), least recently used out. */
export class EncodedObjectCache {
  readonly #maxBytes: number;
  #bytes = 0;
  /** cache key -> JSON; a Map iterates in insertion order, so re-inserting on a hit keeps LRU order. */
  readonly #entries = new Map<string, string>();
  /** (encoder, namespace/name) -> the cache key of the version held. */
  readonly #versionOf = new Map<string, string>();
  readonly #encoderIds = new WeakMap<object, number>();
  #nextEncoderId = 0;
  /**
   * encoder -> object -> its JSON at a resourceVersion: the encoding kept on the object itself, as
   * cachingObject keeps it, for the objects that many reads share (a read-only LIST's items are the
   * storage's shared decodings, ListOptions.readOnly): a hit is found by identity, without building
   * the object's cache key, once per item of every LIST.
   */
  readonly #attached = new WeakMap<object, WeakMap<KubeObject, { rv: string; json: string }>>();

  constructor(maxBytes = defaultEncodedCacheBytes) {
    this.#maxBytes = maxBytes;
  }

  /**
   * `JSON.stringify(encode(obj))` for `obj` as read from storage, from the cache when this
   * `encoder` already serialized the same version. `encoder` identifies the serialization (the
   * resource's served version and the output format): one object per distinct `encode`. Objects
   * without a resourceVersion (not read from storage) are encoded and not cached.
   */
  encode(encoder: object, obj: KubeObject, encode: (o: KubeObject) => unknown): string {
    const attached = this.#attachedOf(encoder);
    const rv = obj.metadata?.resourceVersion;
    const own = attached.get(obj);
    if (own !== undefined && own.rv === rv) return own.json;
    const at = this.#lookup(encoder, obj);
    if (at === undefined) return stringifyJSON(encode(obj));
    const json = typeof at === "string" ? at : this.#store(at, stringifyJSON(encode(obj)));
    attached.set(obj, { rv: rv!, json });
    return json;
  }

  /** `encode` with a serialization that may give the event loop turns (`encodeText` gives the JSON text). */
  async encodeInTurns(encoder: object, obj: KubeObject, encodeText: (o: KubeObject) => Promise<string>): Promise<string> {
    const at = this.#lookup(encoder, obj);
    if (at === undefined || typeof at === "string") return at ?? encodeText(obj);
    return this.#store(at, await encodeText(obj));
  }

  /** The cached JSON of `obj`'s version (a string), where to cache it (keys), or undefined when it is not cached at all. */
  #lookup(encoder: object, obj: KubeObject): string | { object: string; key: string } | undefined {
    const rv = obj.metadata?.resourceVersion;
    const name = obj.metadata?.name;
    if (!rv || !name) return undefined;
    const object = `${this.#encoderId(encoder)}\0${obj.metadata.namespace ?? ""}/${name}`;
    const key = `${object}\0${rv}`;
    const hit = this.#entries.get(key);
    if (hit === undefined) return { object, key };
    this.#entries.delete(key);
    this.#entries.set(key, hit);
    return hit;
  }

  #store({ object, key }: { object: string; key: string }, json: string): string {
    if (json.length > this.#maxBytes) return json;
    const older = this.#versionOf.get(object);
    if (older !== undefined) this.#drop(older);
    this.#entries.set(key, json);
    this.#versionOf.set(object, key);
    this.#bytes += json.length;
    this.#evict();
    return json;
  }

  /** Cached entries and their size, for tests and metrics. */
  stats(): { entries: number; bytes: number } {
    return { entries: this.#entries.size, bytes: this.#bytes };
  }

  #attachedOf(encoder: object): WeakMap<KubeObject, { rv: string; json: string }> {
    let m = this.#attached.get(encoder);
    if (m === undefined) this.#attached.set(encoder, (m = new WeakMap()));
    return m;
  }

  #encoderId(encoder: object): number {
    let id = this.#encoderIds.get(encoder);
    if (id === undefined) this.#encoderIds.set(encoder, (id = this.#nextEncoderId++));
    return id;
  }

  #drop(key: string): void {
    const json = this.#entries.get(key);
    if (json === undefined) return;
    this.#entries.delete(key);
    this.#bytes -= json.length;
    const object = key.slice(0, key.lastIndexOf("\0"));
    if (this.#versionOf.get(object) === key) this.#versionOf.delete(object);
  }

  #evict(): void {
    for (const key of this.#entries.keys()) {
      if (this.#bytes <= this.#maxBytes) return;
      this.#drop(key);
    }
  }
}

const caches = new WeakMap<object, EncodedObjectCache>();

/**
 * The cache of one resource's storage (upstream has one watch cache per resource): keyed by the
 * REST store, so two servers in one process never share entries.
 */
export function encodedCacheOf(store: object): EncodedObjectCache {
  let c = caches.get(store);
  if (c === undefined) caches.set(store, (c = new EncodedObjectCache()));
  return c;
}
