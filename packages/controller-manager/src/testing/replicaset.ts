/** ReplicaSets and Pods for the ReplicaSet controller's tests, as upstream's replica_set_test.go builds them. */
import type { OwnerReference, Pod, ReplicaSet } from "@servicenet/api";
import { randomUUID } from "node:crypto";

/** `newReplicaSet`: `foobar` in `default`, controlled by an owner of uid 123, template labels name=foo,type=production. */
export function newReplicaSet(replicas: number, selector: Record<string, string>): ReplicaSet {
  return {
    apiVersion: "apps/v1",
    kind: "ReplicaSet",
    metadata: {
      uid: randomUUID(),
      name: "foobar",
      namespace: "default",
      ownerReferences: [{ apiVersion: "apps/v1", kind: "Deployment", name: "d", uid: "123", controller: true }],
      resourceVersion: "18",
    },
    spec: {
      replicas,
      selector: { matchLabels: selector },
      template: {
        metadata: { labels: { name: "foo", type: "production" } },
        spec: { containers: [{ name: "c", image: "foo/bar" }], restartPolicy: "Always", nodeSelector: { baz: "blah" } },
      },
    },
  };
}

/** The controller reference of `rs`. */
export const controllerRefOf = (rs: ReplicaSet): OwnerReference => ({
  uid: rs.metadata.uid ?? "",
  apiVersion: "apps/v1",
  kind: "ReplicaSet",
  name: rs.metadata.name ?? "",
  controller: true,
});

/** `newPod`: a Pod with the ReplicaSet's selector labels, Ready when Running, owned by `rs` when `properlyOwned`. */
export function newPod(name: string, rs: ReplicaSet, phase: string, lastTransitionTime?: string, properlyOwned = false): Pod {
  const conditions =
    phase === "Running" ? [{ type: "Ready", status: "True", ...(lastTransitionTime !== undefined ? { lastTransitionTime } : {}) }] : [];
  return {
    metadata: {
      uid: randomUUID(),
      name,
      namespace: rs.metadata.namespace ?? "",
      resourceVersion: "1",
      labels: { ...(rs.spec.selector?.matchLabels ?? {}) },
      ...(properlyOwned ? { ownerReferences: [controllerRefOf(rs)] } : {}),
    },
    spec: { containers: [] },
    status: { phase, conditions },
  };
}

/** `newPodList`: `count` Pods `<name><i>` with `labels`, owned by `rs`. */
export function newPodList(count: number, phase: string, labels: Record<string, string>, rs: ReplicaSet, name: string): Pod[] {
  return Array.from({ length: count }, (_, i) => {
    const pod = newPod(`${name}${i}`, rs, phase, undefined, true);
    pod.metadata.labels = labels;
    return pod;
  });
}
