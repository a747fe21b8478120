/**
 * The Deployment controller through real kubectl 1.33 (upstream test/e2e/apps/deployment.go's
 * flows): an in-process apiserver (`@servicenet/apiserver/envtest`) and controller-manager's
 * `deployment` controller over HTTP. No ReplicaSet controller runs: the test writes each
 * ReplicaSet's status as it would (all replicas ready at once), as upstream's unit tests do.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { AppsV1Api, KubeConfig, PatchStrategy, setHeaderOptions, type V1ReplicaSet } from "@kubernetes/client-node";
import { startTestEnvironment, type TestEnvironment } from "@servicenet/apiserver/envtest";
import { testEnvironmentControllers } from "@servicenet/controller-manager";
import { eventually, findKubectl } from "@servicenet/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const kubectlBinary = findKubectl("1.33", { warnAs: "Deployment controller (real kubectl)" });
const run = promisify(execFile);

let env: TestEnvironment;
let apps: AppsV1Api;

beforeAll(async () => {
  if (kubectlBinary === null) return;
  env = await startTestEnvironment({ controllers: testEnvironmentControllers(["deployment"]) });
  const kc = new KubeConfig();
  kc.loadFromString(env.kubeconfig);
  apps = kc.makeApiClient(AppsV1Api);
});
afterAll(() => env?.stop());

const kubectl = async (...args: string[]): Promise<string> =>
  (await run(kubectlBinary!, ["--kubeconfig", env.kubeconfigPath, "-n", "deploy", ...args], { timeout: 120_000 })).stdout;

const replicaSets = async (): Promise<V1ReplicaSet[]> =>
  (await apps.listNamespacedReplicaSet({ namespace: "deploy" })).items.sort((a, b) =>
    (a.metadata?.name ?? "").localeCompare(b.metadata?.name ?? ""),
  );
const rev = (rs: V1ReplicaSet) => rs.metadata?.annotations?.["deployment.kubernetes.io/revision"];
const image = (rs: V1ReplicaSet) => rs.spec?.template?.spec?.containers[0]?.image;

/**
 * Plays the ReplicaSet controller until stopped: every ReplicaSet's status follows its spec (all
 * Pods ready and available at once). Records the most Pods (spec replicas summed) ever asked for
 * and the fewest available while a rollout was under way.
 */
