/**
 * Upstream apiextensions-apiserver test/integration/defaulting_test.go testDefaulting
 * (TestCustomResourceDefaultingWithWatchCache / WithoutWatchCache) over HTTP: a request body is
 * defaulted with the schema of the version it is sent in (v1beta1, served), an object read from
 * storage with the schema of the version it is stored in (v1beta2, storage, not served), so a
 * default added to or removed from either version shows, or stops showing, as upstream's does.
 * There is one storage read path here (no separate watch cache): both names run the same steps,
 * and, as upstream, the watch step only without the watch cache.
 */
import { eventually } from "@servicenet/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse as parseYAML } from "yaml";
import { startTestServer, type TestServer } from "../../../server/testing.ts";
import { createCRD, json, watchEvents } from "./fixtures-testing.ts";

/** defaultingFooV1beta1Schema / defaultingFooV1beta2Schema: `default: <version>` only in their own version. */
const fooSchema = (version: "v1beta1" | "v1beta2"): Record<string, unknown> => {
  const half = (replicas: number) => `
    type: object
    properties:
      a: {type: string, default: "A"}
      b: {type: string, default: "B"}
      c: {type: string}
      v1beta1: {type: string${version === "v1beta1" ? ', default: "v1beta1"' : ""}}
      v1beta2: {type: string${version === "v1beta2" ? ', default: "v1beta2"' : ""}}
      replicas: {default: ${replicas}, format: int32, minimum: 0, type: integer}`;
  return parseYAML(`type: object\nproperties:\n  spec:${half(1)}\n  status:${half(0)}\n`) as Record<string, unknown>;
};

const subresources = { status: {}, scale: { specReplicasPath: ".spec.replicas", statusReplicasPath: ".status.replicas" } };

/** defaultingFixture with the two schemas. */
const defaultingFixture = {
  apiVersion: "apiextensions.k8s.io/v1",
  kind: "CustomResourceDefinition",
  metadata: { name: "foos.tests.example.com" },
  spec: {
    group: "tests.example.com",
    versions: [
      { name: "v1beta1", storage: false, served: true, subresources, schema: { openAPIV3Schema: fooSchema("v1beta1") } },
      { name: "v1beta2", storage: true, served: false, subresources, schema: { openAPIV3Schema: fooSchema("v1beta2") } },
    ],
    names: { plural: "foos", singular: "foo", kind: "Foo", listKind: "FooList" },
    scope: "Cluster",
    preserveUnknownFields: false,
  },
};

const foos = "/apis/tests.example.com/v1beta1/foos";
const crdPath = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/foos.tests.example.com";

type Obj = Record<string, unknown> & { apiVersion: string; metadata: { name: string; resourceVersion: string } };
type CRD = {
  spec: {
    versions: { name: string; schema: { openAPIV3Schema: { properties: Record<string, { properties: Record<string, unknown> }> } } }[];
  };
};

const has = (o: Record<string, unknown>, path: string): boolean =>
  path.split(".").reduce<unknown>((x, k) => (x !== null && typeof x === "object" ? (x as Record<string, unknown>)[k] : undefined), o) !==
  undefined;

/** mustExist / mustNotExist. */
function mustExist(o: Record<string, unknown>, paths: string[]): void {
  expect(
    paths.filter((p) => !has(o, p)),
    "expected fields missing",
  ).toEqual([]);
}
function mustNotExist(o: Record<string, unknown>, paths: string[]): void {
  expect(
    paths.filter((p) => has(o, p)),
    "fields expected to not exist",
  ).toEqual([]);
}

