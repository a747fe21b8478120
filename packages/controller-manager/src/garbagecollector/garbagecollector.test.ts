/**
 * attemptToDeleteItem's decisions (upstream garbagecollector_test.go TestAttemptToDeleteItem and
 * the TestConflictingData cases that apply): which request the collector sends for an item, from
 * live GETs of the item and its owners, against a fake client.
 */
import type { OwnerReference } from "@servicenet/api";
import { RateLimitingQueue } from "@servicenet/client/util/workqueue";
import { describe, expect, it } from "vitest";
import type { APIResource, Discovery } from "./discovery.ts";
import { GarbageCollector, namespacedOwnerOfClusterScopedObject } from "./garbagecollector.ts";
import { AbsentOwnerCache, GraphBuilder, type MetaObject } from "./graph-builder.ts";
import { statusErrorOf, type RESTClient } from "@servicenet/client/rest";
import { Operations } from "./operations.ts";

const mappings: Record<string, APIResource> = {
  "v1|Pod": { group: "", version: "v1", resource: "pods", kind: "Pod", namespaced: true },
  "v1|Service": { group: "", version: "v1", resource: "services", kind: "Service", namespaced: true },
  "v1|Node": { group: "", version: "v1", resource: "nodes", kind: "Node", namespaced: false },
};
const discovery: Discovery = { deletable: [], mapping: (apiVersion, kind) => mappings[`${apiVersion}|${kind}`] };

const svcRef = (name: string, uid: string, extra: Partial<OwnerReference> = {}): OwnerReference => ({
  apiVersion: "v1",
  kind: "Service",
  name,
  uid,
  ...extra,
});

function obj(kind: string, name: string, uid: string, meta: Partial<MetaObject["metadata"]> = {}, namespace = "ns"): MetaObject {
  return { apiVersion: "v1", kind, metadata: { name, namespace, uid, resourceVersion: "7", ...meta } };
}

/** A fake apiserver: GETs answer from `objects` (by path), writes are recorded. */
function fakeClient(objects: Record<string, MetaObject>) {
  const requests: string[] = [];
  const client: Pick<RESTClient, "request"> = {
    request: <T>(method: string, path: string, body?: unknown) => {
      if (method !== "GET") {
        requests.push(`${method} ${path} ${JSON.stringify(body)}`);
        return Promise.resolve({} as T);
      }
      const o = objects[path];
      return o === undefined
        ? Promise.reject(statusErrorOf({ status: 404, body: '{"kind":"Status","reason":"NotFound","code":404}' }))
        : Promise.resolve(o as T);
    },
  };
  return { client, requests };
}

function setup(objects: Record<string, MetaObject>, graphObjects: MetaObject[]) {
  const { client, requests } = fakeClient(objects);
  const absent = new AbsentOwnerCache();
  const q = () => new RateLimitingQueue<string>("t");
  const graph = new GraphBuilder({ attemptToDelete: q(), attemptToOrphan: q(), absentOwnerCache: absent });
  for (const o of graphObjects) graph.processGraphChange({ type: "add", obj: o });
  const gc = new GarbageCollector(graph, new Operations(client, discovery), absent);
  return { gc, graph, requests };
}

const podPath = "/api/v1/namespaces/ns/pods/pod";
const deleting = { deletionTimestamp: "2026-01-01T00:00:00Z", finalizers: ["foregroundDeletion"] };

