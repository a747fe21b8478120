/**
 * The garbage collector through the HTTP API (upstream
 * test/integration/garbagecollector/garbage_collector_test.go): an in-process apiserver
 * (`@servicenet/apiserver/envtest`) and controller-manager's garbagecollector and endpointslice
 * controllers over HTTP. Upstream's owners are ReplicationControllers; here they are Services
 * and Nodes (the kinds servicenet serves), with Pods as dependents.
 */
import { CoreV1Api, DiscoveryV1Api, KubeConfig, type V1OwnerReference } from "@kubernetes/client-node";
import { startTestEnvironment, type TestEnvironment } from "@servicenet/apiserver/envtest";
import { testEnvironmentControllers } from "@servicenet/controller-manager";
import { eventually } from "@servicenet/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

let env: TestEnvironment;
let core: CoreV1Api;
let discovery: DiscoveryV1Api;
let nsCount = 0;

beforeAll(async () => {
  env = await startTestEnvironment({ controllers: testEnvironmentControllers(["endpointslice", "garbagecollector"]) });
  const kc = new KubeConfig();
  kc.loadFromString(env.kubeconfig);
  core = kc.makeApiClient(CoreV1Api);
  discovery = kc.makeApiClient(DiscoveryV1Api);
});
afterAll(() => env?.stop());

async function newNamespace(): Promise<string> {
  const name = `gc-${++nsCount}`;
  await core.createNamespace({ body: { metadata: { name } } });
  return name;
}

async function newOwner(namespace: string, name: string): Promise<V1OwnerReference> {
  const svc = await core.createNamespacedService({
    namespace,
    body: { metadata: { name }, spec: { selector: { app: name }, ports: [{ port: 80 }] } },
  });
  return { apiVersion: "v1", kind: "Service", name, uid: svc.metadata?.uid ?? "" };
}

async function newPod(namespace: string, name: string, owners: V1OwnerReference[], finalizers?: string[]): Promise<void> {
  await core.createNamespacedPod({
    namespace,
    body: {
      metadata: { name, ...(owners.length > 0 ? { ownerReferences: owners } : {}), ...(finalizers ? { finalizers } : {}) },
      spec: { containers: [{ name: "c", image: "x" }] },
    },
  });
}

const podNames = async (namespace: string) => (await core.listNamespacedPod({ namespace })).items.map((p) => p.metadata?.name).sort();
const readPod = (namespace: string, name: string) => core.readNamespacedPod({ namespace, name });
const serviceGone = async (namespace: string, name: string) =>
  core.readNamespacedService({ namespace, name }).then(
    () => false,
    (e: unknown) => (e as { code?: number }).code === 404,
  );
const removeFinalizers = (namespace: string, name: string) =>
  core.patchNamespacedPod({ namespace, name, body: [{ op: "remove", path: "/metadata/finalizers" }] });
/** Long enough for the collector to have acted if it were going to (it acts within milliseconds). */
const settle = () => new Promise((r) => setTimeout(r, 1500));