describe.each([
  ["TestCustomResourceDefaultingWithWatchCache", true],
  ["TestCustomResourceDefaultingWithoutWatchCache", false],
])("apiextensions defaulting_test %s (testDefaulting)", (_name, watchCache) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
    await createCRD(s, defaultingFixture);
  });
  afterAll(async () => {
    await s?.close();
  });

  /** updateCRD: get, change, update (retried on conflict). */
  const updateCRD = async (change: (c: CRD) => void): Promise<void> => {
    await eventually(async () => {
      const c = (await s.request(crdPath)).json() as CRD;
      change(c);
      const r = await s.request(crdPath, { method: "PUT", headers: json, body: JSON.stringify(c) });
      expect(r.status, r.text).toBe(200);
      return true;
    });
  };
  const setDefault = (version: string, key: string, value: string | undefined) =>
    updateCRD((c) => {
      for (const root of ["spec", "status"])
        for (const v of c.spec.versions) {
          if (v.name !== version) continue;
          const props = v.schema.openAPIV3Schema.properties[root]!.properties;
          props[key] = value === undefined ? { ...(props[key] as object), default: undefined } : { type: "string", default: value };
        }
    });
  const get = async (query = ""): Promise<Obj> => {
    const r = await s.request(`${foos}/foo${query}`);
    expect(r.status, r.text).toBe(200);
    return r.json() as Obj;
  };
  const updateStatus = async (o: Obj): Promise<Obj> => {
    const r = await s.request(`${foos}/foo/status`, { method: "PUT", headers: json, body: JSON.stringify(o) });
    expect(r.status, r.text).toBe(200);
    return r.json() as Obj;
  };

  it("defaults in the request's version on write and in the storage version on read, through GET, LIST, WATCH and status updates", async () => {
    // Creating CR and expecting defaulted fields in spec, but status does not exist at all.
    const created = await s.request(foos, {
      method: "POST",
      headers: json,
      body: JSON.stringify({
        kind: "Foo",
        apiVersion: "tests.example.com/v1beta1",
        metadata: { name: "foo" },
        spec: { a: "a" },
        status: { b: "b" },
      }),
    });
    expect(created.status, created.text).toBe(201);
    let foo = created.json() as Obj;
    const initialResourceVersion = foo.metadata.resourceVersion;
    // spec.v1beta1 is defaulted when reading the incoming request, spec.v1beta2 when reading the storage response.
    mustExist(foo, ["spec.a", "spec.b", "spec.v1beta1", "spec.v1beta2", "spec.replicas"]);
    mustNotExist(foo, ["status"]);

    // Updating status and expecting 'a' and 'b' to show up.
    foo = await updateStatus({ ...foo, status: {} });
    mustExist(foo, ["spec.a", "spec.b", "status.a", "status.b", "status.replicas"]);

    // Add 'c' default to the storage version and wait until GET sees it in both status and spec.
    await setDefault("v1beta2", "c", "C");
    const all = ["spec.a", "spec.b", "spec.c", "status.a", "status.b", "status.c"];
    for (const query of ["", "?resourceVersion=0"]) {
      foo = await eventually(async () => {
        const o = await get(query);
        expect(has(o, "spec.c"), `spec.c in GET${query}`).toBe(true);
        return o;
      });
      mustExist(foo, all);
    }
    // LIST, and LIST from the cache, see 'c' in both status and spec.
    for (const query of ["", "?resourceVersion=0"]) {
      const list = (await s.request(`${foos}${query}`)).json() as { items: Obj[] };
      expect(list.items).toHaveLength(1);
      for (const item of list.items) mustExist(item, all);
    }
    if (!watchCache) {
      // WATCH from the create's resourceVersion: the status update, in v1beta1, defaulted from the storage version.
      const events = await watchEvents(s, `${foos}?resourceVersion=${initialResourceVersion}`, 1);
      expect(events[0]?.type).toBe("MODIFIED");
      expect(events[0]?.object.apiVersion).toBe("tests.example.com/v1beta1");
      mustExist(events[0]!.object, all);
    }

    // Add 'c' default to the REST version, remove it from the storage version: GET no longer sees it.
    await setDefault("v1beta1", "c", "C");
    await setDefault("v1beta2", "c", undefined);
    foo = await eventually(async () => {
      const o = await get();
      expect(has(o, "spec.c")).toBe(false);
      return o;
    });
    mustExist(foo, ["spec.a", "spec.b", "status.a", "status.b"]);
    mustNotExist(foo, ["spec.c", "status.c"]);

    // Updating status, expecting 'c' to be set in status only (spec comes from storage).
    foo = await updateStatus(foo);
    mustExist(foo, ["spec.a", "spec.b", "status.a", "status.b", "status.c"]);
    mustNotExist(foo, ["spec.c"]);

    // Removing 'a', 'b' and 'c' defaults from the REST version: 'c' goes in spec, not in status; 'a' and 'b' were persisted.
    await setDefault("v1beta1", "a", undefined);
    await setDefault("v1beta1", "b", undefined);
    await setDefault("v1beta1", "c", undefined);
    foo = await eventually(async () => {
      const o = await get();
      expect(has(o, "spec.c")).toBe(false);
      return o;
    });
    mustExist(foo, ["spec.a", "spec.b", "status.a", "status.b", "status.c"]);
    mustNotExist(foo, ["spec.c"]);
  });
});
