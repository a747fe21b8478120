/**
 * Upstream apiextensions-apiserver test/integration/conversion/conversion_test.go
 * TestWebhookConverterWithWatchCache on the etcd backend. Upstream's `--watch-cache=true` serves
 * GETs and LISTs at resourceVersion 0 or NotOlderThan, and every WATCH, from the cacher: objects
 * kept in the storage version, decoded once and converted per request version; watches from an
 * older resourceVersion are replayed from its window, and `resourceVersion=0` or
 * sendInitialEvents start with synthetic ADDED events. Here the same reads go through the etcd
 * engine's watch (storage/etcd/etcd-watch.ts), the watch fan-out and shared decode
 * (storage/kv-watch.ts, kv-fan-out.ts) and the decoded cache of read-only LISTs
 * (storage/decoded-cache.ts); objects changed in etcd directly reach them through etcd's watch.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestServer } from "../../../server/testing.ts";
import { useConversionHarness, type ConversionWebhookServer } from "./conversion-webhook-testing.ts";
import { ConversionTestContext } from "./conversion-test-context-testing.ts";
import { EtcdObjectReader, etcdTestStorage } from "./etcd-object-reader-testing.ts";
import { watchEvents, type WatchLine } from "./fixtures-testing.ts";
import {
  newConversionMultiVersionFixture as fixture,
  verifyMultiVersionObject,
  versions,
  type Obj,
} from "./multiversion-fixture-testing.ts";

const storage = etcdTestStorage();
type Check = (c: ConversionTestContext, ns: string) => Promise<void>;

/** Creates one object per version in `ns` (named `${prefix}-${version}`), each with garbage; gives the first one's resourceVersion. */
async function createInEveryVersion(c: ConversionTestContext, ns: string, prefix: string): Promise<string> {
  await c.createNamespace(ns);
  let first = "";
  for (const v of versions) {
    const r = await c.s.send("POST", c.path(ns, v), { ...fixture(ns, `${prefix}-${v}`, v), garbage: "foo" });
    expect(r.status, r.text).toBe(201);
    first ||= (r.json() as Obj).metadata.resourceVersion ?? "";
  }
  return first;
}

const objectsOf = (events: WatchLine[]) => events.map((e) => e.object as unknown as Obj);

/** validateMixedStorageVersions: objects written at different storage versions read the same in every version. */
const validateMixedStorageVersions =
  (...stored: string[]): Check =>
  async (c, ns) => {
    await c.createNamespace(ns);
    for (const v of stored) {
      await c.setAndWaitStorageVersion(v);
      const r = await c.s.send("POST", c.path(ns, v), fixture(ns, `mixedstorage-stored-as-${v}`, v));
      expect(r.status, r.text).toBe(201);
      expect((await c.stored(ns, `mixedstorage-stored-as-${v}`))["apiVersion"]).toBe(`stable.example.com/${v}`);
    }
    await c.setAndWaitStorageVersion("v1beta1");
    for (const v of versions) {
      const list = (await c.s.request(`${c.path(ns, v)}?resourceVersion=0`)).json() as { items: Obj[] };
      const bodies = list.items.map(({ metadata: _m, ...rest }) => rest);
      expect(bodies.length).toBe(stored.length);
      for (const b of bodies) expect(b).toEqual(bodies[0]);
    }
  };

/** validateStorageVersion: an object written before the storage version changes is still read. */
const validateStorageVersion: Check = async (c, ns) => {
  await c.createNamespace(ns);
  for (const v of versions) {
    expect((await c.s.send("POST", c.path(ns, v), fixture(ns, `storageversion-${v}`, v))).status).toBe(201);
    await c.setAndWaitStorageVersion("v1beta2");
    expect((await c.s.request(`${c.path(ns, v, `storageversion-${v}`)}?resourceVersion=0`)).status).toBe(200);
    await c.setAndWaitStorageVersion("v1beta1");
  }
};

/** validateNonTrivialConverted: stored pruned in v1beta1, read in every version (from etcd and at resourceVersion 0), patched. */
const validateNonTrivialConverted: Check = async (c, ns) => {
  await createInEveryVersion(c, ns, "converted");
  for (const create of versions) {
    const name = `converted-${create}`;
    verifyMultiVersionObject("v1beta1", await c.stored(ns, name));
    for (const v of versions)
      for (const q of ["", "?resourceVersion=0"])
        verifyMultiVersionObject(v, (await c.s.request(`${c.path(ns, v, name)}${q}`)).json() as Obj);
    const main = await c.s.send(
      "PATCH",
      c.path(ns, create, name),
      { metadata: { annotations: { main: "true" } } },
      "application/merge-patch+json",
    );
    expect(main.status, main.text).toBe(200);
    verifyMultiVersionObject("v1beta1", await c.stored(ns, name));
    const status = await c.s.send(
      "PATCH",
      `${c.path(ns, create, name)}/status`,
      { metadata: { annotations: { status: "true" } } },
      "application/merge-patch+json",
    );
    expect(status.status, status.text).toBe(200);
    verifyMultiVersionObject("v1beta1", await c.stored(ns, name));
  }
};

