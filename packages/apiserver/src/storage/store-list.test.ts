import { StatusError } from "@servicenet/api/errors";
import { beforeEach, expect, it, vi } from "vitest";
import { describeEachBackend } from "./backend-suite.ts";
import type { KubeObject, Store } from "./interfaces.ts";
import { testObject } from "./testing.ts";

// etcd round trips on a shared 2-core machine can be slow; correctness, not speed, is tested here.
vi.setConfig({ testTimeout: 20_000 });

const dir = "/registry/configmaps/";
const key = (ns: string, name: string): string => `${dir}${ns}/${name}`;
const names = (items: KubeObject[]): string[] => items.map((o) => `${o.metadata.namespace}/${o.metadata.name}`);
const isEven = (o: KubeObject): boolean => Number(o.metadata.name?.slice(1)) % 2 === 0;

async function seed(store: Store, n: number): Promise<string[]> {
  const made: string[] = [];
  for (let i = 0; i < n; i++) {
    const name = `o${String(i).padStart(2, "0")}`;
    await store.create(key("default", name), { ...testObject(name), metadata: { name, namespace: "default" } });
    made.push(`default/${name}`);
  }
  return made;
}

async function statusOf(p: Promise<unknown>): Promise<StatusError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  if (!(e instanceof StatusError)) throw new Error(`expected a StatusError, got ${String(e)}`);
  return e;
}

describeEachBackend(
  "list",
  (ctx) => {
    let store: Store;
    beforeEach(() => {
      store = ctx.store;
    });

    it("lists in key order at the current revision, only under the prefix", async () => {
      const made = await seed(store, 5);
      await store.create(key("other", "x"), testObject("x", { metadata: { name: "x", namespace: "other" } }));
      await store.create("/registry/configmapsx/y", testObject("y"));
      const all = await store.list(dir);
      expect(names(all.items)).toEqual([...made, "other/x"]);
      expect(all.resourceVersion).toBe(String(await store.currentRevision()));
      expect(all.continue).toBeUndefined();
      expect(names((await store.list(`${dir}default`)).items)).toEqual(made);
      expect(await store.count(dir)).toBe(6);
    });

    it("pages with limit and continue at the first page's revision", async () => {
      const made = await seed(store, 25);
      const p1 = await store.list(dir, { limit: 10 });
      expect(p1.items).toHaveLength(10);
      expect(p1.remainingItemCount).toBe(15);
      // Writes after the first page are invisible to the rest of this list.
      await store.create(key("default", "o99"), testObject("o99"));
      await store.delete(key("default", "o20"));
      const p2 = await store.list(dir, { limit: 10, continue: p1.continue! });
      const p3 = await store.list(dir, { limit: 10, continue: p2.continue! });
      expect([p2.resourceVersion, p3.resourceVersion]).toEqual([p1.resourceVersion, p1.resourceVersion]);
      expect(p3.continue).toBeUndefined();
      expect(names([...p1.items, ...p2.items, ...p3.items])).toEqual(made);
    });

    it("fills the limit after filtering, as upstream does", async () => {
      await seed(store, 30);
      const p1 = await store.list(dir, { limit: 4, predicate: isEven });
      expect(names(p1.items)).toEqual(["default/o00", "default/o02", "default/o04", "default/o06"]);
      expect(p1.remainingItemCount).toBeUndefined();
      let all = [...p1.items];
      let token = p1.continue;
      while (token) {
        const page = await store.list(dir, { limit: 4, predicate: isEven, continue: token });
        all = all.concat(page.items);
        token = page.continue;
      }
      expect(all).toHaveLength(15);
      expect(all.every(isEven)).toBe(true);
    });

    it("reads an exact older revision", async () => {
      await seed(store, 3);
      const rev = await store.currentRevision();
      await store.delete(key("default", "o00"));
      await store.guaranteedUpdate(key("default", "o01"), (cur) => ({ ...cur, data: { v: "2" } }));
      const old = await store.list(dir, { resourceVersion: String(rev), resourceVersionMatch: "Exact" });
      expect(names(old.items)).toEqual(["default/o00", "default/o01", "default/o02"]);
      expect(old.items[1]!["data"]).toBeUndefined();
      expect(old.resourceVersion).toBe(String(rev));
      const notOlder = await store.list(dir, { resourceVersion: String(rev), resourceVersionMatch: "NotOlderThan" });
      expect(names(notOlder.items)).toEqual(["default/o01", "default/o02"]);
    });

    it.each([
      [{ resourceVersionMatch: "Exact" as const }, 400],
      [{ resourceVersion: "abc" }, 400],
      [{ resourceVersion: "5", continue: "x" }, 400],
      [{ continue: "bm90LWpzb24" }, 400],
    ])("rejects bad options %j", async (opts, code) => {
      expect((await statusOf(store.list(dir, opts))).code).toBe(code);
    });

    it("a resourceVersion newer than the store is TooLargeResourceVersion", async () => {
      await seed(store, 1);
      const rev = await store.currentRevision();
      for (const match of ["Exact", "NotOlderThan"] as const) {
        const e = await statusOf(store.list(dir, { resourceVersion: String(rev + 100), resourceVersionMatch: match }));
        expect(e.message).toBe(`Too large resource version: ${rev + 100}, current: ${rev}`);
      }
    });

    it("an exact read or a continue token below the compacted revision is 410 Expired", async () => {
      await seed(store, 6);
      const old = await store.currentRevision();
      const p1 = await store.list(dir, { limit: 2 });
      for (let i = 0; i < 3; i++) await store.guaranteedUpdate(key("default", "o00"), (cur) => ({ ...cur, data: { i: String(i) } }));
      await store.compact(await store.currentRevision());
      const e1 = await statusOf(store.list(dir, { resourceVersion: String(old - 1), resourceVersionMatch: "Exact" }));
      expect([e1.code, e1.reason, e1.message]).toEqual([410, "Expired", "The resourceVersion for the provided list is too old."]);
      const e2 = await statusOf(store.list(dir, { limit: 2, continue: p1.continue! }));
      expect([e2.code, e2.message.startsWith("The provided continue parameter is too old")]).toEqual([410, true]);
      // The error offers an inconsistent continuation at the latest revision (rv -1), as upstream.
      const retry = (e2.status.metadata as { continue?: string }).continue;
      expect(JSON.parse(Buffer.from(retry!, "base64url").toString()).rv).toBe(-1);
      const rest = await store.list(dir, { limit: 10, continue: retry! });
      expect(names(rest.items)).toEqual(["default/o02", "default/o03", "default/o04", "default/o05"]);
      expect((await store.list(dir)).items).toHaveLength(6);
    });
  },
  { sharedHistory: true },
);
