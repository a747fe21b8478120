/**
 * Upstream pkg/controller/disruption/disruption_test.go: TestNoSelector, TestUnavailable,
 * TestIntegerMaxUnavailable, TestNakedPod, TestReplicaSet, TestMultipleControllers (as the
 * Deployment and ReplicaSet finders), TestTwoControllers' integer and percent rows,
 * TestPDBNotExist, TestUpdateDisruptedPods, TestBasicFinderFunctions, TestDeploymentFinderFunction,
 * TestInvalidSelectors, TestStalePodDisruption, TestKeepExistingPDBConditionDuringSync and the
 * failSafe of a sync error.
 */
import { describe, expect, it } from "vitest";
import type { Deployment, OwnerReference, Pod, ReplicaSet } from "@servicenet/api";
import type { PodDisruptionBudget } from "@servicenet/api/policy/v1";
import { StatusError } from "@servicenet/api/errors";
import { MemoryInformer } from "@servicenet/client/tools/cache";
import { FakeRecorder } from "@servicenet/client/tools/record";
import { FakeClock } from "@servicenet/component-base/clock";
import { DisruptionController } from "./disruption.ts";
import type { DisruptionClient } from "./disruption-client.ts";
import { getScaledValueFromIntOrPercent } from "./expected.ts";
import { finders } from "./finders.ts";

const t0 = Date.parse("2025-01-01T00:00:00Z");
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
const labels = { foo: "bar" };

function newPDB(spec: PodDisruptionBudget["spec"] = { minAvailable: 0 }): PodDisruptionBudget {
  return {
    metadata: { name: "foobar", namespace: "default", uid: "pdb-uid", generation: 1, resourceVersion: "18" },
    spec: { selector: { matchLabels: labels }, ...spec },
  };
}
function newPod(name: string, ready = true, owner?: OwnerReference): Pod {
  return {
    metadata: { name, namespace: "default", uid: `uid-${name}`, labels, ...(owner ? { ownerReferences: [owner] } : {}) },
    spec: { containers: [] },
    status: { phase: "Running", conditions: [{ type: "Ready", status: ready ? "True" : "False" }] },
  };
}
const controllerRef = (kind: string, apiVersion: string, name: string, uid: string): OwnerReference => ({
  apiVersion,
  kind,
  name,
  uid,
  controller: true,
});
function newReplicaSet(name: string, replicas: number, owner?: OwnerReference): ReplicaSet {
  return {
    metadata: { name, namespace: "default", uid: `uid-${name}`, ...(owner ? { ownerReferences: [owner] } : {}) },
    spec: { replicas, selector: { matchLabels: labels } },
  };
}
function newDeployment(name: string, replicas: number): Deployment {
  return {
    metadata: { name, namespace: "default", uid: `uid-${name}` },
    spec: { replicas, selector: { matchLabels: labels }, template: { metadata: {}, spec: { containers: [] } } },
  };
}

