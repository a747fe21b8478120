/**
 * Upstream apiextensions-apiserver test/integration/pruning_test.go over HTTP:
 * TestPruningCreatePreservingUnknownFields (`x-kubernetes-preserve-unknown-fields` at the root and
 * nested, with specified fields below it pruned again) and TestPruningEmbeddedResources (embedded
 * resources pruned, preserved and nested, their ObjectMeta coerced).
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parse as parseYAML } from "yaml";
import { startTestServer, type TestServer } from "../../../server/testing.ts";
import { createCRD, json } from "./fixtures-testing.ts";
import { foos, found, pruningFixture, pruningFooInstance } from "./pruning-fixture-testing.ts";

const fooSchemaPreservingUnknownFields = `
type: object
properties:
  alpha: {type: string}
  beta: {type: number}
  preserving:
    type: object
    x-kubernetes-preserve-unknown-fields: true
    properties:
      preserving: {type: object, x-kubernetes-preserve-unknown-fields: true}
      pruning: {type: object}
  pruning:
    type: object
    properties:
      preserving: {type: object, x-kubernetes-preserve-unknown-fields: true}
      pruning: {type: object}
x-kubernetes-preserve-unknown-fields: true
`;

const fooSchemaEmbeddedResource = `
type: object
properties:
  embeddedPruning:
    type: object
    x-kubernetes-embedded-resource: true
    properties:
      specified: {type: string}
  embeddedPreserving:
    type: object
    x-kubernetes-embedded-resource: true
    x-kubernetes-preserve-unknown-fields: true
  embeddedNested:
    type: object
    x-kubernetes-embedded-resource: true
    x-kubernetes-preserve-unknown-fields: true
    properties:
      embeddedPruning:
        type: object
        x-kubernetes-embedded-resource: true
        properties:
          specified: {type: string}
`;

const embedded = (extra: string, indent = "  ") =>
  `${indent}apiVersion: foo/v1\n${indent}kind: Foo\n${indent}metadata:\n${indent}  name: foo\n${indent}  unspecified: bar\n${indent}unspecified: bar\n${extra}`;

const fooSchemaEmbeddedResourceInstance = `${pruningFooInstance}embeddedPruning:
${embedded("  specified: bar\n")}embeddedPreserving:
${embedded("")}embeddedNested:
${embedded(`  embeddedPruning:\n${embedded("    specified: bar\n", "    ")}`)}`;

describe("apiextensions pruning_test", () => {
  let s: TestServer;
  beforeEach(async () => {
    s = await startTestServer();
  });
  afterEach(async () => {
    await s?.close();
  });

  const create = async (obj: Record<string, unknown>): Promise<Record<string, unknown>> => {
    const r = await s.request(foos, { method: "POST", headers: json, body: JSON.stringify(obj) });
    expect(r.status, r.text).toBe(201);
    return r.json() as Record<string, unknown>;
  };

  it("TestPruningCreatePreservingUnknownFields: preserved fields stay, specified objects below are pruned", async () => {
    await createCRD(s, pruningFixture(fooSchemaPreservingUnknownFields));
    const nested = () => ({
      unspecified: "bar",
      unspecifiedObject: { unspecified: "bar" },
      pruning: { unspecified: "bar" },
      preserving: { unspecified: "bar" },
    });
    const foo = parseYAML(pruningFooInstance) as Record<string, Record<string, unknown>>;
    Object.assign(foo, { unspecified: "bar", alpha: "abc", beta: 42.0, pruning: nested(), preserving: nested() });
    foo["metadata"]!["unspecified"] = "bar";
    foo["metadata"]!["labels"] = { foo: "bar" };
    const got = await create(foo);

    const stay = [
      ["unspecified"],
      ["alpha"],
      ["beta"],
      ["metadata", "labels", "foo"],
      ["pruning", "pruning"],
      ["pruning", "preserving"],
      ["pruning", "preserving", "unspecified"],
      ["preserving", "unspecified"],
      ["preserving", "unspecifiedObject"],
      ["preserving", "unspecifiedObject", "unspecified"],
      ["preserving", "pruning"],
      ["preserving", "preserving"],
      ["preserving", "preserving", "unspecified"],
    ];
    const pruned = [
      ["metadata", "unspecified"],
      ["pruning", "unspecified"],
      ["pruning", "unspecifiedObject"],
      ["pruning", "unspecifiedObject", "unspecified"],
      ["pruning", "pruning", "unspecified"],
      ["preserving", "pruning", "unspecified"],
    ];
    expect(
      stay.filter((p) => !found(got, p)).map((p) => p.join(".")),
      "expected to stay, but pruned",
    ).toEqual([]);
    expect(
      pruned.filter((p) => found(got, p)).map((p) => p.join(".")),
      "expected to be pruned, but not",
    ).toEqual([]);
  });

  it("TestPruningEmbeddedResources: the created object equals upstream's pruned value", async () => {
    await createCRD(s, pruningFixture(fooSchemaEmbeddedResource));
    const got = await create(parseYAML(fooSchemaEmbeddedResourceInstance) as Record<string, unknown>);
    const { apiVersion: _a, kind: _k, metadata: _m, ...x } = got;
    expect(x).toEqual(
      parseYAML(`
embeddedPruning:
  apiVersion: foo/v1
  kind: Foo
  metadata:
    name: foo
  specified: bar
embeddedPreserving:
  apiVersion: foo/v1
  kind: Foo
  metadata:
    name: foo
  unspecified: bar
embeddedNested:
  apiVersion: foo/v1
  kind: Foo
  metadata:
    name: foo
  embeddedPruning:
    apiVersion: foo/v1
    kind: Foo
    metadata:
      name: foo
    specified: bar
  unspecified: bar
`),
    );
  });
});