describe("TestAttemptToDeleteItem", () => {
  it.each<[string, MetaObject, Record<string, MetaObject>, MetaObject[], string[]]>([
    [
      "owner absent: background delete with uid and resourceVersion preconditions",
      obj("Pod", "pod", "pod-uid", { ownerReferences: [svcRef("owner", "owner-uid")] }),
      {},
      [],
      [
        `DELETE ${podPath} {"kind":"DeleteOptions","apiVersion":"v1","preconditions":{"uid":"pod-uid","resourceVersion":"7"},"propagationPolicy":"Background"}`,
      ],
    ],
    [
      "owner of the same name with another uid: dangling, deleted",
      obj("Pod", "pod", "pod-uid", { ownerReferences: [svcRef("owner", "owner-uid")] }),
      { "/api/v1/namespaces/ns/services/owner": obj("Service", "owner", "other-uid") },
      [],
      [
        `DELETE ${podPath} {"kind":"DeleteOptions","apiVersion":"v1","preconditions":{"uid":"pod-uid","resourceVersion":"7"},"propagationPolicy":"Background"}`,
      ],
    ],
    [
      "owner absent and the item has the orphan finalizer: deleted with Orphan",
      obj("Pod", "pod", "pod-uid", { ownerReferences: [svcRef("owner", "owner-uid")], finalizers: ["orphan"] }),
      {},
      [],
      [
        `DELETE ${podPath} {"kind":"DeleteOptions","apiVersion":"v1","preconditions":{"uid":"pod-uid","resourceVersion":"7"},"propagationPolicy":"Orphan"}`,
      ],
    ],
    [
      "a solid owner and a dangling one: only the dangling reference is removed",
      obj("Pod", "pod", "pod-uid", { ownerReferences: [svcRef("solid", "solid-uid"), svcRef("gone", "gone-uid")] }),
      { "/api/v1/namespaces/ns/services/solid": obj("Service", "solid", "solid-uid") },
      [],
      [
        `PATCH ${podPath} {"metadata":{"resourceVersion":"7","ownerReferences":[{"apiVersion":"v1","kind":"Service","name":"solid","uid":"solid-uid"}]}}`,
      ],
    ],
    [
      "a solid owner only: nothing to do",
      obj("Pod", "pod", "pod-uid", { ownerReferences: [svcRef("solid", "solid-uid")] }),
      { "/api/v1/namespaces/ns/services/solid": obj("Service", "solid", "solid-uid") },
      [],
      [],
    ],
    [
      "a waiting owner and dependents of its own: deleted in foreground",
      obj("Pod", "pod", "pod-uid", { ownerReferences: [svcRef("waiting", "waiting-uid")] }),
      { "/api/v1/namespaces/ns/services/waiting": obj("Service", "waiting", "waiting-uid", deleting) },
      [obj("Pod", "child", "child-uid", { ownerReferences: [{ apiVersion: "v1", kind: "Pod", name: "pod", uid: "pod-uid" }] })],
      [
        `DELETE ${podPath} {"kind":"DeleteOptions","apiVersion":"v1","preconditions":{"uid":"pod-uid","resourceVersion":"7"},"propagationPolicy":"Foreground"}`,
      ],
    ],
    [
      "a waiting owner and no dependents: background delete",
      obj("Pod", "pod", "pod-uid", { ownerReferences: [svcRef("waiting", "waiting-uid")] }),
      { "/api/v1/namespaces/ns/services/waiting": obj("Service", "waiting", "waiting-uid", deleting) },
      [],
      [
        `DELETE ${podPath} {"kind":"DeleteOptions","apiVersion":"v1","preconditions":{"uid":"pod-uid","resourceVersion":"7"},"propagationPolicy":"Background"}`,
      ],
    ],
    [
      "a namespaced owner is looked up in the dependent's namespace",
      obj("Pod", "pod", "pod-uid", { ownerReferences: [svcRef("owner", "owner-uid")] }),
      { "/api/v1/namespaces/other/services/owner": obj("Service", "owner", "owner-uid", {}, "other") },
      [],
      [
        `DELETE ${podPath} {"kind":"DeleteOptions","apiVersion":"v1","preconditions":{"uid":"pod-uid","resourceVersion":"7"},"propagationPolicy":"Background"}`,
      ],
    ],
    [
      "a cluster-scoped owner is found from any namespace",
      obj("Pod", "pod", "pod-uid", { ownerReferences: [{ apiVersion: "v1", kind: "Node", name: "n1", uid: "node-uid" }] }),
      { "/api/v1/nodes/n1": obj("Node", "n1", "node-uid", {}, "") },
      [],
      [],
    ],
  ])("%s", async (_name, item, objects, others, want) => {
    const { gc, graph, requests } = setup({ ...objects, [podPath]: item }, [item, ...others]);
    await gc.attemptToDeleteItem(graph.uidToNode.read("pod-uid")!);
    expect(requests).toEqual(want);
  });

  it("a cluster-scoped item naming a namespaced owner is left alone and not retried", async () => {
    const node = obj("Node", "n1", "node-uid", { ownerReferences: [svcRef("owner", "owner-uid")] }, "");
    const { gc, graph, requests } = setup({ "/api/v1/nodes/n1": node }, [node]);
    expect(await gc.attemptToDeleteItem(graph.uidToNode.read("node-uid")!)).toBe(namespacedOwnerOfClusterScopedObject);
    expect(requests).toEqual([]);
  });

  it("an item that is gone is removed from the graph by a virtual delete event", async () => {
    const item = obj("Pod", "pod", "pod-uid");
    const { gc, graph } = setup({}, [item]);
    expect(await gc.attemptToDeleteItem(graph.uidToNode.read("pod-uid")!)).toBe("enqueuedVirtualDeleteEvent");
    expect(graph.uidToNode.read("pod-uid")).toBeUndefined();
  });

  it("an owner deleting dependents loses foregroundDeletion once no blocking dependent is left", async () => {
    const owner = obj("Service", "owner", "owner-uid", deleting);
    const path = "/api/v1/namespaces/ns/services/owner";
    const { gc, graph, requests } = setup({ [path]: owner }, [
      owner,
      obj("Pod", "pod", "pod-uid", { ownerReferences: [svcRef("owner", "owner-uid", { blockOwnerDeletion: false })] }),
    ]);
    await gc.attemptToDeleteItem(graph.uidToNode.read("owner-uid")!);
    expect(requests).toEqual([`PATCH ${path} {"metadata":{"resourceVersion":"7","finalizers":null}}`]);
  });
});