describe("garbage collector over HTTP", () => {
  it("TestCascadingDeletion: dependents of a deleted owner go, those with another owner and independents stay", async () => {
    const ns = await newNamespace();
    const toBeDeleted = await newOwner(ns, "to-be-deleted");
    const remaining = await newOwner(ns, "remaining");
    await newPod(ns, "pod-to-be-deleted", [toBeDeleted]);
    await newPod(ns, "pod-with-remaining-owner", [toBeDeleted, remaining]);
    await newPod(ns, "independent", []);
    await core.deleteNamespacedService({ namespace: ns, name: "to-be-deleted" });
    await eventually(async () => !(await podNames(ns)).includes("pod-to-be-deleted"), { what: "pod-to-be-deleted collected" });
    await settle();
    expect(await podNames(ns)).toEqual(["independent", "pod-with-remaining-owner"]);
    // The dangling reference is removed from the survivor, as attemptToDeleteItem does.
    await eventually(async () => (await readPod(ns, "pod-with-remaining-owner")).metadata?.ownerReferences?.length === 1);
    expect((await readPod(ns, "pod-with-remaining-owner")).metadata?.ownerReferences?.map((r) => r.name)).toEqual(["remaining"]);
  });

  it("TestCreateWithNonExistentOwner: a dependent whose owner never existed is collected", async () => {
    const ns = await newNamespace();
    await newPod(ns, "orphan", [{ apiVersion: "v1", kind: "Service", name: "does-not-exist", uid: "doesn't matter" }]);
    await eventually(async () => (await podNames(ns)).length === 0, { what: "pod collected" });
  });

  it("dangling owner: an owner of the same name but another uid counts as absent", async () => {
    const ns = await newNamespace();
    const owner = await newOwner(ns, "web");
    await newPod(ns, "dependent", [{ ...owner, uid: "00000000-0000-0000-0000-000000000000" }]);
    await eventually(async () => (await podNames(ns)).length === 0, { what: "pod collected" });
    expect(await serviceGone(ns, "web")).toBe(false);
  });

  it("TestBlockingOwnerRefDoesBlock: foreground deletion waits for a blocking dependent", async () => {
    const ns = await newNamespace();
    const owner = await newOwner(ns, "owner");
    await newPod(ns, "blocking", [{ ...owner, blockOwnerDeletion: true }], ["x/y"]);
    await core.deleteNamespacedService({ namespace: ns, name: "owner", propagationPolicy: "Foreground" });
    await eventually(async () => (await readPod(ns, "blocking")).metadata?.deletionTimestamp !== undefined, { what: "dependent deleting" });
    await settle();
    const held = await core.readNamespacedService({ namespace: ns, name: "owner" });
    expect(held.metadata?.finalizers).toEqual(["foregroundDeletion"]);
    expect(held.metadata?.deletionTimestamp).toBeDefined();
    await removeFinalizers(ns, "blocking");
    await eventually(() => serviceGone(ns, "owner"), { what: "owner gone after its blocking dependent" });
  });

  it("TestNonBlockingOwnerRefDoesNotBlock: a dependent without blockOwnerDeletion does not hold the owner", async () => {
    const ns = await newNamespace();
    const owner = await newOwner(ns, "owner");
    await newPod(ns, "non-blocking", [{ ...owner, blockOwnerDeletion: false }], ["x/y"]);
    await newPod(ns, "unset", [owner], ["x/y"]);
    await core.deleteNamespacedService({ namespace: ns, name: "owner", propagationPolicy: "Foreground" });
    await eventually(() => serviceGone(ns, "owner"), { what: "owner gone" });
    // The dependents were deleted too, and wait for their own finalizer.
    await eventually(async () => (await readPod(ns, "non-blocking")).metadata?.deletionTimestamp !== undefined);
    await eventually(async () => (await readPod(ns, "unset")).metadata?.deletionTimestamp !== undefined);
    await removeFinalizers(ns, "non-blocking");
    await removeFinalizers(ns, "unset");
    await eventually(async () => (await podNames(ns)).length === 0);
  });

  it("TestSolidOwnerDoesNotBlockWaitingOwner: the waiting owner's reference is removed from a dependent with a solid owner", async () => {
    const ns = await newNamespace();
    const waiting = await newOwner(ns, "waiting");
    const solid = await newOwner(ns, "solid");
    await newPod(ns, "dependent", [{ ...waiting, blockOwnerDeletion: true }, solid]);
    await core.deleteNamespacedService({ namespace: ns, name: "waiting", propagationPolicy: "Foreground" });
    await eventually(() => serviceGone(ns, "waiting"), { what: "waiting owner gone" });
    const pod = await readPod(ns, "dependent");
    expect(pod.metadata?.deletionTimestamp).toBeUndefined();
    expect(pod.metadata?.ownerReferences?.map((r) => r.name)).toEqual(["solid"]);
  });

  it("TestOrphaning: orphaned dependents stay and lose their owner reference", async () => {
    const ns = await newNamespace();
    const owner = await newOwner(ns, "owner");
    for (const n of ["a", "b", "c"]) await newPod(ns, n, [owner]);
    await core.deleteNamespacedService({ namespace: ns, name: "owner", propagationPolicy: "Orphan" });
    await eventually(() => serviceGone(ns, "owner"), { what: "owner gone" });
    const pods = (await core.listNamespacedPod({ namespace: ns })).items;
    expect(pods.map((p) => [p.metadata?.name, p.metadata?.ownerReferences ?? []])).toEqual([
      ["a", []],
      ["b", []],
      ["c", []],
    ]);
  });

  it("TestOrphaning with orphanDependents=true (the deprecated option)", async () => {
    const ns = await newNamespace();
    const owner = await newOwner(ns, "owner");
    await newPod(ns, "a", [owner]);
    await core.deleteNamespacedService({ namespace: ns, name: "owner", orphanDependents: true });
    await eventually(() => serviceGone(ns, "owner"), { what: "owner gone" });
    expect((await readPod(ns, "a")).metadata?.ownerReferences ?? []).toEqual([]);
  });

  it("TestDoubleDeletionWithFinalizer: a foreground DELETE twice leaves the custom finalizer alone", async () => {
    const ns = await newNamespace();
    await newPod(ns, "lucy", [], ["x/y"]);
    await core.deleteNamespacedPod({ namespace: ns, name: "lucy", propagationPolicy: "Foreground" });
    await core.deleteNamespacedPod({ namespace: ns, name: "lucy", propagationPolicy: "Foreground" });
    // No dependents: the collector removes foregroundDeletion at once.
    await eventually(async () => JSON.stringify((await readPod(ns, "lucy")).metadata?.finalizers) === '["x/y"]', {
      what: "finalizers [x/y]",
    });
    await removeFinalizers(ns, "lucy");
    await eventually(async () => (await podNames(ns)).length === 0);
  });

  it("TestClusterScopedOwners: a namespaced dependent of a cluster-scoped owner", async () => {
    const ns = await newNamespace();
    const node = await core.createNode({ body: { metadata: { name: `${ns}-node` } } });
    await newPod(ns, "owned-by-node", [{ apiVersion: "v1", kind: "Node", name: `${ns}-node`, uid: node.metadata?.uid ?? "" }]);
    await newPod(ns, "owned-by-missing-node", [{ apiVersion: "v1", kind: "Node", name: `${ns}-missing`, uid: "missing-uid" }]);
    await eventually(async () => !(await podNames(ns)).includes("owned-by-missing-node"));
    await settle();
    expect(await podNames(ns)).toEqual(["owned-by-node"]);
    await core.deleteNode({ name: `${ns}-node` });
    await eventually(async () => (await podNames(ns)).length === 0, { what: "pod of the deleted Node collected" });
  });

  it("TestCrossNamespaceReferences: a namespaced owner is looked up in the dependent's namespace; invalid ones get OwnerRefInvalidNamespace", async () => {
    const ns1 = await newNamespace();
    const ns2 = await newNamespace();
    const parent = await newOwner(ns1, "parent");
    await newPod(ns1, "valid-child", [parent]);
    await newPod(ns2, "invalid-child", [parent]);
    await eventually(async () => (await podNames(ns2)).length === 0, { what: "invalid child collected" });
    await settle();
    expect(await podNames(ns1)).toEqual(["valid-child"]);
    const events = await eventually(async () => {
      const evs = (await core.listNamespacedEvent({ namespace: ns2 })).items.filter((e) => e.reason === "OwnerRefInvalidNamespace");
      return evs.length > 0 ? evs : undefined;
    });
    expect(events[0]?.involvedObject.name).toBe("invalid-child");
    expect(events[0]?.message).toBe(
      `ownerRef [v1/Service, namespace: ${ns2}, name: parent, uid: ${parent.uid}] does not exist in namespace "${ns2}"`,
    );
  });

  it("the EndpointSlices of a deleted Service are collected through their ownerReference", async () => {
    const ns = await newNamespace();
    await newOwner(ns, "web");
    const slices = async () => (await discovery.listNamespacedEndpointSlice({ namespace: ns })).items;
    await eventually(async () => (await slices()).length > 0, { what: "slices created" });
    expect((await slices())[0]?.metadata?.ownerReferences?.[0]).toMatchObject({ kind: "Service", name: "web", blockOwnerDeletion: true });
    await core.deleteNamespacedService({ namespace: ns, name: "web" });
    await eventually(async () => (await slices()).length === 0, { what: "slices collected" });
  });

  it("deletecollection with propagationPolicy=Orphan orphans the dependents of every owner", async () => {
    const ns = await newNamespace();
    const a = await newOwner(ns, "a");
    const b = await newOwner(ns, "b");
    await newPod(ns, "pa", [a]);
    await newPod(ns, "pb", [b]);
    await core.deleteCollectionNamespacedService({ namespace: ns, propagationPolicy: "Orphan" });
    await eventually(async () => (await core.listNamespacedService({ namespace: ns })).items.length === 0, { what: "owners gone" });
    const pods = (await core.listNamespacedPod({ namespace: ns })).items;
    expect(pods.map((p) => [p.metadata?.name, p.metadata?.ownerReferences ?? []])).toEqual([
      ["pa", []],
      ["pb", []],
    ]);
  });

  it("TestStressingCascadingDeletion (scaled down): owners deleted in background and with orphan at once", async () => {
    const ns = await newNamespace();
    const owners = 10;
    const podsPerOwner = 5;
    for (let i = 0; i < owners; i++) {
      const o = await newOwner(ns, `owner-${i}`);
      await Promise.all(Array.from({ length: podsPerOwner }, (_, j) => newPod(ns, `p-${i}-${j}`, [o])));
    }
    // Even owners cascade, odd ones orphan, all in flight together.
    await Promise.all(
      Array.from({ length: owners }, (_, i) =>
        core.deleteNamespacedService({ namespace: ns, name: `owner-${i}`, propagationPolicy: i % 2 === 0 ? "Background" : "Orphan" }),
      ),
    );
    await eventually(async () => (await core.listNamespacedService({ namespace: ns })).items.length === 0, { what: "owners gone" });
    const want = Array.from({ length: owners }, (_, i) => i)
      .filter((i) => i % 2 === 1)
      .flatMap((i) => Array.from({ length: podsPerOwner }, (_, j) => `p-${i}-${j}`))
      .sort();
    await eventually(async () => JSON.stringify(await podNames(ns)) === JSON.stringify(want), { what: "only orphaned pods left" });
    const pods = (await core.listNamespacedPod({ namespace: ns })).items;
    expect(pods.filter((p) => (p.metadata?.ownerReferences ?? []).length > 0)).toEqual([]);
  });
});
