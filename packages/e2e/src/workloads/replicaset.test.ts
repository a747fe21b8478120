/**
 * The ReplicaSet controller through real kubectl 1.33 (upstream's test/integration/replicaset
 * and the e2e "ReplicaSet should serve a basic image" flow): an in-process apiserver with the
 * controller-manager's replicaset, garbage-collector and node IPAM controllers, the scheduler and
 * 3 simulated Nodes, so Pods are created, bound, made Ready and terminated with no hand-written
 * status.
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

/** A ReplicaSet whose Pods stop at once when deleted (the simulated kubelet's stop-seconds). */
const replicaSet = (name: string, replicas: number) =>
  JSON.stringify({
    apiVersion: "apps/v1",
    kind: "ReplicaSet",
    metadata: { name },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name }, annotations: { "kubelet.servicenet.io/stop-seconds": "0" } },
        spec: { terminationGracePeriodSeconds: 1, containers: [{ name: "c", image: "nginx" }] },
      },
    },
  });

// The apiserver's generateName suffix: 5 characters of utilrand's alphabet.
const generatedName = (prefix: string) => new RegExp(`^${prefix}-[bcdfghjklmnpqrstvwxz2456789]{5}$`);

describe.skipIf(!haveKubectl())("ReplicaSet controller with kubectl 1.33", () => {
  let env: TestEnvironment;
  let core: CoreV1Api;
  let dir: string;
  const k = (...argv: string[]) => runKubectl(env.kubeconfigPath, dir, ["-n", "default", ...argv]);
  const kIn = (input: string, ...argv: string[]) => runKubectl(env.kubeconfigPath, dir, ["-n", "default", ...argv], input);
  /** The live (not terminating) Pods of `app`. */
  const livePods = async (app: string): Promise<V1Pod[]> =>
    (await core.listNamespacedPod({ namespace: "default", labelSelector: `app=${app}` })).items.filter(
      (p) => p.metadata?.deletionTimestamp === undefined,
    );
  const allPods = async (app: string) => (await core.listNamespacedPod({ namespace: "default", labelSelector: `app=${app}` })).items;
  const rsRow = async (name: string) => (await k("get", "rs", name, "--no-headers")).stdout.trim().split(/\s+/).slice(0, 4).join(" ");

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "e2e-replicaset-"));
    env = await startTestEnvironment({
      controllers: [
        testEnvironmentControllers(["replicaset", "garbagecollector", "nodeipam", "node-lifecycle-controller"], {
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

  it("creates 3 owned Pods that turn Ready, scales down by the ranking, replaces a deleted Pod, and cascades on delete", async () => {
    expect(await kIn(replicaSet("web", 3), "create", "-f", "-")).toMatchObject({ code: 0, stdout: "replicaset.apps/web created\n" });
    const rs = JSON.parse((await k("get", "rs", "web", "-o", "json")).stdout) as { metadata: { uid: string } };
    const pods = await eventually(async () => ((await livePods("web")).length === 3 ? livePods("web") : undefined), { timeoutMs: 60_000 });
    for (const p of pods) {
      expect(p.metadata?.name).toMatch(generatedName("web"));
      expect(p.metadata?.ownerReferences).toEqual([
        { apiVersion: "apps/v1", kind: "ReplicaSet", name: "web", uid: rs.metadata.uid, controller: true, blockOwnerDeletion: true },
      ]);
    }
    // The simulated kubelet makes them Ready; the status follows (DESIRED CURRENT READY).
    await eventually(async () => (await rsRow("web")) === "web 3 3 3", { timeoutMs: 60_000, what: "kubectl get rs: web 3 3 3" });
    const status = JSON.parse((await k("get", "rs", "web", "-o", "jsonpath={.status}")).stdout) as Record<string, unknown>;
    expect(status).toEqual({ replicas: 3, fullyLabeledReplicas: 3, readyReplicas: 3, availableReplicas: 3, observedGeneration: 1 });
    // Events are written by the controller's broadcaster in the background (as client-go's), so
    // the last one may land after the status: wait for all three.
    const want = pods.map((p) => `SuccessfulCreate Created pod: ${p.metadata?.name}`).sort();
    const readEvents = async () =>
      (
        await k(
          "get",
          "events",
          "--field-selector",
          "involvedObject.name=web",
          "-o",
          "jsonpath={range .items[*]}{.reason} {.message}{'\\n'}{end}",
        )
      ).stdout
        .trim()
        .split("\n")
        .sort();
    await eventually(async () => ((await readEvents()).length >= want.length ? true : undefined), {
      timeoutMs: 60_000,
      what: "3 SuccessfulCreate events",
    });
    expect(await readEvents()).toEqual(want);

    // Scale down to 1: the Pod with the highest deletion cost is the one that stays.
    const keep = pods[1]!.metadata!.name!;
    expect((await k("annotate", "pod", keep, "controller.kubernetes.io/pod-deletion-cost=100")).code).toBe(0);
    expect(await k("scale", "rs", "web", "--replicas=1")).toMatchObject({ code: 0, stdout: "replicaset.apps/web scaled\n" });
    await eventually(async () => (await allPods("web")).length === 1, { timeoutMs: 60_000, what: "two Pods deleted" });
    expect((await livePods("web")).map((p) => p.metadata?.name)).toEqual([keep]);
    await eventually(async () => (await rsRow("web")) === "web 1 1 1", { timeoutMs: 60_000, what: "kubectl get rs: web 1 1 1" });

    // A deleted Pod is replaced as soon as it is terminating.
    expect((await k("delete", "pod", keep, "--wait=false")).code).toBe(0);
    const replacement = await eventually(async () => (await livePods("web")).find((p) => p.metadata?.name !== keep), {
      timeoutMs: 60_000,
      what: "a replacement Pod",
    });
    expect(replacement.metadata?.name).toMatch(generatedName("web"));
    await eventually(async () => (await rsRow("web")) === "web 1 1 1", { timeoutMs: 60_000, what: "the replacement Ready" });

    // Background deletion: kubectl returns, the garbage collector deletes the Pods afterwards.
    expect(await k("delete", "rs", "web")).toMatchObject({ code: 0, stdout: 'replicaset.apps "web" deleted\n' });
    await eventually(async () => (await allPods("web")).length === 0, { timeoutMs: 60_000, what: "web's Pods collected" });
  }, 240_000);

  it("adopts a matching orphan, and deletes in the foreground only after its Pods are gone", async () => {
    await core.createNamespacedPod({
      namespace: "default",
      body: {
        metadata: { name: "orphan", labels: { app: "fg" }, annotations: { "kubelet.servicenet.io/stop-seconds": "0" } },
        spec: { terminationGracePeriodSeconds: 1, containers: [{ name: "c", image: "nginx" }] },
      },
    });
    expect((await kIn(replicaSet("fg", 2), "create", "-f", "-")).code).toBe(0);
    await eventually(async () => (await rsRow("fg")) === "fg 2 2 2", { timeoutMs: 60_000, what: "kubectl get rs: fg 2 2 2" });
    const orphan = await core.readNamespacedPod({ namespace: "default", name: "orphan" });
    expect(orphan.metadata?.ownerReferences?.map((r) => `${r.kind}/${r.name} ${r.controller} ${r.blockOwnerDeletion}`)).toEqual([
      "ReplicaSet/fg true true",
    ]);
    expect((await livePods("fg")).length).toBe(2);
    // Foreground: kubectl waits until the ReplicaSet is gone, which is after its Pods are.
    expect(await k("delete", "rs", "fg", "--cascade=foreground")).toMatchObject({ code: 0, stdout: 'replicaset.apps "fg" deleted\n' });
    expect(await allPods("fg")).toEqual([]);
  }, 240_000);
});
