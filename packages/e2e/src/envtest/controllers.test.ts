/**
 * `@servicenet/apiserver/envtest` with controller-manager's endpoint and EndpointSlice controllers
 * in the test's process (over HTTP): the packages meet here, never by importing each other.
 */
import { CoreV1Api, DiscoveryV1Api, KubeConfig } from "@kubernetes/client-node";
import { startTestEnvironment, type TestEnvironment } from "@servicenet/apiserver/envtest";
import { testEnvironmentControllers } from "@servicenet/controller-manager";
import { eventually } from "@servicenet/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

describe("envtest with controllers", () => {
  let env: TestEnvironment;
  beforeAll(async () => {
    env = await startTestEnvironment({ controllers: testEnvironmentControllers(["endpoint", "endpointslice"]) });
  });
  afterAll(() => env?.stop());

  it("runs controller-manager's endpoint and EndpointSlice controllers over HTTP", async () => {
    const kc = new KubeConfig();
    kc.loadFromString(env.kubeconfig);
    const core = kc.makeApiClient(CoreV1Api);
    const discovery = kc.makeApiClient(DiscoveryV1Api);
    const slices = async () =>
      (await discovery.listEndpointSliceForAllNamespaces()).items.map((s) => `${s.metadata?.namespace}/${s.metadata?.name}`);
    const before = await slices();
    await core.createNamespace({ body: { metadata: { name: "ctl" } } });
    await core.createNamespacedService({
      namespace: "ctl",
      body: { metadata: { name: "web" }, spec: { selector: { app: "web" }, ports: [{ port: 80, targetPort: 8080 }] } },
    });
    await core.createNamespacedPod({
      namespace: "ctl",
      body: { metadata: { name: "web-1", labels: { app: "web" } }, spec: { containers: [{ name: "c", image: "x" }] } },
    });
    const pod = await core.readNamespacedPod({ namespace: "ctl", name: "web-1" });
    pod.status = { phase: "Running", podIP: "10.244.0.5", podIPs: [{ ip: "10.244.0.5" }], conditions: [{ type: "Ready", status: "True" }] };
    await core.replaceNamespacedPodStatus({ namespace: "ctl", name: "web-1", body: pod });
    const sliceIPs = async () =>
      (await discovery.listNamespacedEndpointSlice({ namespace: "ctl" })).items.flatMap((s) => s.endpoints.flatMap((e) => e.addresses));
    expect(await eventually(async () => (await sliceIPs()).includes("10.244.0.5"), { timeoutMs: 10_000 })).toBe(true);
    expect(
      await eventually(
        async () =>
          (await core.readNamespacedEndpoints({ namespace: "ctl", name: "web" }).catch(() => undefined))?.subsets?.[0]?.addresses?.[0]
            ?.ip === "10.244.0.5",
      ),
    ).toBe(true);
    await env.reset();
    expect(await slices()).toEqual(before);
  });

  it("trafficDistribution PreferClose: the EndpointSlice controller hints each endpoint for its Node's zone, through the API", async () => {
    const kc = new KubeConfig();
    kc.loadFromString(env.kubeconfig);
    const core = kc.makeApiClient(CoreV1Api);
    const discovery = kc.makeApiClient(DiscoveryV1Api);
    await core.createNamespace({ body: { metadata: { name: "zoned" } } });
    await core.createNode({ body: { metadata: { name: "zoned-node", labels: { "topology.kubernetes.io/zone": "zone-b" } } } });
    await core.createNamespacedService({
      namespace: "zoned",
      body: {
        metadata: { name: "web" },
        spec: { selector: { app: "web" }, ports: [{ port: 80, targetPort: 8080 }], trafficDistribution: "PreferClose" },
      },
    });
    await core.createNamespacedPod({
      namespace: "zoned",
      body: {
        metadata: { name: "web-1", labels: { app: "web" } },
        spec: { nodeName: "zoned-node", containers: [{ name: "c", image: "x" }] },
      },
    });
    const pod = await core.readNamespacedPod({ namespace: "zoned", name: "web-1" });
    pod.status = { phase: "Running", podIP: "10.244.1.5", podIPs: [{ ip: "10.244.1.5" }], conditions: [{ type: "Ready", status: "True" }] };
    await core.replaceNamespacedPodStatus({ namespace: "zoned", name: "web-1", body: pod });
    const endpoint = async () =>
      (await discovery.listNamespacedEndpointSlice({ namespace: "zoned" })).items
        .flatMap((s) => s.endpoints)
        .find((e) => e.addresses.includes("10.244.1.5"));
    expect(await eventually(async () => (await endpoint())?.hints?.forZones?.[0]?.name === "zone-b", { timeoutMs: 15_000 })).toBe(true);
    expect((await endpoint())?.zone).toBe("zone-b");
    await env.reset();
  });

  it("a deleted scheduled Pod stays Terminating: a terminating endpoint in its EndpointSlice, gone from Endpoints, until the delete with grace 0", async () => {
    const kc = new KubeConfig();
    kc.loadFromString(env.kubeconfig);
    const core = kc.makeApiClient(CoreV1Api);
    const discovery = kc.makeApiClient(DiscoveryV1Api);
    await core.createNamespace({ body: { metadata: { name: "term" } } });
    await core.createNode({ body: { metadata: { name: "node-a" } } });
    await core.createNamespacedService({
      namespace: "term",
      body: { metadata: { name: "web" }, spec: { selector: { app: "web" }, ports: [{ port: 80, targetPort: 8080 }] } },
    });
    await core.createNamespacedPod({
      namespace: "term",
      body: { metadata: { name: "web-1", labels: { app: "web" } }, spec: { nodeName: "node-a", containers: [{ name: "c", image: "x" }] } },
    });
    const pod = await core.readNamespacedPod({ namespace: "term", name: "web-1" });
    expect(pod.spec?.terminationGracePeriodSeconds).toBe(30);
    pod.status = { phase: "Running", podIP: "10.244.0.5", podIPs: [{ ip: "10.244.0.5" }], conditions: [{ type: "Ready", status: "True" }] };
    await core.replaceNamespacedPodStatus({ namespace: "term", name: "web-1", body: pod });
    const conditions = async () =>
      (await discovery.listNamespacedEndpointSlice({ namespace: "term" })).items.flatMap((s) => s.endpoints.map((e) => e.conditions));
    await eventually(async () => (await conditions())[0]?.ready === true || undefined, { timeoutMs: 10_000 });

    const deleted = await core.deleteNamespacedPod({ namespace: "term", name: "web-1" });
    expect(deleted.metadata?.deletionGracePeriodSeconds).toBe(30);
    expect((await core.readNamespacedPod({ namespace: "term", name: "web-1" })).metadata?.deletionTimestamp).toBeDefined();
    expect(
      await eventually(async () => ((await conditions())[0]?.terminating === true ? await conditions() : undefined), { timeoutMs: 10_000 }),
    ).toEqual([{ ready: false, serving: true, terminating: true }]);
    await eventually(
      async () => ((await core.readNamespacedEndpoints({ namespace: "term", name: "web" })).subsets ?? []).length === 0 || undefined,
      { timeoutMs: 10_000 },
    );

    await core.deleteNamespacedPod({ namespace: "term", name: "web-1", gracePeriodSeconds: 0 });
    await expect(core.readNamespacedPod({ namespace: "term", name: "web-1" })).rejects.toMatchObject({ code: 404 });
    await eventually(async () => (await conditions()).length === 0 || undefined, { timeoutMs: 10_000 });
    await core.deleteNode({ name: "node-a" });
    await env.reset();
  });
});
