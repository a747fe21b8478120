/**
 * pkg/controller/statefulset/stateful_set_control_test.go: TestStatefulSetControl's cases that fit
 * (CreatesPods, ScalesUp, ScalesDown, ReplacesPods, RecreatesFailedPod, CreatePodFailure via claims,
 * UpdateStatefulSet with partition, OnDelete, Parallel bursts) and TestStatefulSetControlRollback /
 * history truncation.
 */
import { describe, expect, it } from "vitest";
import {
  FakeStatefulSetClient,
  newFakeControl,
  newStatefulSet,
  podsOf,
  setPodPending,
  setPodRunningAndReady,
  syncOnce,
} from "../testing/statefulset.ts";

const names = (c: FakeStatefulSetClient) => podsOf(c).map((p) => p.metadata.name);
const image = (c: FakeStatefulSetClient, name: string) => c.pods.get(name)?.spec.containers[0]?.image;

/** Plays the kubelet: every created Pod becomes Running and Ready before the next pass. */
async function runToCompletion(client: FakeStatefulSetClient, control: ReturnType<typeof newFakeControl>["control"], passes = 20) {
  for (let i = 0; i < passes; i++) {
    await syncOnce(client, control);
    for (const p of client.pods.values()) if (p.status?.phase === undefined) setPodRunningAndReady(client, p.metadata.name!);
  }
}