function fakeReplicaSetController(): { stop(): Promise<void>; maxTotal: number; minAvailable: number } {
  const state = { maxTotal: 0, minAvailable: Number.MAX_SAFE_INTEGER, stopped: false, stop: async () => undefined as void };
  const merge = setHeaderOptions("Content-Type", PatchStrategy.MergePatch);
  const loop = (async () => {
    while (!state.stopped) {
      const rss = await replicaSets();
      state.maxTotal = Math.max(
        state.maxTotal,
        rss.reduce((n, r) => n + (r.spec?.replicas ?? 0), 0),
      );
      state.minAvailable = Math.min(
        state.minAvailable,
        rss.reduce((n, r) => n + (r.status?.availableReplicas ?? 0), 0),
      );
      for (const r of rss) {
        const want = r.spec?.replicas ?? 0;
        if (r.status?.replicas === want && r.status.observedGeneration === r.metadata?.generation && r.status.availableReplicas === want)
          continue;
        const status = {
          replicas: want,
          fullyLabeledReplicas: want,
          readyReplicas: want,
          availableReplicas: want,
          observedGeneration: r.metadata?.generation,
        };
        await apps
          .patchNamespacedReplicaSetStatus({ namespace: "deploy", name: r.metadata?.name ?? "", body: { status } }, merge)
          .catch(() => undefined);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  state.stop = async () => {
    state.stopped = true;
    await loop;
  };
  return state;
}

describe.skipIf(kubectlBinary === null)("Deployment controller with kubectl 1.33", () => {
  it("create, rolling update within maxSurge/maxUnavailable, rollout status/history/undo, scale, describe, pause/restart/resume", async () => {
    await run(kubectlBinary!, ["--kubeconfig", env.kubeconfigPath, "create", "namespace", "deploy"]).catch(() => undefined);
    await kubectl("create", "deployment", "web", "--image=nginx", "--replicas=3");

    // A ReplicaSet web-<hash> with the pod-template-hash in its name, selector and template.
    const [first] = await eventually(async () => ((await replicaSets()).length === 1 ? replicaSets() : undefined), {
      what: "first ReplicaSet",
    });
    const hash = first!.metadata?.labels?.["pod-template-hash"] ?? "";
    expect(first!.metadata?.name).toBe(`web-${hash}`);
    expect(first!.spec?.replicas).toBe(3);
    expect(first!.spec?.selector?.matchLabels).toEqual({ app: "web", "pod-template-hash": hash });
    expect(first!.metadata?.annotations).toMatchObject({
      "deployment.kubernetes.io/revision": "1",
      "deployment.kubernetes.io/desired-replicas": "3",
      "deployment.kubernetes.io/max-replicas": "4",
    });
    expect(first!.metadata?.ownerReferences?.[0]).toMatchObject({
      kind: "Deployment",
      name: "web",
      controller: true,
      blockOwnerDeletion: true,
    });

    const rsc = fakeReplicaSetController();
    try {
      expect(await kubectl("rollout", "status", "deployment/web", "--timeout=60s")).toContain('deployment "web" successfully rolled out');

      // A new template: a second ReplicaSet, rolled over within maxSurge 1 / maxUnavailable 0 (25% of 3).
      rsc.minAvailable = 3;
      await kubectl("set", "image", "deployment/web", "nginx=nginx:1.27");
      expect(await kubectl("rollout", "status", "deployment/web", "--timeout=60s")).toContain('deployment "web" successfully rolled out');
      expect(rsc.maxTotal).toBeLessThanOrEqual(4);
      expect(rsc.minAvailable).toBeGreaterThanOrEqual(3);
      let rss = await replicaSets();
      expect(rss.map((r) => [image(r), r.spec?.replicas, rev(r)]).sort()).toEqual([
        ["nginx", 0, "1"],
        ["nginx:1.27", 3, "2"],
      ]);

      // Undo: revision 1's ReplicaSet comes back as revision 3.
      await kubectl("rollout", "undo", "deployment/web");
      expect(await kubectl("rollout", "status", "deployment/web", "--timeout=60s")).toContain('deployment "web" successfully rolled out');
      rss = await replicaSets();
      expect(rss.map((r) => [image(r), r.spec?.replicas, rev(r)]).sort()).toEqual([
        ["nginx", 3, "3"],
        ["nginx:1.27", 0, "2"],
      ]);
      expect(rss.find((r) => image(r) === "nginx")?.metadata?.annotations?.["deployment.kubernetes.io/revision-history"]).toBe("1");
      const history = await kubectl("rollout", "history", "deployment/web");
      expect(history).toMatch(/REVISION\s+CHANGE-CAUSE\n2\s+<none>\n3\s+<none>/);

      // Scale: the active ReplicaSet follows, with its annotations.
      await kubectl("scale", "deployment/web", "--replicas=5");
      const scaled = await eventually(async () => (await replicaSets()).find((r) => image(r) === "nginx" && r.spec?.replicas === 5), {
        what: "scaled ReplicaSet",
      });
      expect(scaled.metadata?.annotations?.["deployment.kubernetes.io/desired-replicas"]).toBe("5");
      expect(await kubectl("rollout", "status", "deployment/web", "--timeout=60s")).toContain("successfully rolled out");

      const describe = await kubectl("describe", "deployment", "web");
      expect(describe).toMatch(/^Replicas:\s+5 desired \| 5 updated \| 5 total \| 5 available \| 0 unavailable$/m);
      expect(describe).toMatch(/^StrategyType:\s+RollingUpdate$/m);
      expect(describe).toMatch(/^RollingUpdateStrategy:\s+25% max unavailable, 25% max surge$/m);
      expect(describe).toMatch(/^\s+Progressing\s+True\s+NewReplicaSetAvailable$/m);
      expect(describe).toMatch(/^NewReplicaSet:\s+web-\w+ \(5\/5 replicas created\)$/m);
      expect(describe).toContain(`Scaled up replica set web-${hash} from 0 to 3`);

      // Paused: a template change makes no ReplicaSet until resumed; then a restart is one more revision.
      await kubectl("rollout", "pause", "deployment/web");
      await kubectl("set", "env", "deployment/web", "MODE=blue");
      await eventually(
        async () =>
          (await apps.readNamespacedDeployment({ namespace: "deploy", name: "web" })).status?.conditions?.find(
            (c) => c.reason === "DeploymentPaused",
          ),
        { what: "DeploymentPaused" },
      );
      expect(await replicaSets()).toHaveLength(2);
      await kubectl("rollout", "resume", "deployment/web");
      expect(await kubectl("rollout", "status", "deployment/web", "--timeout=60s")).toContain("successfully rolled out");
      await kubectl("rollout", "restart", "deployment/web");
      expect(await kubectl("rollout", "status", "deployment/web", "--timeout=60s")).toContain("successfully rolled out");
      rss = await replicaSets();
      expect(rss.map((r) => [r.spec?.replicas, rev(r)]).sort()).toEqual([
        [0, "2"],
        [0, "3"],
        [0, "4"],
        [5, "5"],
      ]);
      expect(rss.find((r) => rev(r) === "5")?.spec?.template?.metadata?.annotations?.["kubectl.kubernetes.io/restartedAt"]).toBeDefined();
    } finally {
      await rsc.stop();
    }
  });
});
