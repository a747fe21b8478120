import { describe, expect, it } from "vitest";
import { removePaths } from "./apply-merge.ts";
import type { JSONObject } from "./json-value.ts";

const p = (...els: string[]): string => JSON.stringify(els);

// structured-merge-diff typed/remove.go (removingWalker) and merge/update.go prune: what an apply's
// removals leave of an unstructured object (a container the applied configuration sets to null
// stays null once emptied; one the applier dropped goes), against the omitempty drop a typed
// object gets.
describe("removePaths", () => {
  const cases: {
    name: string;
    obj: JSONObject;
    paths: string[];
    applied?: JSONObject;
    unstructured: JSONObject;
    typed: JSONObject;
  }[] = [
    {
      name: "a map the applied configuration sets to null, emptied by its removals, stays null",
      obj: { spec: { f: { inner: { a: "1", b: "2" } } } },
      paths: [p("f:spec", "f:f", "f:inner", "f:a"), p("f:spec", "f:f", "f:inner", "f:b")],
      applied: { spec: { f: { inner: null } } },
      unstructured: { spec: { f: { inner: null } } },
      typed: { spec: {} },
    },
    {
      name: "a map the applier no longer sets, emptied by its removals, goes",
      obj: { spec: { f: { inner: { a: "1", b: "2" } }, g: "kept" } },
      paths: [p("f:spec", "f:f", "f:inner", "f:a"), p("f:spec", "f:f", "f:inner", "f:b")],
      applied: { spec: { g: "kept" } },
      unstructured: { spec: { g: "kept" } },
      typed: { spec: { g: "kept" } },
    },
    {
      name: "a map keeping a field stays",
      obj: { spec: { inner: { a: "1", b: "2" } } },
      paths: [p("f:spec", "f:inner", "f:a")],
      unstructured: { spec: { inner: { b: "2" } } },
      typed: { spec: { inner: { b: "2" } } },
    },
    {
      name: "a removed field itself goes, its parent emptied and set to null by the applier stays null",
      obj: { spec: { x: 1 } },
      paths: [p("f:spec", "f:x")],
      applied: { spec: null },
      unstructured: { spec: null },
      typed: { spec: {} },
    },
    {
      name: "a list the applier sets to null, emptied by its removals, stays null",
      obj: { spec: { ports: [{ port: 80, protocol: "TCP" }], type: "ClusterIP" } },
      paths: [p("f:spec", "f:ports", 'k:{"port":80,"protocol":"TCP"}')],
      applied: { spec: { ports: null, type: "ClusterIP" } },
      unstructured: { spec: { ports: null, type: "ClusterIP" } },
      typed: { spec: { type: "ClusterIP" } },
    },
  ];
  it.each(cases)("$name", ({ obj, paths, applied, unstructured, typed }) => {
    const u = structuredClone(obj);
    removePaths("Service", u, paths, { unstructured: true, ...(applied !== undefined ? { applied } : {}) });
    expect(u).toEqual(unstructured);
    const t = structuredClone(obj);
    removePaths("Service", t, paths);
    expect(t).toEqual(typed);
  });
});
