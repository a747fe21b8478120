/**
 * The GraphBuilder's event processing (upstream garbagecollector_test.go TestProcessEvent and
 * TestDependentsRace's graph side, graph_builder.go referencesDiffs): which nodes, owners and
 * dependents the graph holds after a sequence of events, and what goes on the work queues.
 */
import type { OwnerReference } from "@servicenet/api";
import { RateLimitingQueue } from "@servicenet/client/util/workqueue";
import { describe, expect, it } from "vitest";
import { AbsentOwnerCache, GraphBuilder, referencesDiffs, type GraphEvent, type MetaObject } from "./graph-builder.ts";

function pod(name: string, owners: string[] = [], extra: Partial<MetaObject["metadata"]> = {}, namespace = "ns1"): MetaObject {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: {
      name,
      namespace,
      uid: name,
      resourceVersion: "1",
      ownerReferences: owners.map((o) => ({ apiVersion: "v1", kind: "Pod", name: o, uid: o })),
      ...extra,
    },
  };
}

function setup() {
  const attemptToDelete = new RateLimitingQueue<string>("d");
  const attemptToOrphan = new RateLimitingQueue<string>("o");
  const reports: string[] = [];
  const gb = new GraphBuilder({
    attemptToDelete,
    attemptToOrphan,
    absentOwnerCache: new AbsentOwnerCache(),
    reportInvalidOwnerRef: (dep, msg) => reports.push(`${dep.name}: ${msg}`),
  });
  return { gb, attemptToDelete, attemptToOrphan, reports };
}

async function drain(q: RateLimitingQueue<string>): Promise<string[]> {
  const out: string[] = [];
  while (q.len() > 0) {
    const k = (await q.get())!;
    q.done(k);
    out.push(k);
  }
  return out.sort();
}

/** uid -> sorted dependent uids, for every node (virtual ones marked with *). */
function adjacency(gb: GraphBuilder, uids: string[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const u of uids) {
    const n = gb.uidToNode.read(u);
    if (n !== undefined) out[`${u}${n.virtual ? "*" : ""}`] = [...n.dependents].map((d) => d.identity.uid).sort();
  }
  return out;
}

const all = ["pod1", "pod2", "pod3", "pod4"];