describe("TestStatefulSetControl", () => {
  it("CreatesPods: OrderedReady creates one Pod per pass, each after its predecessor is Running and Ready", async () => {
    const client = new FakeStatefulSetClient(newStatefulSet(3));
    const { control, recorder } = newFakeControl(client);
    await syncOnce(client, control);
    expect(names(client)).toEqual(["foo-0"]);
    // Not ready: nothing more.
    setPodPending(client, "foo-0");
    await syncOnce(client, control);
    expect(names(client)).toEqual(["foo-0"]);
    setPodRunningAndReady(client, "foo-0");
    await syncOnce(client, control);
    expect(names(client)).toEqual(["foo-0", "foo-1"]);
    setPodRunningAndReady(client, "foo-1");
    await syncOnce(client, control);
    setPodRunningAndReady(client, "foo-2");
    await syncOnce(client, control);
    expect(client.set.status).toMatchObject({
      replicas: 3,
      readyReplicas: 3,
      currentReplicas: 3,
      updatedReplicas: 3,
      availableReplicas: 3,
      observedGeneration: 1,
    });
    expect(client.set.status?.currentRevision).toBe(client.set.status?.updateRevision);
    expect(recorder.events).toEqual([0, 1, 2].map((i) => `Normal SuccessfulCreate create Pod foo-${i} in StatefulSet foo successful`));
  });

  it("gives each Pod its identity: name, pod-name and pod-index labels, hostname, subdomain, revision label, owner", async () => {
    const client = new FakeStatefulSetClient(newStatefulSet(2));
    const { control } = newFakeControl(client);
    await runToCompletion(client, control);
    const [p0, p1] = podsOf(client);
    const rev = client.set.status?.updateRevision;
    expect(p1!.metadata).toMatchObject({
      name: "foo-1",
      namespace: "default",
      generateName: "foo-",
      labels: {
        foo: "bar",
        "statefulset.kubernetes.io/pod-name": "foo-1",
        "apps.kubernetes.io/pod-index": "1",
        "controller-revision-hash": rev,
      },
      ownerReferences: [
        { apiVersion: "apps/v1", kind: "StatefulSet", name: "foo", uid: "set-uid", controller: true, blockOwnerDeletion: true },
      ],
    });
    expect(p0!.spec).toMatchObject({ hostname: "foo-0", subdomain: "governingsvc" });
  });

  it("Parallel creates every missing Pod in one pass and does not wait for readiness", async () => {
    const client = new FakeStatefulSetClient(newStatefulSet(4, { podManagementPolicy: "Parallel" }));
    const { control } = newFakeControl(client);
    await syncOnce(client, control);
    expect(names(client)).toEqual(["foo-0", "foo-1", "foo-2", "foo-3"]);
  });

  it("ScalesDown: OrderedReady deletes one Pod per pass, from the highest ordinal", async () => {
    const client = new FakeStatefulSetClient(newStatefulSet(3));
    const { control } = newFakeControl(client);
    await runToCompletion(client, control);
    client.set.spec.replicas = 1;
    client.calls.length = 0;
    await syncOnce(client, control);
    expect(names(client)).toEqual(["foo-0", "foo-1"]);
    await syncOnce(client, control);
    expect(names(client)).toEqual(["foo-0"]);
    expect(client.calls.filter((c) => c.startsWith("delete pod"))).toEqual(["delete pod/foo-2", "delete pod/foo-1"]);
    // The pass that deleted foo-1 still counted it; the next one does not.
    expect(client.set.status).toMatchObject({ replicas: 2 });
    await syncOnce(client, control);
    expect(client.set.status).toMatchObject({ replicas: 1, readyReplicas: 1 });
  });

  it("ordinals.start: Pods are numbered from the start ordinal", async () => {
    const client = new FakeStatefulSetClient(newStatefulSet(2, { ordinals: { start: 3 } }));
    const { control } = newFakeControl(client);
    await runToCompletion(client, control);
    expect(names(client)).toEqual(["foo-3", "foo-4"]);
  });

  it("RecreatesFailedPod: a Failed Pod is deleted, then made again", async () => {
    const client = new FakeStatefulSetClient(newStatefulSet(1));
    const { control } = newFakeControl(client);
    await runToCompletion(client, control, 3);
    client.pods.get("foo-0")!.status = { phase: "Failed" };
    await syncOnce(client, control);
    expect(names(client)).toEqual([]);
    await syncOnce(client, control);
    expect(names(client)).toEqual(["foo-0"]);
  });

  it("restores a Pod's identity when its labels were changed", async () => {
    const client = new FakeStatefulSetClient(newStatefulSet(1));
    const { control, recorder } = newFakeControl(client);
    await runToCompletion(client, control, 3);
    delete client.pods.get("foo-0")!.metadata.labels!["statefulset.kubernetes.io/pod-name"];
    await syncOnce(client, control);
    expect(client.pods.get("foo-0")!.metadata.labels?.["statefulset.kubernetes.io/pod-name"]).toBe("foo-0");
    expect(recorder.events.at(-1)).toBe("Normal SuccessfulUpdate update Pod foo-0 in StatefulSet foo successful");
  });

  it("creates the claims before the Pod; when claims cannot be created the Pod is not, with upstream's events", async () => {
    const claims = [{ metadata: { name: "datadir" }, spec: { accessModes: ["ReadWriteOnce"] } }];
    const ok = new FakeStatefulSetClient(newStatefulSet(1, { volumeClaimTemplates: claims }));
    await syncOnce(ok, newFakeControl(ok).control);
    expect(ok.calls.filter((c) => c.startsWith("create p"))).toEqual(["create persistentvolumeclaim/datadir-foo-0", "create pod/foo-0"]);
    expect((ok.pods.get("foo-0")!.spec as Record<string, unknown>)["volumes"]).toEqual([
      { name: "datadir", persistentVolumeClaim: { claimName: "datadir-foo-0" } },
    ]);

    const refused = new FakeStatefulSetClient(newStatefulSet(1, { volumeClaimTemplates: claims }));
    refused.claimsServed = false;
    const { control, recorder } = newFakeControl(refused);
    await expect(syncOnce(refused, control)).rejects.toThrow(
      "failed to create PVC datadir-foo-0: the server could not find the requested resource",
    );
    expect(names(refused)).toEqual([]);
    expect(recorder.events).toEqual([
      "Warning FailedCreate create Claim datadir-foo-0 for Pod foo-0 in StatefulSet foo failed error: the server could not find the requested resource",
      "Warning FailedCreate create Pod foo-0 in StatefulSet foo failed error: failed to create PVC datadir-foo-0: the server could not find the requested resource",
    ]);
    // The status is still written (replicas 0, the revisions).
    expect(refused.set.status).toMatchObject({ replicas: 0, observedGeneration: 1 });
  });
});

