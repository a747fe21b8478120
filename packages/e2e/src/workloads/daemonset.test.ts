/**
 * The DaemonSet controller through real kubectl 1.33 (upstream's test/e2e/apps/daemon_set.go
 * "should run and stop simple daemon", "should run and stop complex daemon", "should update pod
 * when spec was updated and update strategy is RollingUpdate"): an in-process apiserver with the
 * controller-manager's daemonset, garbage-collector, node IPAM and node lifecycle controllers, the
 * scheduler and 3 simulated Nodes.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CoreV1Api, KubeConfig, type V1Pod } from "@kubernetes/client-node";
import { startTestEnvironment, type TestEnvironment } from "@servicenet/apiserver/envtest";
import { testEnvironmentControllers } from "@servicenet/controller-manager";
import { testEnvironmentKubelet } from "@servicenet/kubelet";
import { testEnvironmentScheduler } from "@servicenet/scheduler";
import { eventually } from "@servicenet/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { haveKubectl, runKubectl } from "../kubectl/runners.ts";

const daemonSet = (name: string, spec: Record<string, unknown> = {}) =>
  JSON.stringify({
    apiVersion: "apps/v1",
    kind: "DaemonSet",
    metadata: { name },
    spec: {
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name }, annotations: { "kubelet.servicenet.io/stop-seconds": "0" } },
        spec: { terminationGracePeriodSeconds: 1, containers: [{ name: "c", image: "nginx" }], ...spec },
      },
    },
  });

describe.skipIf(!haveKubectl())("DaemonSet controller with kubectl 1.33", () => {
  let env: TestEnvironment;
  let core: CoreV1Api;
  let dir: string;
  const k = (...argv: string[]) => runKubectl(env.kubeconfigPath, dir, ["-n", "default", ...argv]);
  const kIn = (input: string, ...argv: string[]) => runKubectl(env.kubeconfigPath, dir, ["-n", "default", ...argv], input);
  const livePods = async (app: string): Promise<V1Pod[]> =>
    (await core.listNamespacedPod({ namespace: "default", labelSelector: `app=${app}` })).items.filter(
      (p) => p.metadata?.deletionTimestamp === undefined,
    );
  const dsRow = async (name: string) => (await k("get", "ds", name, "--no-headers")).stdout.trim().split(/\s+/).slice(0, 7).join(" ");

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "e2e-daemonset-"));
    env = await startTestEnvironment({
      controllers: [
        testEnvironmentControllers(["daemonset", "garbagecollector", "nodeipam", "node-lifecycle-controller"], {
          clusterCIDR: "10.244.0.0/16",
        }),
        testEnvironmentScheduler(),
        testEnvironmentKubelet({ nodes: 3 }),
      ],
    });
    const kc = new KubeConfig();
    kc.loadFromString(env.kubeconfig);
    core = kc.makeApiClient(CoreV1Api);
  }, 120_000);
  afterAll(async () => {
    await env?.stop();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  it("runs one Pod per Node, pinned by node affinity with the daemon tolerations, rolls out an update, and follows node labels", async () => {
    expect(await kIn(daemonSet("agent"), "create", "-f", "-")).toMatchObject({ code: 0, stdout: "daemonset.apps/agent created\n" });
    expect(await k("rollout", "status", "ds/agent", "--timeout=90s")).toMatchObject({
      code: 0,
      stdout: expect.stringContaining('daemon set "agent" successfully rolled out') as unknown,
    });
    const pods = await livePods("agent");
    const nodes = pods.map((p) => p.spec?.nodeName).sort();
    expect(nodes).toEqual(["node-0", "node-1", "node-2"]);
    for (const p of pods) {
      expect(p.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms).toEqual([
        { matchFields: [{ key: "metadata.name", operator: "In", values: [p.spec?.nodeName] }] },
      ]);
      expect(p.spec?.tolerations?.map((t) => `${t.key}:${t.operator}:${t.effect}`)).toEqual([
        "node.kubernetes.io/not-ready:Exists:NoExecute",
        "node.kubernetes.io/unreachable:Exists:NoExecute",
        "node.kubernetes.io/disk-pressure:Exists:NoSchedule",
        "node.kubernetes.io/memory-pressure:Exists:NoSchedule",
        "node.kubernetes.io/pid-pressure:Exists:NoSchedule",
        "node.kubernetes.io/unschedulable:Exists:NoSchedule",
      ]);
      expect(p.metadata?.labels).toMatchObject({
        app: "agent",
        "pod-template-generation": "1",
        "controller-revision-hash": expect.any(String) as unknown,
      });
    }
    await eventually(async () => ((await dsRow("agent")) === "agent 3 3 3 3 3 <none>" ? true : undefined), {
      timeoutMs: 30_000,
      what: "agent 3 3 3 3 3",
    });

    // A new image: replaced one Node at a time (maxUnavailable 1).
    expect((await k("set", "image", "ds/agent", "c=nginx:1.27")).code).toBe(0);
    expect((await k("rollout", "status", "ds/agent", "--timeout=120s")).stdout).toContain('daemon set "agent" successfully rolled out');
    await eventually(
      async () => {
        const now = await livePods("agent");
        return now.length === 3 &&
          now.every((p) => p.spec?.containers[0]?.image === "nginx:1.27" && p.metadata?.labels?.["pod-template-generation"] === "2")
          ? true
          : undefined;
      },
      { timeoutMs: 60_000, what: "3 Pods at nginx:1.27" },
    );
    expect((await k("rollout", "history", "ds/agent")).stdout).toMatch(/\n1\s+<none>\n2\s+<none>\n/);

    // A nodeSelector: only labelled Nodes run it; labelling a Node adds a Pod, unlabelling removes it.
    expect((await kIn(daemonSet("picky", { nodeSelector: { role: "edge" } }), "create", "-f", "-")).code).toBe(0);
    await eventually(async () => ((await dsRow("picky")) === "picky 0 0 0 0 0 role=edge" ? true : undefined), {
      timeoutMs: 30_000,
      what: "picky 0",
    });
    expect((await k("label", "node", "node-1", "role=edge")).code).toBe(0);
    await eventually(async () => ((await livePods("picky")).map((p) => p.spec?.nodeName).join() === "node-1" ? true : undefined), {
      timeoutMs: 60_000,
      what: "a picky Pod on node-1",
    });
    expect((await k("label", "node", "node-1", "role-")).code).toBe(0);
    await eventually(async () => ((await livePods("picky")).length === 0 ? true : undefined), {
      timeoutMs: 60_000,
      what: "picky Pod removed",
    });

    expect((await k("delete", "ds", "agent", "picky")).code).toBe(0);
    await eventually(async () => ((await livePods("agent")).length === 0 ? true : undefined), {
      timeoutMs: 60_000,
      what: "agent's Pods collected",
    });
  }, 300_000);
});