describe("TestProcessEvent", () => {
  it.each<[string, GraphEvent[], Record<string, string[]>, string[]]>([
    [
      "test1: dependents added after their owner",
      [
        { type: "add", obj: pod("pod1") },
        { type: "add", obj: pod("pod2", ["pod1"]) },
        { type: "add", obj: pod("pod3", ["pod1", "pod2"]) },
      ],
      { pod1: ["pod2", "pod3"], pod2: ["pod3"], pod3: [] },
      [],
    ],
    [
      "test2: a dependent first makes a virtual owner, which the owner's add makes observed",
      [
        { type: "add", obj: pod("pod2", ["pod1"]) },
        { type: "add", obj: pod("pod1") },
      ],
      { pod1: ["pod2"], pod2: [] },
      ["pod1"],
    ],
    [
      "test3: an owner removed from ownerReferences loses the dependent",
      [
        { type: "add", obj: pod("pod1") },
        { type: "add", obj: pod("pod2", ["pod1"]) },
        { type: "update", obj: pod("pod2"), oldObj: pod("pod2", ["pod1"]) },
      ],
      { pod1: [], pod2: [] },
      [],
    ],
    [
      "test4: a deleted owner leaves the graph and its dependents are queued",
      [
        { type: "add", obj: pod("pod1") },
        { type: "add", obj: pod("pod2", ["pod1"]) },
        { type: "add", obj: pod("pod3", ["pod1"]) },
        { type: "delete", obj: pod("pod1") },
      ],
      { pod2: [], pod3: [] },
      ["pod2", "pod3"],
    ],
    [
      "test5: a virtual owner confirmed absent goes, its dependents are queued",
      [
        { type: "add", obj: pod("pod2", ["pod1"]) },
        { type: "delete", identity: { apiVersion: "v1", kind: "Pod", name: "pod1", uid: "pod1", namespace: "ns1" }, virtual: true },
      ],
      { pod2: [] },
      ["pod1", "pod2"],
    ],
  ])("%s", async (_name, events, graph, queued) => {
    const { gb, attemptToDelete } = setup();
    for (const e of events) gb.processGraphChange(e);
    expect(adjacency(gb, all)).toEqual(graph);
    expect(await drain(attemptToDelete)).toEqual(queued);
  });

  it("the foregroundDeletion finalizer with a deletionTimestamp queues the owner and its dependents once", async () => {
    const { gb, attemptToDelete, attemptToOrphan } = setup();
    gb.processGraphChange({ type: "add", obj: pod("pod1") });
    gb.processGraphChange({ type: "add", obj: pod("pod2", ["pod1"]) });
    const deleting = pod("pod1", [], {
      deletionTimestamp: "2026-01-01T00:00:00Z",
      finalizers: ["foregroundDeletion"],
      resourceVersion: "2",
    });
    gb.processGraphChange({ type: "update", obj: deleting, oldObj: pod("pod1") });
    expect(gb.uidToNode.read("pod1")?.deletingDependents).toBe(true);
    expect(await drain(attemptToDelete)).toEqual(["pod1", "pod2"]);
    gb.processGraphChange({
      type: "update",
      obj: { ...deleting, metadata: { ...deleting.metadata, resourceVersion: "3" } },
      oldObj: deleting,
    });
    expect(await drain(attemptToDelete)).toEqual([]);
    expect(await drain(attemptToOrphan)).toEqual([]);
  });

  it("the orphan finalizer with a deletionTimestamp queues the owner for orphaning", async () => {
    const { gb, attemptToOrphan } = setup();
    gb.processGraphChange({ type: "add", obj: pod("pod1") });
    const deleting = pod("pod1", [], { deletionTimestamp: "2026-01-01T00:00:00Z", finalizers: ["orphan"], resourceVersion: "2" });
    gb.processGraphChange({ type: "update", obj: deleting, oldObj: pod("pod1") });
    expect(await drain(attemptToOrphan)).toEqual(["pod1"]);
  });

  it("a removed blocking reference unblocks an owner waiting for its dependents", async () => {
    const { gb, attemptToDelete } = setup();
    const deleting = pod("pod1", [], { deletionTimestamp: "2026-01-01T00:00:00Z", finalizers: ["foregroundDeletion"] });
    gb.processGraphChange({ type: "add", obj: deleting });
    const blocking = pod("pod2");
    blocking.metadata.ownerReferences = [{ apiVersion: "v1", kind: "Pod", name: "pod1", uid: "pod1", blockOwnerDeletion: true }];
    gb.processGraphChange({ type: "add", obj: blocking });
    await drain(attemptToDelete);
    gb.processGraphChange({ type: "update", obj: pod("pod2", [], { resourceVersion: "2" }), oldObj: blocking });
    expect(await drain(attemptToDelete)).toEqual(["pod1"]);
  });

  it("an owner observed in another namespace than its dependent: the dependent is reported and queued", async () => {
    const { gb, attemptToDelete, reports } = setup();
    gb.processGraphChange({ type: "add", obj: pod("pod2", ["pod1"], {}, "ns2") });
    await drain(attemptToDelete);
    gb.processGraphChange({ type: "add", obj: pod("pod1", [], {}, "ns1") });
    expect(await drain(attemptToDelete)).toEqual(["pod2"]);
    expect(reports).toEqual(['pod2: ownerRef [v1/Pod, namespace: ns2, name: pod1, uid: pod1] does not exist in namespace "ns2"']);
    // The node now has the observed identity, not the one the dependent guessed.
    expect(gb.uidToNode.read("pod1")?.identity.namespace).toBe("ns1");
  });
});

describe("referencesDiffs", () => {
  const ref = (uid: string, block?: boolean): OwnerReference => ({
    apiVersion: "v1",
    kind: "Pod",
    name: uid,
    uid,
    ...(block !== undefined ? { blockOwnerDeletion: block } : {}),
  });
  it("reports added, removed and changed references by uid", () => {
    const d = referencesDiffs([ref("a"), ref("b", true)], [ref("b", false), ref("c")]);
    expect(d.added.map((r) => r.uid)).toEqual(["c"]);
    expect(d.removed.map((r) => r.uid)).toEqual(["a"]);
    expect(d.changed.map(([o, n]) => [o.blockOwnerDeletion, n.blockOwnerDeletion])).toEqual([[true, false]]);
  });
});
