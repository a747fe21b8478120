/**
 * `@servicenet/apiserver/envtest` with the whole cluster in the test's process (over HTTP): the
 * controller-manager's node IPAM and EndpointSlice controllers, the scheduler and 3 simulated
 * Nodes. A bare Pod is bound, gets one IP per family in the Node's podCIDRs order and turns Ready,
 * and its Service gets a ready endpoint of each family, with no status written by the test. A Pod
 * no Node fits waits as unschedulable until a Node changes.
 */
import { CoreV1Api, DiscoveryV1Api, KubeConfig, PatchStrategy, setHeaderOptions } from "@kubernetes/client-node";
import { startTestEnvironment, type TestEnvironment } from "@servicenet/apiserver/envtest";
import { testEnvironmentControllers } from "@servicenet/controller-manager";
import { testEnvironmentKubelet } from "@servicenet/kubelet";
import { testEnvironmentScheduler } from "@servicenet/scheduler";
import { eventually } from "@servicenet/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

describe("envtest with the whole cluster", () => {
  let env: TestEnvironment;
  beforeAll(async () => {
    env = await startTestEnvironment({
      controllers: [
        testEnvironmentControllers(["endpointslice", "nodeipam", "node-lifecycle-controller"], {
          clusterCIDR: "fd00:10:244::/56,10.244.0.0/16",
        }),
        testEnvironmentScheduler(),
        testEnvironmentKubelet({ nodes: 3 }),
      ],
    });
  });
  afterAll(() => env?.stop());

  it("schedules a Pod, gives it IPs from its Node's podCIDRs (primary first) and makes it Ready", async () => {
    const kc = new KubeConfig();
    kc.loadFromString(env.kubeconfig);
    const core = kc.makeApiClient(CoreV1Api);
    const discovery = kc.makeApiClient(DiscoveryV1Api);
    await core.createNamespacedService({
      namespace: "default",
      body: {
        metadata: { name: "web" },
        spec: { ipFamilyPolicy: "PreferDualStack", selector: { app: "web" }, ports: [{ port: 80, targetPort: 8080 }] },
      },
    });
    await core.createNamespacedPod({
      namespace: "default",
      body: { metadata: { name: "web-1", labels: { app: "web" } }, spec: { containers: [{ name: "c", image: "nginx" }] } },
    });
    const pod = await eventually(
      async () => {
        const p = await core.readNamespacedPod({ namespace: "default", name: "web-1" });
        return p.status?.conditions?.some((c) => c.type === "Ready" && c.status === "True") ? p : undefined;
      },
      { timeoutMs: 30_000 },
    );
    expect(pod.spec?.nodeName).toMatch(/^node-\d$/);
    const ips = (pod.status?.podIPs ?? []).map((p) => p.ip);
    expect(ips).toEqual([expect.stringMatching(/^fd00:10:244:/), expect.stringMatching(/^10\.244\./)]);
    expect(pod.status?.podIP).toBe(ips[0]);
    const slices = await eventually(
      async () => {
        const l = await discovery.listNamespacedEndpointSlice({ namespace: "default", labelSelector: "kubernetes.io/service-name=web" });
        const ready = l.items.filter((s) => s.endpoints.some((e) => e.conditions?.ready === true));
        return ready.length === 2 ? ready : undefined;
      },
      { timeoutMs: 30_000 },
    );
    expect(slices.map((s) => `${s.addressType} ${s.endpoints[0]?.addresses[0]}`).sort()).toEqual([`IPv4 ${ips[1]}`, `IPv6 ${ips[0]}`]);
  });

  it("keeps a Pod no Node fits unschedulable and binds it once a Node gets the label it selects", async () => {
    const kc = new KubeConfig();
    kc.loadFromString(env.kubeconfig);
    const core = kc.makeApiClient(CoreV1Api);
    await core.createNamespacedPod({
      namespace: "default",
      body: { metadata: { name: "ssd-1" }, spec: { nodeSelector: { disk: "ssd" }, containers: [{ name: "c", image: "nginx" }] } },
    });
    const scheduled = await eventually(
      async () => {
        const p = await core.readNamespacedPod({ namespace: "default", name: "ssd-1" });
        return p.status?.conditions?.find((c) => c.type === "PodScheduled");
      },
      { timeoutMs: 30_000 },
    );
    expect(scheduled).toMatchObject({ status: "False", reason: "Unschedulable" });
    expect(scheduled.message).toMatch(/^0\/3 nodes are available: 3 node\(s\) didn't match Pod's node affinity\/selector\./);
    await core.patchNode(
      { name: "node-1", body: { metadata: { labels: { disk: "ssd" } } } },
      setHeaderOptions("Content-Type", PatchStrategy.MergePatch),
    );
    const bound = await eventually(
      async () => {
        const p = await core.readNamespacedPod({ namespace: "default", name: "ssd-1" });
        return p.spec?.nodeName;
      },
      { timeoutMs: 30_000 },
    );
    expect(bound).toBe("node-1");
  });
});
