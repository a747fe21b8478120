import { describe, expect, it } from "vitest";
import { removePaths } from "./apply-merge.ts";
import type { JSONObject } from "./json-value.ts";

const p = (...els: string[]): string => JSON.stringify(els);

// structured-merge-diff typed/remove.go (removingWalker): what RemoveItems leaves of an unstructured
// object, against the omitempty drop a typed object gets.
describe("removePaths", () => {
  const cases: { name: string; obj: JSONObject; paths: string[]; unstructured: JSONObject; typed: JSONObject }[] = [
    {
      name: "a map emptied by its removals becomes null in its parent",
      obj: { spec: { f: { inner: { a: "1", b: "2" } } } },
      paths: [p("f:spec", "f:f", "f:inner", "f:a"), p("f:spec", "f:f", "f:inner", "f:b")],
      unstructured: { spec: { f: { inner: null } } },
      typed: { spec: {} },
    },
    {
      name: "a map keeping a field stays",
      obj: { spec: { inner: { a: "1", b: "2" } } },
      paths: [p("f:spec", "f:inner", "f:a")],
      unstructured: { spec: { inner: { b: "2" } } },
      typed: { spec: { inner: { b: "2" } } },
    },
    {
      name: "a removed field itself goes, its parent emptied becomes null",
      obj: { spec: { x: 1 } },
      paths: [p("f:spec", "f:x")],
      unstructured: { spec: null },
      typed: { spec: {} },
    },
    {
      name: "a list emptied by its removals becomes null",
      obj: { spec: { ports: [{ port: 80, protocol: "TCP" }], type: "ClusterIP" } },
      paths: [p("f:spec", "f:ports", 'k:{"port":80,"protocol":"TCP"}')],
      unstructured: { spec: { ports: null, type: "ClusterIP" } },
      typed: { spec: { type: "ClusterIP" } },
    },
  ];
  it.each(cases)("$name", ({ obj, paths, unstructured, typed }) => {
    const u = structuredClone(obj);
    removePaths("Service", u, paths, { unstructured: true });
    expect(u).toEqual(unstructured);
    const t = structuredClone(obj);
    removePaths("Service", t, paths);
    expect(t).toEqual(typed);
  });
});
