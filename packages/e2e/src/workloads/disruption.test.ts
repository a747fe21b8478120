/**
 * `kubectl drain` against PodDisruptionBudgets (upstream test/e2e/apps/disruption.go and
 * test/integration/evictions): an in-process apiserver with the deployment, replicaset and
 * disruption controllers, the scheduler and 3 simulated Nodes. Real kubectl 1.33 creates the
 * budget, drains two Nodes while the budget allows one disruption at a time (evictions refused
 * with 429 are retried until the replacement Pod is Ready), and stops at the budget when none is
 * allowed.
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

/** A Deployment whose Pods stop at once when deleted (the simulated kubelet's stop-seconds). */
const deployment = JSON.stringify({
  apiVersion: "apps/v1",
  kind: "Deployment",
  metadata: { name: "web" },
  spec: {
    replicas: 3,
    selector: { matchLabels: { app: "web" } },
    template: {
      metadata: { labels: { app: "web" }, annotations: { "kubelet.servicenet.io/stop-seconds": "0" } },
      spec: { terminationGracePeriodSeconds: 1, containers: [{ name: "c", image: "nginx" }] },
    },
  },
});

const ready = (p: V1Pod) => p.status?.conditions?.some((c) => c.type === "Ready" && c.status === "True") === true;

describe.skipIf(!haveKubectl())("PodDisruptionBudgets and kubectl drain with kubectl 1.33", () => {
  let env: TestEnvironment;
  let core: CoreV1Api;
  let dir: string;
  const k = (...argv: string[]) => runKubectl(env.kubeconfigPath, dir, ["-n", "default", ...argv]);
  const kIn = (input: string, ...argv: string[]) => runKubectl(env.kubeconfigPath, dir, ["-n", "default", ...argv], input);
  const livePods = async (): Promise<V1Pod[]> =>
    (await core.listNamespacedPod({ namespace: "default", labelSelector: "app=web" })).items.filter(
      (p) => p.metadata?.deletionTimestamp === undefined,
    );
  const allowed = async () => (await k("get", "pdb", "web", "-o", "jsonpath={.status.disruptionsAllowed}")).stdout;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "e2e-disruption-"));
    env = await startTestEnvironment({
      controllers: [
        testEnvironmentControllers(
          ["deployment", "replicaset", "disruption", "garbagecollector", "nodeipam", "node-lifecycle-controller"],
          {
            clusterCIDR: "10.244.0.0/16",
          },
        ),
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

  it("create pdb, get and describe it, drain two Nodes one disruption at a time, and stop at a budget that allows none", async () => {
    expect(await kIn(deployment, "create", "-f", "-")).toMatchObject({ code: 0, stdout: "deployment.apps/web created\n" });
    await eventually(async () => ((await livePods()).filter(ready).length === 3 ? true : undefined), {
      timeoutMs: 60_000,
      what: "3 Ready Pods",
    });

    expect(await k("create", "pdb", "web", "--selector=app=web", "--min-available=2")).toMatchObject({
      code: 0,
      stdout: "poddisruptionbudget.policy/web created\n",
    });
    await eventually(async () => ((await allowed()) === "1" ? true : undefined), { timeoutMs: 30_000, what: "1 allowed disruption" });
    const row = (await k("get", "pdb")).stdout.split("\n");
    expect(row[0]).toMatch(/^NAME\s+MIN AVAILABLE\s+MAX UNAVAILABLE\s+ALLOWED DISRUPTIONS\s+AGE$/);
    expect(row[1]).toMatch(/^web\s+2\s+N\/A\s+1\s+\d+s$/);
    const status = JSON.parse((await k("get", "pdb", "web", "-o", "jsonpath={.status}")).stdout) as Record<string, unknown>;
    expect(status).toMatchObject({ currentHealthy: 3, desiredHealthy: 2, expectedPods: 3, disruptionsAllowed: 1, observedGeneration: 1 });
    expect(status["conditions"]).toEqual([
      expect.objectContaining({ type: "DisruptionAllowed", status: "True", reason: "SufficientPods", message: "", observedGeneration: 1 }),
    ]);
    const described = (await k("describe", "pdb", "web")).stdout;
    expect(described).toMatch(/^Min available:\s+2$/m);
    expect(described).toMatch(/^Selector:\s+app=web$/m);
    expect(described).toMatch(/^\s+Allowed disruptions:\s+1$/m);
    expect(described).toMatch(/^\s+Current:\s+3$/m);

    // Drain two of the three Nodes: every Pod ends up on the third, never more than one down.
    const nodes = (await core.listNode()).items.map((n) => n.metadata?.name ?? "").sort();
    const [a, b, c] = nodes as [string, string, string];
    const drained = await runKubectl(env.kubeconfigPath, dir, [
      "drain",
      a,
      b,
      "--ignore-daemonsets",
      "--delete-emptydir-data",
      "--timeout=120s",
    ]);
    expect(drained.code, drained.stderr).toBe(0);
    expect(drained.stdout).toContain(`node/${a} cordoned`);
    expect(drained.stdout).toContain(`node/${b} drained`);
    for (const line of drained.stderr.split("\n").filter((l) => l.startsWith("error when evicting")))
      expect(line).toMatch(
        /^error when evicting pods\/"web-[^"]+" -n "default" \(will retry after 5s\): Cannot evict pod as it would violate the pod's disruption budget\.$/,
      );
    await eventually(
      async () => {
        const pods = await livePods();
        return pods.length === 3 && pods.every((p) => p.spec?.nodeName === c && ready(p)) ? true : undefined;
      },
      { timeoutMs: 60_000, what: `3 Ready Pods on ${c}` },
    );
    await eventually(async () => ((await allowed()) === "1" ? true : undefined), { timeoutMs: 30_000, what: "1 allowed disruption again" });

    // A budget that allows no disruption: the eviction is refused (429) and retried until the timeout.
    expect((await k("patch", "pdb", "web", "--type=merge", "-p", '{"spec":{"minAvailable":3}}')).code).toBe(0);
    await eventually(async () => ((await allowed()) === "0" ? true : undefined), { timeoutMs: 30_000, what: "0 allowed disruptions" });
    const blocked = await runKubectl(env.kubeconfigPath, dir, ["drain", c, "--ignore-daemonsets", "--timeout=7s"]);
    expect(blocked.code).not.toBe(0);
    expect(blocked.stderr).toMatch(
      /error when evicting pods\/"web-[^"]+" -n "default" \(will retry after 5s\): Cannot evict pod as it would violate the pod's disruption budget\./,
    );
    expect((await livePods()).length).toBe(3);
  });
});
