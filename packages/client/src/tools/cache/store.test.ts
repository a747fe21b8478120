import { describe, expect, it } from "vitest";
import { Indexer, metaNamespaceIndexFunc, namespaceIndex } from "./store.ts";

interface O {
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
}
const o = (namespace: string, name: string, app?: string): O => ({ metadata: { name, namespace, ...(app ? { labels: { app } } : {}) } });
const names = (list: O[]) => list.map((x) => x.metadata.name).sort();

describe("Indexer", () => {
  const byApp = (x: O) => (x.metadata.labels?.["app"] ? [x.metadata.labels["app"]] : []);

  it("keys by namespace/name and keeps indexes current across update and delete", () => {
    const ix = new Indexer<O>({ [namespaceIndex]: metaNamespaceIndexFunc, app: byApp });
    ix.upsert(o("ns1", "a", "web"));
    ix.upsert(o("ns1", "b", "web"));
    ix.upsert(o("ns2", "c", "db"));
    expect(ix.listKeys().sort()).toEqual(["ns1/a", "ns1/b", "ns2/c"]);
    expect(names(ix.byIndex("app", "web"))).toEqual(["a", "b"]);
    expect(names(ix.byIndex(namespaceIndex, "ns2"))).toEqual(["c"]);
    // b moves from web to db: the old index entry goes.
    expect(ix.upsert(o("ns1", "b", "db"))?.metadata.labels?.["app"]).toBe("web");
    expect(names(ix.byIndex("app", "web"))).toEqual(["a"]);
    expect(names(ix.byIndex("app", "db"))).toEqual(["b", "c"]);
    expect(ix.delete("ns2/c")?.metadata.name).toBe("c");
    expect(names(ix.byIndex("app", "db"))).toEqual(["b"]);
    expect(ix.get("ns2/c")).toBeUndefined();
  });

  it("throws for an unknown index, as upstream's ByIndex", () => {
    expect(() => new Indexer<O>().byIndex("app", "x")).toThrow("Index with name app does not exist");
  });
});
