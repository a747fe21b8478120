import { EventEmitter } from "node:events";
import { ClientClosedError, type IWatchRequest, type IWatchResponse, type WatchClient } from "etcd3";
import { describe, expect, it } from "vitest";
import { CompactedError, type KVEvent } from "../kv.ts";
import { openEtcdWatch } from "./etcd-watch.ts";

/** A gRPC Watch stream stand-in: records writes, lets the test push responses and errors. */
class FakeStream extends EventEmitter {
  readonly writes: IWatchRequest[] = [];
  ended = false;
  cancelled = false;
  write(req: IWatchRequest): boolean {
    this.writes.push(req);
    return true;
  }
  end(): void {
    this.ended = true;
  }
  cancel(): void {
    this.cancelled = true;
    this.emit("error", new Error("1 CANCELLED: Cancelled on client"));
  }
}

function fakeClient(): { client: WatchClient; streams: FakeStream[] } {
  const streams: FakeStream[] = [];
  const client = {
    watch: async () => {
      const s = new FakeStream();
      s.on("error", () => {});
      streams.push(s);
      return s;
    },
  } as unknown as WatchClient;
  return { client, streams };
}

const header = (revision: number) => ({ cluster_id: "1", member_id: "1", revision: String(revision), raft_term: "2" });
const kv = (key: string, rev: number) => ({
  key: Buffer.from(key),
  value: Buffer.from("{}"),
  mod_revision: String(rev),
  create_revision: String(rev),
  version: "1",
  lease: "0",
});
const response = (r: Partial<IWatchResponse>): IWatchResponse =>
  ({
    header: header(10),
    watch_id: "0",
    created: false,
    canceled: false,
    compact_revision: "0",
    cancel_reason: "",
    events: [],
    ...r,
  }) as IWatchResponse;
const put = (key: string, rev: number) =>
  response({ header: header(rev), events: [{ type: "Put", kv: kv(key, rev) }] as IWatchResponse["events"] });
const tick = () => new Promise((r) => setImmediate(r));
const range = { key: Buffer.from("/a/"), rangeEnd: Buffer.from("/a0") };

function recorder() {
  const events: KVEvent[] = [];
  const errors: { err: unknown; compacted: boolean | undefined }[] = [];
  const progress: number[] = [];
  return {
    events,
    errors,
    progress,
    handlers: {
      onEvents: (e: KVEvent[]) => void events.push(...e),
      onError: (err: unknown, compacted?: boolean) => void errors.push({ err, compacted }),
      onProgress: (r: number) => void progress.push(r),
    },
  };
}

describe("openEtcdWatch", () => {
  it("creates the watch from the given revision with previous KVs and delivers events", async () => {
    const { client, streams } = fakeClient();
    const r = recorder();
    openEtcdWatch(client, range, 5, r.handlers);
    await tick();
    expect(streams[0]!.writes).toEqual([
      { create_request: { key: range.key, range_end: range.rangeEnd, start_revision: 5, prev_kv: true, progress_notify: true } },
    ]);
    streams[0]!.emit("data", response({ created: true }));
    streams[0]!.emit("data", put("/a/x", 6));
    streams[0]!.emit("data", response({ header: header(9) }));
    expect(r.events.map((e) => [e.type, e.kv.key, e.kv.modRevision])).toEqual([["put", "/a/x", 6]]);
    expect(r.progress).toEqual([9]);
  });

  it("reports a compaction cancel as a CompactedError with etcd's compact_revision", async () => {
    const { client, streams } = fakeClient();
    const r = recorder();
    openEtcdWatch(client, range, 2, r.handlers);
    await tick();
    streams[0]!.emit("data", response({ created: true }));
    streams[0]!.emit("data", response({ canceled: true, compact_revision: "42" }));
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]!.compacted).toBe(true);
    expect((r.errors[0]!.err as CompactedError).compactedRevision).toBe(42);
    expect(streams[0]!.ended && streams[0]!.cancelled).toBe(true);
    // Late responses on the closed stream (etcd answering a cancel) are ignored, not thrown.
    expect(() => streams[0]!.emit("data", response({ canceled: true }))).not.toThrow();
    expect(r.errors).toHaveLength(1);
  });

  it("re-opens a broken stream from the first revision not yet delivered", async () => {
    const { client, streams } = fakeClient();
    const r = recorder();
    openEtcdWatch(client, range, 3, r.handlers);
    await tick();
    streams[0]!.emit("data", put("/a/x", 7));
    streams[0]!.emit("error", new Error("14 UNAVAILABLE: Connection dropped"));
    await new Promise((res) => setTimeout(res, 120));
    expect(streams).toHaveLength(2);
    expect(streams[1]!.writes[0]?.create_request?.start_revision).toBe(8);
    expect(r.errors).toEqual([]);
  });

  it("turns a throwing handler into one onError instead of an exception in the stream", async () => {
    const { client, streams } = fakeClient();
    const errors: unknown[] = [];
    openEtcdWatch(client, range, 1, {
      onEvents: () => {
        throw new Error("boom");
      },
      onError: (e) => void errors.push(e),
    });
    await tick();
    expect(() => streams[0]!.emit("data", put("/a/x", 2))).not.toThrow();
    expect(errors.map(String)).toEqual(["Error: boom"]);
  });

  it("ends with an error instead of retrying once the client is closed", async () => {
    const r = recorder();
    const client = { watch: async () => Promise.reject(new ClientClosedError("WatchClient")) } as unknown as WatchClient;
    openEtcdWatch(client, range, 1, r.handlers);
    await tick();
    expect(r.errors.map((e) => e.err instanceof ClientClosedError)).toEqual([true]);
  });

  it("cancels without reporting anything and never re-opens", async () => {
    const { client, streams } = fakeClient();
    const r = recorder();
    const cancel = openEtcdWatch(client, range, 1, r.handlers);
    await tick();
    cancel();
    await new Promise((res) => setTimeout(res, 120));
    expect(streams).toHaveLength(1);
    expect(streams[0]!.ended).toBe(true);
    expect(r.errors).toEqual([]);
  });
});
