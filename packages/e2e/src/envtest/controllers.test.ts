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
});
