/**
 * What a cluster does when a Node stops heartbeating: envtest with the controller-manager's node
 * lifecycle, taint-eviction, node IPAM and EndpointSlice controllers, the scheduler and 2 simulated
 * Nodes (Leases renewed every second, a 5 s --node-monitor-grace-period). A Pod that tolerates an
 * unreachable Node for 2 s turns Ready behind its Service; then its Node's kubelet stops: the Node
 * turns Unknown ("Kubelet stopped posting node status."), is tainted unreachable, the Pod's endpoint
 * turns not ready, and 2 s after the taint the taint-eviction controller marks the Pod
 * DisruptionTarget and deletes it.
 */
import { CoreV1Api, DiscoveryV1Api, KubeConfig } from "@kubernetes/client-node";
import { startTestEnvironment, type TestEnvironment } from "@servicenet/apiserver/envtest";
import { testEnvironmentControllers } from "@servicenet/controller-manager";
import { testEnvironmentKubelet, type RunningKubelet } from "@servicenet/kubelet";
import { testEnvironmentScheduler } from "@servicenet/scheduler";
import { eventually } from "@servicenet/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

describe("a Node that stops heartbeating (node lifecycle controller)", () => {
  let env: TestEnvironment;
  let kubelet: RunningKubelet | undefined;
  beforeAll(async () => {
    env = await startTestEnvironment({
      controllers: [
        testEnvironmentControllers(["endpointslice", "nodeipam", "node-lifecycle-controller", "taint-eviction-controller"], {
          clusterCIDR: "10.244.0.0/16",
          nodeLifecycle: { nodeMonitorPeriodMs: 1000, nodeMonitorGracePeriodMs: 5000 },
        }),
        testEnvironmentScheduler(),
        testEnvironmentKubelet({ nodes: 2, leaseRenewIntervalMs: 1000, onReady: (k) => (kubelet = k) }),
      ],
    });
  }, 60_000);
  afterAll(() => env?.stop());

  it("turns the Node Unknown, taints it unreachable, its Pod's endpoint not ready, and evicts the Pod", async () => {
    const kc = new KubeConfig();
    kc.loadFromString(env.kubeconfig);
    const core = kc.makeApiClient(CoreV1Api);
    const discovery = kc.makeApiClient(DiscoveryV1Api);
    await core.createNamespacedService({
      namespace: "default",
      body: { metadata: { name: "hb" }, spec: { selector: { app: "hb" }, ports: [{ port: 80, targetPort: 8080 }] } },
    });
    await core.createNamespacedPod({
      namespace: "default",
      body: {
        metadata: { name: "hb-1", labels: { app: "hb" } },
        spec: {
          containers: [{ name: "c", image: "nginx" }],
          // Short, so the eviction comes soon (DefaultTolerationSeconds would give 300 s).
          tolerations: [{ key: "node.kubernetes.io/unreachable", operator: "Exists", effect: "NoExecute", tolerationSeconds: 2 }],
        },
      },
    });
    const endpoint = async () => {
      const l = await discovery.listNamespacedEndpointSlice({ namespace: "default", labelSelector: "kubernetes.io/service-name=hb" });
      return l.items.flatMap((s) => s.endpoints)[0];
    };
    // The TaintNodesByCondition taint is gone once the controller saw the Nodes Ready: the Pod is scheduled.
    const ready = await eventually(async () => ((await endpoint())?.conditions?.ready === true ? endpoint() : undefined), {
      timeoutMs: 30_000,
    });
    const nodeName = ready?.nodeName ?? "";
    expect(nodeName).toMatch(/^node-\d$/);
    kubelet?.stopNode(nodeName);

    const node = await eventually(
      async () => {
        const n = await core.readNode({ name: nodeName });
        return n.status?.conditions?.find((c) => c.type === "Ready")?.status === "Unknown" ? n : undefined;
      },
      { timeoutMs: 30_000 },
    );
    expect(node.status?.conditions?.find((c) => c.type === "Ready")).toMatchObject({
      reason: "NodeStatusUnknown",
      message: "Kubelet stopped posting node status.",
    });
    const gone = await eventually(async () => ((await endpoint())?.conditions?.ready === false ? endpoint() : undefined), {
      timeoutMs: 30_000,
    });
    expect(gone?.conditions).toMatchObject({ ready: false, serving: false });
    const pod = await core.readNamespacedPod({ namespace: "default", name: "hb-1" });
    expect(pod.status?.conditions?.find((c) => c.type === "Ready")?.status).toBe("False");
    const taints = await eventually(
      async () => {
        const t = ((await core.readNode({ name: nodeName })).spec?.taints ?? []).map((x) => `${x.key}:${x.effect}`).sort();
        return t.length === 2 ? t : undefined;
      },
      { timeoutMs: 30_000 },
    );
    expect(taints).toEqual(["node.kubernetes.io/unreachable:NoExecute", "node.kubernetes.io/unreachable:NoSchedule"]);
    // tolerationSeconds after the NoExecute taint, the taint-eviction controller evicts the Pod: the
    // DisruptionTarget condition first, then a graceful delete the stopped kubelet never finishes.
    const evicted = await eventually(
      async () => {
        const p = await core.readNamespacedPod({ namespace: "default", name: "hb-1" });
        return p.metadata?.deletionTimestamp !== undefined ? p : undefined;
      },
      { timeoutMs: 30_000 },
    );
    expect(evicted.status?.conditions?.find((c) => c.type === "DisruptionTarget")).toMatchObject({
      status: "True",
      reason: "DeletionByTaintManager",
      message: "Taint manager: deleting due to NoExecute taint",
    });
    const tainted = Date.parse(
      String((await core.readNode({ name: nodeName })).spec?.taints?.find((t) => t.effect === "NoExecute")?.timeAdded),
    );
    // Deleted (deletionTimestamp less the grace period) no sooner than the toleration allowed; the times are whole seconds.
    const deletedAt = Date.parse(String(evicted.metadata?.deletionTimestamp)) - (evicted.metadata?.deletionGracePeriodSeconds ?? 0) * 1000;
    expect(deletedAt - tainted).toBeGreaterThanOrEqual(1000);
    const event = await eventually(
      async () =>
        (await core.listNamespacedEvent({ namespace: "default" })).items.find(
          (e) => e.reason === "TaintManagerEviction" && e.involvedObject.name === "hb-1",
        ),
      { timeoutMs: 30_000 },
    );
    expect(event).toMatchObject({
      type: "Normal",
      message: "Marking for deletion Pod default/hb-1",
      source: { component: "taint-eviction-controller" },
    });
    // The other Node stays Ready and untainted.
    const other = (await core.listNode()).items.find((n) => n.metadata?.name !== nodeName);
    expect(other?.status?.conditions?.find((c) => c.type === "Ready")?.status).toBe("True");
    expect(other?.spec?.taints ?? []).toEqual([]);
  }, 90_000);
});
