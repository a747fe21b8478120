import { describe, expect, it } from "vitest";
import { dedupOwnerReferences, dedupOwnerReferencesAndAddWarning } from "./owner-references.ts";
import type { KubeObject } from "../storage/index.ts";

// k8s.io/apiserver/pkg/endpoints/handlers/rest_test.go TestDedupOwnerReferences.
const ref = (uid: string, o: Record<string, unknown> = {}) => ({
  apiVersion: "customresourceVersion",
  kind: "customresourceKind",
  name: "name",
  uid,
  ...o,
});

describe("TestDedupOwnerReferences", () => {
  const cases: { name: string; refs: ReturnType<typeof ref>[]; expected: ReturnType<typeof ref>[]; duplicates: string[] }[] = [
    {
      name: "simple multiple duplicates",
      refs: [ref("1"), ref("2"), ref("1"), ref("1"), ref("2")],
      expected: [ref("1"), ref("2")],
      duplicates: ["1", "1", "2"],
    },
    {
      name: "don't dedup same uid different name entries",
      refs: [ref("1", { name: "name1" }), ref("1", { name: "name2" })],
      expected: [ref("1", { name: "name1" }), ref("1", { name: "name2" })],
      duplicates: [],
    },
    {
      name: "don't dedup same uid different API version entries",
      refs: [ref("1", { apiVersion: "customresourceVersion1" }), ref("1", { apiVersion: "customresourceVersion2" })],
      expected: [ref("1", { apiVersion: "customresourceVersion1" }), ref("1", { apiVersion: "customresourceVersion2" })],
      duplicates: [],
    },
    {
      name: "dedup semantic-equal entries",
      refs: [ref("1", { controller: false, blockOwnerDeletion: false }), ref("1", { controller: false, blockOwnerDeletion: false })],
      expected: [ref("1", { controller: false, blockOwnerDeletion: false })],
      duplicates: ["1"],
    },
    {
      name: "don't dedup semantic-different entries",
      refs: [ref("1", { controller: false, blockOwnerDeletion: false }), ref("1")],
      expected: [ref("1", { controller: false, blockOwnerDeletion: false }), ref("1")],
      duplicates: [],
    },
  ];
  for (const c of cases)
    it(c.name, () => {
      const got = dedupOwnerReferences(c.refs);
      expect(got.kept).toEqual(c.expected);
      expect(got.duplicates).toEqual(c.duplicates);
    });
});

describe("dedupOwnerReferencesAndAddWarning", () => {
  const obj = (): KubeObject => ({ metadata: { name: "x", ownerReferences: [ref("a"), ref("a"), ref("b"), ref("b")] } });
  it("dedups in place and warns once with every duplicate uid, worded by when it happened", () => {
    const o = obj();
    const warnings: string[] = [];
    dedupOwnerReferencesAndAddWarning(o, warnings, false);
    expect(o.metadata.ownerReferences).toEqual([ref("a"), ref("b")]);
    expect(warnings).toEqual([
      ".metadata.ownerReferences contains duplicate entries; API server dedups owner references in 1.20+, and may reject such requests as early as 1.24; please fix your requests; duplicate UID(s) observed: a, b",
    ]);
    const after: string[] = [];
    dedupOwnerReferencesAndAddWarning(obj(), after, true);
    expect(after[0]).toMatch(/^\.metadata\.ownerReferences contains duplicate entries after mutating admission happens; .*observed: a, b$/);
  });
  it("leaves an object without duplicates alone", () => {
    const o: KubeObject = { metadata: { name: "x", ownerReferences: [ref("a"), ref("b")] } };
    const warnings: string[] = [];
    dedupOwnerReferencesAndAddWarning(o, warnings, true);
    expect(warnings).toEqual([]);
    expect(o.metadata.ownerReferences).toHaveLength(2);
  });
});