/** validateNonTrivialConvertedList: LISTs in every version, from storage, at resourceVersion 0 and NotOlderThan a resourceVersion. */
const validateNonTrivialConvertedList: Check = async (c, ns) => {
  const first = await createInEveryVersion(c, ns, "converted");
  for (const v of versions)
    for (const q of ["", "?resourceVersion=0", `?resourceVersion=${first}&resourceVersionMatch=NotOlderThan`]) {
      const list = (await c.s.request(`${c.path(ns, v)}${q}`)).json() as { items: Obj[] };
      expect(list.items.map((o) => o.metadata.name).sort()).toEqual(versions.map((x) => `converted-${x}`).sort());
      for (const o of list.items) verifyMultiVersionObject(v, o);
    }
};

/** The watch cache's reads: a watch from an older resourceVersion, at 0, with initial events, and two versions watched at once. */
const validateWatchConverted: Check = async (c, ns) => {
  const first = await createInEveryVersion(c, ns, "watched");
  for (const v of versions) {
    const replayed = await watchEvents(c.s, `${c.path(ns, v)}?resourceVersion=${first}`, 2);
    expect(replayed.map((e) => e.type)).toEqual(["ADDED", "ADDED"]);
    for (const o of objectsOf(replayed)) verifyMultiVersionObject(v, o);
    const initial = await watchEvents(c.s, `${c.path(ns, v)}?resourceVersion=0`, 3);
    expect(initial.map((e) => e.type)).toEqual(["ADDED", "ADDED", "ADDED"]);
    for (const o of objectsOf(initial)) verifyMultiVersionObject(v, o);
    const listed = await watchEvents(
      c.s,
      `${c.path(ns, v)}?sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`,
      4,
    );
    expect(listed.map((e) => e.type)).toEqual(["ADDED", "ADDED", "ADDED", "BOOKMARK"]);
    for (const o of objectsOf(listed.slice(0, 3))) verifyMultiVersionObject(v, o);
  }
  // One event delivered to watchers of three versions at once: each gets its own conversion.
  const list = (await c.s.request(c.path(ns, "v1beta1"))).json() as { metadata: { resourceVersion: string } };
  const watches = versions.map((v) => watchEvents(c.s, `${c.path(ns, v)}?resourceVersion=${list.metadata.resourceVersion}`, 1));
  expect((await c.s.send("POST", c.path(ns, "v1alpha1"), fixture(ns, "watched-late", "v1alpha1"))).status).toBe(201);
  const got = await Promise.all(watches);
  got.forEach((events, i) => {
    expect(events.map((e) => [e.type, (e.object as unknown as Obj).metadata.name])).toEqual([["ADDED", "watched-late"]]);
    verifyMultiVersionObject(versions[i]!, objectsOf(events)[0]!);
  });
};

/** validateStoragePruning: garbage and a label written into etcd directly reach reads and watches, pruned and converted. */
const validateStoragePruning: Check = async (c, ns) => {
  await createInEveryVersion(c, ns, "storagepruning");
  for (const create of versions) {
    const name = `storagepruning-${create}`;
    const stored = await c.stored(ns, name);
    verifyMultiVersionObject("v1beta1", stored);
    const rv = ((await c.s.request(c.path(ns, "v1beta1", name))).json() as Obj).metadata.resourceVersion;
    await c.etcd.setStoredCustomResource("stable.example.com", "multiversion", ns, name, {
      ...stored,
      garbage: "foo",
      metadata: { ...stored.metadata, labels: { mutated: "true" } },
    });
    for (const v of versions) {
      const events = await watchEvents(c.s, `${c.path(ns, v)}?resourceVersion=${rv}&fieldSelector=metadata.name=${name}`, 1);
      expect(events.map((e) => e.type)).toEqual(["MODIFIED"]);
      for (const o of [objectsOf(events)[0]!, (await c.s.request(`${c.path(ns, v, name)}?resourceVersion=0`)).json() as Obj]) {
        expect(o.metadata.labels?.["mutated"]).toBe("true");
        verifyMultiVersionObject(v, o);
      }
    }
  }
};

/** validateUIDMutation: a webhook that changes the uid fails the create. */
const validateUIDMutation: Check = async (c, ns) => {
  await c.createNamespace(ns);
  const r = await c.s.send("POST", c.path(ns, "v1beta2"), fixture(ns, "uid-mutation-v1beta1", "v1beta2"));
  expect(r.status).toBe(500);
  expect((r.json() as { message: string }).message).toContain("must have the same UID");
};

