/**
 * The distributed engine: a real etcd through the etcd3 npm client's raw gRPC stubs. Everything maps
 * one to one (etcd is the model of KVEngine): CAS transactions compare `mod_revision`, reads at a
 * revision use `range.revision`, watches resume with `start_revision` and previous KVs. The
 * compacted revision is kept in `compact_rev_key`, as kube-apiserver keeps it, because etcd does
 * not report it on reads; watches get it from etcd's `compact_revision` (etcd-watch.ts), which also
 * covers compactions made by others (`etcdctl compact`, another apiserver).
 */
import { Etcd3, GRPCOutOfRangeError, type IRequestOp } from "etcd3";
import { openEtcdWatch, toRaw } from "./etcd-watch.ts";
import { checkRequestSize, isRequestTooLarge, requestTooLarge } from "../request-size.ts";
import {
  CompactedError,
  type KVCompare,
  type KVEngine,
  type KVRangeResult,
  type KVTxnResult,
  type KVWatchHandlers,
  type KVWrite,
  type RawKV,
} from "../kv.ts";

export interface EtcdEngineConfig {
  endpoints: string[];
}

/** Upstream's compaction bookkeeping key (storage/etcd3/compact.go). */
export const compactRevKey = "compact_rev_key";

/** Connects to etcd (lazily; the first request fails if it is unreachable). */
export function createEtcdEngine(cfg: EtcdEngineConfig): KVEngine {
  // Lists of thousands of objects exceed gRPC's 4 MiB default; kube-apiserver lifts the limit too.
  return new EtcdEngine(new Etcd3({ hosts: cfg.endpoints, grpcOptions: { "grpc.max_receive_message_length": -1 } }));
}

const b = (s: string): Buffer => Buffer.from(s, "utf8");
/** Our "end of key space" sentinel is etcd's "\0" range end. */
const endBuf = (end: string): Buffer => (end === "\u{10FFFF}" ? Buffer.from([0]) : b(end));

function isCompacted(e: unknown): boolean {
  return e instanceof GRPCOutOfRangeError || (e instanceof Error && /compacted/.test(e.message));
}

class EtcdEngine implements KVEngine {
  readonly backend = "etcd" as const;
  private readonly client: Etcd3;
  /** Cancel functions of the open watches, ended on close (they would re-open streams otherwise). */
  private readonly watches = new Set<() => void>();

  constructor(client: Etcd3) {
    this.client = client;
  }

  async get(key: string): Promise<RawKV | null> {
    const res = await this.client.kv.range({ key: b(key) });
    const kv = res.kvs[0];
    return kv ? toRaw(kv) : null;
  }

  range(start: string, end: string, opts: { revision?: number; limit?: number }): Promise<KVRangeResult> {
    return this.readAt(async () => {
      const res = await this.client.kv.range({
        key: b(start),
        range_end: endBuf(end),
        revision: opts.revision ?? 0,
        limit: opts.limit ?? 0,
      });
      return { kvs: res.kvs.map(toRaw), revision: opts.revision || Number(res.header.revision), more: res.more };
    });
  }

  count(start: string, end: string, revision?: number): Promise<number> {
    return this.readAt(async () => {
      const res = await this.client.kv.range({ key: b(start), range_end: endBuf(end), revision: revision ?? 0, count_only: true });
      return Number(res.count);
    });
  }

  /**
   * Runs a read that may name a revision: etcd's `OUT_OF_RANGE ... required revision has been
   * compacted` becomes the engine's CompactedError, for ranges and counts alike.
   */
  private async readAt<T>(read: () => Promise<T>): Promise<T> {
    try {
      return await read();
    } catch (e) {
      if (isCompacted(e)) throw new CompactedError(await this.compactedRevision());
      throw e;
    }
  }

  /**
   * One etcd Txn per call, comparing every mod_revision, so that every single-object write gets a
   * revision of its own as in kube-apiserver (etcd3/store.go issues one Txn per write). Concurrent
   * calls are all in flight at once on the one gRPC channel; etcd's raft batches their proposals
   * and fsyncs. (Several writes of one multi-key txn share its revision; see kv-watch.ts.) On
   * failure the compared keys are read back in a second request (a failure branch of N ranges
   * would make every create request twice as big, for the rare conflict); the read is only a hint
   * for the retry, whose CAS checks again.
   */
  async txn(compares: readonly KVCompare[], writes: readonly KVWrite[]): Promise<KVTxnResult> {
    const tooLarge = checkRequestSize(compares, writes);
    if (tooLarge) throw tooLarge;
    const success: IRequestOp[] = writes.map((w) =>
      w.type === "put" ? { request_put: { key: b(w.key), value: b(w.value) } } : { request_delete_range: { key: b(w.key) } },
    );
    const res = await this.client.kv
      .txn({
        compare: compares.map((c) => ({ key: b(c.key), target: "Mod", result: "Equal", mod_revision: c.modRevision })),
        success,
      })
      .catch((e: unknown) => {
        // An etcd started with a smaller --max-request-bytes refuses what passed the check above.
        throw isRequestTooLarge(e) ? requestTooLarge() : e;
      });
    if (res.succeeded) return { succeeded: true, revisions: writes.map(() => Number(res.header.revision)), current: [] };
    const current = await Promise.all(compares.map((c) => this.get(c.key)));
    return { succeeded: false, revisions: [], current };
  }

  watch(start: string, end: string, fromRevision: number, handlers: KVWatchHandlers): () => void {
    const stop = openEtcdWatch(this.client.watchClient, { key: b(start), rangeEnd: endBuf(end) }, fromRevision, {
      ...handlers,
      onError: (err, compacted) => {
        this.watches.delete(stop);
        handlers.onError(err, compacted);
      },
    });
    this.watches.add(stop);
    return () => {
      this.watches.delete(stop);
      stop();
    };
  }

  async currentRevision(): Promise<number> {
    const res = await this.client.kv.range({ key: b(compactRevKey), count_only: true });
    return Number(res.header.revision);
  }

  async compactedRevision(): Promise<number> {
    const kv = await this.get(compactRevKey);
    return kv ? Number(kv.value) || 0 : 0;
  }

  async compact(revision: number): Promise<void> {
    const current = await this.currentRevision();
    const target = Math.min(revision, current);
    if (target <= (await this.compactedRevision())) return;
    try {
      await this.client.kv.compact({ revision: target, physical: false });
    } catch (e) {
      if (!isCompacted(e)) throw e;
    }
    await this.client.kv.put({ key: b(compactRevKey), value: b(String(target)) });
  }

  async close(): Promise<void> {
    for (const stop of this.watches) stop();
    this.watches.clear();
    this.client.close();
  }
}
