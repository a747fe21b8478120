// Lists presented from the resource's encoded cache: every LIST that includes an unchanged object
// reuses its encoding (cachingObject), an updated one is served as it is now, in each format.
import { describe, expect, it } from "vitest";
import type { KubeObject, ListResult } from "../storage/index.ts";
import { EncodedObjectCache } from "./encoded-cache.ts";
import { streamedList } from "./present.ts";
import type { ResourceDef } from "./resources.ts";

/** A definition whose version conversion counts the objects it presents. */
function countingDef(): { def: ResourceDef; presented: () => number } {
  let n = 0;
  const def = {
    group: "example.com",
    version: "v1",
    kind: "Thing",
    schema: undefined,
    toVersion: (o: KubeObject) => {
      n++;
      return { ...o, apiVersion: "example.com/v1", kind: "Thing" };
    },
  } as unknown as ResourceDef;
  return { def, presented: () => n };
}

const thing = (name: string, rv: string, note: string): KubeObject => ({
  metadata: { name, namespace: "ns", resourceVersion: rv, annotations: { note } },
});

const listOf = (...items: KubeObject[]): ListResult => ({ items, resourceVersion: "10" });

/** The list's item encodings, as list-stream.ts writes them. */
const itemsOf = (def: ResourceDef, r: ListResult, format: "json" | "partial", cache: EncodedObjectCache): unknown[] => {
  const l = streamedList(def, r, format, cache);
  return l.items.map((o) => JSON.parse(l.itemJSON!(o)) as unknown);
};

describe("streamedList with the resource's encoded cache", () => {
  it("presents each stored version once across lists", () => {
    const { def, presented } = countingDef();
    const cache = new EncodedObjectCache();
    const r = listOf(thing("a", "3", "x"), thing("b", "4", "y"));
    const first = itemsOf(def, r, "json", cache);
    expect(itemsOf(def, listOf(thing("a", "3", "x"), thing("b", "4", "y")), "json", cache)).toEqual(first);
    expect(first).toEqual([
      { kind: "Thing", apiVersion: "example.com/v1", metadata: thing("a", "3", "x").metadata },
      { kind: "Thing", apiVersion: "example.com/v1", metadata: thing("b", "4", "y").metadata },
    ]);
    expect(presented()).toBe(2);
  });

  it("serves an updated object as it is now", () => {
    const { def } = countingDef();
    const cache = new EncodedObjectCache();
    itemsOf(def, listOf(thing("a", "3", "old")), "json", cache);
    expect(itemsOf(def, listOf(thing("a", "7", "new")), "json", cache)).toEqual([
      { kind: "Thing", apiVersion: "example.com/v1", metadata: thing("a", "7", "new").metadata },
    ]);
  });

  it("keeps JSON and partial-metadata encodings apart", () => {
    const { def } = countingDef();
    const cache = new EncodedObjectCache();
    itemsOf(def, listOf(thing("a", "3", "x")), "json", cache);
    expect(itemsOf(def, listOf(thing("a", "3", "x")), "partial", cache)).toEqual([
      { kind: "PartialObjectMetadata", apiVersion: "meta.k8s.io/v1", metadata: thing("a", "3", "x").metadata },
    ]);
  });
});
