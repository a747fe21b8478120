import { StatusError } from "@servicenet/api/errors";
import { beforeEach, expect, it, vi } from "vitest";
import { describeEachBackend } from "./backend-suite.ts";
import { optimisticLockErrorMsg } from "./errors.ts";
import type { KubeObject, Store } from "./interfaces.ts";
import { testObject } from "./testing.ts";

// etcd round trips on a shared 2-core machine can be slow; correctness, not speed, is tested here.
vi.setConfig({ testTimeout: 20_000 });

const key = (name: string): string => `/registry/configmaps/default/${name}`;
const counter = (o: KubeObject): number => Number((o["data"] as { n?: string } | undefined)?.n ?? 0);
const withCounter = (o: KubeObject, n: number): KubeObject => ({ ...o, data: { n: String(n) } });

describeEachBackend("GuaranteedUpdate", (ctx) => {
  let store: Store;
  const backend = ctx.backend;
  beforeEach(() => {
    store = ctx.store;
  });

  it("applies the function to the current object and bumps the resourceVersion", async () => {
    const created = await store.create(key("a"), withCounter(testObject("a"), 1));
    const updated = await store.guaranteedUpdate(key("a"), (cur) => withCounter(cur, counter(cur) + 1));
    expect(counter(updated)).toBe(2);
    expect(Number(updated.metadata.resourceVersion)).toBeGreaterThan(Number(created.metadata.resourceVersion));
    expect(updated.metadata.uid).toBe(created.metadata.uid);
    expect(await store.get(key("a"))).toEqual(updated);
  });

  it("rejects a stale client resourceVersion with upstream's Conflict message", async () => {
    const v1 = await store.create(key("a"), withCounter(testObject("a"), 1));
    await store.guaranteedUpdate(key("a"), (cur) => withCounter(cur, 2));
    const e = await store.guaranteedUpdate(key("a"), () => withCounter(v1, 3)).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(StatusError);
    expect((e as StatusError).code).toBe(409);
    expect((e as StatusError).message).toBe(`Operation cannot be fulfilled on configmaps "a": ${optimisticLockErrorMsg}`);
    expect(counter(await store.get(key("a")))).toBe(2);
  });

  it("skips the write when the bytes do not change", async () => {
    const v1 = await store.create(key("a"), withCounter(testObject("a"), 1));
    const rev = await store.currentRevision();
    const same = await store.guaranteedUpdate(key("a"), (cur) => cur);
    expect(same).toEqual(v1);
    expect(await store.get(key("a"))).toEqual(v1);
    if (backend !== "etcd") expect(await store.currentRevision()).toBe(rev); // etcd: shared, other writers
  });

  it("answers a write that changes nothing with the stored object, whatever tryUpdate did to its input", async () => {
    const v1 = await store.create(key("a"), withCounter(testObject("a"), 1));
    // tryUpdate gets the decoded current object itself (etcd3 updateState): changing it and then
    // returning the stored state again writes nothing, and the answer is what is stored.
    const same = await store.guaranteedUpdate(key("a"), (cur) => {
      const unchanged = structuredClone(cur);
      cur["data"] = { n: "changed in place" };
      return unchanged;
    });
    expect(same).toEqual(v1);
    expect(await store.get(key("a"))).toEqual(v1);
  });

  it("fails NotFound on a missing key unless ignoreNotFound, which creates it", async () => {
    const e = await store.guaranteedUpdate(key("n"), (cur) => cur).catch((x: unknown) => x);
    expect((e as StatusError).reason).toBe("NotFound");
    const made = await store.guaranteedUpdate(key("n"), (cur) => ({ ...testObject("n"), metadata: { ...cur.metadata, name: "n" } }), {
      ignoreNotFound: true,
    });
    expect(made.metadata.uid).toBeTruthy();
    expect(await store.get(key("n"))).toEqual(made);
  });

  it("checks preconditions against the current object", async () => {
    await store.create(key("a"), testObject("a"));
    const e = await store.guaranteedUpdate(key("a"), (cur) => cur, { preconditions: { uid: "nope" } }).catch((x: unknown) => x);
    expect((e as StatusError).reason).toBe("Conflict");
    expect((e as StatusError).message).toContain("Precondition failed: UID in precondition: nope");
  });

  it("checks preconditions against an empty object when the key is gone, even with ignoreNotFound", async () => {
    const created = await store.create(key("gone"), testObject("gone"));
    await store.delete(key("gone"));
    const uid = created.metadata.uid ?? "";
    let called = false;
    const e = await store
      .guaranteedUpdate(
        key("gone"),
        (cur) => {
          called = true;
          return { ...created, metadata: { ...cur.metadata, ...created.metadata } };
        },
        { ignoreNotFound: true, preconditions: { uid } },
      )
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(StatusError);
    expect((e as StatusError).code).toBe(409);
    expect((e as StatusError).message).toBe(
      `Operation cannot be fulfilled on configmaps "gone": StorageError: invalid object, Code: 4, Key: ${key("gone")}, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: ${uid}, UID in object meta: `,
    );
    expect(called).toBe(false);
    expect(await store.get(key("gone"), { ignoreNotFound: true })).toBeNull();
  });

  it("retries with a fresh read when the cached copy is stale", async () => {
    const v1 = await store.create(key("a"), withCounter(testObject("a"), 1));
    await store.guaranteedUpdate(key("a"), (cur) => withCounter(cur, 5));
    const seen: number[] = [];
    const out = await store.guaranteedUpdate(
      key("a"),
      (cur) => {
        seen.push(counter(cur));
        return withCounter(cur, counter(cur) + 1);
      },
      { cachedExisting: v1 },
    );
    expect(seen).toEqual([1, 5]);
    expect(counter(out)).toBe(6);
  });

  it("dry-run computes the result without writing", async () => {
    await store.create(key("a"), withCounter(testObject("a"), 1));
    const rev = await store.currentRevision();
    const out = await store.guaranteedUpdate(key("a"), (cur) => withCounter(cur, 9), { dryRun: true });
    expect(counter(out)).toBe(9);
    expect(counter(await store.get(key("a")))).toBe(1);
    if (backend !== "etcd") expect(await store.currentRevision()).toBe(rev); // etcd: shared, other writers
  });

  it("applies 32 concurrent updates of one key exactly once each", async () => {
    await store.create(key("c"), withCounter(testObject("c"), 0));
    const results = await Promise.all(
      Array.from({ length: 32 }, async () => {
        // Yield inside the function so that the attempts really interleave.
        return store.guaranteedUpdate(key("c"), async (cur) => {
          await new Promise((r) => setImmediate(r));
          return withCounter(cur, counter(cur) + 1);
        });
      }),
    );
    expect(counter(await store.get(key("c")))).toBe(32);
    expect(new Set(results.map(counter)).size).toBe(32);
    expect(new Set(results.map((r) => r.metadata.resourceVersion)).size).toBe(32);
  });
});
