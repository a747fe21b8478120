/**
 * The distributed engine: a real etcd through the etcd3 npm client's raw gRPC stubs. Everything maps
 * one to one (etcd is the model of KVEngine): CAS transactions compare `mod_revision`, reads at a
 * revision use `range.revision`, watches resume with `start_revision` and previous KVs. The
 * compacted revision is kept in `compact_rev_key`, as kube-apiserver keeps it, because etcd does
 * not report it (and the npm client drops `compact_revision` from canceled watches).
 */
import { Etcd3, GRPCOutOfRangeError, Range, type IKeyValue, type IRequestOp } from "etcd3";
import { TxnBatcher } from "./txn-batcher.ts";
import { CompactedError, type KVCompare, type KVEngine, type KVEvent, type KVRangeResult, type KVTxnResult, type KVWatchHandlers, type KVWrite, type RawKV } from "../kv.ts";

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

function toRaw(kv: IKeyValue): RawKV {
  return { key: kv.key.toString("utf8"), value: kv.value.toString("utf8"), modRevision: Number(kv.mod_revision), createRevision: Number(kv.create_revision) };
}

function isCompacted(e: unknown): boolean {
  return e instanceof GRPCOutOfRangeError || (e instanceof Error && /compacted/.test(e.message));
}

class EtcdEngine implements KVEngine {
  readonly backend = "etcd" as const;
  private readonly client: Etcd3;
  private readonly batcher: TxnBatcher;

  constructor(client: Etcd3) {
    this.client = client;
    this.batcher = new TxnBatcher((compares, writes) => this.rawTxn(compares, writes));
  }

  async get(key: string): Promise<RawKV | null> {
    const res = await this.client.kv.range({ key: b(key) });
    const kv = res.kvs[0];
    return kv ? toRaw(kv) : null;
  }

  async range(start: string, end: string, opts: { revision?: number; limit?: number }): Promise<KVRangeResult> {
    try {
      const res = await this.client.kv.range({ key: b(start), range_end: endBuf(end), revision: opts.revision ?? 0, limit: opts.limit ?? 0 });
      return { kvs: res.kvs.map(toRaw), revision: opts.revision || Number(res.header.revision), more: res.more };
    } catch (e) {
      if (isCompacted(e)) throw new CompactedError(await this.compactedRevision());
      throw e;
    }
  }

  async count(start: string, end: string, revision?: number): Promise<number> {
    const res = await this.client.kv.range({ key: b(start), range_end: endBuf(end), revision: revision ?? 0, count_only: true });
    return Number(res.count);
  }

  txn(compares: readonly KVCompare[], writes: readonly KVWrite[]): Promise<KVTxnResult> {
    return this.batcher.submit({ compares, writes });
  }

  /**
   * One etcd Txn comparing every mod_revision. On failure the compared keys are read back in a
   * second request (a failure branch of N ranges would make every create request twice as big,
   * for the rare conflict); the read is only a hint for the retry, whose CAS checks again.
   */
  private async rawTxn(compares: readonly KVCompare[], writes: readonly KVWrite[]): Promise<{ succeeded: boolean; revision: number; current: (RawKV | null)[] }> {
    const success: IRequestOp[] = writes.map((w) => (w.type === "put" ? { request_put: { key: b(w.key), value: b(w.value) } } : { request_delete_range: { key: b(w.key) } }));
    const res = await this.client.kv.txn({
      compare: compares.map((c) => ({ key: b(c.key), target: "Mod", result: "Equal", mod_revision: c.modRevision })),
      success,
    });
    const revision = Number(res.header.revision);
    if (res.succeeded) return { succeeded: true, revision, current: [] };
    const current = await Promise.all(compares.map((c) => this.get(c.key)));
    return { succeeded: false, revision, current };
  }

  watch(start: string, end: string, fromRevision: number, handlers: KVWatchHandlers): () => void {
    let cancelled = false;
    const pending = this.client
      .watch()
      .inRange(new Range(b(start), endBuf(end)))
      .startRevision(String(fromRevision))
      .withPreviousKV()
      .create();
    pending.then(
      (watcher) => {
        if (cancelled) {
          void watcher.cancel();
          return;
        }
        watcher.on("data", (res) => {
          const events: KVEvent[] = (res.events ?? []).map((e) => ({
            type: e.type === "Delete" ? "delete" : "put",
            kv: e.type === "Delete" ? { ...toRaw(e.kv), value: "" } : toRaw(e.kv),
            prev: e.prev_kv ? toRaw(e.prev_kv) : null,
          }));
          if (events.length > 0) handlers.onEvents(events);
          // The header revision of an event-less, non-"created" response (a progress notification,
          // sent to synced watchers only) promises nothing older is pending. Responses replaying
          // history carry the *current* revision with more history to come, so they do not count.
          else if (!res.created) handlers.onProgress?.(Number(res.header.revision));
        });
        watcher.on("error", (err) => {
          // etcd cancels a watch from a compacted revision without a reason; assume compaction.
          handlers.onError(err, isCompacted(err) || /cancel/i.test(String(err)));
        });
      },
      (err: unknown) => handlers.onError(err, isCompacted(err)),
    );
    return () => {
      cancelled = true;
      void pending.then((w) => w.cancel()).catch(() => {});
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
    this.client.close();
  }
}
