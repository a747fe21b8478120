/**
 * Upstream apiextensions-apiserver test/integration/objectmeta_test.go TestEmbeddedResources over
 * HTTP: unknown fields inside embedded ObjectMetas are pruned (not in an object that is not an
 * embedded resource), an embedded resource's default is applied, a wrongly typed embedded
 * ObjectMeta is refused, and invalid embedded kinds and names are refused on create and update
 * with upstream's field paths.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse as parseYAML } from "yaml";
import { startTestServer, type TestServer } from "../../../server/testing.ts";
import { createCRD, json } from "./fixtures-testing.ts";
import { foos, pruningFixture } from "./pruning-fixture-testing.ts";

/** embeddedResourceFixture is pruningFixture's CRD with this schema. */
const embeddedResourceSchema = `
type: object
properties:
  embedded: {type: object, x-kubernetes-embedded-resource: true, x-kubernetes-preserve-unknown-fields: true}
  noEmbeddedObject: {type: object, x-kubernetes-preserve-unknown-fields: true}
  embeddedNested:
    type: object
    x-kubernetes-embedded-resource: true
    x-kubernetes-preserve-unknown-fields: true
    properties:
      embedded: {type: object, x-kubernetes-embedded-resource: true, x-kubernetes-preserve-unknown-fields: true}
  defaults:
    type: object
    x-kubernetes-embedded-resource: true
    x-kubernetes-preserve-unknown-fields: true
    default: {apiVersion: v1, kind: Pod, labels: {foo: bar}}
`;

const withMeta = (unspecified: boolean, indent: string) =>
  `${indent}apiVersion: foo/v1\n${indent}kind: Foo\n${indent}metadata:\n${indent}  name: foo\n${unspecified ? `${indent}  unspecified: bar\n` : ""}`;

const instance = (pruned: boolean) => `
kind: Foo
apiVersion: tests.example.com/v1beta1
embedded:
${withMeta(!pruned, "  ")}noEmbeddedObject:
${withMeta(true, "  ")}embeddedNested:
${withMeta(!pruned, "  ")}  embedded:
${withMeta(!pruned, "    ")}`;

const embeddedResourceInstance = instance(false);
const expectedEmbeddedResourceInstance = `${instance(true)}defaults: {apiVersion: v1, kind: Pod, labels: {foo: bar}}\n`;

const wronglyTypedEmbeddedResourceInstance = `
kind: Foo
apiVersion: tests.example.com/v1beta1
embedded:
  apiVersion: foo/v1
  kind: Foo
  metadata:
    name: instance
    namespace: 42
`;

const invalidEmbeddedResourceInstance = `
kind: Foo
apiVersion: tests.example.com/v1beta1
embedded:
  apiVersion: foo/v1
  kind: "%"
  metadata:
    name: ..
embeddedNested:
  apiVersion: foo/v1
  kind: "%"
  metadata:
    name: ..
  embedded:
    apiVersion: foo/v1
    kind: "%"
    metadata:
      name: ..
invalidDefaults: {}
`;

const invalidErrors = [
  `[metadata.labels: Invalid value: "x y"`,
  ` embedded.kind: Invalid value: "%"`,
  ` embedded.metadata.name: Invalid value: ".."`,
  ` embeddedNested.kind: Invalid value: "%"`,
  ` embeddedNested.metadata.name: Invalid value: ".."`,
  ` embeddedNested.embedded.kind: Invalid value: "%"`,
  ` embeddedNested.embedded.metadata.name: Invalid value: ".."`,
];

type Obj = Record<string, unknown> & { metadata: Record<string, unknown> };

describe("apiextensions objectmeta_test TestEmbeddedResources", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
    await createCRD(s, pruningFixture(embeddedResourceSchema));
  });
  afterAll(async () => {
    await s?.close();
  });

  const fromYAML = (y: string, name: string): Obj => {
    const o = parseYAML(y) as Obj;
    o.metadata = { ...(o.metadata ?? {}), name };
    return o;
  };
  const send = (method: string, path: string, o: Obj) => s.request(path, { method, headers: json, body: JSON.stringify(o) });

  it("unknown fields inside embedded ObjectMetas are pruned, the embedded default applied", async () => {
    const r = await send("POST", foos, fromYAML(embeddedResourceInstance, "foo"));
    expect(r.status, r.text).toBe(201);
    const { metadata: _m, ...got } = r.json() as Obj;
    expect(got).toEqual(parseYAML(expectedEmbeddedResourceInstance));
  });

  it("a wrongly typed embedded ObjectMeta is refused", async () => {
    const r = await send("POST", foos, fromYAML(wronglyTypedEmbeddedResourceInstance, "invalid"));
    expect(r.status, r.text).toBe(400);
    // The request decoder's ObjectMeta coercion fails (coerce.go without DropInvalidFields): transformDecodeError's 400.
    expect((r.json() as { message: string }).message).toBe(
      'Foo in version "v1beta1" cannot be handled as a Foo: embedded.metadata: Invalid value: map[string]interface {}{"name":"instance", "namespace":42}: json: cannot unmarshal number into Go struct field ObjectMeta.namespace of type string',
    );
  });

  it("invalid embedded kinds and names are refused on create, and on update of a valid object", async () => {
    const invalid = fromYAML(invalidEmbeddedResourceInstance, "invalid");
    invalid.metadata["labels"] = { foo: "x y" };
    const created = await send("POST", foos, invalid);
    expect(created.status, created.text).toBe(422);
    const createMessage = (created.json() as { message: string }).message;
    expect(
      invalidErrors.filter((e) => !createMessage.includes(e)),
      createMessage,
    ).toEqual([]);

    const ok = await send("POST", foos, fromYAML(embeddedResourceInstance, "valid"));
    expect(ok.status, ok.text).toBe(201);
    const valid = ok.json() as Obj;
    for (const [k, v] of Object.entries(invalid)) if (k !== "metadata") valid[k] = v;
    valid.metadata["labels"] = { foo: "x y" };
    const updated = await send("PUT", `${foos}/valid`, valid);
    expect(updated.status, updated.text).toBe(422);
    const updateMessage = (updated.json() as { message: string }).message;
    expect(
      invalidErrors.filter((e) => !updateMessage.includes(e)),
      updateMessage,
    ).toEqual([]);
  });
});
