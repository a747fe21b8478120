// etcd's --max-request-bytes (1.5 MiB) on every backend: a create or update whose stored value is
// over it fails as kube-apiserver's does on etcd (500, no reason, `etcdserver: request is too
// large`) and changes nothing; a value under it is stored.
import { StatusError } from "@servicenet/api/errors";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { describeEachBackend } from "./backend-suite.ts";
import type { Store } from "./interfaces.ts";
import { checkRequestSize, maxRequestBytes, requestBytes } from "./request-size.ts";
import { testObject } from "./testing.ts";

vi.setConfig({ testTimeout: 30_000 });

const key = (name: string): string => `/registry/configmaps/default/${name}`;
const KiB = 1024;

async function failure(p: Promise<unknown>): Promise<StatusError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  if (!(e instanceof StatusError)) throw new Error(`expected a StatusError, got ${String(e)}`);
  return e;
}

const tooLarge = {
  kind: "Status",
  apiVersion: "v1",
  metadata: {},
  status: "Failure",
  message: "etcdserver: request is too large",
  code: 500,
};

describeEachBackend("etcd's request size limit", (ctx) => {
  let store: Store;
  beforeEach(() => {
    store = ctx.store;
  });

  it("refuses a create over 1.5 MiB as etcd does and stores nothing", async () => {
    const e = await failure(store.create(key("big"), testObject("big", { data: { x: "x".repeat(maxRequestBytes + KiB) } })));
    expect(e.status).toEqual(tooLarge);
    await expect(store.get(key("big"))).rejects.toMatchObject({ status: { reason: "NotFound" } });
  });

  it("stores a value under 1.5 MiB", async () => {
    const obj = await store.create(key("under"), testObject("under", { data: { x: "x".repeat(maxRequestBytes - 4 * KiB) } }));
    expect((await store.get(key("under"))).metadata.resourceVersion).toBe(obj.metadata.resourceVersion);
  });

  it("counts UTF-8 bytes: 600,000 three-byte characters are too large", async () => {
    const e = await failure(store.create(key("wide"), testObject("wide", { data: { x: "€".repeat(600_000) } })));
    expect(e.status.message).toBe("etcdserver: request is too large");
  });

  it("refuses an update that grows the object over the limit and keeps the stored object", async () => {
    const obj = await store.create(key("grow"), testObject("grow", { data: { x: "small" } }));
    const e = await failure(store.guaranteedUpdate(key("grow"), (cur) => ({ ...cur, data: { x: "x".repeat(maxRequestBytes + KiB) } })));
    expect(e.status).toEqual(tooLarge);
    const now = await store.get(key("grow"));
    expect(now.metadata.resourceVersion).toBe(obj.metadata.resourceVersion);
    expect(now["data"]).toEqual({ x: "small" });
  });
});

describe("requestBytes", () => {
  it("counts compared keys, written keys and values in UTF-8", () => {
    expect(
      requestBytes(
        [{ key: "/k", modRevision: 0 }],
        [
          { type: "put", key: "/k", value: "é" },
          { type: "delete", key: "/d" },
        ],
      ),
    ).toBe(2 + 2 + 2 + 2);
  });

  it("is checked against the limit, not under it", () => {
    const put = (n: number) => [{ type: "put" as const, key: "", value: "x".repeat(n) }];
    expect(checkRequestSize([], put(maxRequestBytes))).toBeUndefined();
    expect(checkRequestSize([], put(maxRequestBytes + 1))?.status.message).toBe("etcdserver: request is too large");
  });
});