/** expectConversionFailureMessage: every verb that converts fails with the webhook's message; so does a watch. */
const expectConversionFailureMessage =
  (id: string, message: string): Check =>
  async (c, ns) => {
    await c.createNamespace(ns);
    const created = await c.s.send("POST", c.path(ns, "v1beta1"), fixture(ns, id, "v1beta1"));
    expect(created.status, created.text).toBe(201);
    const obj = created.json() as Obj;
    const v2 = { ...fixture(ns, id, "v1beta2"), metadata: obj.metadata };
    const patch = { metadata: { annotations: { patch: "true" } } };
    const merge = "application/merge-patch+json";
    const scale = { apiVersion: "autoscaling/v1", kind: "Scale", metadata: { name: id }, spec: { replicas: 42 } };
    const requests: [string, () => ReturnType<TestServer["request"]>][] = [
      ["get", () => c.s.request(c.path(ns, "v1beta2", id))],
      ["get at resourceVersion 0", () => c.s.request(`${c.path(ns, "v1beta2", id)}?resourceVersion=0`)],
      ["list", () => c.s.request(c.path(ns, "v1beta2"))],
      ["list at resourceVersion 0", () => c.s.request(`${c.path(ns, "v1beta2")}?resourceVersion=0`)],
      ["create", () => c.s.send("POST", c.path(ns, "v1beta2"), fixture(ns, id, "v1beta2"))],
      ["update", () => c.s.send("PUT", c.path(ns, "v1beta2", id), v2)],
      ["patch", () => c.s.send("PATCH", c.path(ns, "v1beta2", id), patch, merge)],
      ["delete", () => c.s.send("DELETE", c.path(ns, "v1beta2", id))],
      ["deletecollection", () => c.s.send("DELETE", c.path(ns, "v1beta2"))],
      ...(["status", "scale"] as const).flatMap((sub): [string, () => ReturnType<TestServer["request"]>][] => [
        [`${sub}-get`, () => c.s.request(`${c.path(ns, "v1beta2", id)}/${sub}`)],
        [`${sub}-update`, () => c.s.send("PUT", `${c.path(ns, "v1beta2", id)}/${sub}`, sub === "scale" ? scale : v2)],
        [`${sub}-patch`, () => c.s.send("PATCH", `${c.path(ns, "v1beta2", id)}/${sub}`, patch, merge)],
      ]),
    ];
    for (const [verb, send] of requests) {
      const r = await send();
      expect([verb, r.status >= 400]).toEqual([verb, true]);
      expect([verb, (r.json() as { message: string }).message]).toEqual([verb, expect.stringContaining(message)]);
    }
    const events = await watchEvents(c.s, `${c.path(ns, "v1beta2")}?resourceVersion=0`, 1);
    expect(events.map((e) => e.type)).toEqual(["ERROR"]);
    expect((events[0]!.object as unknown as { message: string }).message).toContain(message);
  };

const table: { group: string; path: string; checks: [string, Check][] }[] = [
  {
    group: "noop-converter",
    path: "/noop-converter",
    checks: [
      ["validateStorageVersion", validateStorageVersion],
      ["validateMixedStorageVersions", validateMixedStorageVersions("v1alpha1", "v1beta1")],
    ],
  },
  {
    group: "nontrivial-converter",
    path: "/num-content-converter",
    checks: [
      ["validateMixedStorageVersions", validateMixedStorageVersions("v1alpha1", "v1beta1", "v1beta2")],
      ["validateNonTrivialConverted", validateNonTrivialConverted],
      ["validateNonTrivialConvertedList", validateNonTrivialConvertedList],
      ["validateStoragePruning", validateStoragePruning],
      ["watches from the cache's window", validateWatchConverted],
    ],
  },
  { group: "metadata-uid-mutating", path: "/metadata-uid-mutating-converter", checks: [["validateUIDMutation", validateUIDMutation]] },
  {
    group: "empty-response",
    path: "/empty-response",
    checks: [["expectConversionFailureMessage", expectConversionFailureMessage("empty-response", "returned 0 objects, expected 1")]],
  },
  {
    group: "failure-message",
    path: "/failure-message",
    checks: [["expectConversionFailureMessage", expectConversionFailureMessage("failure-message", "converter failure")]],
  },
  {
    group: "unhandled",
    path: "/unhandled",
    checks: [["expectConversionFailureMessage", expectConversionFailureMessage("server-error", "the server rejected our request")]],
  },
];

describe.skipIf(storage === undefined)("TestWebhookConverterWithWatchCache", () => {
  let c: ConversionTestContext;
  let hook: ConversionWebhookServer;
  let s: TestServer;
  useConversionHarness(
    (server, h) => {
      s = server;
      hook = h;
    },
    storage ? { storage } : {},
  );
  beforeAll(async () => {
    c = new ConversionTestContext(s, hook, new EtcdObjectReader(storage!));
    await c.setUp();
  });
  afterAll(async () => {
    await c?.etcd.close();
  });

  for (const row of table)
    for (const reviewVersions of [
      ["v1", "v1beta1"],
      ["v1beta1", "v1"],
    ])
      describe(`${row.group}-${reviewVersions[0]}`, () => {
        beforeAll(async () => {
          await c.setConversionWebhook(row.path, reviewVersions);
        });
        row.checks.forEach(([name, check], i) => {
          it(`check-${i} ${name}`, async () => {
            await check(c, `webhook-conversion-${row.group}-${reviewVersions[0]}-check-${i}`);
          });
        });
      });
});
