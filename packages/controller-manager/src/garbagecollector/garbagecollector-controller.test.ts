/**
 * The garbage collector's monitors (graph_builder.go controllerFor over informerfactory.ForResource,
 * staging/src/k8s.io/controller-manager/pkg/informerfactory/informer_factory.go): a resource the
 * process's shared informers watch is monitored through that informer, with no LIST or WATCH of
 * its own, and the graph sees its objects' metadata as from a metadata informer.
 */
import { KubeConfig } from "@kubernetes/client-node";
import { MemoryInformer, type ObjectWithMeta } from "@servicenet/client/tools/cache";
import { describe, expect, it } from "vitest";
import type { APIResource } from "./discovery.ts";
import { GarbageCollectorController } from "./garbagecollector-controller.ts";

const rw = ["create", "delete", "get", "list", "patch", "update", "watch"];
const answers: Record<string, unknown> = {
  "/api": { versions: ["v1"] },
  "/apis": { groups: [] },
  "/api/v1": { groupVersion: "v1", resources: [{ name: "pods", kind: "Pod", namespaced: true, verbs: rw }] },
};

interface PodLike extends ObjectWithMeta {
  metadata: { name: string; namespace: string; uid: string; resourceVersion: string; ownerReferences?: unknown[] };
  spec?: unknown;
}

const pod = (rv: string, owner?: string): PodLike => ({
  metadata: {
    name: "p",
    namespace: "ns",
    uid: "pod-uid",
    resourceVersion: rv,
    ...(owner ? { ownerReferences: [{ apiVersion: "apps/v1", kind: "ReplicaSet", name: "rs", uid: owner }] } : {}),
  },
  spec: { containers: [{ name: "c", image: "nginx" }] },
});

async function until(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !cond(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(cond()).toBe(true);
}

describe("GarbageCollectorController monitors", () => {
  it("monitors a resource through the process's shared informer, without a LIST or WATCH of its own", async () => {
    const requests: string[] = [];
    const client = {
      request: <T>(m: string, path: string): Promise<T> => {
        requests.push(`${m} ${path}`);
        return Promise.resolve(answers[path] as T);
      },
    };
    const pods = new MemoryInformer<PodLike>([pod("1")]);
    const asked: string[] = [];
    const gc = new GarbageCollectorController({
      kubeConfig: new KubeConfig(),
      client,
      sharedInformerFor: (r: APIResource) => {
        asked.push(`${r.group}/${r.version}/${r.resource}`);
        return r.resource === "pods" ? pods : undefined;
      },
    });
    const ac = new AbortController();
    const running = gc.run(ac.signal, 1);
    await until(() => gc.graph?.uidToNode.read("pod-uid") !== undefined);
    expect(asked).toEqual(["/v1/pods"]);
    // The node carries the object's identity as the GC's metadata informer gave it (apiVersion and kind from discovery).
    expect(gc.graph!.uidToNode.read("pod-uid")!.identity).toMatchObject({ apiVersion: "v1", kind: "Pod", name: "p", namespace: "ns" });

    // An update with a new owner reaches the graph: the owner appears as a virtual node.
    pods.set(pod("2", "rs-uid"));
    await until(() => gc.graph!.uidToNode.read("rs-uid") !== undefined);
    expect([...gc.graph!.uidToNode.read("rs-uid")!.dependents].map((d) => d.identity.uid)).toEqual(["pod-uid"]);

    pods.remove("ns/p");
    await until(() => gc.graph!.uidToNode.read("pod-uid") === undefined);
    ac.abort();
    await running;
    // Discovery only: the shared informer listed and watched Pods for everyone.
    expect(requests.filter((r) => !/^GET \/apis?(\/v1)?$/.test(r))).toEqual([]);
  });
});
