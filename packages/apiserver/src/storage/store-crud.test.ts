import { StatusError } from "@servicenet/api/errors";
import { beforeEach, expect, it, vi } from "vitest";
import { describeEachBackend } from "./backend-suite.ts";
import { withGroupResource } from "./group-resource.ts";
import type { Store } from "./interfaces.ts";
import { testObject } from "./testing.ts";

// etcd round trips on a shared 2-core machine can be slow; correctness, not speed, is tested here.
vi.setConfig({ testTimeout: 20_000 });

const key = (name: string): string => `/registry/configmaps/default/${name}`;

async function statusOf(p: Promise<unknown>): Promise<StatusError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  if (!(e instanceof StatusError)) throw new Error(`expected a StatusError, got ${String(e)}`);
  return e;
}

describeEachBackend("store CRUD", (ctx) => {
  let store: Store;
  const backend = ctx.backend;
  beforeEach(() => {
    store = ctx.store;
  });

  it("create sets resourceVersion, uid and creationTimestamp, and leaves generation to the strategies", async () => {
    const before = await store.currentRevision();
    const obj = await store.create(key("a"), testObject("a", { data: { x: "1" } }));
    expect(Number(obj.metadata.resourceVersion)).toBeGreaterThan(before);
    expect(obj.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(obj.metadata.creationTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(obj.metadata.generation).toBeUndefined();
    expect(await store.get(key("a"))).toEqual(obj);
    // A shared etcd has other writers, so the global revision is only exact on private stores.
    if (backend !== "etcd") expect(await store.currentRevision()).toBe(Number(obj.metadata.resourceVersion));
  });

  it("keeps a uid the registry already set", async () => {
    const obj = await store.create(key("u"), testObject("u", { metadata: { name: "u", uid: "fixed" } }));
    expect(obj.metadata.uid).toBe("fixed");
  });

  it("create of an existing key fails AlreadyExists", async () => {
    await store.create(key("a"), testObject("a"));
    const e = await statusOf(store.create(key("a"), testObject("a")));
    expect([e.code, e.reason, e.message]).toEqual([409, "AlreadyExists", 'configmaps "a" already exists']);
  });

  it("get of a missing key fails NotFound, or returns null with ignoreNotFound", async () => {
    const e = await statusOf(store.get(key("none")));
    expect([e.code, e.message]).toEqual([404, 'configmaps "none" not found']);
    expect(await store.get(key("none"), { ignoreNotFound: true })).toBeNull();
  });

  it("dry-run create checks but writes nothing", async () => {
    const rev = await store.currentRevision();
    const obj = await store.create(key("d"), testObject("d"), { dryRun: true });
    expect(obj.metadata.resourceVersion).toBeUndefined();
    expect(await store.get(key("d"), { ignoreNotFound: true })).toBeNull();
    if (backend !== "etcd") expect(await store.currentRevision()).toBe(rev); // etcd: shared, other writers
  });

  it("delete returns the last state and removes the key", async () => {
    const created = await store.create(key("a"), testObject("a"));
    expect(await store.delete(key("a"))).toEqual(created);
    expect(await store.get(key("a"), { ignoreNotFound: true })).toBeNull();
    expect((await statusOf(store.delete(key("a")))).reason).toBe("NotFound");
    // The key can be created again after deletion.
    await expect(store.create(key("a"), testObject("a"))).resolves.toBeTruthy();
  });

  it.each([
    ["uid", { uid: "other" }, "UID in precondition: other, UID in object meta: "],
    ["resourceVersion", { resourceVersion: "999999" }, "ResourceVersion in precondition: 999999, ResourceVersion in object meta: "],
  ])("delete with a failing %s precondition is a Conflict", async (_what, preconditions, text) => {
    const obj = await store.create(key("p"), testObject("p"));
    const e = await statusOf(store.delete(key("p"), { preconditions }));
    expect(e.reason).toBe("Conflict");
    expect(e.message).toContain(
      `Operation cannot be fulfilled on configmaps "p": StorageError: invalid object, Code: 4, Key: /registry/configmaps/default/p`,
    );
    expect(e.message).toContain(text);
    expect(await store.get(key("p"))).toEqual(obj);
    await store.delete(key("p"), { preconditions: { uid: obj.metadata.uid!, resourceVersion: obj.metadata.resourceVersion! } });
    expect(await store.get(key("p"), { ignoreNotFound: true })).toBeNull();
  });

  it("validateDeletion can veto a delete", async () => {
    await store.create(key("v"), testObject("v"));
    await expect(
      store.delete(key("v"), {
        validateDeletion: () => {
          throw StatusError.badRequest("no");
        },
      }),
    ).rejects.toThrow("no");
    expect(await store.get(key("v"), { ignoreNotFound: true })).not.toBeNull();
  });

  it("withGroupResource names the real resource in errors", async () => {
    const cidrs = withGroupResource(store, { group: "networking.k8s.io", resource: "servicecidrs" });
    await cidrs.create("/registry/servicecidrs/kubernetes", { metadata: { name: "kubernetes" } });
    const e = await statusOf(cidrs.create("/registry/servicecidrs/kubernetes", { metadata: { name: "kubernetes" } }));
    expect(e.message).toBe('servicecidrs.networking.k8s.io "kubernetes" already exists');
    expect(e.status.details).toEqual({ name: "kubernetes", group: "networking.k8s.io", kind: "servicecidrs" });
  });

  it("get with a resourceVersion newer than the store is TooLargeResourceVersion", async () => {
    const obj = await store.create(key("g"), testObject("g"));
    const e = await statusOf(store.get(key("g"), { resourceVersion: String(Number(obj.metadata.resourceVersion) + 1000) }));
    expect([e.code, e.status.details?.causes?.[0]?.reason]).toEqual([504, "ResourceVersionTooLarge"]);
  });
});
