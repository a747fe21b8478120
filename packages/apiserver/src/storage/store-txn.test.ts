import { StatusError } from "@servicenet/api/errors";
import { beforeEach, expect, it, vi } from "vitest";
import { describeEachBackend } from "./backend-suite.ts";
import type { Store, TxnOp } from "./interfaces.ts";
import { testObject } from "./testing.ts";

// etcd round trips on a shared 2-core machine can be slow; correctness, not speed, is tested here.
vi.setConfig({ testTimeout: 20_000 });

const svc = (name: string): string => `/registry/services/specs/default/${name}`;
const ip = (addr: string): string => `/registry/ipaddresses/${addr}`;

describeEachBackend("multi-key transactions", (ctx) => {
  let store: Store;
  const backend = ctx.backend;
  beforeEach(() => {
    store = ctx.store;
  });

  it("creates a Service and its IPAddress together", async () => {
    const res = await store.txn([
      { type: "create", key: svc("web"), obj: testObject("web") },
      { type: "create", key: ip("10.0.0.10"), obj: { metadata: { name: "10.0.0.10" } } },
    ]);
    expect(res.objects).toHaveLength(2);
    expect(await store.get(svc("web"))).toEqual(res.objects[0]);
    expect(await store.get(ip("10.0.0.10"))).toEqual(res.objects[1]);
    if (backend !== "etcd") expect(res.revision).toBe(await store.currentRevision());
  });

  it.each<[string, (s: Store) => Promise<TxnOp[]>, string, string]>([
    [
      "a create of an existing key",
      async (s) => {
        await s.create(ip("10.0.0.10"), { metadata: { name: "10.0.0.10" } });
        return [
          { type: "create", key: svc("web"), obj: testObject("web") },
          { type: "create", key: ip("10.0.0.10"), obj: { metadata: { name: "10.0.0.10" } } },
        ];
      },
      "AlreadyExists",
      'ipaddresses "10.0.0.10" already exists',
    ],
    [
      "an update with a stale revision",
      async (s) => {
        const bitmap = await s.create("/registry/ranges/serviceips", { metadata: { name: "" }, data: "AA==" });
        await s.guaranteedUpdate("/registry/ranges/serviceips", (cur) => ({ ...cur, data: "AQ==" }));
        return [
          { type: "create", key: svc("web"), obj: testObject("web") },
          {
            type: "update",
            key: "/registry/ranges/serviceips",
            obj: { ...bitmap, data: "Aw==" },
            expectedRevision: bitmap.metadata.resourceVersion!,
          },
        ];
      },
      "Conflict",
      'Operation cannot be fulfilled on ranges "serviceips": the object has been modified; please apply your changes to the latest version and try again',
    ],
    [
      "a delete of a missing key",
      async () => [
        { type: "create", key: svc("web"), obj: testObject("web") },
        { type: "delete", key: ip("10.0.0.99") },
      ],
      "NotFound",
      'ipaddresses "10.0.0.99" not found',
    ],
  ])("applies nothing when one op fails: %s", async (_name, setup, reason, message) => {
    const ops = await setup(store);
    const rev = await store.currentRevision();
    const e = await store.txn(ops).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(StatusError);
    expect([(e as StatusError).reason, (e as StatusError).message]).toEqual([reason, message]);
    expect(await store.get(svc("web"), { ignoreNotFound: true })).toBeNull();
    if (backend !== "etcd") expect(await store.currentRevision()).toBe(rev); // etcd: shared, other writers
  });

  it("updates and deletes with matching revisions", async () => {
    const a = await store.create(svc("a"), testObject("a"));
    const b = await store.create(svc("b"), testObject("b"));
    const res = await store.txn([
      { type: "update", key: svc("a"), obj: { ...a, data: { v: "2" } } },
      { type: "delete", key: svc("b"), expectedRevision: Number(b.metadata.resourceVersion) },
    ]);
    expect((await store.get(svc("a")))["data"]).toEqual({ v: "2" });
    expect(res.objects[1]).toEqual(b);
    expect(await store.get(svc("b"), { ignoreNotFound: true })).toBeNull();
  });

  it("stays all-or-nothing under concurrent transactions on overlapping keys", async () => {
    // 16 transactions each try to claim IP n and n+1; overlapping claims must never half-apply.
    const results = await Promise.allSettled(
      Array.from({ length: 16 }, (_, n) =>
        store.txn([
          { type: "create", key: ip(`10.0.0.${n}`), obj: { metadata: { name: `10.0.0.${n}` }, spec: { owner: n } } },
          { type: "create", key: ip(`10.0.0.${n + 1}`), obj: { metadata: { name: `10.0.0.${n + 1}` }, spec: { owner: n } } },
        ]),
      ),
    );
    const won = results.flatMap((r, n) => (r.status === "fulfilled" ? [n] : []));
    expect(won.length).toBeGreaterThan(0);
    const items = (await store.list("/registry/ipaddresses")).items;
    expect(items).toHaveLength(won.length * 2);
    for (const n of won) {
      const owners = items.filter((o) => (o["spec"] as { owner: number }).owner === n).map((o) => o.metadata.name);
      expect(owners.sort()).toEqual([`10.0.0.${n}`, `10.0.0.${n + 1}`].sort());
    }
  });
});
