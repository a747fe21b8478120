/**
 * Upstream apiextensions-apiserver test/integration/conversion/conversion_test.go
 * validateStoragePruning and validateDefaulting, for the nontrivial converter and the test's
 * multiVersionFixture (v1beta1 stored; v1beta2 renames num and content; each version defaults
 * its own field of `defaults`).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { objectKey } from "../../../storage/index.ts";
import { startTestServer, type TestServer } from "../../../server/testing.ts";
import { createCRD } from "./fixtures-testing.ts";
import { startConversionWebhookServer, type ConversionWebhookServer } from "./conversion-webhook-testing.ts";
import {
  group,
  multiVersionFixture,
  newConversionMultiVersionFixture,
  storageVersion,
  verifyMultiVersionObject,
  versions,
  type Obj,
} from "./multiversion-fixture-testing.ts";

const ns = "default";
const newFixture = (name: string, version: string): Obj => newConversionMultiVersionFixture(ns, name, version);

describe("conversion_test nontrivial-converter storage pruning and defaulting", () => {
  let s: TestServer;
  let hook: ConversionWebhookServer;
  const at = (v: string, name = "") => `/apis/${group}/${v}/namespaces/${ns}/multiversion${name ? `/${name}` : ""}`;
  const key = (name: string) => objectKey(`${group}/multiversion`, ns, name);
  beforeAll(async () => {
    [s, hook] = await Promise.all([startTestServer(), startConversionWebhookServer()]);
    await createCRD(s, multiVersionFixture({ url: `${hook.url}/num-content-converter`, caBundle: hook.caBundle }, ["v1"]));
  });
  afterAll(async () => {
    await Promise.all([s?.close(), hook?.close()]);
  });

  it.each(versions)("validateStoragePruning: getting objects created as %s", async (createVersion) => {
    const name = `storagepruning-${createVersion}`;
    const created = await s.send("POST", at(createVersion), { ...newFixture(name, createVersion), garbage: "foo" });
    expect(created.status, created.text).toBe(201);
    // The right, pruned version is in storage.
    const stored = (await s.api.store.get(key(name))) as unknown as Obj;
    verifyMultiVersionObject(storageVersion, stored);
    // Garbage and a label written into storage directly: reads prune the one and keep the other.
    await s.api.store.guaranteedUpdate(key(name), (cur) => {
      const next = structuredClone(cur);
      (next as Record<string, unknown>)["garbage"] = "foo";
      next.metadata.labels = { ...(next.metadata.labels as Record<string, string> | undefined), mutated: "true" };
      return next;
    });
    for (const getVersion of versions) {
      const got = (await s.request(at(getVersion, name))).json() as Obj;
      expect(got.metadata.labels?.["mutated"]).toBe("true");
      verifyMultiVersionObject(getVersion, got);
    }
  });

  it.each(versions)("validateDefaulting: getting objects created as %s", async (createVersion) => {
    const name = `defaulting-${createVersion}`;
    const r = await s.send("POST", at(createVersion), { ...newFixture(name, createVersion), defaults: {} });
    expect(r.status, r.text).toBe(201);
    // Defaulted in the request's version on decoding, and in the storage version when read back;
    // only the first is persisted.
    const defaults = (r.json() as Obj)["defaults"] as Record<string, unknown>;
    expect(Object.keys(defaults).length).toBe(createVersion === storageVersion ? 1 : 2);
    expect(defaults[createVersion]).toBe(true);
    expect(defaults[storageVersion]).toBe(true);
    const persisted = (await s.api.store.get(key(name))) as unknown as Obj;
    if (createVersion !== storageVersion) expect((persisted["defaults"] as Record<string, unknown>)[storageVersion]).toBeUndefined();
    // Another version read is defaulted in the storage version only.
    for (const v of versions.filter((x) => x !== createVersion)) {
      const got = (await s.request(at(v, name))).json() as Obj;
      const d = (got["defaults"] ?? {}) as Record<string, unknown>;
      if (v !== storageVersion) expect(d[v]).toBeUndefined();
      expect(d[storageVersion]).toBe(true);
    }
  });
});