/** The controller over memory informers; status updates land in the PDB cache as upstream's fake updater does. */
function setup(scales: Record<string, number> = {}) {
  const clock = new FakeClock(t0);
  const pdbs = new MemoryInformer<PodDisruptionBudget>();
  const pods = new MemoryInformer<Pod>();
  const replicaSets = new MemoryInformer<ReplicaSet>();
  const deployments = new MemoryInformer<Deployment>();
  const recorder = new FakeRecorder();
  const updates: PodDisruptionBudget[] = [];
  const resets: string[] = [];
  const client: DisruptionClient = {
    updateStatus: async (pdb) => {
      updates.push(pdb);
      const stored = { ...pdb, metadata: { ...pdb.metadata, resourceVersion: String(Number(pdb.metadata.resourceVersion ?? "0") + 1) } };
      pdbs.set(stored);
      return stored;
    },
    getScale: async (ref) => (scales[ref.uid] === undefined ? undefined : { uid: ref.uid, replicas: scales[ref.uid]! }),
    resetDisruptionTarget: async (pod, now) => {
      resets.push(`${pod.metadata.name ?? ""} ${now}`);
    },
  };
  const dc = new DisruptionController({ pdbs, pods, replicaSets, deployments, client, recorder, clock });
  const sync = () => dc.sync("default/foobar");
  const status = () => pdbs.get("default/foobar")!.status!;
  const verify = (
    disruptionsAllowed: number,
    currentHealthy: number,
    desiredHealthy: number,
    expectedPods: number,
    disrupted: Record<string, string> = {},
  ) => {
    const s = status();
    expect({
      disruptionsAllowed: s.disruptionsAllowed,
      currentHealthy: s.currentHealthy,
      desiredHealthy: s.desiredHealthy,
      expectedPods: s.expectedPods,
      disruptedPods: s.disruptedPods ?? {},
    }).toEqual({
      disruptionsAllowed,
      currentHealthy,
      desiredHealthy,
      expectedPods,
      disruptedPods: disrupted,
    });
    expect(s.observedGeneration).toBe(1);
    const cond = s.conditions?.find((c) => c.type === "DisruptionAllowed");
    expect([cond?.status, cond?.reason]).toEqual(disruptionsAllowed > 0 ? ["True", "SufficientPods"] : ["False", "InsufficientPods"]);
  };
  return { dc, clock, pdbs, pods, replicaSets, deployments, recorder, updates, resets, sync, status, verify };
}

