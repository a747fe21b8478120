/**
 * Watch resumption, as every informer does after a reconnect: each write has its own
 * resourceVersion, strictly increasing in watch order, and a watch from any of them delivers every
 * later write (upstream: a watch from RV N delivers the events with RV > N). On etcd concurrent
 * writes once shared one Txn and so one revision, and a resumed watch lost the others.
 */
import { expect, it, vi } from "vitest";
import { describeEachBackend } from "./backend-suite.ts";
import type { KubeObject } from "./interfaces.ts";
import { collect, testObject } from "./testing.ts";

vi.setConfig({ testTimeout: 60_000 });

const dir = "/registry/configmaps/resume/";
const key = (n: string): string => dir + n;
const rv = (o: KubeObject): number => Number(o.metadata.resourceVersion);
const names = (evs: { object: unknown }[]): string[] => evs.map((e) => (e.object as KubeObject).metadata.name!);

describeEachBackend(
  "watch resumption",
  (ctx) => {
    it("gives concurrent writes distinct resourceVersions, strictly increasing in watch order", async () => {
      const { store } = ctx;
      const start = await store.currentRevision();
      const created = await Promise.all(Array.from({ length: 64 }, (_, i) => store.create(key(`c${i}`), testObject(`c${i}`))));
      const updated = await Promise.all(
        created.map((o) => store.guaranteedUpdate(key(o.metadata.name!), (cur) => ({ ...cur, data: { v: "2" } }))),
      );
      const rvs = [...created, ...updated].map(rv);
      expect(new Set(rvs).size).toBe(128);
      const evs = await collect(store.watch(dir, { resourceVersion: String(start), recursive: true }), 128);
      const order = evs.map((e) => rv(e.object as KubeObject));
      for (let i = 1; i < order.length; i++) expect(order[i]).toBeGreaterThan(order[i - 1]!);
      expect([...order].sort((a, b) => a - b)).toEqual([...rvs].sort((a, b) => a - b));
    });

    it("delivers every later write to a watch resumed from any write's resourceVersion", async () => {
      const { store } = ctx;
      const writes = await Promise.all(Array.from({ length: 40 }, (_, i) => store.create(key(`r${i}`), testObject(`r${i}`))));
      const byRv = [...writes].sort((a, b) => rv(a) - rv(b));
      // Later in commit order: also the writes that (wrongly) share w's resourceVersion.
      for (const [i, w] of byRv.entries()) {
        const later = byRv.slice(i + 1).map((o) => o.metadata.name!);
        if (later.length === 0) continue;
        const evs = await collect(store.watch(dir, { resourceVersion: String(rv(w)), recursive: true }), later.length, 5_000);
        expect({ from: w.metadata.name, seen: names(evs).sort() }).toEqual({ from: w.metadata.name, seen: later.sort() });
      }
    });

    it("does not lose the siblings of a multi-key transaction when resumed from its revision", async () => {
      const { store } = ctx;
      const res = await store.txn(["t1", "t2", "t3"].map((n) => ({ type: "create" as const, key: key(n), obj: testObject(n) })));
      // A client that saw t1 resumes from t1's resourceVersion and must still get t2 and t3.
      const watch = store.watch(dir, { resourceVersion: res.objects[0]!.metadata.resourceVersion!, recursive: true });
      setTimeout(() => void store.create(key("after"), testObject("after")), 50);
      const seen: string[] = [];
      for await (const ev of watch) {
        seen.push(...names([ev]));
        if (seen.includes("after")) break;
      }
      expect(seen).toEqual(expect.arrayContaining(["t2", "t3", "after"]));
      // Each sibling exactly once (t1, which the client has, may come again).
      expect(seen.filter((n) => n === "t2" || n === "t3")).toHaveLength(2);
    });
  },
  { seed: true },
);
