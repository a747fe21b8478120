import { everything, selectorFromSet } from "@servicenet/api";
import { describe, expect, it } from "vitest";
import { GenericLister, listAllByNamespace } from "./listers.ts";
import { MemoryInformer } from "./memory-informer.ts";
import { Indexer, withNamespaceIndex } from "./store.ts";

interface O {
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
}
const pod = (namespace: string, name: string, labels?: Record<string, string>): O => ({
  metadata: { name, ...(namespace ? { namespace } : {}), ...(labels ? { labels } : {}) },
});
const names = (list: O[]) => list.map((x) => x.metadata.name).sort();

// client-go listers_test.go TestStoreToPodLister: with and without a namespace index, since
// ListAllByNamespace falls back to a filtered scan when the index is missing.
describe("TestStoreToPodLister", () => {
  it.each([
    ["with the namespace index", withNamespaceIndex<O>()],
    ["without an index", {}],
  ])("%s", (_name, indexers) => {
    const store = new Indexer<O>(indexers);
    for (const id of ["foo", "bar", "baz"]) store.upsert(pod("other", id, { name: id }));
    store.upsert(pod("default", "quux", { name: "quux" }));
    const spl = new GenericLister(store);

    // Verify that we can always look up by Namespace.
    expect(names(spl.byNamespace("default").list(selectorFromSet({})))).toEqual(["quux"]);
    for (const id of ["foo", "bar", "baz"]) {
      expect(names(spl.list(selectorFromSet({ name: id })))).toEqual([id]);
      expect(spl.byNamespace("other").get(id)?.metadata.name).toBe(id);
    }
    // Get of a name in another namespace is upstream's NotFound.
    expect(spl.byNamespace("default").get("foo")).toBeUndefined();
    expect(spl.byNamespace("other").get("quux")).toBeUndefined();
  });
});

// listers_test.go TestStoreToReplicationControllerLister's listing cases.
describe("TestStoreToReplicationControllerLister", () => {
  const two = [pod("bar", "foo"), pod("hmm", "hmm")];
  it.each<[string, O[], (l: GenericLister<O>) => O[], string[]]>([
    ["Verify we can search all namespaces", two, (l) => l.byNamespace("").list(selectorFromSet({})), ["foo", "hmm"]],
    ["Verify we can search a specific namespace", two, (l) => l.byNamespace("hmm").list(selectorFromSet({})), ["hmm"]],
    ["Basic listing with all labels and no selectors", [pod("", "basic")], (l) => l.list(everything), ["basic"]],
  ])("%s", (_name, objs, list, want) => {
    for (const indexers of [withNamespaceIndex<O>(), {}]) {
      const store = new Indexer<O>(indexers);
      for (const o of objs) store.upsert(o);
      expect(names(list(new GenericLister(store)))).toEqual(want);
    }
  });
});

describe("GenericLister", () => {
  it("filters a namespace by a label selector and gets cluster-scoped objects by name", () => {
    const store = new Indexer<O>(withNamespaceIndex());
    store.upsert(pod("a", "web-1", { app: "web" }));
    store.upsert(pod("a", "db-1", { app: "db" }));
    store.upsert(pod("b", "web-2", { app: "web" }));
    store.upsert(pod("", "node-1"));
    const l = new GenericLister(store);
    expect(names(l.byNamespace("a").list(selectorFromSet({ app: "web" })))).toEqual(["web-1"]);
    expect(names(l.list(selectorFromSet({ app: "web" })))).toEqual(["web-1", "web-2"]);
    expect(names(l.byNamespace("a").list())).toEqual(["db-1", "web-1"]);
    expect(l.get("node-1")?.metadata.name).toBe("node-1");
    expect(l.get("web-1")).toBeUndefined();
  });

  it("reads one namespace through the index, not a scan of the cache", () => {
    const store = new Indexer<O>(withNamespaceIndex());
    for (let i = 0; i < 50; i++) store.upsert(pod(`ns-${i}`, "p"));
    // A cache whose list() throws proves listAllByNamespace never scans it.
    const cache = {
      list: () => expect.unreachable("scanned the cache"),
      get: (k: string) => store.get(k),
      byIndex: store.byIndex.bind(store),
    };
    expect(listAllByNamespace(cache, "ns-7", everything).map((o) => o.metadata.namespace)).toEqual(["ns-7"]);
  });

  it("is current with the informer it reads: every informer has the namespace index", () => {
    const inf = new MemoryInformer<O>([pod("a", "x")]);
    const l = new GenericLister(inf);
    inf.set(pod("a", "y"));
    inf.remove("a/x");
    expect(names(l.byNamespace("a").list())).toEqual(["y"]);
  });
});
