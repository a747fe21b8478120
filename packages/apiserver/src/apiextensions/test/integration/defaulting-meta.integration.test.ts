/**
 * Upstream apiextensions-apiserver test/integration/defaulting_test.go
 * TestCustomResourceDefaultingOfMetaFields over HTTP: defaults of embedded resources (per field,
 * a whole metadata, a whole object, one spanning an embedded object; with and without
 * `x-kubernetes-preserve-unknown-fields`) are applied and their ObjectMeta then pruned of unknown
 * fields, in the answer and in what is persisted (read from the storage as upstream reads etcd).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse as parseYAML } from "yaml";
import { objectKey } from "../../../storage/index.ts";
import { startTestServer, type TestServer } from "../../../server/testing.ts";
import { createCRD, json } from "./fixtures-testing.ts";

const meta = `
      apiVersion: {type: string, default: foos/v1}
      kind: {type: string, default: Foo}`;
const defaulted = `{apiVersion: foos/v1, kind: Foo, metadata: {name: Bar, unknown: unknown}}`;

/** metaDefaultingFooV1beta1Schema. */
const metaDefaultingFooV1beta1Schema = parseYAML(`
type: object
properties:
  fields:
    type: object
    x-kubernetes-embedded-resource: true
    properties:${meta}
      metadata: {type: object, properties: {name: {type: string, default: Bar}, unknown: {type: string, default: unknown}}}
  fullMetadata:
    type: object
    x-kubernetes-embedded-resource: true
    properties:${meta}
      metadata: {type: object, default: {name: Bar, unknown: unknown}}
  fullObject:
    type: object
    x-kubernetes-embedded-resource: true
    properties: {foo: {type: string}}
    default: ${defaulted}
  spanning:
    type: object
    properties:
      embedded: {type: object, properties: {foo: {type: string}}, x-kubernetes-embedded-resource: true}
    default: {embedded: ${defaulted}}
  preserve-fields:
    type: object
    x-kubernetes-embedded-resource: true
    x-kubernetes-preserve-unknown-fields: true
    properties:${meta}
      metadata: {type: object, properties: {name: {type: string, default: Bar}, unknown: {type: string, default: unknown}}}
  preserve-fullMetadata:
    type: object
    x-kubernetes-embedded-resource: true
    x-kubernetes-preserve-unknown-fields: true
    properties:${meta}
      metadata: {type: object, default: {name: Bar, unknown: unknown}}
  preserve-fullObject:
    type: object
    x-kubernetes-embedded-resource: true
    x-kubernetes-preserve-unknown-fields: true
    default: ${defaulted}
  preserve-spanning:
    type: object
    properties:
      embedded: {type: object, x-kubernetes-embedded-resource: true, x-kubernetes-preserve-unknown-fields: true}
    default: {embedded: ${defaulted}}
`) as Record<string, unknown>;

/** metaDefaultingFixture. */
const metaDefaultingFixture = {
  apiVersion: "apiextensions.k8s.io/v1",
  kind: "CustomResourceDefinition",
  metadata: { name: "foos.tests.example.com" },
  spec: {
    group: "tests.example.com",
    versions: [
      {
        name: "v1beta1",
        storage: true,
        served: true,
        subresources: { status: {} },
        schema: { openAPIV3Schema: metaDefaultingFooV1beta1Schema },
      },
    ],
    names: { plural: "foos", singular: "foo", kind: "Foo", listKind: "FooList" },
    scope: "Cluster",
    preserveUnknownFields: false,
  },
};

/** The paths upstream's table checks, and what each is set to before the create (undefined: left out). */
const tests: [string[], unknown][] = [
  [["fields"], { metadata: {} }],
  [["fullMetadata"], {}],
  [["fullObject"], undefined],
  [["spanning", "embedded"], undefined],
  [["preserve-fields"], { metadata: {} }],
  [["preserve-fullMetadata"], {}],
  [["preserve-fullObject"], undefined],
  [["preserve-spanning", "embedded"], undefined],
];

const at = (o: unknown, path: string[]): unknown =>
  path.reduce<unknown>((x, k) => (x !== null && typeof x === "object" ? (x as Record<string, unknown>)[k] : undefined), o);

describe("apiextensions defaulting_test TestCustomResourceDefaultingOfMetaFields", () => {
  let s: TestServer;
  let returnedFoo: Record<string, unknown>;
  let persistedFoo: Record<string, unknown>;
  beforeAll(async () => {
    s = await startTestServer();
    await createCRD(s, metaDefaultingFixture);
    const foo: Record<string, unknown> = { kind: "Foo", apiVersion: "tests.example.com/v1beta1", metadata: { name: "foo" } };
    for (const [path, value] of tests) if (value !== undefined) foo[path[0]!] = value;
    const r = await s.request("/apis/tests.example.com/v1beta1/foos", { method: "POST", headers: json, body: JSON.stringify(foo) });
    expect(r.status, r.text).toBe(201);
    returnedFoo = r.json() as Record<string, unknown>;
    persistedFoo = await s.api.store.get(objectKey("tests.example.com/foos", undefined, "foo"));
  });
  afterAll(async () => {
    await s?.close();
  });

  it.each(tests.flatMap(([path]) => (["request", "persisted"] as const).map((source) => [path.join("."), source, path] as const)))(
    "%s of %s object: defaulted, the unknown ObjectMeta field pruned",
    (_p, source, path) => {
      const obj = at(source === "request" ? returnedFoo : persistedFoo, path);
      expect(obj).toEqual({ apiVersion: "foos/v1", kind: "Foo", metadata: { name: "Bar" } });
    },
  );
});