describe("disruption controller", () => {
  it("TestNoSelector: a budget with an empty selector matches every Pod of its namespace", async () => {
    const e = setup();
    e.pdbs.set({ ...newPDB({ minAvailable: 3 }), spec: { minAvailable: 3, selector: {} } });
    e.pods.set({ ...newPod("yo-yo-yo"), metadata: { ...newPod("yo-yo-yo").metadata, labels: {} } });
    await e.sync();
    e.verify(0, 1, 3, 1);
  });

  it("TestUnavailable: one unready Pod takes the allowed disruption away", async () => {
    const e = setup();
    e.pdbs.set(newPDB({ minAvailable: 3 }));
    for (let i = 0; i < 4; i++) e.pods.set(newPod(`p${i}`));
    await e.sync();
    e.verify(1, 4, 3, 4);
    e.pods.set(newPod("p0", false));
    await e.sync();
    e.verify(0, 3, 3, 4);
  });

  it("TestIntegerMaxUnavailable: maxUnavailable needs the Pods' controllers", async () => {
    const e = setup();
    e.pdbs.set(newPDB({ maxUnavailable: 1 }));
    const d = newDeployment("foo", 2);
    const rs = newReplicaSet("rs", 2, controllerRef("Deployment", "apps/v1", "foo", d.metadata.uid!));
    e.deployments.set(d);
    e.replicaSets.set(rs);
    const ref = controllerRef("ReplicaSet", "apps/v1", "rs", rs.metadata.uid!);
    e.pods.set(newPod("p0", true, ref));
    e.pods.set(newPod("p1", true, ref));
    await e.sync();
    e.verify(1, 2, 1, 2);
  });

  it("TestNakedPod: a percent budget over a Pod without controller fails safe", async () => {
    const e = setup();
    e.pdbs.set(newPDB({ minAvailable: "28%" }));
    e.pods.set(newPod("naked"));
    await e.sync();
    expect(e.status().disruptionsAllowed).toBe(0);
    expect(e.recorder.events.some((ev) => ev.startsWith("Warning UnmanagedPods Pods selected by this PodDisruptionBudget"))).toBe(true);
  });

  it("TestReplicaSet and TestMultipleControllers: a ReplicaSet's scale, a Deployment's for its ReplicaSets", async () => {
    const e = setup();
    e.pdbs.set(newPDB({ minAvailable: "20%" }));
    const rs = newReplicaSet("rs", 10);
    e.replicaSets.set(rs);
    const ref = controllerRef("ReplicaSet", "apps/v1", "rs", rs.metadata.uid!);
    e.pods.set(newPod("p0", true, ref));
    await e.sync();
    e.verify(0, 1, 2, 10);
    const d = newDeployment("dep", 5);
    e.deployments.set(d);
    const rs2 = newReplicaSet("rs2", 5, controllerRef("Deployment", "apps/v1", "dep", d.metadata.uid!));
    e.replicaSets.set(rs2);
    for (let i = 1; i < 4; i++) e.pods.set(newPod(`p${i}`, true, controllerRef("ReplicaSet", "apps/v1", "rs2", rs2.metadata.uid!)));
    await e.sync();
    e.verify(1, 4, 3, 15);
  });

  it("TestTwoControllers: the scale subresource finder for other kinds (a StatefulSet)", async () => {
    const e = setup({ "uid-ss": 3 });
    e.pdbs.set(newPDB({ maxUnavailable: "34%" }));
    const ref = controllerRef("StatefulSet", "apps/v1", "ss", "uid-ss");
    for (let i = 0; i < 3; i++) e.pods.set(newPod(`p${i}`, true, ref));
    await e.sync();
    // ceil(34% of 3) = 2 unavailable: 1 must stay healthy.
    e.verify(2, 3, 1, 3);
  });

  it("TestPDBNotExist: a missing budget is no error", async () => {
    const e = setup();
    await expect(e.dc.sync("default/notexist")).resolves.toBeUndefined();
    expect(e.updates).toEqual([]);
  });

  it("TestUpdateDisruptedPods: expired and vanished entries are dropped, live ones kept and not counted", async () => {
    const e = setup();
    const pdb = newPDB({ minAvailable: 1 });
    pdb.status = {
      disruptionsAllowed: 1,
      currentHealthy: 0,
      desiredHealthy: 0,
      expectedPods: 0,
      disruptedPods: { p1: iso(t0), p2: iso(t0 - 4 * 60_000), p3: iso(t0) },
    };
    e.pdbs.set(pdb);
    for (const n of ["p1", "p2", "p3"])
      e.pods.set(n === "p3" ? { ...newPod(n), metadata: { ...newPod(n).metadata, deletionTimestamp: iso(t0) } } : newPod(n));
    e.pods.set(newPod("p4"));
    await e.sync();
    e.verify(1, 2, 1, 4, { p1: iso(t0) });
    expect(e.recorder.events).toContain("Warning NotDeleted Pod was expected by PDB default/default to be deleted but it wasn't");
    // Rechecked when p1's entry expires (the status write's own event is taken off first).
    while (e.dc.queue.len() > 0) e.dc.queue.done((await e.dc.queue.get())!);
    expect(e.dc.queue.len()).toBe(0);
    e.clock.step(2 * 60_000 + 1);
    expect(e.dc.queue.len()).toBe(1);
  });

  it("TestBasicFinderFunctions and TestDeploymentFinderFunction", async () => {
    const rs = newReplicaSet("rs", 10);
    const d = newDeployment("dep", 7);
    const owned = newReplicaSet("owned", 3, controllerRef("Deployment", "apps/v1", "dep", d.metadata.uid!));
    const f = finders({
      replicaSets: new MemoryInformer([rs, owned]),
      deployments: new MemoryInformer([d]),
      getScale: async () => undefined,
    });
    const find = async (ref: OwnerReference) => {
      for (const x of f) {
        const r = await x(ref, "default");
        if (r !== undefined) return r;
      }
      return undefined;
    };
    expect(await find(controllerRef("ReplicaSet", "apps/v1", "rs", "uid-rs"))).toEqual({ uid: "uid-rs", scale: 10 });
    expect(await find(controllerRef("ReplicaSet", "extensions/v1beta1", "rs", "uid-rs"))).toEqual({ uid: "uid-rs", scale: 10 });
    expect(await find(controllerRef("ReplicaSet", "apps/v1", "rs", "other-uid"))).toBeUndefined();
    expect(await find(controllerRef("ReplicaSet", "fancy/v1", "rs", "uid-rs"))).toBeUndefined();
    expect(await find(controllerRef("ReplicaSet", "apps/v1", "owned", "uid-owned"))).toEqual({ uid: "uid-dep", scale: 7 });
  });

  it("TestInvalidSelectors: a bad selector fails safe with SyncFailed", async () => {
    const e = setup();
    e.pdbs.set({ ...newPDB(), spec: { minAvailable: 1, selector: { matchExpressions: [{ key: "k", operator: "In", values: [] }] } } });
    await e.sync();
    const cond = e.status().conditions?.find((c) => c.type === "DisruptionAllowed");
    expect([e.status().disruptionsAllowed, cond?.status, cond?.reason]).toEqual([0, "False", "SyncFailed"]);
    expect(cond?.message).toContain("values set can't be empty");
  });

  it("a conflict is returned for a retry without the failSafe", async () => {
    const e = setup();
    e.pdbs.set(newPDB({ minAvailable: 1 }));
    e.pods.set(newPod("p0"));
    const conflict = new StatusError("Conflict", "the object has been modified");
    const d = e.dc as unknown as { trySync: () => Promise<void> };
    d.trySync = () => Promise.reject(conflict);
    await expect(e.sync()).rejects.toBe(conflict);
    expect(e.updates).toEqual([]);
  });

  it("TestKeepExistingPDBConditionDuringSync and no write when nothing changed", async () => {
    const e = setup();
    const pdb = newPDB({ minAvailable: 1 });
    pdb.status = {
      disruptionsAllowed: 0,
      currentHealthy: 0,
      desiredHealthy: 0,
      expectedPods: 0,
      conditions: [{ type: "ExistingTestCondition", status: "True", reason: "ExistingReason", message: "", lastTransitionTime: iso(t0) }],
    };
    e.pdbs.set(pdb);
    e.pods.set(newPod("p0"));
    e.pods.set(newPod("p1"));
    await e.sync();
    e.verify(1, 2, 1, 2);
    expect(e.status().conditions?.map((c) => c.type)).toEqual(["ExistingTestCondition", "DisruptionAllowed"]);
    await e.sync();
    expect(e.updates).toHaveLength(1);
  });

  it("TestStalePodDisruption: a live Pod's DisruptionTarget is reset after the timeout; the kubelet's and a deleting Pod's are not", async () => {
    const e = setup();
    const withCond = (name: string, reason: string, at: number, extra: Partial<Pod["metadata"]> = {}): Pod => {
      const p = newPod(name);
      return {
        ...p,
        metadata: { ...p.metadata, ...extra },
        status: { ...p.status, conditions: [{ type: "DisruptionTarget", status: "True", reason, lastTransitionTime: iso(at) }] },
      };
    };
    e.pods.set(withCond("stale", "EvictionByEvictionAPI", t0 - 3 * 60_000));
    e.pods.set(withCond("fresh", "EvictionByEvictionAPI", t0 - 60_000));
    e.pods.set(withCond("kubelet", "TerminationByKubelet", t0 - 3 * 60_000));
    e.pods.set(withCond("deleting", "EvictionByEvictionAPI", t0 - 3 * 60_000, { deletionTimestamp: iso(t0) }));
    for (const n of ["stale", "fresh", "kubelet", "deleting"]) await e.dc.syncStalePodDisruption(`default/${n}`);
    expect(e.resets).toEqual([`stale ${iso(t0)}`]);
  });

  it("GetScaledValueFromIntOrPercent rounds percents up", () => {
    expect(getScaledValueFromIntOrPercent("34%", 3, true)).toBe(2);
    expect(getScaledValueFromIntOrPercent(4, 3, true)).toBe(4);
    expect(() => getScaledValueFromIntOrPercent("x", 3, true)).toThrow(
      "invalid value for IntOrString: invalid type: string is not a percentage",
    );
  });
});
