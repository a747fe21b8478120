/**
 * kube-apiserver's `--etcd-prefix`: every logical key starts with `/registry` (keys.ts), and this
 * engine wrapper stores that root as another one (`/registry/services/specs/a/b` under
 * `--etcd-prefix /tenant-a` is `/tenant-a/services/specs/a/b`, as upstream lays it out). A pure
 * prefix substitution keeps key order and range ends (prefixEnd commutes with it), so lists,
 * continue tokens and watches work unchanged. The default root needs no wrapper at all.
 */
import { posix } from "node:path";
import { StatusError } from "@servicenet/api/errors";
import type { KVCompare, KVEngine, KVEvent, KVWrite, RawKV } from "./kv.ts";

/**
 * Normalises an `--etcd-prefix` value the way upstream's etcd3 store does (`path.Join("/", prefix)`),
 * without the trailing "/": "tenant-a/" -> "/tenant-a", "/" -> "".
 */
export function normalizeEtcdPrefix(prefix: string): string {
  const joined = posix.join("/", prefix);
  return joined === "/" ? "" : joined.replace(/\/+$/, "");
}

/** `engine` with keys under `from` stored under `to` instead (and reported back under `from`). */
export function withKeyRoot(engine: KVEngine, from: string, to: string): KVEngine {
  if (from === to) return engine;
  const down = (key: string): string => {
    if (!key.startsWith(from)) throw StatusError.internal(`storage key ${JSON.stringify(key)} is outside the key root ${from}`);
    return to + key.slice(from.length);
  };
  const up = (key: string): string => (key.startsWith(to) ? from + key.slice(to.length) : key);
  // One mapped object per engine object: the watch side decodes a value delivered to several
  // subscribers once, keyed by the RawKV object (kv-watch.ts decodeShared).
  const mapped = new WeakMap<RawKV, RawKV>();
  const upKV = (kv: RawKV): RawKV => {
    let m = mapped.get(kv);
    if (m === undefined) {
      m = { ...kv, key: up(kv.key) };
      mapped.set(kv, m);
    }
    return m;
  };
  const upEvent = (e: KVEvent): KVEvent => ({ ...e, kv: upKV(e.kv), prev: e.prev === null ? null : upKV(e.prev) });
  return {
    backend: engine.backend,
    get: async (key) => {
      const kv = await engine.get(down(key));
      return kv === null ? null : upKV(kv);
    },
    range: async (start, end, opts) => {
      const r = await engine.range(down(start), down(end), opts);
      return { ...r, kvs: r.kvs.map(upKV) };
    },
    count: (start, end, revision) => engine.count(down(start), down(end), revision),
    txn: async (compares: readonly KVCompare[], writes: readonly KVWrite[]) => {
      const r = await engine.txn(
        compares.map((c) => ({ ...c, key: down(c.key) })),
        writes.map((w) => ({ ...w, key: down(w.key) })),
      );
      return { ...r, current: r.current.map((kv) => (kv === null ? null : upKV(kv))) };
    },
    watch: (start, end, fromRevision, handlers) =>
      engine.watch(down(start), down(end), fromRevision, { ...handlers, onEvents: (events) => handlers.onEvents(events.map(upEvent)) }),
    currentRevision: () => engine.currentRevision(),
    compactedRevision: () => engine.compactedRevision(),
    compact: (revision) => engine.compact(revision),
    close: () => engine.close(),
  };
}
