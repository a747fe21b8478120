import type { Pod, ReplicaSet } from "@servicenet/api";
import { describe, expect, it } from "vitest";
import { controllerUIDIndex, controllerUIDIndexFunc } from "../controller/pod-index.ts";
import { NoScanInformer } from "../testing/no-scan-informer.ts";
import { newPod, newReplicaSet } from "../testing/replicaset.ts";
import { getIndirectlyRelatedPods, getPodReplicaSets } from "./related.ts";

const inNamespace = <T extends { metadata: { namespace?: string | undefined } }>(o: T, namespace: string): T => ({
  ...o,
  metadata: { ...o.metadata, namespace },
});

// replica_set.go reads rsLister.ReplicaSets(pod.Namespace) and podLister.Pods(rs.Namespace):
// a ReplicaSet or Pod of another namespace with the same labels is never looked at.
describe("related lookups through listers", () => {
  const rs = newReplicaSet(1, { foo: "bar" });
  const twin = inNamespace(rs, "other");

  it("getPodReplicaSets: the ReplicaSets of the Pod's namespace", () => {
    const replicaSets = new NoScanInformer<ReplicaSet>([rs, twin]);
    expect(getPodReplicaSets(replicaSets, newPod("p", twin, "Running")).map((r) => r.metadata.namespace)).toEqual(["other"]);
  });

  it("getIndirectlyRelatedPods: the Pods of the related ReplicaSets' namespace", () => {
    const replicaSets = new NoScanInformer<ReplicaSet>([rs, twin], true, { [controllerUIDIndex]: controllerUIDIndexFunc });
    const pods = new NoScanInformer<Pod>([newPod("a", rs, "Running"), newPod("b", twin, "Running")]);
    // Both ReplicaSets carry the owner uid 123; each selects only its own namespace's Pod.
    expect(
      getIndirectlyRelatedPods(pods, replicaSets, rs)
        .map((p) => `${p.metadata.namespace}/${p.metadata.name}`)
        .sort(),
    ).toEqual(["default/a", "other/b"]);
  });
});
