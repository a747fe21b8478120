import type { CustomResourceDefinition } from "@servicenet/api/apiextensions/v1";
import { describe, expect, it } from "vitest";
import { crdOpenAPISource } from "./controller.ts";

function crd(group: string, rv: string, opts: { established?: boolean; served?: boolean[] } = {}): CustomResourceDefinition {
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: `foos.${group}`, resourceVersion: rv },
    spec: {
      group,
      names: { plural: "foos", singular: "foo", kind: "Foo", listKind: "FooList" },
      scope: "Cluster",
      versions: (opts.served ?? [true]).map((served, i) => ({
        name: `v${i + 1}`,
        served,
        storage: i === 0,
        schema: { openAPIV3Schema: { type: "object" } },
      })),
    },
    status: { conditions: [{ type: "Established", status: opts.established === false ? "False" : "True" }] },
  };
}

describe("crdOpenAPISource", () => {
  let crds: CustomResourceDefinition[] = [];
  const source = crdOpenAPISource({ list: () => crds });

  it("publishes the served versions of Established CRDs only", () => {
    crds = [crd("a.example.com", "1", { served: [true, false] }), crd("b.example.com", "2", { established: false })];
    expect(source.specs(false).map((s) => s.gv)).toEqual(["apis/a.example.com/v1"]);
    expect(source.revision()).toBe("foos.a.example.com@1");
  });

  it("changes its revision with a CRD's resourceVersion and rebuilds only that CRD's specs", () => {
    crds = [crd("a.example.com", "1"), crd("c.example.com", "3")];
    const before = source.specs(true);
    const revision = source.revision();
    crds = [crd("a.example.com", "1"), crd("c.example.com", "4", { served: [true, true] })];
    expect(source.revision()).not.toBe(revision);
    const after = source.specs(true);
    expect(after.map((s) => s.gv)).toEqual(["apis/a.example.com/v1", "apis/c.example.com/v1", "apis/c.example.com/v2"]);
    expect(after[0]).toBe(before[0]);
    expect(after[1]).not.toBe(before[1]);
    // The v3 flavor is kept apart.
    expect(source.specs(false)[0]!.definitions["com.example.a.v1.Foo"]!.properties).toMatchObject({
      metadata: { allOf: expect.any(Array) },
    });
    expect(source.specs(true)[0]!.definitions["com.example.a.v1.Foo"]!.properties).toMatchObject({
      metadata: { $ref: expect.any(String) },
    });
  });
});