describe("TestStatefulSetControl updates", () => {
  async function updatedTemplate(spec: Parameters<typeof newStatefulSet>[1] = {}) {
    const client = new FakeStatefulSetClient(newStatefulSet(3, spec));
    const { control } = newFakeControl(client);
    await runToCompletion(client, control);
    const first = client.set.status?.updateRevision;
    client.set.spec.template.spec.containers[0]!.image = "nginx:2";
    client.set.metadata.generation = 2;
    return { client, control, first };
  }

  it("RollingUpdate replaces Pods from the highest ordinal down, one at a time, then completes the update", async () => {
    const { client, control, first } = await updatedTemplate();
    client.calls.length = 0;
    await runToCompletion(client, control);
    expect(client.calls.filter((c) => c.startsWith("delete pod"))).toEqual(["delete pod/foo-2", "delete pod/foo-1", "delete pod/foo-0"]);
    expect(["foo-0", "foo-1", "foo-2"].map((n) => image(client, n))).toEqual(["nginx:2", "nginx:2", "nginx:2"]);
    const s = client.set.status!;
    expect(s.updateRevision).not.toBe(first);
    expect(s.currentRevision).toBe(s.updateRevision);
    expect(s).toMatchObject({ replicas: 3, currentReplicas: 3, updatedReplicas: 3, observedGeneration: 2 });
    expect(client.revisions.size).toBe(2);
  });

  it("a partition keeps the Pods below it at the current revision", async () => {
    const { client, control, first } = await updatedTemplate({
      updateStrategy: { type: "RollingUpdate", rollingUpdate: { partition: 2 } },
    });
    await runToCompletion(client, control);
    expect(["foo-0", "foo-1", "foo-2"].map((n) => image(client, n))).toEqual(["nginx", "nginx", "nginx:2"]);
    expect(client.set.status).toMatchObject({ currentRevision: first, currentReplicas: 2, updatedReplicas: 1 });
  });

  it("OnDelete updates nothing until a Pod is deleted, which comes back at the update revision", async () => {
    const { client, control } = await updatedTemplate({ updateStrategy: { type: "OnDelete" } });
    await runToCompletion(client, control);
    expect(["foo-0", "foo-1", "foo-2"].map((n) => image(client, n))).toEqual(["nginx", "nginx", "nginx"]);
    client.pods.delete("foo-1");
    await runToCompletion(client, control);
    expect(image(client, "foo-1")).toBe("nginx:2");
  });

  it("TestStatefulSetControlRollback: going back to an older template reuses its revision with a new number", async () => {
    const { client, control, first } = await updatedTemplate();
    await runToCompletion(client, control);
    client.set.spec.template.spec.containers[0]!.image = "nginx";
    await runToCompletion(client, control);
    expect(client.set.status?.updateRevision).toBe(first);
    expect(client.revisions.get(first!)?.revision).toBe(3);
    expect(client.calls).toContain(`update controllerrevision/${first} 3`);
  });

  it("truncates the history to revisionHistoryLimit, keeping the live revisions", async () => {
    const client = new FakeStatefulSetClient(newStatefulSet(1, { revisionHistoryLimit: 1 }));
    const { control } = newFakeControl(client);
    await runToCompletion(client, control);
    for (const img of ["a", "b", "c"]) {
      client.set.spec.template.spec.containers[0]!.image = img;
      await runToCompletion(client, control);
    }
    // The live one (image c) and one historic (b).
    expect([...client.revisions.values()].map((r) => r.revision).sort()).toEqual([3, 4]);
  });
});
